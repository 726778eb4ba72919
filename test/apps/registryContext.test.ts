import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { acceptPath, expectError, postJson, startWorldServer, withdrawPath, type AppServer } from './support/appServer.js';

let server: AppServer;
let world: AppWorld;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
});
afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

const ids = () => world.registry.instructions;

describe('POST .../choice-contexts/accept', () => {
  it('names the rules and the account map in the context and discloses both, with debug fields', async () => {
    const res = await postJson(server, acceptPath(ids().aliceActive), {});
    expect(res.status).toBe(200);
    expect(res.body.choiceContextData).toEqual({
      values: {
        'token-rules': { tag: 'AV_ContractId', value: world.registry.tokenRules },
        'account-map': { tag: 'AV_ContractId', value: world.registry.accountMap },
      },
    });
    const disclosed = res.body.disclosedContracts as Record<string, unknown>[];
    expect(disclosed.map((d) => d.contractId)).toEqual([world.registry.tokenRules, world.registry.accountMap]);
    for (const d of disclosed) {
      expect(Object.keys(d).sort()).toEqual(['contractId', 'createdEventBlob', 'debugCreatedAt', 'debugPackageName', 'debugPayload', 'synchronizerId', 'templateId']);
      expect(d.debugPackageName).toBe('canton-conformance-sample-token');
      expect(d.synchronizerId).toMatch(/^global-synchronizer::/);
      expect(d.createdEventBlob).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    }
    expect(disclosed[0]?.templateId).toMatch(/^[0-9a-f]{64}:Sample\.Token\.Rules:TokenRules$/);
    expect(disclosed[0]?.debugPayload).toEqual({ admin: world.parties['registry-admin'], instrumentId: 'SAMPLE' });
    expect(disclosed[1]?.debugPayload).toEqual({ admin: world.parties['registry-admin'], accounts: [world.parties.alice, world.parties.bob] });
    expect(disclosed[0]?.debugCreatedAt).toBe('2025-01-01T00:00:00.000000Z');
  });

  it('leaves out every debug* field with excludeDebugFields: true, and keeps them when false', async () => {
    const without = await postJson(server, acceptPath(ids().aliceActive), { excludeDebugFields: true });
    expect(without.status).toBe(200);
    for (const d of without.body.disclosedContracts as Record<string, unknown>[]) {
      expect(Object.keys(d).filter((k) => k.startsWith('debug'))).toEqual([]);
      expect(Object.keys(d).sort()).toEqual(['contractId', 'createdEventBlob', 'synchronizerId', 'templateId']);
    }
    const withFalse = await postJson(server, acceptPath(ids().aliceActive), { excludeDebugFields: false });
    const withAbsent = await postJson(server, acceptPath(ids().aliceActive), {});
    expect(withFalse.body).toEqual(withAbsent.body);
    expect((withFalse.body.disclosedContracts as Record<string, unknown>[])[0]).toHaveProperty('debugPayload');
    // Apart from the debug fields the two answers are the same.
    const strip = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).filter(([k]) => !k.startsWith('debug')));
    expect((withFalse.body.disclosedContracts as Record<string, unknown>[]).map(strip)).toEqual(without.body.disclosedContracts);
  });

  it('gives the same answer to the same request (contexts can be prefetched)', async () => {
    const body = { meta: { 'wallet/request': 'r-1' }, excludeDebugFields: false };
    const first = await postJson(server, acceptPath(ids().aliceActive), body);
    const second = await postJson(server, acceptPath(ids().aliceActive), body);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
  });

  it('folds meta into the context as request-meta, keys sorted, whatever order they came in', async () => {
    const a = await postJson(server, acceptPath(ids().bobActive), { meta: { zeta: 'last', alpha: 'first', 'splice.lfdecentralizedtrust.org/reason': 'rent' } });
    const b = await postJson(server, acceptPath(ids().bobActive), { meta: { 'splice.lfdecentralizedtrust.org/reason': 'rent', alpha: 'first', zeta: 'last' } });
    expect(a.status).toBe(200);
    expect(a.text).toBe(b.text);
    const meta = a.body.choiceContextData.values['request-meta'];
    expect(meta.tag).toBe('AV_Map');
    expect(Object.keys(meta.value)).toEqual(['alpha', 'splice.lfdecentralizedtrust.org/reason', 'zeta']);
    expect(meta.value.alpha).toEqual({ tag: 'AV_Text', value: 'first' });
    // Empty meta adds nothing: the context is the one without meta.
    const none = await postJson(server, acceptPath(ids().bobActive), { meta: {} });
    expect(Object.keys(none.body.choiceContextData.values)).toEqual(['token-rules', 'account-map']);
  });

  it('ignores members the request schema does not name', async () => {
    const res = await postJson(server, acceptPath(ids().aliceActive), { excludeDebugFields: true, choiceArguments: { anything: 1 } });
    expect(res.status).toBe(200);
  });

  it('answers 404 for an unknown contract id', async () => {
    const unknown = '00' + 'ab'.repeat(32);
    expectError(await postJson(server, acceptPath(unknown), {}), 404, `AllocationInstruction '${unknown}' not found.`);
  });

  it('answers 404 for an archived (withdrawn) instruction', async () => {
    expectError(await postJson(server, acceptPath(ids().aliceWithdrawn), {}), 404, /not found: it has been archived/);
  });

  it('answers 404 for a contract that is not an allocation instruction', async () => {
    expectError(await postJson(server, acceptPath(world.registry.tokenRules), {}), 404, /not found: the contract is a Sample\.Token\.Rules:TokenRules, not an allocation instruction/);
    expectError(await postJson(server, acceptPath(world.preapprovals.alice), {}), 404, /TransferPreapproval, not an allocation instruction/);
  });

  it('answers 409 while a contract to disclose is being reassigned', async () => {
    const res = await postJson(server, acceptPath(ids().carolInFlight), {});
    expectError(res, 409, `Contract '${world.registry.accountMapInFlight}' is being reassigned between synchronizers; retry once it is assigned.`);
  });

  it('answers 400 for a malformed instruction id', async () => {
    for (const bad of ['not-a-contract', '00abc', 'XYZ', '11' + 'ab'.repeat(32), '00' + 'AB'.repeat(32)]) {
      expectError(await postJson(server, acceptPath(encodeURIComponent(bad)), {}), 400, /^Invalid allocationInstructionId '.*': expected a contract id/);
    }
  });

  it.each([
    ['a body that is not an object', '[]', /must be object/],
    ['a string body', '"x"', /^Invalid value for: body/],
    ['null', 'null', /must be object/],
    ['meta values that are not strings', '{"meta":{"a":1}}', /must be string at '\/meta\/a'/],
    ['meta that is a list', '{"meta":["a"]}', /must be object at '\/meta'/],
    ['excludeDebugFields that is not a boolean', '{"excludeDebugFields":"yes"}', /must be boolean at '\/excludeDebugFields'/],
    ['malformed JSON', '{"meta":', /Invalid value for: body/],
    ['no body at all', '', /missing request body/],
  ])('answers 400 for %s, saying what is wrong', async (_what, body, message) => {
    const res = await postJson(server, acceptPath(ids().aliceActive), body, true);
    expectError(res, 400, message);
  });
});

describe('POST .../choice-contexts/withdraw', () => {
  it('names and discloses the rules only, in the same shapes', async () => {
    const res = await postJson(server, withdrawPath(ids().aliceActive), { excludeDebugFields: true });
    expect(res.status).toBe(200);
    expect(res.body.choiceContextData).toEqual({ values: { 'token-rules': { tag: 'AV_ContractId', value: world.registry.tokenRules } } });
    expect((res.body.disclosedContracts as { contractId: string }[]).map((d) => d.contractId)).toEqual([world.registry.tokenRules]);
  });

  it('does not need the account map, so an instruction whose map is in flight can be withdrawn', async () => {
    expect((await postJson(server, withdrawPath(ids().carolInFlight), {})).status).toBe(200);
  });

  it('answers 404, 400 like accept', async () => {
    expectError(await postJson(server, withdrawPath(ids().aliceWithdrawn), {}), 404, /not found/);
    expectError(await postJson(server, withdrawPath('nope'), {}), 400, /Invalid allocationInstructionId/);
    expectError(await postJson(server, withdrawPath(ids().aliceActive), '{"meta":{"k":false}}', true), 400, /must be string/);
  });
});
