import { describe, expect, it } from 'vitest';
import { ManualClock, type Ledger } from '../../reference-server/src/ledger/index.js';
import type { Command } from '../../reference-server/src/ledger/wire.js';
import { buildSamplePackage } from '../daml/samplePackage.js';
import { must, nextCommandId } from '../ledger/helpers.js';
import { restartableLedgers } from './support/restartableLedgers.js';

/** Packages are persisted; contracts of their templates must work again after a restart from --data-dir. */
const { newDataDir, ledgerOn, stopAll } = restartableLedgers();

// A package the test builds (test/daml/samplePackage.ts): no upstream file needed.
const SAMPLE = buildSamplePackage('conformance-sample-restart');
const ASSET = '#conformance-sample-restart:Sample.Asset:Asset';

describe('engine contracts across a restart', () => {
  it('a contract created through the engine before the restart is exercised after it, its events read back', () => {
    const dir = newDataDir('cc-engine-');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    must(first.uploadDar(SAMPLE.dar(), { synchronizerId: first.config.synchronizers[0]!.id }));
    const issuer = must(first.allocateParty({ partyIdHint: 'issuer' })).partyDetails.party;
    const owner = must(first.allocateParty({ partyIdHint: 'owner' })).partyDetails.party;
    const submit = (ledger: Ledger, actAs: string[], command: Command) =>
      must(ledger.submitAndWaitForTransaction({ commands: { userId: 'tester', commandId: nextCommandId(), actAs, commands: [command] } })).transaction;
    const created = submit(first, [issuer], { CreateCommand: { templateId: ASSET, createArguments: { issuer, owner: issuer, description: 'gold', quantity: '10' } } });
    const assetId = (created.events[0] as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId;
    stopAll();

    const second = ledgerOn(dir, clock);
    const moved = submit(second, [issuer], {
      ExerciseCommand: { templateId: ASSET, contractId: assetId, choice: 'Transfer', choiceArgument: { newOwner: owner } },
    });
    const movedEvent = moved.events.map((e) => (e as { CreatedEvent?: { contractId: string; createArgument: unknown } }).CreatedEvent).find((e) => e !== undefined)!;
    expect(movedEvent.createArgument).toEqual({ issuer, owner, description: 'gold', quantity: '10' });
    const before = must(second.updateById({ updateId: created.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [issuer]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } }));
    expect(JSON.stringify(before)).toContain(assetId);
    stopAll();

    const third = ledgerOn(dir, clock);
    const split = submit(third, [owner], {
      ExerciseCommand: { templateId: ASSET, contractId: movedEvent.contractId, choice: 'Split', choiceArgument: { amount: '4' } },
    });
    expect(split.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent', 'CreatedEvent']);
  });
});
