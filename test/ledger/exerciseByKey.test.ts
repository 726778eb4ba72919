import { describe, expect, it } from 'vitest';
import { ACCOUNT_TEMPLATE, ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('ExerciseByKeyCommand', () => {
  it('exercises the active contract with the key', () => {
    const { ledger, alice, bank } = world();
    const [account] = submit(ledger, [bank], [{ CreateCommand: { templateId: ACCOUNT_TEMPLATE, createArguments: { bank, holder: alice, accountId: 'ACC-1' } } }]);
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: {
          userId: 'u',
          commandId: nextCommandId(),
          actAs: [alice],
          commands: [{ ExerciseByKeyCommand: { templateId: ACCOUNT_TEMPLATE, contractKey: { bank, accountId: 'ACC-1' }, choice: 'Deposit', choiceArgument: { amount: '5' } } }],
        },
        transactionFormat: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
      }),
    );
    expect(r.transaction.events[0]).toMatchObject({ ExercisedEvent: { contractId: account, choice: 'Deposit', exerciseResult: '5.0000000000', consuming: false } });
  });

  it('reports the key on created events', () => {
    const { ledger, alice, bank } = world();
    submit(ledger, [bank], [{ CreateCommand: { templateId: ACCOUNT_TEMPLATE, createArguments: { bank, holder: alice, accountId: 'ACC-2' } } }]);
    const [e] = [...must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [alice]: {} } } }))];
    expect(e && 'JsActiveContract' in e.contractEntry && e.contractEntry.JsActiveContract.createdEvent.contractKey).toEqual({ bank, accountId: 'ACC-2' });
  });

  it('answers clearly when no visible contract has the key', () => {
    const { ledger, alice, bank, carol } = world();
    submit(ledger, [bank], [{ CreateCommand: { templateId: ACCOUNT_TEMPLATE, createArguments: { bank, holder: alice, accountId: 'ACC-3' } } }]);
    const byKey = (accountId: string) => ({ ExerciseByKeyCommand: { templateId: ACCOUNT_TEMPLATE, contractKey: { bank, accountId }, choice: 'Deposit', choiceArgument: { amount: '1' } } });
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [byKey('nope')] }), 'CONTRACT_KEY_NOT_FOUND');
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [carol], commands: [byKey('ACC-3')] }), 'CONTRACT_KEY_NOT_FOUND');
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseByKeyCommand: { templateId: ACCOUNT_TEMPLATE, contractKey: { bank }, choice: 'Deposit', choiceArgument: { amount: '1' } } }] }),
      'COMMAND_PREPROCESSING_FAILED',
    );
  });

  it('refuses templates without a key', () => {
    const { ledger, alice, bank } = world();
    submit(ledger, [bank], [createAsset(bank, alice)]);
    const e = refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseByKeyCommand: { templateId: ASSET_TEMPLATE, contractKey: {}, choice: 'Describe', choiceArgument: {} } }] }),
      'CONTRACT_KEY_NOT_SUPPORTED',
    );
    expect(e.cause).toContain('has no contract key');
  });
});
