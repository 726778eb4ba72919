/**
 * The test token v1 (splice-test-token-v1, a registry implementing only the v1 token standard)
 * driven through the JSON API as a wallet and its registry would: mint, transfers through the
 * TransferFactory on the disclosed TokenRules (accepted, rejected, withdrawn), and the wallet's
 * view of holdings through the Holding interface. The DAR must be on the ledger already.
 */
import { expect } from 'vitest';
import { createdIn, disclose, entityOf, exercisedIn, type CreatedEvent, type JsonApiClient } from './JsonApiClient.js';
import { tokenStandardV1 } from './realDars.js';

export const TOKEN_RULES = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules';
export const TOKEN = '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token';
export const NO_CONTEXT = { context: { values: {} }, meta: { values: {} } };
/**
 * The interfaces by package name, as wallets name them: the default world's built-in token
 * standard shares these names, and the contract exercised decides which package they mean.
 */
export const BY_NAME = {
  transferFactory: '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory',
  transferInstruction: '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction',
} as const;
const EMPTY_META = { values: {} };

export interface TokenParties { readonly alice: string; readonly bob: string; readonly admin: string }

export interface TokenWorld extends TokenParties {
  readonly rules: CreatedEvent;
  readonly ids: ReturnType<typeof tokenStandardV1>;
}

/** Allocates the parties and creates the registry's TokenRules. */
export async function tokenWorld(api: JsonApiClient): Promise<TokenWorld> {
  const [alice, bob, admin] = [await api.party('alice'), await api.party('bob'), await api.party('admin')];
  const [rules] = createdIn(await api.must([admin], [{ CreateCommand: { templateId: TOKEN_RULES, createArguments: { admin } } }]));
  return { alice, bob, admin, rules: rules!, ids: tokenStandardV1() };
}

export const instrument = (admin: string) => ({ admin, id: 'TEST' });

/** The registry mints: owner and admin sign a Token. */
export async function mint(api: JsonApiClient, w: TokenParties, owner: string, amount: string): Promise<CreatedEvent> {
  const holding = { owner, instrumentId: instrument(w.admin), amount, lock: null, meta: EMPTY_META };
  const [token] = createdIn(await api.must([owner, w.admin], [{ CreateCommand: { templateId: TOKEN, createArguments: { holding } } }]));
  expect(token!.createArgument).toEqual({ holding: { ...holding, amount: decimal(amount) } });
  return token!;
}

export const decimal = (amount: string): string => Number(amount).toFixed(10);

/** TransferFactory_Transfer as the sender's wallet calls it: on the factory the registry discloses (by the interface's package id, or `byName`). */
export async function offerTransfer(api: JsonApiClient, w: TokenWorld, sender: string, receiver: string, amount: string, inputs: string[], byName = false) {
  const transfer = {
    sender, receiver, amount, instrumentId: instrument(w.admin),
    requestedAt: '2000-01-01T00:00:00Z', executeBefore: '9000-01-01T00:00:00Z', inputHoldingCids: inputs, meta: EMPTY_META,
  };
  const factoryId = byName ? BY_NAME.transferFactory : w.ids.transferFactory;
  const tx = await api.must([sender], [{ ExerciseCommand: { templateId: factoryId, contractId: w.rules.contractId, choice: 'TransferFactory_Transfer', choiceArgument: { expectedAdmin: w.admin, transfer, extraArgs: NO_CONTEXT } } }], [disclose(w.rules, api.synchronizerId)]);
  const root = exercisedIn(tx)[0]!;
  expect(root).toMatchObject({ interfaceId: w.ids.transferFactory, templateId: w.rules.templateId, choice: 'TransferFactory_Transfer', actingParties: [sender] });
  const made = createdIn(tx);
  const offer = made.find((c) => entityOf(c.templateId) === 'Splice.Testing.Tokens.TestTokenV1:TokenTransferOffer');
  const change = made.find((c) => entityOf(c.templateId) === 'Splice.Testing.Tokens.TestTokenV1:Token');
  const result = root.exerciseResult as { output: unknown; senderChangeCids: string[] };
  expect(result.senderChangeCids).toEqual(change ? [change.contractId] : []);
  // Variants on the JSON API are {tag, value} (the Daml-LF JSON encoding).
  expect(result.output).toEqual({ tag: 'TransferInstructionResult_Pending', value: { transferInstructionCid: offer!.contractId } });
  return { tx, offer: offer!, change };
}

/** The receiver's or sender's answer to an instruction: accept, reject or withdraw (by the interface's package id, or `byName`). */
export async function decide(api: JsonApiClient, w: TokenWorld, actor: string, offer: string, choice: 'TransferInstruction_Accept' | 'TransferInstruction_Reject' | 'TransferInstruction_Withdraw', byName = false) {
  const tx = await api.must([actor], [{ ExerciseCommand: { templateId: byName ? BY_NAME.transferInstruction : w.ids.transferInstruction, contractId: offer, choice, choiceArgument: { extraArgs: NO_CONTEXT } } }]);
  const root = exercisedIn(tx)[0]!;
  expect(root).toMatchObject({ contractId: offer, choice, consuming: true, actingParties: [actor], interfaceId: w.ids.transferInstruction });
  const [token] = createdIn(tx);
  return { tx, token: token!, result: root.exerciseResult as { output: unknown; senderChangeCids: string[] } };
}

/** Holdings a wallet lists for `party`: the Holding v1 interface's views, owned by the party. */
export async function holdingsOf(api: JsonApiClient, w: TokenWorld, party: string): Promise<{ amount: string; locked: boolean; entity: string }[]> {
  const seen = await api.byInterface(party, w.ids.holding);
  return seen
    .map((c) => {
      const view = c.interfaceViews!.find((v) => v.interfaceId === w.ids.holding)!;
      expect(view.viewStatus.code).toBe(0);
      const v = view.viewValue as { owner: string; amount: string; lock: unknown };
      return { owner: v.owner, amount: v.amount, locked: v.lock !== null, entity: entityOf(c.templateId).split(':')[1]! };
    })
    .filter((h) => h.owner === party)
    .map(({ owner: _owner, ...h }) => h)
    .sort((a, b) => Number(a.amount) - Number(b.amount) || a.entity.localeCompare(b.entity));
}

/** The whole v1 flow; answers what each party's wallet shows at the end. */
export async function runTokenV1Flow(api: JsonApiClient): Promise<{ alice: unknown; bob: unknown }> {
  const w = await tokenWorld(api);
  const { alice, bob } = w;
  const minted = await mint(api, w, alice, '100.0');

  // Accepted: 40 to Bob; Alice keeps 60 as change. The wallets name the interfaces by package name.
  const first = await offerTransfer(api, w, alice, bob, '40.0', [minted.contractId], true);
  expect(first.change!.createArgument).toMatchObject({ holding: { owner: alice, amount: decimal('60') } });
  // While pending, the offer is Alice's locked holding (the test token's shortcut), and Bob's instruction.
  expect(await holdingsOf(api, w, alice)).toEqual([
    { amount: decimal('40'), locked: true, entity: 'TokenTransferOffer' },
    { amount: decimal('60'), locked: false, entity: 'Token' },
  ]);
  const pending = await api.byInterface(bob, w.ids.transferInstruction);
  expect(pending.map((c) => c.contractId)).toEqual([first.offer.contractId]);
  expect(pending[0]!.interfaceViews![0]!.viewValue).toMatchObject({ status: { tag: 'TransferPendingReceiverAcceptance', value: {} }, transfer: { sender: alice, receiver: bob, amount: decimal('40') } });
  const accepted = await decide(api, w, bob, first.offer.contractId, 'TransferInstruction_Accept', true);
  expect(accepted.token.createArgument).toMatchObject({ holding: { owner: bob, amount: decimal('40'), lock: null } });
  expect(accepted.result).toEqual({ output: { tag: 'TransferInstructionResult_Completed', value: { receiverHoldingCids: [accepted.token.contractId] } }, senderChangeCids: [], meta: EMPTY_META });

  // Rejected by Bob: the 10 go back to Alice.
  const second = await offerTransfer(api, w, alice, bob, '10.0', [first.change!.contractId]);
  const rejected = await decide(api, w, bob, second.offer.contractId, 'TransferInstruction_Reject');
  expect(rejected.token.createArgument).toMatchObject({ holding: { owner: alice, amount: decimal('10') } });
  expect(rejected.result).toEqual({ output: { tag: 'TransferInstructionResult_Failed', value: {} }, senderChangeCids: [rejected.token.contractId], meta: EMPTY_META });

  // Withdrawn by Alice before Bob answers.
  const third = await offerTransfer(api, w, alice, bob, '5.0', [second.change!.contractId]);
  const withdrawn = await decide(api, w, alice, third.offer.contractId, 'TransferInstruction_Withdraw');
  expect(withdrawn.token.createArgument).toMatchObject({ holding: { owner: alice, amount: decimal('5') } });

  // An instruction that is gone cannot be answered again; Bob cannot withdraw Alice's offer.
  const again = await api.submit([bob], [{ ExerciseCommand: { templateId: w.ids.transferInstruction, contractId: first.offer.contractId, choice: 'TransferInstruction_Accept', choiceArgument: { extraArgs: NO_CONTEXT } } }]);
  expect([again.status, again.body.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
  const fourth = await offerTransfer(api, w, alice, bob, '1.0', [withdrawn.token.contractId]);
  const notHis = await api.submit([bob], [{ ExerciseCommand: { templateId: w.ids.transferInstruction, contractId: fourth.offer.contractId, choice: 'TransferInstruction_Withdraw', choiceArgument: { extraArgs: NO_CONTEXT } } }]);
  expect([notHis.status, notHis.body.code]).toEqual([400, 'DAML_AUTHORIZATION_ERROR']);
  // More than the inputs hold: the factory's own check refuses.
  const overdrawn = await api.submit([alice], [{ ExerciseCommand: { templateId: w.ids.transferFactory, contractId: w.rules.contractId, choice: 'TransferFactory_Transfer', choiceArgument: { expectedAdmin: w.admin, extraArgs: NO_CONTEXT, transfer: { sender: alice, receiver: bob, amount: '1000.0', instrumentId: instrument(w.admin), requestedAt: '2000-01-01T00:00:00Z', executeBefore: '9000-01-01T00:00:00Z', inputHoldingCids: [rejected.token.contractId], meta: EMPTY_META } } } }], [disclose(w.rules, api.synchronizerId)]);
  expect([overdrawn.status, overdrawn.body.code]).toEqual([400, 'UNHANDLED_EXCEPTION']);
  await decide(api, w, alice, fourth.offer.contractId, 'TransferInstruction_Withdraw');

  return { alice: await holdingsOf(api, w, alice), bob: await holdingsOf(api, w, bob) };
}
