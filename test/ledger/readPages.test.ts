import { describe, expect, it } from 'vitest';
import { createAsset, must, refused, submit, world } from './helpers.js';

const format = (party: string) => ({ filtersByParty: { [party]: {} } });

describe('active contracts pages (core)', () => {
  it('a token keeps its offset: contracts archived and created after the first page do not change the walk', () => {
    const { ledger, alice, bank } = world();
    const ids = Array.from({ length: 5 }, (_, i) => submit(ledger, [bank], [createAsset(bank, alice, `${i + 1}`)])[0] as string);
    const first = must(ledger.activeContractsPage({ eventFormat: format(alice), maxPageSize: 2 }));
    submit(ledger, [bank], [{ ExerciseCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Asset', contractId: ids[4] as string, choice: 'Archive', choiceArgument: {} } }]);
    submit(ledger, [bank], [createAsset(bank, alice, '9')]);
    const seen = first.activeContracts.map((e) => ('JsActiveContract' in e.contractEntry ? e.contractEntry.JsActiveContract.createdEvent.contractId : '?'));
    let token = first.nextPageToken;
    while (token) {
      const page = must(ledger.activeContractsPage({ eventFormat: format(alice), maxPageSize: 2, pageToken: token }));
      expect(page.activeAtOffset).toBe(first.activeAtOffset);
      seen.push(...page.activeContracts.map((e) => ('JsActiveContract' in e.contractEntry ? e.contractEntry.JsActiveContract.createdEvent.contractId : '?')));
      token = page.nextPageToken;
    }
    expect(seen).toEqual(ids);
  });

  it('pruning past the pinned offset ends the walk with PARTICIPANT_PRUNED_DATA_ACCESSED', () => {
    const { ledger, alice, bank } = world();
    for (let i = 0; i < 3; i++) submit(ledger, [bank], [createAsset(bank, alice)]);
    const first = must(ledger.activeContractsPage({ eventFormat: format(alice), maxPageSize: 1 }));
    submit(ledger, [bank], [createAsset(bank, alice)]);
    submit(ledger, [bank], [createAsset(bank, alice)]);
    must(ledger.prune(first.activeAtOffset + 1));
    refused(ledger.activeContractsPage({ eventFormat: format(alice), pageToken: first.nextPageToken }), 'PARTICIPANT_PRUNED_DATA_ACCESSED');
  });

  it('a token of another ledger (another key) is refused', () => {
    const a = world();
    const b = world();
    submit(a.ledger, [a.bank], [createAsset(a.bank, a.alice)]);
    submit(a.ledger, [a.bank], [createAsset(a.bank, a.alice)]);
    const page = must(a.ledger.activeContractsPage({ eventFormat: format(a.alice), maxPageSize: 1 }));
    refused(b.ledger.activeContractsPage({ eventFormat: format(a.alice), pageToken: page.nextPageToken }), 'INVALID_ARGUMENT');
  });
});
