import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadProfile, parseProfile, ProfileError, profilesDir } from '../../conformance/src/runner/profile.js';

const env = {
  CC_USER_ID: 'alice-user',
  CC_PARTY: 'alice::1220' + 'a'.repeat(64),
  CC_TEMPLATE_ID: '#pkg:Mod:Asset',
  CC_ALLOCATION_INSTRUCTION_ID: '00' + 'b'.repeat(64),
  CC_PREAPPROVAL_PARTY: 'bob::1220' + 'c'.repeat(64),
};

describe('target profiles', () => {
  it('every built-in profile loads and is valid', () => {
    const names = readdirSync(profilesDir()).filter((f) => f.endsWith('.yaml')).map((f) => f.replace(/\.yaml$/, ''));
    expect(names.sort()).toEqual(['participant', 'reference', 'reference-secured', 'registry', 'scan-readonly']);
    for (const n of names) expect(loadProfile(n, env).name).toBe(n);
  });

  it('expands ${VAR}, falls back with ${VAR:-x}, and leaves out fields whose default is empty', () => {
    const p = loadProfile('scan-readonly', env);
    expect(p.scan).toEqual({ preapprovalParty: env.CC_PREAPPROVAL_PARTY });
    const r = loadProfile('registry', { ...env, CC_ARCHIVED_ALLOCATION_INSTRUCTION_ID: '00dead' });
    expect(r.registry).toEqual({ allocationInstructionId: env.CC_ALLOCATION_INSTRUCTION_ID, archivedAllocationInstructionId: '00dead', apis: ['allocation-instruction-v2'] });
  });

  it('the registry profile fits a registry without allocation instructions (Amulet): the APIs come from CC_REGISTRY_APIS, comma-separated', () => {
    const amulet = loadProfile('registry', { CC_REGISTRY_APIS: 'metadata-v1, transfer-instruction-v1,allocation-v1', CC_TRANSFER_INSTRUCTION_ID: '00' + 'd'.repeat(64) });
    expect(amulet.registry).toEqual({ apis: ['metadata-v1', 'transfer-instruction-v1', 'allocation-v1'], transferInstructionId: '00' + 'd'.repeat(64) });
    expect(() => loadProfile('registry', { CC_REGISTRY_APIS: 'transfer-instruction-v3' })).toThrow(/\/registry\/apis\/0 must be equal to one of the allowed values/);
  });

  it('a required variable that is not set is a clear error', () => {
    expect(() => loadProfile('participant', {})).toThrow(/\/ledger\/userId uses \$\{CC_USER_ID\}, which is not set/);
  });

  it('unknown fields and wrong types are errors naming the place', () => {
    expect(() => parseProfile({ name: 'x', groups: ['ledger'], writes: false, ledger: { partee: 'a' } }, 'p.yaml')).toThrow(ProfileError);
    expect(() => parseProfile({ name: 'x', groups: ['ledger'], writes: false, ledger: { partee: 'a' } }, 'p.yaml')).toThrow(/\/ledger must NOT have additional properties 'partee'/);
    expect(() => parseProfile({ name: 'x', groups: ['ledgers'], writes: 'yes' }, 'p.yaml')).toThrow(/\/groups\/0 must be equal to one of the allowed values[\s\S]*\/writes must be boolean/);
  });

  it('resolves a signing key file relative to the profile', () => {
    const p = parseProfile({ name: 'x', groups: ['ledger'], writes: false, auth: { required: true, signing: { alg: 'ES256', privateKeyFile: 'keys/k.pem' } } }, '/etc/cc/p.yaml');
    expect(p.auth?.signing?.privateKeyFile).toBe('/etc/cc/keys/k.pem');
  });
});
