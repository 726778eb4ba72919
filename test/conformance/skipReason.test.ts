import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from '../../conformance/src/checks/types.js';
import type { Profile } from '../../conformance/src/runner/profile.js';
import { skipReason } from '../../conformance/src/runner/skipReason.js';

const check = (group: CheckDefinition['group'], groups?: CheckDefinition['group'][]): CheckDefinition => ({
  id: `${group}.t.x`, title: 't', group, operationId: 'op', level: 'MUST', kind: 'example', specRef: 's',
  ...(groups ? { requires: { groups } } : {}),
  run: () => Promise.resolve(),
} as CheckDefinition);

describe('skipReason: the groups a profile does not serve', () => {
  const registryOnly: Profile = { name: 'registry', groups: ['registry'], writes: false };

  it('names one missing group', () => {
    expect(skipReason(check('scan'), registryOnly)).toBe("profile 'registry' does not serve the scan group");
  });

  // doctor counts skips by reason: 'ledger and scan' and 'scan and ledger' were two lines for one cause.
  it('names several in one order, whatever order the check lists them in', () => {
    const a = skipReason(check('registry', ['registry', 'scan', 'ledger']), registryOnly);
    const b = skipReason(check('scan', ['ledger', 'scan']), registryOnly);
    expect(a).toBe("profile 'registry' does not serve the ledger and scan groups");
    expect(b).toBe(a);
  });

  it('is undefined for a check the profile serves', () => {
    expect(skipReason(check('registry'), registryOnly)).toBeUndefined();
  });
});
