/**
 * The test token v2 (splice-test-token-v2: a v2 token standard registry with accounts) seen
 * through both Holding interfaces: a Token signed by its account parties and the admin answers
 * the v2 view as stored and the v1 view downcast from it (owner = the account's owner, the
 * account id kept in the metadata as CIP-112's `downcast` writes it), as a v1
 * wallet and a v2 wallet each list it. The DAR must be on the ledger already.
 */
import { expect } from 'vitest';
import { createdIn, type JsonApiClient } from './JsonApiClient.js';
import { packageIdIn, TOKEN_V2_DAR } from './realDars.js';
import { decimal } from './tokenV1Flow.js';

export const TOKEN_V2 = '#splice-test-token-v2:Splice.Testing.Tokens.TestTokenV2.Holding:Token';
const EMPTY_META = { values: {} };

export async function runTokenV2Holdings(api: JsonApiClient): Promise<void> {
  const holdingV1 = `${packageIdIn(TOKEN_V2_DAR, 'splice-api-token-holding-v1')}:Splice.Api.Token.HoldingV1:Holding`;
  const holdingV2 = `${packageIdIn(TOKEN_V2_DAR, 'splice-api-token-holding-v2')}:Splice.Api.Token.HoldingV2:Holding`;
  const [alice, admin] = [await api.party('alice-v2'), await api.party('admin-v2')];
  const holding = { account: { owner: alice, provider: null, id: 'main' }, instrumentId: { admin, id: 'TEST2' }, amount: '12.5', lock: null, meta: EMPTY_META };
  const [token] = createdIn(await api.must([alice, admin], [{ CreateCommand: { templateId: TOKEN_V2, createArguments: { holding } } }]));
  expect(token!.signatories).toEqual([alice, admin].sort());
  // ensure: holdings of regular accounts only (an owner).
  const noOwner = await api.submit([alice, admin], [{ CreateCommand: { templateId: TOKEN_V2, createArguments: { holding: { ...holding, account: { owner: null, provider: null, id: 'x' } } } } }]);
  expect([noOwner.status, noOwner.body.code]).toEqual([400, 'UNHANDLED_EXCEPTION']);
  expect(noOwner.body.cause).toContain('PreconditionFailed');

  const [v2] = await api.byInterface(alice, holdingV2);
  expect(v2!.contractId).toBe(token!.contractId);
  expect(v2!.interfaceViews).toEqual([{ interfaceId: holdingV2, viewStatus: { code: 0, message: '' }, viewValue: { ...holding, amount: decimal('12.5') } }]);
  const [v1] = await api.byInterface(alice, holdingV1);
  expect(v1!.contractId).toBe(token!.contractId);
  expect(v1!.interfaceViews).toEqual([{ interfaceId: holdingV1, viewStatus: { code: 0, message: '' }, viewValue: { owner: alice, instrumentId: { admin, id: 'TEST2' }, amount: decimal('12.5'), lock: null, meta: { values: { 'cip-112/account.id': 'main' } } } }]);
}
