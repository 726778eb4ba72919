import { describe, expect, it } from 'vitest';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { acsIds, createAsset, must, refused, submit, world } from './helpers.js';

describe('pruning', () => {
  it('refuses reads below the pruning offset and keeps the ledger answerable above it', () => {
    const { ledger, alice, bank } = world();
    const [a] = submit(ledger, [bank], [createAsset(bank, alice)]);
    const [b] = submit(ledger, [bank], [createAsset(bank, alice)]);
    submit(ledger, [bank], [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: a as string, choice: 'Archive', choiceArgument: {} } }]);
    const pruneAt = ledger.ledgerEnd().offset - 1;
    must(ledger.prune(pruneAt));
    expect(ledger.latestPrunedOffsets()).toEqual({ participantPrunedUpToInclusive: pruneAt, allDivulgedContractsPrunedUpToInclusive: pruneAt });

    const e = refused(ledger.activeContracts({ activeAtOffset: pruneAt - 1, eventFormat: { filtersByParty: { [alice]: {} } } }), 'PARTICIPANT_PRUNED_DATA_ACCESSED');
    expect(e.context).toEqual({ earliest_offset: String(pruneAt) });
    refused(ledger.updates({ beginExclusive: pruneAt - 1, filter: { filtersByParty: { [alice]: {} } } }), 'PARTICIPANT_PRUNED_DATA_ACCESSED');
    refused(ledger.completions({ userId: 'tester', parties: [bank], beginExclusive: 0 }), 'PARTICIPANT_PRUNED_DATA_ACCESSED');

    // at the pruning offset itself the ACS still stands (a is archived only after it)
    expect(acsIds(ledger, alice, pruneAt).sort()).toEqual([a, b].sort());
    expect(acsIds(ledger, alice)).toEqual([b]);
    const updates = [...must(ledger.updates({ beginExclusive: pruneAt, filter: { filtersByParty: { [alice]: {} } } }))];
    expect(updates.map((u) => Object.keys(u.update)[0])).toEqual(['Transaction']);
  });

  it('refuses pruning beyond the ledger end', () => {
    const { ledger } = world();
    refused(ledger.prune(ledger.ledgerEnd().offset + 1), 'OFFSET_OUT_OF_RANGE');
    refused(ledger.prune(0), 'INVALID_ARGUMENT');
  });

  it('refuses a DeduplicationOffset below the pruning offset', () => {
    const { ledger, alice, bank } = world();
    submit(ledger, [bank], [createAsset(bank, alice)]);
    must(ledger.prune(ledger.ledgerEnd().offset));
    refused(
      ledger.submitAndWait({ userId: 'u', commandId: 'c', actAs: [bank], commands: [createAsset(bank, alice)], deduplicationPeriod: { DeduplicationOffset: { value: 1 } } }),
      'INVALID_DEDUPLICATION_PERIOD',
    );
  });
});
