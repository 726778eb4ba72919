/**
 * The test tokens' registries through the msw handlers (createHandlers({ spliceDars }) with
 * splice-test-token-v1 in the folder): the same routes as the server, answered through fetch,
 * and the same seeded ids after every reset().
 */
import type { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockLedgerApi } from '../../reference-server/src/msw/index.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { startSpliceDarsMock } from './support/spliceDarsMock.js';

const URL_ = 'http://splice-test-tokens.test';

describe.skipIf(!HAS_DARS)('the test tokens\' registries through createHandlers({ spliceDars }) (needs ../shared/upstream/daml/dars)', () => {
  let mock: MockLedgerApi;
  let server: ReturnType<typeof setupServer>;
  beforeAll(() => {
    ({ mock, server } = startSpliceDarsMock(URL_, ['splice-amulet-0.1.22.dar', 'splice-test-token-v1-1.0.0.dar']));
  }, 120_000);
  afterAll(() => server.close());

  it('serves /registries/test-token-v1 (and no v2 token, whose DAR is not in the folder), the same after reset()', async () => {
    const world = mock.spliceWorld!;
    const token = world.testTokens.v1!;
    expect(world.testTokens.v2).toBeUndefined();
    const info = await fetch(`${URL_}/registries/test-token-v1/registry/metadata/v1/info`);
    expect([info.status, ((await info.json()) as { adminId: string }).adminId]).toEqual([200, token.admin]);
    const v2 = await fetch(`${URL_}/registries/test-token-v2/registry/metadata/v1/info`);
    expect(v2.status).toBe(404);
    const { alice, carol } = world.parties;
    const now = Date.parse('2025-01-01T00:00:00Z');
    const args = {
      expectedAdmin: token.admin,
      transfer: { sender: alice, receiver: carol, amount: '1.0', instrumentId: { admin: token.admin, id: token.instrumentId }, requestedAt: new Date(now).toISOString(), executeBefore: new Date(now + 3_600_000).toISOString(), inputHoldingCids: [token.holdings.alice], meta: { values: {} } },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const res = await fetch(`${URL_}/registries/test-token-v1/registry/transfer-instruction/v1/transfer-factory`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ choiceArguments: args, excludeDebugFields: true }) });
    const text = await res.clone().text();
    expect(res.status, text).toBe(200);
    expect(((await res.json()) as { factoryId: string }).factoryId).toBe(token.rules);
    mock.reset();
    expect(mock.spliceWorld!.testTokens).toEqual(world.testTokens);
  });
});
