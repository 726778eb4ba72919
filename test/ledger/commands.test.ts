import { describe, expect, it } from 'vitest';
import type { Command, JsCommands, TransactionFormat } from '../../reference-server/src/ledger/index.js';
import { ASSET_TEMPLATE, HOLDING_INTERFACE } from '../../reference-server/src/ledger/index.js';
import { acsIds, createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

const effects = { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' as const };
const delta = { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const };

describe('commands', () => {
  it('checks create arguments against the template', () => {
    const { ledger, alice, bank } = world();
    const create = (createArguments: unknown): JsCommands => ({
      userId: 'u',
      commandId: nextCommandId(),
      actAs: [bank],
      commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments } } as Command],
    });
    expect(refused(ledger.submitAndWait(create({ issuer: bank, owner: alice })), 'COMMAND_PREPROCESSING_FAILED').cause).toContain("missing non-optional field 'amount'");
    expect(refused(ledger.submitAndWait(create({ issuer: bank, owner: 'alice', amount: '1' })), 'COMMAND_PREPROCESSING_FAILED').cause).toContain("invalid party id 'alice'");
    expect(refused(ledger.submitAndWait(create({ issuer: bank, owner: alice, amount: '1', colour: 'red' })), 'COMMAND_PREPROCESSING_FAILED').cause).toContain("unexpected field 'colour'");
    expect(refused(ledger.submitAndWait(create({ issuer: bank, owner: alice, amount: '1.23456789012' })), 'COMMAND_PREPROCESSING_FAILED').cause).toContain('decimal places');
    expect(refused(ledger.submitAndWait(create({ issuer: bank, owner: alice, amount: 'ten' })), 'COMMAND_PREPROCESSING_FAILED').cause).toContain('invalid Numeric');
    expect(refused(ledger.submitAndWait(create([1, 2])), 'COMMAND_PREPROCESSING_FAILED').cause).toContain('expected a record');
    expect(refused(ledger.submitAndWait(create({ issuer: bank, owner: alice, amount: '0' })), 'TEMPLATE_PRECONDITION_VIOLATED').cause).toContain('amount must be positive');
  });

  it('validates the submission envelope', () => {
    const { ledger, alice, bank } = world();
    const base: JsCommands = { userId: 'u', commandId: 'c', actAs: [bank], commands: [createAsset(bank, alice)] };
    refused(ledger.submitAndWait({ ...base, userId: undefined }), 'MISSING_FIELD');
    refused(ledger.submitAndWait({ ...base, commandId: '' }), 'MISSING_FIELD');
    refused(ledger.submitAndWait({ ...base, actAs: [] }), 'MISSING_FIELD');
    refused(ledger.submitAndWait({ ...base, actAs: ['nobody'] }), 'INVALID_FIELD');
    refused(ledger.submitAndWait({ ...base, commands: [] }), 'MISSING_FIELD');
    refused(ledger.submitAndWait({ ...base, commands: [{ Bogus: {} } as unknown as Command] }), 'INVALID_FIELD');
    refused(ledger.submitAndWait({ ...base, commandId: 'x'.repeat(256) }), 'INVALID_FIELD');
    refused(ledger.submitAndWait({ ...base, synchronizerId: 'nowhere' }), 'UNKNOWN_SYNCHRONIZER');
  });

  it('answers submit-and-wait without a format as with the verbose wildcard of its act-as and read-as parties', () => {
    const { ledger, alice, bank } = world();
    // Two ledgers in step: the same commands, one answered by default, one by the format it stands for.
    const twin = world().ledger;
    const answer = (l: typeof ledger, commandId: string, actAs: string[], readAs: string[], transactionFormat?: TransactionFormat) => must(l.submitAndWaitForTransaction({
      commands: { userId: 'u', commandId, actAs, readAs, commands: [createAsset(bank, alice, '5', [alice])] },
      ...(transactionFormat ? { transactionFormat } : {}),
    }));
    const wildcard = (parties: string[]): TransactionFormat => ({ eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, {}])), verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' });
    expect(answer(ledger, 'd1', [bank], [alice, bank])).toEqual(answer(twin, 'd1', [bank], [alice, bank], wildcard([bank, alice])));
    expect(answer(ledger, 'd2', [bank, bank], [])).toEqual(answer(twin, 'd2', [bank, bank], [], wildcard([bank])));
    // A party id that is not one is refused as the format's, by the first invalid id in order.
    const bad = ledger.submitAndWaitForTransaction({ commands: { userId: 'u', commandId: nextCommandId(), actAs: [bank], readAs: ['not a party', 'nor::this'], commands: [createAsset(bank, alice)] } });
    expect(refused(bad, 'INVALID_ARGUMENT')).toMatchObject({ cause: "Invalid party id 'not a party' in transaction_format.filtersByParty", context: { party: 'not a party' } });
  });

  it('runs CreateAndExercise as one transaction', () => {
    const { ledger, alice, bob, bank } = world();
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: {
          userId: 'u',
          commandId: nextCommandId(),
          actAs: [bank, alice],
          commands: [{ CreateAndExerciseCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: bank, owner: alice, amount: '10' }, choice: 'Transfer', choiceArgument: { newOwner: bob } } }],
        },
        transactionFormat: delta,
      }),
    );
    // the first asset is transient: created and consumed in the same transaction
    expect(r.transaction.events.map((e) => Object.keys(e)[0])).toEqual(['CreatedEvent']);
    expect(r.transaction.events[0]).toMatchObject({ CreatedEvent: { nodeId: 2, createArgument: { owner: bob } } });
    expect(acsIds(ledger, alice)).toEqual([]);
  });

  it('runs choices with several effects and a record result', () => {
    const { ledger, alice, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice, '10')]);
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: { userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Split', choiceArgument: { splitAmount: '2.5' } } }] },
        transactionFormat: effects,
      }),
    );
    const [ex, c1, c2] = r.transaction.events;
    expect(c1 && 'CreatedEvent' in c1 && c1.CreatedEvent.createArgument).toMatchObject({ amount: '2.5000000000' });
    expect(c2 && 'CreatedEvent' in c2 && c2.CreatedEvent.createArgument).toMatchObject({ amount: '7.5000000000' });
    expect(ex && 'ExercisedEvent' in ex && ex.ExercisedEvent.exerciseResult).toEqual({
      splitCid: c1 && 'CreatedEvent' in c1 ? c1.CreatedEvent.contractId : '',
      remainderCid: c2 && 'CreatedEvent' in c2 ? c2.CreatedEvent.contractId : '',
    });
    const [other] = submit(ledger, [bank], [createAsset(bank, alice, '1')]);
    const e = refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: other as string, choice: 'Split', choiceArgument: { splitAmount: '5' } } }] }),
      'DAML_FAILURE',
    );
    expect(e.cause).toContain('splitAmount must be between');
  });

  it('exercises interface choices through the interface id', () => {
    const { ledger, alice, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: { userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: HOLDING_INTERFACE, contractId: cid as string, choice: 'Holding_Owner', choiceArgument: {} } }] },
        transactionFormat: effects,
      }),
    );
    expect(r.transaction.events[0]).toMatchObject({ ExercisedEvent: { interfaceId: expect.stringMatching(/:Sample\.Holding:Holding$/), exerciseResult: alice } });
  });

  it('refuses unknown choices, wrong templates and archived contracts', () => {
    const { ledger, alice, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const ex = (templateId: string, choice: string): Command => ({ ExerciseCommand: { templateId, contractId: cid as string, choice, choiceArgument: {} } });
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [ex(ASSET_TEMPLATE, 'Fly')] }), 'COMMAND_PREPROCESSING_FAILED');
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [ex('#canton-conformance-samples:Sample.Account:Account', 'Deposit')] }), 'DAML_INTERPRETATION_ERROR');
    submit(ledger, [bank], [ex(ASSET_TEMPLATE, 'Archive')]);
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [ex(ASSET_TEMPLATE, 'Describe')] }), 'CONTRACT_NOT_FOUND');
    // consuming twice in one transaction
    const [fresh] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const archive: Command = { ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: fresh as string, choice: 'Archive', choiceArgument: {} } };
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [archive, archive] }), 'CONTRACT_NOT_ACTIVE');
  });

  it('finds updates by id and by offset', () => {
    const { ledger, alice, bank } = world();
    const r = must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: [createAsset(bank, alice)] }));
    const format = { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const } };
    const byId = must(ledger.updateById({ updateId: r.updateId, updateFormat: format }));
    const byOffset = must(ledger.updateByOffset({ offset: r.completionOffset, updateFormat: format }));
    expect(byId).toEqual(byOffset);
    expect(byId.update).toMatchObject({ Transaction: { value: { updateId: r.updateId, offset: r.completionOffset } } });
    refused(ledger.updateById({ updateId: 'nope', updateFormat: format }), 'UPDATE_NOT_FOUND');
  });

  it("shows a transaction's command id to its submitters and to reads for any party only", () => {
    const { ledger, alice, bank } = world();
    const commandId = nextCommandId();
    const r = must(ledger.submitAndWait({ userId: 'u', commandId, actAs: [bank], commands: [createAsset(bank, alice)] }));
    const read = (eventFormat: object) => {
      const u = must(ledger.updateById({ updateId: r.updateId, updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } })).update;
      return 'Transaction' in u ? u.Transaction.value : undefined;
    };
    // Canton: "Missing for everyone except the submitting party" (filteredCommandId).
    expect(read({ filtersByParty: { [alice]: {} } })).not.toHaveProperty('commandId');
    expect(read({ filtersByParty: { [bank]: {} } })).toMatchObject({ commandId });
    expect(read({ filtersByParty: { [alice]: {}, [bank]: {} } })).toMatchObject({ commandId });
    expect(read({ filtersForAnyParty: {} })).toMatchObject({ commandId });
  });

  it('defaults submit-and-wait-for-transaction to ACS_DELTA for the actAs and readAs parties', () => {
    const { ledger, alice, bank, carol } = world();
    const r = must(ledger.submitAndWaitForTransaction({ commands: { userId: 'u', commandId: nextCommandId(), actAs: [bank], readAs: [carol], commands: [createAsset(bank, alice)] } }));
    expect(r.transaction.events[0]).toMatchObject({ CreatedEvent: { witnessParties: [bank], acsDelta: true } });
  });
});
