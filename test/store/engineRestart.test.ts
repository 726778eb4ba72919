import { describe, expect, it } from 'vitest';
import { ManualClock, type Ledger } from '../../reference-server/src/ledger/index.js';
import type { Command } from '../../reference-server/src/ledger/wire.js';
import { E, PackageBuilder, T } from '../../daml-engine/index.js';
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

describe('a choice another version ran, across a restart', () => {
  it('the exercised event names the version whose choice ran, read back from the data directory', () => {
    const name = 'conformance-upgrade-restart';
    const version = (v: string, memo: boolean) => {
      const b = new PackageBuilder({ name, version: v });
      b.module('Main').template('Note', {
        fields: { owner: T.party, ...(memo ? { memo: T.optional(T.text) } : {}) },
        signatories: (t) => E.list(T.party, [t.field('owner')]),
        choices: [{ name: 'Look', consuming: false, returnType: T.unit, controllers: (c) => E.list(T.party, [c.field('owner')]), update: E.pure(T.unit, E.unit) }],
      });
      return b.build();
    };
    const [v1, v2] = [version('1.0.0', false), version('2.0.0', true)];
    const dir = newDataDir('cc-upgrade-');
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = ledgerOn(dir, clock);
    const sync = first.config.synchronizers[0]!.id;
    const owner = must(first.allocateParty({ partyIdHint: 'owner' })).partyDetails.party;
    const submit = (ledger: Ledger, command: Command) =>
      must(ledger.submitAndWaitForTransaction({
        commands: { userId: 'tester', commandId: nextCommandId(), actAs: [owner], commands: [command] },
        transactionFormat: { eventFormat: { filtersByParty: { [owner]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
      })).transaction;
    must(first.uploadDar(v1.dar(), { synchronizerId: sync }));
    const created = submit(first, { CreateCommand: { templateId: `#${name}:Main:Note`, createArguments: { owner } } });
    const cid = (created.events[0] as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId;
    must(first.uploadDar(v2.dar(), { synchronizerId: sync }));
    const looked = submit(first, { ExerciseCommand: { templateId: `#${name}:Main:Note`, contractId: cid, choice: 'Look', choiceArgument: {} } });
    const exercisedBy = (events: readonly unknown[]) => (events[0] as { ExercisedEvent: { templateId: string } }).ExercisedEvent.templateId;
    expect(exercisedBy(looked.events)).toBe(`${v2.id}:Main:Note`);
    stopAll();

    const second = ledgerOn(dir, clock);
    const again = must(second.updateById({ updateId: looked.updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [owner]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } }));
    expect(exercisedBy((again as { update: { Transaction: { value: { events: unknown[] } } } }).update.Transaction.value.events)).toBe(`${v2.id}:Main:Note`);
  });
});
