import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE, createLedger } from '../../reference-server/src/ledger/index.js';
import { createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

describe('disclosed contracts', () => {
  function setup() {
    const w = world();
    const { ledger, alice, bank } = w;
    // An asset alice owns; carol is no stakeholder. Describe is nonconsuming, controller owner.
    const [cid] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const blob = ledger.createdEventBlob(cid as string) as string;
    return { ...w, cid: cid as string, blob };
  }
  const fetchAs = (party: string, cid: string) => ({ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid, choice: 'Describe', choiceArgument: {} } });

  it('lets a submitter use a contract it cannot see when it comes with its blob', () => {
    const { ledger, bank, carol } = world();
    // Rules: signed by bank alone; anyone may exercise the nonconsuming Use choice for themselves
    // (a flexible controller taken from the argument), as with a registry's token rules.
    must(
      ledger.catalogue.addTemplate({
        packageName: 'disclosure-test',
        module: 'Rules',
        entity: 'Rules',
        fields: { bank: 'Party' },
        signatories: ['bank'],
        choices: { Use: { consuming: false, argument: { record: { user: 'Party' } }, controllers: (_self, arg) => [(arg as { user: string }).user] } },
      }),
    );
    const [rules] = submit(ledger, [bank], [{ CreateCommand: { templateId: '#disclosure-test:Rules:Rules', createArguments: { bank } } }]);
    const use = { ExerciseCommand: { templateId: '#disclosure-test:Rules:Rules', contractId: rules as string, choice: 'Use', choiceArgument: { user: carol } } };
    refused(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [carol], commands: [use] }), 'CONTRACT_NOT_FOUND');
    const blob = ledger.createdEventBlob(rules as string) as string;
    const r = must(
      ledger.submitAndWaitForTransaction({
        commands: { userId: 'u', commandId: nextCommandId(), actAs: [carol], commands: [use], disclosedContracts: [{ contractId: rules as string, templateId: '#disclosure-test:Rules:Rules', createdEventBlob: blob }] },
        transactionFormat: { eventFormat: { filtersByParty: { [carol]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
      }),
    );
    expect(r.transaction.events[0]).toMatchObject({ ExercisedEvent: { choice: 'Use', consuming: false, actingParties: [carol], witnessParties: [carol] } });
  });

  it('accepts the blob the ACS hands out, exactly as given', () => {
    const { ledger, alice, cid } = setup();
    const [entry] = [
      ...must(
        ledger.activeContracts({
          activeAtOffset: ledger.ledgerEnd().offset,
          eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } } },
        }),
      ),
    ];
    const blob = entry && 'JsActiveContract' in entry.contractEntry ? entry.contractEntry.JsActiveContract.createdEvent.createdEventBlob : undefined;
    expect(blob).toBe(ledger.createdEventBlob(cid));
    must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [fetchAs(alice, cid)], disclosedContracts: [{ contractId: cid, createdEventBlob: blob as string }] }));
  });

  it('rejects a tampered blob', () => {
    const { ledger, alice, cid, blob } = setup();
    const bytes = Buffer.from(blob, 'base64');
    bytes[10] = (bytes[10] as number) ^ 0xff;
    const e = refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [fetchAs(alice, cid)], disclosedContracts: [{ contractId: cid, createdEventBlob: bytes.toString('base64') }] }),
      'DISCLOSED_CONTRACT_INVALID',
    );
    expect(e.cause).toMatch(/integrity/);
  });

  it('rejects a blob that belongs to another contract, and blobs of another ledger', () => {
    const { ledger, alice, bank, cid } = setup();
    const [other] = submit(ledger, [bank], [createAsset(bank, alice, '3')]);
    const otherBlob = ledger.createdEventBlob(other as string) as string;
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [fetchAs(alice, cid)], disclosedContracts: [{ contractId: cid, createdEventBlob: otherBlob }] }),
      'DISCLOSED_CONTRACT_INVALID',
    );
    const foreign = createLedger();
    const fp = must(foreign.allocateParty({ partyIdHint: 'x' })).partyDetails.party;
    const [fcid] = submit(foreign, [fp], [createAsset(fp, fp)]);
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [fetchAs(alice, cid)], disclosedContracts: [{ createdEventBlob: foreign.createdEventBlob(fcid as string) as string }] }),
      'DISCLOSED_CONTRACT_INVALID',
    );
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: [fetchAs(alice, cid)], disclosedContracts: [{ createdEventBlob: 'not base64!' }] }),
      'DISCLOSED_CONTRACT_INVALID',
    );
  });

  it('rejects a disclosed contract that has since been archived', () => {
    const { ledger, bob, bank } = world();
    const [cid] = submit(ledger, [bank], [createAsset(bank, bank)]);
    const blob = ledger.createdEventBlob(cid as string) as string;
    submit(ledger, [bank], [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Archive', choiceArgument: {} } }]);
    refused(
      ledger.submitAndWait({
        userId: 'u',
        commandId: nextCommandId(),
        actAs: [bob],
        commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid as string, choice: 'Describe', choiceArgument: {} } }],
        disclosedContracts: [{ createdEventBlob: blob }],
      }),
      'CONTRACT_NOT_FOUND',
    );
  });
  it('routes to the synchronizer the used disclosed contracts name, as Canton prescribes it', () => {
    const { ledger, alice, bank, cid, blob } = setup();
    const [on, other] = must(ledger.connectedSynchronizers()).connectedSynchronizers.map((s) => s.synchronizerId);
    const [second] = submit(ledger, [bank], [createAsset(bank, alice, '3')]);
    const secondBlob = ledger.createdEventBlob(second as string) as string;
    const describe = (cids: readonly string[], disclosedContracts: { contractId: string; createdEventBlob: string; synchronizerId?: string }[], synchronizerId?: string) =>
      ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [alice], commands: cids.map((c) => fetchAs(alice, c)), disclosedContracts, ...(synchronizerId === undefined ? {} : { synchronizerId }) });
    must(describe([cid], [{ contractId: cid, createdEventBlob: blob, synchronizerId: on as string }]));
    // Named on a synchronizer it is not on: the submission goes there, and finds its input elsewhere.
    refused(describe([cid], [{ contractId: cid, createdEventBlob: blob, synchronizerId: other as string }]), 'NO_SYNCHRONIZER_FOR_SUBMISSION');
    refused(describe([cid], [{ contractId: cid, createdEventBlob: blob, synchronizerId: on as string }], other), 'PRESCRIBED_SYNCHRONIZER_ID_MISMATCH');
    refused(
      describe([cid, second as string], [{ contractId: cid, createdEventBlob: blob, synchronizerId: on as string }, { contractId: second as string, createdEventBlob: secondBlob, synchronizerId: other as string }]),
      'DISCLOSED_CONTRACTS_SYNCHRONIZER_ID_MISMATCH',
    );
    // An attached contract the command does not use prescribes nothing.
    must(describe([cid], [{ contractId: cid, createdEventBlob: blob }, { contractId: second as string, createdEventBlob: secondBlob, synchronizerId: other as string }]));
  });
});
