import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { acsIds, createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('visibility', () => {
  it('shows a contract only to its stakeholders', () => {
    const { ledger, alice, bob, bank, carol } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice, '1', [bob])]);
    expect(acsIds(ledger, alice)).toEqual([cid]);
    expect(acsIds(ledger, bob)).toEqual([cid]);
    expect(acsIds(ledger, bank)).toEqual([cid]);
    expect(acsIds(ledger, carol)).toEqual([]);
  });

  it('reports only the requesting stakeholders as witnesses', () => {
    const { ledger, alice, bob, bank } = world();
    submit(ledger, [bank], [createAsset(bank, alice, '1', [bob])]);
    const [e] = [...must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [alice]: {}, [bob]: {} } } }))];
    expect(e && 'JsActiveContract' in e.contractEntry && e.contractEntry.JsActiveContract.createdEvent.witnessParties).toEqual([alice, bob].sort());
  });

  it('does not let a non-stakeholder use a contract it cannot see', () => {
    const { ledger, alice, bank, carol } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const r = ledger.submitAndWait({
      userId: 'u',
      commandId: nextCommandId(),
      actAs: [carol],
      commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Transfer', choiceArgument: { newOwner: carol } } }],
    });
    expect(refused(r, 'CONTRACT_NOT_FOUND').cause).toContain(cid);
  });

  it('lets readAs parties see contracts for the submission', () => {
    const { ledger, alice, bank, carol } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    // carol reads as alice, but acting as carol she still cannot satisfy the controller (alice)
    const r = ledger.submitAndWait({
      userId: 'u',
      commandId: nextCommandId(),
      actAs: [carol],
      readAs: [alice],
      commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Transfer', choiceArgument: { newOwner: carol } } }],
    });
    refused(r, 'DAML_AUTHORIZATION_ERROR');
  });

  it('shows updates in the ACS_DELTA shape to stakeholders and nobody else', () => {
    const { ledger, alice, bank, carol } = world();
    const begin = ledger.ledgerEnd().offset;
    submit(ledger, [bank], [createAsset(bank, alice)]);
    const forAlice = [...must(ledger.updates({ beginExclusive: begin, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }))];
    const forCarol = [...must(ledger.updates({ beginExclusive: begin, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [carol]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }))];
    expect(forAlice.map((u) => Object.keys(u.update)[0])).toEqual(['Transaction']);
    expect(forCarol.map((u) => Object.keys(u.update)[0])).toEqual(['OffsetCheckpoint']);
  });
});
