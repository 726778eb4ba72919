/**
 * Splitwell paying with Amulet from the real DARs (test/engineApps/splitwellPaymentFlow.ts),
 * uploaded with POST /v2/dars and driven over a socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { JsonApiClient } from '../engineApps/JsonApiClient.js';
import { darBytes } from '../engineApps/realDars.js';
import { AMULET_TEST_DAR, runSplitwellPaymentFlow, SPLITWELL_DAR, uploadAmuletTestDar } from '../engineApps/splitwellPaymentFlow.js';
import { startServer, type TestServer } from './support/startServer.js';

let server: TestServer;
let api: JsonApiClient;
beforeAll(async () => {
  server = await startServer();
  api = await new JsonApiClient(server.url).connect();
  if (!HAS_DARS) return;
  await api.uploadDar(darBytes(SPLITWELL_DAR));
  await uploadAmuletTestDar(api, darBytes(AMULET_TEST_DAR));
});
afterAll(() => server.close());

describe.runIf(HAS_DARS)('splitwell payments with Amulet through the JSON API (needs ../shared/upstream/daml/dars)', () => {
  it('enter a payment, initiate a transfer, accept it with amulets, complete it: the receiver is paid and the balance moves', async () => {
    await runSplitwellPaymentFlow(api, server.ledger);
    expect(server.errors).toEqual([]);
  });
});
