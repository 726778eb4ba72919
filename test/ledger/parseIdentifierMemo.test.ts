import { describe, expect, it } from 'vitest';
import { timeMicros } from '../../reference-server/src/apps/time.js';
import { microsOfTimestamp } from '../../reference-server/src/ledger/rfc3339.js';
import { parseIdentifier } from '../../reference-server/src/ledger/templates/Catalogue.js';

// parseIdentifier and timeMicros remember their answers: asked twice, they answer as the first time.
describe('remembered parses', () => {
  it('parseIdentifier answers the same, shared and frozen, and keeps refusing a malformed id', () => {
    const id = '#splice-amulet:Splice.Amulet:Amulet';
    const first = parseIdentifier(id);
    expect(first).toEqual({ pkg: 'splice-amulet', byName: true, module: 'Splice.Amulet', entity: 'Amulet' });
    expect(parseIdentifier(id)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    for (const bad of ['#bad name:M:E', 'abc:M:E', 'a:b', `${'0'.repeat(64)}:M:1E`]) {
      expect(parseIdentifier(bad)).toBeUndefined();
      expect(parseIdentifier(bad)).toBeUndefined();
    }
    expect(parseIdentifier(`${'a'.repeat(64)}:M.N:E`)).toEqual({ pkg: 'a'.repeat(64), byName: false, module: 'M.N', entity: 'E' });
  });

  it('timeMicros answers as the ledger parser does, malformed stays undefined', () => {
    for (const t of ['2025-01-01T00:00:00Z', '2025-01-01T00:00:00.123456Z', '2025-02-30T00:00:00Z', 'T24:00:00', '0000-01-01T00:00:00Z']) {
      expect(timeMicros(t)).toBe(microsOfTimestamp(t));
      expect(timeMicros(t)).toBe(microsOfTimestamp(t));
    }
    expect(timeMicros('2025-01-01T00:00:01Z')).toBe(1735689601000000n);
  });
});
