import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE, HOLDING_INTERFACE } from '../../reference-server/src/ledger/index.js';
import type { JsGetActiveContractsResponse } from '../../reference-server/src/ledger/index.js';
import { acsIds, createAsset, must, nextCommandId, refused, submit, world } from './helpers.js';

const archive = (cid: string) => ({ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid, choice: 'Archive', choiceArgument: {} } });
const created = (e: JsGetActiveContractsResponse) => {
  const entry = e.contractEntry;
  if (!('JsActiveContract' in entry)) throw new Error('expected an active contract');
  return entry.JsActiveContract.createdEvent;
};

describe('active contracts', () => {
  it('answers at any offset between pruning and ledger end, as the ledger stood then', () => {
    const { ledger, alice, bank } = world();
    const [a] = submit(ledger, [bank], [createAsset(bank, alice, '1')]);
    const afterA = ledger.ledgerEnd().offset;
    const [b] = submit(ledger, [bank], [createAsset(bank, alice, '2')]);
    submit(ledger, [bank], [archive(a as string)]);
    const afterArchive = ledger.ledgerEnd().offset;
    expect(acsIds(ledger, alice, afterA)).toEqual([a]);
    expect(acsIds(ledger, alice, afterA + 1).sort()).toEqual([a, b].sort());
    expect(acsIds(ledger, alice, afterArchive)).toEqual([b]);
  });

  it('is empty at offset 0', () => {
    const { ledger, alice, bank } = world();
    submit(ledger, [bank], [createAsset(bank, alice)]);
    expect([...must(ledger.activeContracts({ activeAtOffset: 0, eventFormat: { filtersByParty: { [alice]: {} } } }))]).toEqual([]);
  });

  it('refuses an offset after the ledger end, naming active_at_offset', () => {
    const { ledger, alice } = world();
    const end = ledger.ledgerEnd().offset;
    const e = refused(ledger.activeContracts({ activeAtOffset: end + 100, eventFormat: { filtersByParty: { [alice]: {} } } }), 'OFFSET_AFTER_LEDGER_END');
    expect(e.cause).toContain('active_at_offset');
    refused(ledger.activeContracts({ activeAtOffset: -1, eventFormat: { filtersByParty: { [alice]: {} } } }), 'INVALID_ARGUMENT');
  });

  it('accepts the legacy filter/verbose form but not both forms together', () => {
    const { ledger, alice, bank } = world();
    const [a] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const at = ledger.ledgerEnd().offset;
    const legacy = [...must(ledger.activeContracts({ activeAtOffset: at, filter: { filtersByParty: { [alice]: {} } }, verbose: true }))];
    expect(legacy.map((e) => created(e).contractId)).toEqual([a]);
    refused(ledger.activeContracts({ activeAtOffset: at, filter: { filtersByParty: { [alice]: {} } }, eventFormat: { filtersByParty: { [alice]: {} } } }), 'INVALID_ARGUMENT');
    refused(ledger.activeContracts({ activeAtOffset: at, verbose: true, eventFormat: { filtersByParty: { [alice]: {} } } }), 'INVALID_ARGUMENT');
    refused(ledger.activeContracts({ activeAtOffset: at }), 'INVALID_ARGUMENT');
  });

  it('accepts verbose: false beside eventFormat (as wallet-sdk sends it; Canton refuses only verbose: true)', () => {
    const { ledger, alice, bank } = world();
    const [a] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const at = ledger.ledgerEnd().offset;
    const read = [...must(ledger.activeContracts({ activeAtOffset: at, verbose: false, eventFormat: { filtersByParty: { [alice]: {} } } }))];
    expect(read.map((e) => created(e).contractId)).toEqual([a]);
    refused(ledger.activeContracts({ activeAtOffset: at, verbose: 'no' as never, eventFormat: { filtersByParty: { [alice]: {} } } }), 'INVALID_ARGUMENT');
    const updates = [...must(ledger.updates({ beginExclusive: 0, verbose: false, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }))];
    expect(updates.length).toBeGreaterThan(0);
    refused(ledger.updates({ beginExclusive: 0, verbose: true, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }), 'INVALID_ARGUMENT');
  });

  it('filters by template and interface, with blobs and interface views only where asked', () => {
    const { ledger, alice, bank } = world();
    submit(ledger, [bank], [
      createAsset(bank, alice, '7'),
      { CreateCommand: { templateId: '#canton-conformance-samples:Sample.Account:Account', createArguments: { bank, holder: alice, accountId: 'A1' } } },
    ]);
    const at = ledger.ledgerEnd().offset;
    const byTemplate = [
      ...must(
        ledger.activeContracts({
          activeAtOffset: at,
          eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ASSET_TEMPLATE, includeCreatedEventBlob: true } } } }] } } },
        }),
      ),
    ].map(created);
    expect(byTemplate).toHaveLength(1);
    expect(byTemplate[0]?.createdEventBlob).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(byTemplate[0]?.createArgument).toEqual({ issuer: bank, owner: alice, amount: '7.0000000000', observers: null });
    expect(byTemplate[0]?.templateId).toMatch(/^[0-9a-f]{64}:Sample\.Asset:Asset$/);
    expect(byTemplate[0]?.packageName).toBe('canton-conformance-samples');

    const byInterface = [
      ...must(
        ledger.activeContracts({
          activeAtOffset: at,
          eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING_INTERFACE, includeInterfaceView: true } } } }] } } },
        }),
      ),
    ].map(created);
    expect(byInterface).toHaveLength(1);
    expect(byInterface[0]?.createdEventBlob).toBeUndefined();
    expect(byInterface[0]?.interfaceViews).toEqual([
      { interfaceId: expect.stringMatching(/:Sample\.Holding:Holding$/), viewStatus: { code: 0, message: '' }, viewValue: { owner: alice, amount: '7.0000000000' } },
    ]);
    const wildcard = [...must(ledger.activeContracts({ activeAtOffset: at, eventFormat: { filtersByParty: { [alice]: {} } } }))];
    expect(wildcard).toHaveLength(2);
  });

  it('refuses unknown templates and package names', () => {
    const { ledger, alice } = world();
    const at = ledger.ledgerEnd().offset;
    const tf = (templateId: string) => ({ filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId } } } }] } } });
    refused(ledger.activeContracts({ activeAtOffset: at, eventFormat: tf('#canton-conformance-samples:Sample.Asset:Nope') }), 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
    refused(ledger.activeContracts({ activeAtOffset: at, eventFormat: tf('#no-such-package:A:B') }), 'PACKAGE_NAMES_NOT_FOUND');
    refused(ledger.activeContracts({ activeAtOffset: at, eventFormat: tf('not an id') }), 'INVALID_ARGUMENT');
  });

  it('answers filtersForAnyParty with every stakeholder as witness', () => {
    const { ledger, alice, bob, bank } = world();
    submit(ledger, [bank], [createAsset(bank, alice, '1', [bob])]);
    const [e] = [...must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersForAnyParty: {} } }))].map(created);
    expect(e?.witnessParties).toEqual([alice, bank, bob].sort());
    expect(e?.signatories).toEqual([bank]);
    expect(e?.observers).toEqual([alice, bob].sort());
  });

  it('streams a large set lazily', () => {
    const { ledger, alice, bank } = world();
    for (let i = 0; i < 20; i++) {
      must(ledger.submitAndWait({ userId: 'u', commandId: nextCommandId(), actAs: [bank], commands: Array.from({ length: 50 }, () => createAsset(bank, alice)) }));
    }
    const it = must(ledger.activeContracts({ activeAtOffset: ledger.ledgerEnd().offset, eventFormat: { filtersByParty: { [alice]: {} } } }))[Symbol.iterator]();
    expect(it.next().done).toBe(false); // a first element without rendering the rest
    let n = 1;
    while (!it.next().done) n++;
    expect(n).toBe(1000);
  });
});
