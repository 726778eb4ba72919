/**
 * The same whole-app flows as test/http/engineApps.test.ts, through the msw handlers: the real
 * DARs given to createHandlers({ dars }), and the same fetch client a client team's unit test
 * would use. The end states must equal the reference server's.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { JsonApiClient } from '../engineApps/JsonApiClient.js';
import { darBytes, TOKEN_V1_DAR, TOKEN_V2_DAR, TRADING_APP_DAR } from '../engineApps/realDars.js';
import { decimal, runTokenV1Flow } from '../engineApps/tokenV1Flow.js';
import { AMULET_TEST_DAR, runSplitwellPaymentFlow, SPLITWELL_DAR, uploadAmuletTestDar } from '../engineApps/splitwellPaymentFlow.js';
import { runTokenV2Holdings, runTokenV2Transfer } from '../engineApps/tokenV2Flow.js';
import { runTradingAppFlow } from '../engineApps/tradingAppFlow.js';

const URL_ = 'http://engine-apps.test';

describe.runIf(HAS_DARS)('real Splice DARs through the msw handlers (needs ../shared/upstream/daml/dars)', () => {
  const mock = HAS_DARS ? createHandlers({ ledgerUrl: URL_, dars: [darBytes(TOKEN_V1_DAR), darBytes(TRADING_APP_DAR), darBytes(SPLITWELL_DAR), darBytes(TOKEN_V2_DAR)], log: silentLogger }) : undefined;
  const server = setupServer(...(mock?.handlers ?? []));
  const unhandled: string[] = [];
  server.events.on('request:unhandled', ({ request }) => void unhandled.push(`${request.method} ${request.url}`));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => expect(unhandled.splice(0)).toEqual([]));
  afterAll(() => server.close());

  it('test token v1: the same transfers and the same holdings at the end', async () => {
    const api = await new JsonApiClient(URL_).connect();
    expect(await runTokenV1Flow(api)).toEqual({
      alice: [decimal('1'), decimal('4'), decimal('10'), decimal('45')].map((amount) => ({ amount, locked: false, entity: 'Token' })),
      bob: [{ amount: decimal('40'), locked: false, entity: 'Token' }],
    });
  });

  it('test token v2: the same views through Holding v2 and v1', async () => {
    await runTokenV2Holdings(await new JsonApiClient(URL_).connect());
  });

  it('test token v2: the same transfer through the v2 TransferFactory and TransferInstruction', async () => {
    await runTokenV2Transfer(await new JsonApiClient(URL_).connect());
  });

  it('test trading app: the same settlement, after reset() too (the DARs stay loaded)', async () => {
    const expected = {
      alice: [{ amount: decimal('20'), locked: false, entity: 'Token' }, { amount: decimal('90'), locked: false, entity: 'Token' }],
      bob: [{ amount: decimal('10'), locked: false, entity: 'Token' }, { amount: decimal('80'), locked: false, entity: 'Token' }],
    };
    expect((await runTradingAppFlow(await new JsonApiClient(URL_).connect())).holdings).toEqual(expected);
    mock!.reset();
    expect((await runTradingAppFlow(await new JsonApiClient(URL_).connect())).holdings).toEqual(expected);
  });

  it('splitwell: a payment in Amulet, accepted from the wallet and completed by the provider', async () => {
    const api = await new JsonApiClient(URL_).connect();
    await uploadAmuletTestDar(api, darBytes(AMULET_TEST_DAR));
    await runSplitwellPaymentFlow(api, mock!.ledger);
  });
});
