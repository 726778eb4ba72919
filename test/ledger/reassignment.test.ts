import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('reassignment between the two synchronizers', () => {
  it('puts a contract in flight between unassign and assign', () => {
    const { ledger, alice, bank } = world();
    const global = ledger.config.synchronizers[0];
    const priv = ledger.config.synchronizers[1]!;
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    expect(ledger.contract(cid as string)?.synchronizerId).toBe(global.id);
    const beforeUnassign = ledger.ledgerEnd().offset;
    const u = must(ledger.unassign(cid as string, priv.id, { submitter: bank }));
    expect(ledger.isInFlight(cid as string)).toBe(true);

    const [entry] = [...must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [alice]: {} } } }))];
    expect(entry?.contractEntry).toMatchObject({
      JsIncompleteUnassigned: { createdEvent: { contractId: cid }, unassignedEvent: { reassignmentId: u.reassignmentId, source: global.id, target: priv.id, reassignmentCounter: 1, contractId: cid } },
    });
    // at the offset before, the contract was plainly active on the global synchronizer
    const [old] = [...must(ledger.activeContracts({ activeAtOffset: beforeUnassign, eventFormat: { filtersByParty: { [alice]: {} } } }))];
    expect(old?.contractEntry).toMatchObject({ JsActiveContract: { synchronizerId: global.id, reassignmentCounter: 0 } });

    // an in-flight contract cannot be used
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Describe', choiceArgument: {} } }] }),
      'UNKNOWN_CONTRACT_SYNCHRONIZERS',
    );

    must(ledger.assign(u.reassignmentId, { submitter: alice }));
    expect(ledger.isInFlight(cid as string)).toBe(false);
    expect(ledger.contract(cid as string)?.synchronizerId).toBe(priv.id);
    const [now] = [...must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [alice]: {} } } }))];
    expect(now?.contractEntry).toMatchObject({ JsActiveContract: { synchronizerId: priv.id, reassignmentCounter: 1 } });

    // transactions on the contract now run on the private synchronizer
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: { userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Transfer', choiceArgument: { newOwner: bank } } }] },
      }),
    );
    expect(r.transaction.synchronizerId).toBe(priv.id);
  });

  it('shows both halves as Reassignment updates to stakeholders', () => {
    const { ledger, alice, bank, carol } = world();
    const priv = ledger.config.synchronizers[1]!;
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const begin = ledger.ledgerEnd().offset;
    must(ledger.reassign(cid as string, priv.id, { submitter: bank }));
    const updates = [...must(ledger.updates({ beginExclusive: begin, filter: { filtersByParty: { [alice]: {} } } }))];
    expect(updates.map((u) => Object.keys(u.update)[0])).toEqual(['Reassignment', 'Reassignment']);
    const [un, as] = updates.map((u) => ('Reassignment' in u.update ? u.update.Reassignment.value : undefined));
    expect(un?.events[0]).toMatchObject({ JsUnassignedEvent: { value: { contractId: cid, witnessParties: [alice] } } });
    expect(as?.events[0]).toMatchObject({ JsAssignmentEvent: { target: priv.id, reassignmentCounter: 1, createdEvent: { contractId: cid } } });
    expect(as?.synchronizerId).toBe(priv.id);
    const carols = [...must(ledger.updates({ beginExclusive: begin, filter: { filtersByParty: { [carol]: {} } } }))];
    expect(carols.map((u) => Object.keys(u.update)[0])).toEqual(['OffsetCheckpoint']);
  });

  it('refuses reassignment by a non-stakeholder and to unknown synchronizers', () => {
    const { ledger, alice, bank, carol } = world();
    const priv = ledger.config.synchronizers[1]!;
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    refused(ledger.unassign(cid as string, priv.id, { submitter: carol }), 'DAML_AUTHORIZATION_ERROR');
    refused(ledger.unassign(cid as string, 'nowhere::1220' + '00'.repeat(32), { submitter: bank }), 'UNKNOWN_SYNCHRONIZER');
    must(ledger.unassign(cid as string, priv.id, { submitter: bank }));
    refused(ledger.unassign(cid as string, priv.id, { submitter: bank }), 'CONTRACT_IN_FLIGHT');
    refused(ledger.assign('no-such-reassignment', { submitter: bank }), 'REASSIGNMENT_NOT_FOUND');
  });

  it('refuses a transaction whose inputs sit on different synchronizers', () => {
    const { ledger, alice, bank } = world();
    const priv = ledger.config.synchronizers[1]!;
    const [a, b] = submit(ledger, [bank], [createAsset(bank, alice), createAsset(bank, alice)]);
    must(ledger.reassign(b as string, priv.id, { submitter: bank }));
    const describe = (cid: string) => ({ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid, choice: 'Describe', choiceArgument: {} } });
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [describe(a as string), describe(b as string)] }), 'NO_SYNCHRONIZER_FOR_SUBMISSION');
  });
});
