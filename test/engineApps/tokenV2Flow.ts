/**
 * The test token v2 (splice-test-token-v2: a v2 token standard registry with accounts) seen
 * through both Holding interfaces: a Token signed by its account parties and the admin answers
 * the v2 view as stored and the v1 view downcast from it (owner = the account's owner, the
 * account id kept in the metadata as CIP-112's `downcast` writes it), as a v1
 * wallet and a v2 wallet each list it; and a v2 transfer between two accounts, offered and
 * accepted through the v2 token standard. The DAR must be on the ledger already.
 */
import { expect } from 'vitest';
import { createdIn, disclose, entityOf, exercisedIn, type JsonApiClient } from './JsonApiClient.js';
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

export const TOKEN_RULES_V2 = '#splice-test-token-v2:Splice.Testing.Tokens.TestTokenV2:TokenRules';
/** The v2 interfaces by package name, as a v2 wallet names them. */
const TRANSFER_FACTORY_V2 = '#splice-api-token-transfer-instruction-v2:Splice.Api.Token.TransferInstructionV2:TransferFactory';
const TRANSFER_INSTRUCTION_V2 = '#splice-api-token-transfer-instruction-v2:Splice.Api.Token.TransferInstructionV2:TransferInstruction';

/**
 * A v2 transfer between two self-custodial accounts (no provider: the token's basic account
 * configuration, the owner initiates and approves): the sender's wallet calls the v2
 * TransferFactory_Transfer on the disclosed TokenRules, which locks the amount and leaves a
 * pending instruction; the receiver accepts it through the v2 TransferInstruction. The choice
 * context names the TokenRules (`testTokenV2/tokenRules`), where both steps log the v2 holdings
 * events, as the registry's choice-context endpoint would hand it out.
 */
export async function runTokenV2Transfer(api: JsonApiClient): Promise<void> {
  const holdingV2 = `${packageIdIn(TOKEN_V2_DAR, 'splice-api-token-holding-v2')}:Splice.Api.Token.HoldingV2:Holding`;
  const instructionV2 = `${packageIdIn(TOKEN_V2_DAR, 'splice-api-token-transfer-instruction-v2')}:Splice.Api.Token.TransferInstructionV2:TransferInstruction`;
  const [alice, bob, admin] = [await api.party('alice-v2-transfer'), await api.party('bob-v2-transfer'), await api.party('admin-v2-transfer')];
  const account = (owner: string) => ({ owner, provider: null, id: 'main' });
  const instrumentId = { admin, id: 'TEST2' };
  const [rules] = createdIn(await api.must([admin], [{ CreateCommand: { templateId: TOKEN_RULES_V2, createArguments: { admin } } }]));
  const holding = { account: account(alice), instrumentId, amount: '100.0', lock: null, meta: EMPTY_META };
  const [minted] = createdIn(await api.must([alice, admin], [{ CreateCommand: { templateId: TOKEN_V2, createArguments: { holding } } }]));
  const extraArgs = { context: { values: { 'testTokenV2/tokenRules': { tag: 'AV_ContractId', value: rules!.contractId } } }, meta: EMPTY_META };
  const rulesDisclosed = [disclose(rules!, api.synchronizerId)];

  const transfer = {
    sender: account(alice), receiver: account(bob), amount: '40.0', instrumentId,
    requestedAt: '2000-01-01T00:00:00Z', executeBefore: '9000-01-01T00:00:00Z', inputHoldingCids: [minted!.contractId], meta: EMPTY_META,
  };
  const offered = await api.must([alice], [{ ExerciseCommand: { templateId: TRANSFER_FACTORY_V2, contractId: rules!.contractId, choice: 'TransferFactory_Transfer', choiceArgument: { transfer, actors: [alice], extraArgs } } }], rulesDisclosed);
  const made = createdIn(offered);
  const tokens = made.filter((c) => entityOf(c.templateId) === 'Splice.Testing.Tokens.TestTokenV2.Holding:Token');
  const offer = made.find((c) => entityOf(c.templateId) === 'Splice.Testing.Tokens.TestTokenV2.Transfer:TokenTransferOffer')!;
  const change = tokens.find((c) => (c.createArgument as { holding: { lock: unknown } }).holding.lock === null)!;
  expect(change.createArgument).toMatchObject({ holding: { account: account(alice), amount: decimal('60') } });
  const locked = tokens.find((c) => c !== change)!;
  expect(locked.createArgument).toMatchObject({ holding: { account: account(alice), amount: decimal('40'), lock: { holders: [admin, alice], expiresAt: '9000-01-01T00:00:00Z' } } });
  expect(exercisedIn(offered)[0]!.exerciseResult).toEqual({
    output: { tag: 'TransferInstructionResult_Pending', value: { transferInstructionCid: offer.contractId } },
    senderChangeCids: [change.contractId],
    meta: EMPTY_META,
  });
  // The pending instruction as Bob's v2 wallet lists it: he may accept or reject, Alice may withdraw.
  const [pending] = await api.byInterface(bob, instructionV2);
  expect(pending!.contractId).toBe(offer.contractId);
  expect(pending!.interfaceViews![0]!.viewValue).toMatchObject({ transfer: { ...transfer, amount: decimal('40'), inputHoldingCids: [locked.contractId] }, expiresAt: '9000-01-01T00:00:00Z' });

  // Bob sees neither the rules nor Alice's locked token: the registry discloses both with the choice context.
  const accepted = await api.must([bob], [{ ExerciseCommand: { templateId: TRANSFER_INSTRUCTION_V2, contractId: offer.contractId, choice: 'TransferInstruction_Accept', choiceArgument: { actors: [bob], extraArgs } } }], [...rulesDisclosed, disclose(locked, api.synchronizerId)]);
  const root = exercisedIn(accepted)[0]!;
  expect(root).toMatchObject({ contractId: offer.contractId, interfaceId: instructionV2, choice: 'TransferInstruction_Accept', actingParties: [bob] });
  const received = createdIn(accepted).find((c) => entityOf(c.templateId) === 'Splice.Testing.Tokens.TestTokenV2.Holding:Token')!;
  expect(received.createArgument).toMatchObject({ holding: { account: account(bob), amount: decimal('40'), lock: null } });
  expect((root.exerciseResult as { output: unknown }).output).toEqual({ tag: 'TransferInstructionResult_Completed', value: { receiverHoldingCids: [received.contractId] } });
  // The offer and the locked token are gone; each wallet lists its one holding.
  const amounts = async (party: string) => (await api.byInterface(party, holdingV2)).map((c) => (c.interfaceViews![0]!.viewValue as { amount: string }).amount);
  expect(await amounts(alice)).toEqual([decimal('60')]);
  expect(await amounts(bob)).toEqual([decimal('40')]);
  expect(await api.byInterface(bob, instructionV2)).toEqual([]);
}
