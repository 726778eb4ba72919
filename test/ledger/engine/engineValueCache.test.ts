/**
 * The engine values the ledger keeps beside stored JSON arguments: held for active contracts,
 * let go when a transaction archives the contract (or never kept, for a contract archived in its
 * own transaction), and decoded again from the JSON when a run still needs one. The JSON of an
 * engine contract's argument, of its exercises' arguments and results, and of the commands'
 * results, is made when first read.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Ledger } from '../../../reference-server/src/ledger/index.js';
import type { Command } from '../../../reference-server/src/ledger/wire.js';
import { buildSamplePackage } from '../../daml/samplePackage.js';
import { must, nextCommandId, world } from '../helpers.js';

// A package the test builds (test/daml/samplePackage.ts): no upstream file needed.
const SAMPLE = buildSamplePackage('conformance-sample-values');
const TOKEN = '#conformance-sample-values:Sample.Asset:Asset';
const asset = (owner: string, issuer: string) => ({ issuer, owner, description: 'a token', quantity: '10' });
const commands = (actAs: string[], c: Command[]) => ({ userId: 'tester', commandId: nextCommandId(), actAs, commands: c });

function setup() {
  const w = world();
  must(w.ledger.uploadDar(SAMPLE.dar(), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
  return w;
}

function createToken(ledger: Ledger, owner: string, admin: string): string {
  const tx = must(ledger.submitAndWaitForTransaction({ commands: commands([owner, admin], [{ CreateCommand: { templateId: TOKEN, createArguments: asset(owner, admin) } }]) })).transaction;
  const created = tx.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.contractId] : []));
  return created[0]!;
}
const archive = (contractId: string): Command => ({ ExerciseCommand: { templateId: TOKEN, contractId, choice: 'Archive', choiceArgument: {} } });
const stored = (ledger: Ledger, contractId: string) => ledger.store.contract(contractId)!;

describe('engine values beside stored arguments', () => {
  it('holds the value of an active contract and lets it go when a transaction archives the contract', () => {
    const { ledger, alice, bank } = setup();
    const id = createToken(ledger, alice, bank);
    expect(ledger.engine.holdsValueOf(stored(ledger, id))).toBe(true);
    must(ledger.submitAndWaitForTransaction({ commands: commands([alice, bank], [archive(id)]) }));
    expect(ledger.isActive(id)).toBe(false);
    expect(ledger.engine.holdsValueOf(stored(ledger, id))).toBe(false);
  });

  it('keeps no value for a contract created and archived in one transaction', () => {
    const { ledger, alice, bank } = setup();
    const tx = must(ledger.submitAndWaitForTransaction({
      commands: commands([alice, bank], [{ CreateAndExerciseCommand: { templateId: TOKEN, createArguments: asset(alice, bank), choice: 'Archive', choiceArgument: {} } }]),
      transactionFormat: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    })).transaction;
    const id = tx.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.contractId] : []))[0]!;
    expect(ledger.engine.holdsValueOf(stored(ledger, id))).toBe(false);
  });

  it('a run that archives without committing (interpretation only) leaves the contract usable: its value is decoded again', () => {
    const { ledger, alice, bank } = setup();
    const id = createToken(ledger, alice, bank);
    must(ledger.interpret(commands([alice, bank], [archive(id)])));
    expect(ledger.isActive(id)).toBe(true);
    expect(ledger.engine.holdsValueOf(stored(ledger, id))).toBe(false);
    const tx = must(ledger.submitAndWaitForTransaction({ commands: commands([alice, bank], [archive(id)]) })).transaction;
    expect(tx.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent']);
    expect(ledger.isActive(id)).toBe(false);
  });

  it('makes the JSON of what the engine created and exercised when it is first read, the same JSON the reads always showed', () => {
    const { ledger, alice, bank } = setup();
    const { completionOffset } = must(ledger.submitAndWait(commands([alice, bank], [{ CreateCommand: { templateId: TOKEN, createArguments: asset(alice, bank) } }])));
    const entry = ledger.store.entryAt(completionOffset)!;
    if (entry.kind !== 'transaction') throw new Error(`a ${entry.kind} at ${completionOffset}`);
    const node = entry.nodes[0]!;
    if (node.kind !== 'create') throw new Error(`a ${node.kind} node`);
    // Answered without its transaction: nothing read the argument's JSON yet.
    expect(node.contract.argumentIfMade).toBeUndefined();
    const acs = [...must(ledger.activeContracts({ filter: { filtersByParty: { [alice]: {} } }, verbose: false, activeAtOffset: completionOffset }))];
    const shown = acs.flatMap((r) => ('JsActiveContract' in (r.contractEntry ?? {}) ? [(r.contractEntry as { JsActiveContract: { createdEvent: { createArgument: unknown } } }).JsActiveContract.createdEvent.createArgument] : []));
    expect(shown).toEqual([asset(alice, bank)]);
    expect(node.contract.argumentIfMade).toBe(node.contract.argument);

    const archived = must(ledger.submitAndWait(commands([alice, bank], [archive(node.contract.contractId)])));
    const exercise = (ledger.store.entryAt(archived.completionOffset) as { nodes: readonly { kind: string; argument?: unknown; result?: unknown }[] }).nodes[0]!;
    expect(exercise.kind).toBe('exercise');
    expect(exercise.argument).toEqual({});
    expect(exercise.result).toEqual({});
  });

  it("makes the JSON of the commands' results when they are first read, once", () => {
    const { ledger, alice, bank } = setup();
    const json = vi.spyOn(ledger.engine, 'json');
    const prepared = must(ledger.interpret(commands([alice, bank], [
      { CreateCommand: { templateId: TOKEN, createArguments: asset(alice, bank) } },
      { CreateCommand: { templateId: TOKEN, createArguments: asset(bank, bank) } },
    ])));
    expect(json).not.toHaveBeenCalled();
    expect(prepared.results).toEqual(prepared.created.map((c) => c.contractId));
    expect(json).toHaveBeenCalledTimes(2);
    expect(prepared.results).toBe(prepared.results);
    expect(json).toHaveBeenCalledTimes(2);
  });
});
