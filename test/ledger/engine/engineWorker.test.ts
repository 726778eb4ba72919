/**
 * The engine thread (`createLedger({ engineWorker })`, EngineWorker.ts): the command service's
 * runs made there give what the same runs give on the ledger's own thread, byte for byte (the
 * same ids, events, results and refusals); contracts the thread kept copies of are checked
 * against the ledger when the outcome comes back; a thread that stops hands its runs back, and
 * the ledger answers as without one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import type { CreateLedgerOptions } from '../../../reference-server/src/ledger/Ledger.js';
import type { Ledger } from '../../../reference-server/src/ledger/index.js';
import type { Command } from '../../../reference-server/src/ledger/wire.js';
import { BUILT_ENGINE_WORKER, engineWorkerBuilt, NOT_BUILT } from '../../support/builtEngineWorker.js';
import type { Expr } from '../../../daml-engine/ast/Expr.js';
import { E } from '../../../daml-engine/build/E.js';
import { PackageBuilder } from '../../../daml-engine/build/PackageBuilder.js';
import { T } from '../../../daml-engine/build/T.js';
import { buildSamplePackage } from '../../daml/samplePackage.js';
import { buildHostilePackage } from '../../daml/hostilePackage.js';
import { createCommand, exerciseCommand } from '../../../daml-engine/update/UpdateEngine.js';
import { int64, type Value } from '../../../daml-engine/value/Value.js';
import { must, world, type World } from '../helpers.js';
import { interactiveSubmissionOf } from '../../../reference-server/src/ledger/interactive/index.js';
import { newKey, signHash } from '../../interactive/support/keys.js';

const SAMPLE = buildSamplePackage('conformance-sample-thread');
const ASSET = '#conformance-sample-thread:Sample.Asset:Asset';
const DESCRIBABLE = '#conformance-sample-thread:Sample.Asset:Describable';
const opened: Ledger[] = [];
afterAll(() => Promise.all(opened.map((l) => l.close())));

/** One blob key for every ledger here: interactive submission derives its seeds from it, and the stories compare ids. */
const BLOB_KEY = new Uint8Array(32).fill(7);

function setup(engineWorker: CreateLedgerOptions['engineWorker']): World {
  const w = world({ engineWorker, blobKey: BLOB_KEY });
  opened.push(w.ledger);
  must(w.ledger.uploadDar(SAMPLE.dar(), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
  return w;
}

/** Command ids per ledger: the same story on two ledgers submits the same ids. */
const sequences = new WeakMap<Ledger, number>();
const nextId = (ledger: Ledger): string => {
  const n = (sequences.get(ledger) ?? 0) + 1;
  sequences.set(ledger, n);
  return `thread-${n}`;
};

/** As the command service submits: the engine run made ahead (`preRunEngine`), then the commit; the answer as JSON. */
async function submit(ledger: Ledger, actAs: string[], commands: Command[]): Promise<string> {
  const request = { userId: 'tester', commandId: nextId(ledger), actAs, commands };
  await ledger.preRunEngine(request);
  const r = ledger.submitAndWaitForTransaction({
    commands: request,
    transactionFormat: { eventFormat: { filtersForAnyParty: {}, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
  });
  return JSON.stringify(r.ok ? r.value : { code: r.error.code, cause: r.error.cause });
}
const created = (answer: string): string[] => ((JSON.parse(answer) as { transaction?: { events: Record<string, { contractId: string }>[] } }).transaction?.events ?? [])
  .flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent!.contractId] : []));
const exercise = (contractId: string, choice: string, choiceArgument: Record<string, string> = {}, templateId = ASSET): Command =>
  ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument } });

/** One story on a ledger: every answer, in order. */
async function story(w: World): Promise<string[]> {
  const { ledger, alice, bob, bank, carol } = w;
  const answers: string[] = [];
  const step = async (actAs: string[], commands: Command[]) => {
    const a = await submit(ledger, actAs, commands);
    answers.push(a);
    return a;
  };
  const [asset] = created(await step([bank], [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: alice, description: 'a token', quantity: '10' } } }]));
  const [moved] = created(await step([alice], [exercise(asset!, 'Transfer', { newOwner: bob })]));
  const [part] = created(await step([bob], [exercise(moved!, 'Split', { amount: '3' })]));
  // A Daml exception, and a refusal for a contract the submitter cannot see (the thread has a copy of it).
  await step([bob], [exercise(part!, 'Split', { amount: '100' })]);
  await step([carol], [exercise(part!, 'Quantity')]);
  await step([bob], [exercise(part!, 'Describe', {}, DESCRIBABLE)]);
  // Two commands in one transaction; then a contract archived before the thread's copy is used again.
  await step([bank], [
    { CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: carol, description: 'two', quantity: '2' } } },
    { CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: carol, description: 'three', quantity: '3' } } },
  ]);
  await step([bob], [exercise(part!, 'Transfer', { newOwner: alice })]);
  await step([bob], [exercise(part!, 'Quantity')]);
  return answers;
}

describe.skipIf(!engineWorkerBuilt)(`the engine thread${engineWorkerBuilt ? '' : ` (skipped: ${NOT_BUILT})`}`, () => {
  it('gives every answer the ledger\'s own thread gives: ids, events, results and refusals', async () => {
    const threaded = setup({ module: BUILT_ENGINE_WORKER });
    const own = setup(false);
    const withThread = await story(threaded);
    const without = await story(own);
    expect(withThread).toEqual(without);
    // The story went through the thread, refusals included (a Daml exception is its outcome too).
    const counts = threaded.ledger.engine.worker!.counts;
    expect(counts.handedBack).toBe(0);
    expect(counts.made).toBe(withThread.length);
    expect(without.filter((a) => a.includes('"code"')).map((a) => (JSON.parse(a) as { code: string }).code))
      .toEqual(['UNHANDLED_EXCEPTION', 'CONTRACT_NOT_FOUND', 'CONTRACT_NOT_FOUND']);
    // Copies of two contracts at most: older ones are dropped and asked for again, the answers the same.
    const forgetful = setup({ module: BUILT_ENGINE_WORKER, keptContracts: 2 });
    expect(await story(forgetful)).toEqual(without);
    expect(forgetful.ledger.engine.worker!.counts.handedBack).toBe(0);
  });

  it('checks the copies a run read against the ledger: a contract the submitter cannot see, or one archived since, makes the run again', async () => {
    const w = setup({ module: BUILT_ENGINE_WORKER });
    const { ledger, bank, alice, carol } = w;
    const [asset] = created(await submit(ledger, [bank], [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: alice, description: 'kept', quantity: '5' } } }]));
    const counts = ledger.engine.worker!.counts;
    // The thread made the create and keeps a copy; carol is no stakeholder.
    const refused = JSON.parse(await submit(ledger, [carol], [exercise(asset!, 'Quantity')])) as { code: string };
    expect(refused.code).toBe('CONTRACT_NOT_FOUND');
    expect(counts.stale).toBe(1);
    must(ledger.submitAndWait({ userId: 'tester', commandId: nextId(ledger), actAs: [alice], commands: [exercise(asset!, 'Transfer', { newOwner: carol })] }));
    expect((JSON.parse(await submit(ledger, [alice], [exercise(asset!, 'Quantity')])) as { code: string }).code).toBe('CONTRACT_NOT_FOUND');
    expect(counts.stale).toBe(2);
  });

  it('a thread that stops hands its runs back: the ledger answers them itself, and after the restarts allowed stops starting one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-thread-'));
    const crashing = join(dir, 'crashing.mjs');
    // Stops at its first run, as a thread the engine broke would.
    writeFileSync(crashing, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const broken = setup({ module: pathToFileURL(crashing), restarts: 1 });
    const own = setup(false);
    expect(await story(broken)).toEqual(await story(own));
    const worker = broken.ledger.engine.worker!;
    expect(worker.counts.made).toBe(0);
    // Two threads started and stopped (the first and one restart); the rest ran on the ledger's thread.
    expect(worker.counts.handedBack).toBe(2);
    expect(worker.usable).toBe(false);
  });

  it('a run the thread reports it could not make is made on the ledger\'s thread, and the thread stays in use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-thread-'));
    const failing = join(dir, 'failing.mjs');
    // Answers every run as one it could not make (an engine defect, an outcome that does not clone).
    writeFileSync(failing, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => { if (m.kind === 'run') parentPort.postMessage({ kind: 'failed', id: m.id }); });\n");
    const handing = setup({ module: pathToFileURL(failing) });
    const own = setup(false);
    const answers = await story(handing);
    expect(answers).toEqual(await story(own));
    const worker = handing.ledger.engine.worker!;
    expect(worker.counts).toMatchObject({ made: 0, handedBack: answers.length });
    expect(worker.usable).toBe(true);
  });

  it('runs commands on a package uploaded after the thread started (it asks for the package then)', async () => {
    const w = setup({ module: BUILT_ENGINE_WORKER });
    const { ledger, bank, alice } = w;
    const [first] = created(await submit(ledger, [bank], [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: alice, description: 'first', quantity: '1' } } }]));
    expect(first).toBeDefined();
    const later = buildSamplePackage('conformance-sample-later');
    must(ledger.uploadDar(later.dar(), { synchronizerId: ledger.config.synchronizers[0]!.id }));
    const answer = JSON.parse(await submit(ledger, [bank], [{ CreateCommand: { templateId: '#conformance-sample-later:Sample.Asset:Asset', createArguments: { issuer: bank, owner: alice, description: 'later', quantity: '2' } } }])) as { transaction?: { events: { CreatedEvent?: { templateId: string; packageName: string } }[] } };
    expect(answer.transaction?.events[0]?.CreatedEvent).toMatchObject({ templateId: `${later.id}:Sample.Asset:Asset`, packageName: 'conformance-sample-later' });
    expect(ledger.engine.worker!.counts).toMatchObject({ made: 2, handedBack: 0 });
  });

  it('hands the trace output of a run made there to the ledger\'s onTrace, in order', async () => {
    const b = new PackageBuilder({ name: 'conformance-thread-trace', version: '1.0.0' });
    const m = b.module('Trace');
    const said = (t: string, then: Expr) => E.call('TRACE', [T.unit], E.text(t), then);
    m.template('Talker', {
      fields: { owner: T.party },
      signatories: (t) => E.list(T.party, [t.field('owner')]),
      choices: [{ name: 'Say', consuming: false, returnType: T.unit, controllers: (c) => E.list(T.party, [c.field('owner')]), update: () => E.pure(T.unit, said('first', said('second', E.unit))) }],
    });
    const built = b.build();
    const traced = async (engineWorker: CreateLedgerOptions['engineWorker']): Promise<{ traces: string[]; w: World }> => {
      const traces: string[] = [];
      const w = world({ engineWorker, engineOnTrace: (message) => traces.push(message) });
      opened.push(w.ledger);
      must(w.ledger.uploadDar(built.dar(), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
      const [talker] = created(await submit(w.ledger, [w.alice], [{ CreateCommand: { templateId: `${built.id}:Trace:Talker`, createArguments: { owner: w.alice } } }]));
      await submit(w.ledger, [w.alice], [exercise(talker!, 'Say', {}, `${built.id}:Trace:Talker`)]);
      return { traces, w };
    };
    const threaded = await traced({ module: BUILT_ENGINE_WORKER });
    // Strict evaluation: the inner trace, an argument of the outer, comes first (as on the ledger's own thread).
    expect(threaded.traces).toEqual(['second', 'first']);
    expect((await traced(false)).traces).toEqual(threaded.traces);
    expect(threaded.w.ledger.engine.worker!.counts).toMatchObject({ made: 2, handedBack: 0 });
  });

  it("makes interactive prepare's and execute's runs too: the same prepared transaction, hash and execution as on the ledger's own thread", async () => {
    const key = newKey('ed25519');
    const interactive = async (w: World): Promise<string[]> => {
      const { ledger, bank } = w;
      const service = interactiveSubmissionOf(ledger);
      const synchronizer = ledger.config.synchronizers[0]!.id;
      const topology = must(service.generateTopology({ synchronizer, partyHint: 'signer', publicKey: key.publicKey }));
      const signer = must(service.allocateExternalParty({ synchronizer, onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })), multiHashSignatures: [signHash(key, topology.multiHash)] })).partyId;
      const asset = { CreateCommand: { templateId: ASSET, createArguments: { issuer: bank, owner: signer, description: 'signed for', quantity: '4' } } };
      const [first, second] = created(await submit(ledger, [bank], [asset, asset]));
      const answers: string[] = [];
      const steps = [exercise(first!, 'Split', { amount: '1' }), exercise(second!, 'Split', { amount: '100' }), exercise(first!, 'Split', { amount: '1' })];
      for (const [n, command] of steps.entries()) {
        const fixed = { transactionUuid: `00000000-0000-4000-8000-00000000000${n}`, now: ledger.config.clock.now() };
        const prepared = await ledger.inEngineSlices(() => service.prepare({ userId: 'tester', commandId: nextId(ledger), actAs: [signer], commands: [command] }, fixed));
        answers.push(JSON.stringify(prepared.ok ? prepared.value : { code: prepared.error.code, cause: prepared.error.cause }));
        if (!prepared.ok) continue;
        const executed = await ledger.inEngineSlices(() => service.executeAndWaitForTransaction({
          preparedTransaction: prepared.value.preparedTransaction, hashingSchemeVersion: prepared.value.hashingSchemeVersion, submissionId: nextId(ledger), userId: 'tester',
          partySignatures: { signatures: [{ party: signer, signatures: [signHash(key, prepared.value.preparedTransactionHash)] }] },
        }));
        answers.push(JSON.stringify(executed.ok ? executed.value : { code: executed.error.code, cause: executed.error.cause }));
      }
      return answers;
    };
    const threaded = setup({ module: BUILT_ENGINE_WORKER });
    const withThread = await interactive(threaded);
    const without = await interactive(setup(false));
    expect(withThread).toEqual(without);
    // A split prepared and executed; a split too large refused at prepare (a Daml exception); the
    // first asset again, archived by the first split (the thread holds a copy of it: caught).
    expect(without.map((a) => (JSON.parse(a) as { code?: string }).code)).toEqual([undefined, undefined, 'UNHANDLED_EXCEPTION', 'CONTRACT_NOT_FOUND']);
    // The creates, three prepares and one execute went to the thread; the copy of the archived asset
    // was caught when the third prepare's outcome came back, and that run made again here.
    expect(threaded.ledger.engine.worker!.counts).toMatchObject({ made: 5, handedBack: 0, stale: 1 });
  });

  it("outcomes the ledger's thread cannot read back (lists of 8,192 and 16,384 cells) are handed back and made there: the same answers, nothing left waiting", async () => {
    const hostile = buildHostilePackage('hostile-on-thread');
    const bomb = hostile.ref('Hostile', 'Bomb');
    const chars = async (engineWorker: CreateLedgerOptions['engineWorker']) => {
      const w = setup(engineWorker);
      must(w.ledger.uploadDar(hostile.dar(), { synchronizerId: w.ledger.config.synchronizers[0]!.id }));
      // Through the capture road (as interactive submission and Daml Script on the core): the thread answers raw values.
      const made = must(await w.ledger.submitEngineCommandsInSlices({
        actAs: [w.alice], commandId: 'bomb', commands: [createCommand(bomb, { kind: 'record', tycon: bomb, fieldNames: ['owner', 'depth'], fields: [{ kind: 'party', value: w.alice }, int64(1n)] })],
      }));
      const cid = (made.results[0] as { value: string }).value;
      const cells: number[] = [];
      // 2^13 cells: the thread (a larger stack) sends it, this thread cannot read it (a 'messageerror'
      // naming no run); 2^14: the thread cannot send it. Both are made here.
      for (const n of [13n, 14n]) {
        const listed = must(await w.ledger.submitEngineCommandsInSlices({
          actAs: [w.alice], commandId: `chars-${n}`, commands: [exerciseCommand(bomb, cid, 'Chars', { kind: 'record', tycon: hostile.ref('Hostile', 'Chars'), fieldNames: ['n'], fields: [int64(n)] })],
        }));
        let count = 0;
        for (let v = listed.results[0] as Value; v.kind === 'cons'; v = v.tail) count++;
        cells.push(count);
      }
      return { w, cells };
    };
    const threaded = await chars({ module: BUILT_ENGINE_WORKER });
    expect(threaded.cells).toEqual([8_192, 16_384]);
    expect((await chars(false)).cells).toEqual(threaded.cells);
    // The create came back from the thread; neither list did.
    expect(threaded.w.ledger.engine.worker!.counts).toMatchObject({ made: 1, handedBack: 2 });
  });

  it('close() stops the thread: later runs are made on the ledger\'s thread', async () => {
    const w = setup({ module: BUILT_ENGINE_WORKER });
    await w.ledger.close();
    expect(w.ledger.engine.worker!.usable).toBe(false);
    const [asset] = created(await submit(w.ledger, [w.bank], [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: w.bank, owner: w.alice, description: 'after', quantity: '1' } } }]));
    expect(asset).toMatch(/^00/);
    expect(w.ledger.engine.worker!.counts.made).toBe(0);
  });
});
