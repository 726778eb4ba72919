import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import type { Command, Event, JsTransaction } from '../../reference-server/src/ledger/wire.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { must, nextCommandId, refused, world } from './helpers.js';

const SPLITWELL = '#splitwell:Splice.Splitwell';

/** Submits as `actAs` and answers the ledger-effects transaction every party sees. */
function run(ledger: Ledger, actAs: string[], commands: Command[], extra: Record<string, unknown> = {}): JsTransaction {
  return must(
    ledger.submitAndWaitForTransaction({
      commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands, ...extra },
      transactionFormat: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    }),
  ).transaction;
}
const created = (tx: JsTransaction, entity: string) =>
  tx.events.flatMap((e: Event) => ('CreatedEvent' in e && e.CreatedEvent.templateId.endsWith(`:${entity}`) ? [e.CreatedEvent] : []));
const exercised = (tx: JsTransaction) => tx.events.flatMap((e: Event) => ('ExercisedEvent' in e ? [e.ExercisedEvent] : []));
const blobOf = (ledger: Ledger, contractId: string, templateId: string) => ({ contractId, templateId, createdEventBlob: ledger.createdEventBlob(contractId) as string, synchronizerId: '' });

describe.runIf(HAS_DARS)('uploaded DARs run through the engine: splitwell (needs ../shared/upstream/daml/dars)', () => {
  let w: ReturnType<typeof world>;
  beforeAll(() => {
    w = world();
    must(w.ledger.uploadDar(readFileSync(join(DARS_DIR, 'splice/splitwell-0.1.23.dar')), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
  });

  it('groups, invites and joins, with disclosed rules, as on a participant', () => {
    const { ledger, alice, bob, bank: provider, carol: dso } = w;
    const rulesTx = run(ledger, [provider], [{ CreateCommand: { templateId: `${SPLITWELL}:SplitwellRules`, createArguments: { provider } } }]);
    const rules = created(rulesTx, 'SplitwellRules')[0]!;
    expect(rules.createArgument).toEqual({ provider });
    expect(rules.signatories).toEqual([provider]);
    const rulesId = rules.contractId;
    const disclosedRules = [blobOf(ledger, rulesId, rules.templateId)];

    // Alice is no stakeholder of the rules: without the disclosed contract she cannot use them.
    const hidden = ledger.submitAndWait({
      userId: 'tester', commandId: nextCommandId(), actAs: [alice],
      commands: [{ ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_RequestInstall', choiceArgument: { user: alice } } }],
    });
    refused(hidden, 'CONTRACT_NOT_FOUND');

    const group = { owner: alice, dso, members: [], id: { unpack: 'g1' }, provider, acceptDuration: { microseconds: '3600000000' } };
    const reqTx = run(ledger, [alice], [{ ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_RequestGroup', choiceArgument: { group, user: alice } } }], { disclosedContracts: disclosedRules });
    const [ex] = exercised(reqTx);
    expect(ex).toMatchObject({ choice: 'SplitwellRules_RequestGroup', actingParties: [alice], consuming: false, nodeId: 0 });
    const request = created(reqTx, 'GroupRequest')[0]!;
    expect(ex!.exerciseResult).toBe(request.contractId);
    expect(request.createArgument).toEqual({ group });
    expect(request.nodeId).toBe(1);
    expect(ex!.lastDescendantNodeId).toBe(1);

    const groupTx = run(ledger, [provider], [{ ExerciseCommand: { templateId: `${SPLITWELL}:GroupRequest`, contractId: request.contractId, choice: 'GroupRequest_Accept', choiceArgument: {} } }]);
    const groupId = created(groupTx, 'Group')[0]!.contractId;
    expect(exercised(groupTx)[0]).toMatchObject({ consuming: true, acsDelta: true });

    const inviteTx = run(ledger, [alice], [{ ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_CreateInvite', choiceArgument: { group: groupId, user: alice } } }], { disclosedContracts: disclosedRules });
    const invite = created(inviteTx, 'GroupInvite')[0]!;

    const acceptTx = run(ledger, [bob], [{ ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_AcceptInvite', choiceArgument: { cid: invite.contractId, user: bob } } }], {
      disclosedContracts: [...disclosedRules, blobOf(ledger, invite.contractId, invite.templateId)],
    });
    const accepted = created(acceptTx, 'AcceptedGroupInvite')[0]!;
    expect(accepted.createArgument).toEqual({ groupKey: { owner: alice, provider, id: { unpack: 'g1' } }, invitee: bob });

    const joinTx = run(ledger, [alice], [{ ExerciseCommand: { templateId: `${SPLITWELL}:SplitwellRules`, contractId: rulesId, choice: 'SplitwellRules_Join', choiceArgument: { group: groupId, cid: accepted.contractId, user: alice } } }], { disclosedContracts: disclosedRules });
    const joined = created(joinTx, 'Group')[0]!;
    expect(joined.createArgument).toMatchObject({ members: [bob] });
    expect(joined.signatories).toEqual([alice, bob, provider].sort());
    expect(ledger.isActive(groupId)).toBe(false);
    expect(ledger.isActive(accepted.contractId)).toBe(false);

    // Bob's view of the join: the nodes he is informed of (the Group_Join and what it creates, not the rules' exercise).
    const bobs = must(ledger.updateById({ updateId: joinTx.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [bob]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } }));
    const bobEvents = (bobs.update as { Transaction: { value: JsTransaction } }).Transaction.value.events;
    const choices = bobEvents.flatMap((e) => ('ExercisedEvent' in e ? [e.ExercisedEvent.choice] : []));
    expect(choices).not.toContain('SplitwellRules_Join');
    expect(choices).toContain('Group_Join');

    const payTx = run(ledger, [bob], [{ ExerciseCommand: { templateId: `${SPLITWELL}:Group`, contractId: joined.contractId, choice: 'Group_EnterPayment', choiceArgument: { payer: bob, amount: '12.5', description: 'pizza' } } }]);
    const update = created(payTx, 'BalanceUpdate')[0]!;
    expect(update.createArgument).toMatchObject({ update: { tag: 'ExternalPayment', value: { payer: bob, description: 'pizza', amount: '12.5000000000' } } });
  });
});
