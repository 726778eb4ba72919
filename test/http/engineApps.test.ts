/**
 * Whole apps from the real Splice DARs, uploaded with POST /v2/dars and driven through the JSON
 * Ledger API over a socket (fetch), every answer checked against the spec: the test token v1
 * registry and wallets, the test token v2's holdings through both Holding interfaces, and the
 * test trading app settling with test-token allocations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIXED_SUBMISSION } from '../../reference-server/src/ledger/engine/engineCommandOf.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { createdIn, JsonApiClient } from '../engineApps/JsonApiClient.js';
import { darBytes, TOKEN_V1_DAR, TOKEN_V2_DAR, TRADING_APP_DAR } from '../engineApps/realDars.js';
import { BY_NAME, decimal, NO_CONTEXT, runTokenV1Flow } from '../engineApps/tokenV1Flow.js';
import { runTokenV2Holdings, runTokenV2Transfer } from '../engineApps/tokenV2Flow.js';
import { runTradingAppFlow } from '../engineApps/tradingAppFlow.js';
import { startServer, type TestServer } from './support/startServer.js';

let server: TestServer;
let api: JsonApiClient;
beforeAll(async () => {
  server = await startServer();
  api = await new JsonApiClient(server.url).connect();
  if (!HAS_DARS) return;
  await api.uploadDar(darBytes(TOKEN_V1_DAR));
  await api.uploadDar(darBytes(TRADING_APP_DAR));
  await api.uploadDar(darBytes(TOKEN_V2_DAR));
});
afterAll(() => server.close());

describe.runIf(HAS_DARS)('real Splice DARs through the JSON Ledger API (needs ../shared/upstream/daml/dars)', () => {
  it('test token v1: mint, transfers accepted, rejected and withdrawn through the disclosed factory; wallets list holdings', async () => {
    const end = await runTokenV1Flow(api);
    expect(end).toEqual({
      alice: [decimal('1'), decimal('4'), decimal('10'), decimal('45')].map((amount) => ({ amount, locked: false, entity: 'Token' })),
      bob: [{ amount: decimal('40'), locked: false, entity: 'Token' }],
    });
    expect(server.errors).toEqual([]);
  });

  it('a built-in contract exercised by the same #name interface id stays with the built-in model, and the two never mix in one submission', async () => {
    const dso = await api.party('dso-by-name');
    await api.must([dso], [{ CreateCommand: { templateId: '#splice-amulet:Splice.AmuletRules:AmuletRules', createArguments: { dso, isDevNet: true } } }]);
    const [factory] = createdIn(await api.must([dso], [{ CreateCommand: { templateId: '#splice-amulet:Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules', createArguments: { dso } } }]));
    const transfer = { sender: dso, receiver: dso, amount: '1.00000000001', instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: '2025-01-01T00:00:00Z', executeBefore: '2099-01-01T00:00:00Z', inputHoldingCids: [], meta: { values: {} } };
    const r = await api.submit([dso], [{ ExerciseCommand: { templateId: BY_NAME.transferFactory, contractId: factory!.contractId, choice: 'TransferFactory_Transfer', choiceArgument: { expectedAdmin: dso, transfer, extraArgs: NO_CONTEXT } } }]);
    // The built-in model's own refusal (the engine words a misfit value differently).
    expect([r.status, r.body.code, r.body.cause]).toEqual([400, 'COMMAND_PREPROCESSING_FAILED', "Invalid argument for choice TransferFactory_Transfer at choiceArgument.transfer.amount: Numeric '1.00000000001' has more than 10 decimal places"]);
    // One submission on a built-in and an uploaded factory by the same #name id mixes the two interpreters, in either order.
    const [rules] = createdIn(await api.must([dso], [{ CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules', createArguments: { admin: dso } } }]));
    const publicFetch = (contractId: string) => ({ ExerciseCommand: { templateId: BY_NAME.transferFactory, contractId, choice: 'TransferFactory_PublicFetch', choiceArgument: { expectedAdmin: dso, actor: dso } } });
    for (const commands of [[publicFetch(factory!.contractId), publicFetch(rules!.contractId)], [publicFetch(rules!.contractId), publicFetch(factory!.contractId)]]) {
      const mixed = await api.submit([dso], commands);
      expect([mixed.status, mixed.body.code, mixed.body.cause]).toEqual([400, 'COMMAND_PREPROCESSING_FAILED', MIXED_SUBMISSION]);
    }
  });

  it('test token v2: a token of an account, listed through the Holding v2 interface and, downcast, through v1', async () => {
    await runTokenV2Holdings(api);
  });

  it('test token v2: a transfer offered through the v2 TransferFactory and accepted through the v2 TransferInstruction', async () => {
    await runTokenV2Transfer(api);
    expect(server.errors).toEqual([]);
  });

  it('test trading app: propose, accept, initiate settlement, allocate each leg with the test token, settle', async () => {
    const end = await runTradingAppFlow(api);
    expect(end.holdings).toEqual({
      alice: [{ amount: decimal('20'), locked: false, entity: 'Token' }, { amount: decimal('90'), locked: false, entity: 'Token' }],
      bob: [{ amount: decimal('10'), locked: false, entity: 'Token' }, { amount: decimal('80'), locked: false, entity: 'Token' }],
    });
    expect(server.errors).toEqual([]);
  });
});
