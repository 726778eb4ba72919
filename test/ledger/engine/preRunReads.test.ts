/**
 * A command run ahead of its commit (`Ledger.preRunEngine`: in slices, or on the engine thread)
 * is committed only if every contract it read is as it was; else it is run again at the commit.
 * Proven by a double spend: the pre-run transfers an asset, another submission transfers the same
 * asset before the first commits, and the first must then be refused, never committed on its stale
 * run. On the ledger's own thread and on the engine thread alike.
 */
import { afterAll, describe, expect, it } from 'vitest';

import type { Ledger } from '../../../reference-server/src/ledger/index.js';
import type { Command } from '../../../reference-server/src/ledger/wire.js';
import { ENGINE_THREADS, skippedUnbuilt } from '../../support/builtEngineWorker.js';
import { buildSamplePackage } from '../../daml/samplePackage.js';
import { must, world } from '../helpers.js';

const SAMPLE = buildSamplePackage('conformance-sample-prerun');
const ASSET = '#conformance-sample-prerun:Sample.Asset:Asset';
const opened: Ledger[] = [];
afterAll(() => Promise.all(opened.map((l) => l.close())));

const transfer = (contractId: string, newOwner: string): Command => ({ ExerciseCommand: { templateId: ASSET, contractId, choice: 'Transfer', choiceArgument: { newOwner } } });

describe.each(ENGINE_THREADS)('%s', (_label, engineWorker) => {
  if (skippedUnbuilt(engineWorker)) return;

  it('a run made ahead whose input was archived before its commit is made again: refused, not committed', async () => {
    const { ledger, bank, alice, bob, carol } = world({ engineWorker });
    opened.push(ledger);
    must(ledger.uploadDar(SAMPLE.dar(), { synchronizerId: ledger.config.synchronizers[0]!.id }));
    const created = must(ledger.submitAndWaitForTransaction({
      commands: { userId: 'tester', commandId: 'issue', actAs: [bank], commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: alice, description: 'once', quantity: '1' } } }] },
    }));
    const asset = created.transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.contractId] : []))[0]!;

    const toBob = { userId: 'tester', commandId: 'to-bob', actAs: [alice], commands: [transfer(asset, bob)] };
    await ledger.preRunEngine(toBob);
    // Before that commit, another submission spends the same asset.
    must(ledger.submitAndWait({ userId: 'tester', commandId: 'to-carol', actAs: [alice], commands: [transfer(asset, carol)] }));
    const end = ledger.ledgerEnd().offset;
    const late = ledger.submitAndWait(toBob);
    expect(late.ok ? 'committed' : late.error.code).toBe('CONTRACT_NOT_FOUND');
    expect(ledger.ledgerEnd().offset).toBe(end);
  });
});
