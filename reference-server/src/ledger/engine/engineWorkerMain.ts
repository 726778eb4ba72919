/**
 * The engine thread of a ledger (EngineWorker.ts): runs the command service's engine runs ahead
 * of their commit, and interactive submission's captured runs, so the ledger's thread serves HTTP
 * meanwhile. It holds no ledger state: it asks
 * the ledger's thread for packages and contracts, waiting for each answer (`Atomics.wait`), and
 * keeps copies of the contracts it was given or created (ids are unique, contents never change).
 * Whether a contract may still be used is the ledger's to decide, when the outcome comes back.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';

import type { Package, TemplateChoice } from '../../../../daml-engine/ast/Package.js';
import type { Type } from '../../../../daml-engine/ast/Type.js';
import { typesEqual } from '../../../../daml-engine/eval/typesEqual.js';
import { encodeJsonText } from '../../../../daml-engine/json/jsonValue.js';
import { packageDataTypes } from '../../../../daml-engine/json/packageDataTypes.js';
import type { Value } from '../../../../daml-engine/value/Value.js';
import { decodeArchive, type PackageCache } from '../../../../daml-engine/decode/decodeArchive.js';
import type { Slicing } from '../../../../daml-engine/eval/Evaluator.js';
import { plainTransaction, type ExerciseNode } from '../../../../daml-engine/update/Transaction.js';
import { UpdateEngine, type LedgerContract, type SubmissionResult } from '../../../../daml-engine/update/UpdateEngine.js';
import { ANY_TYPE } from './engineCommandOf.js';
import { archiveOf } from './EnginePackages.js';
import { ENGINE_SLICING } from './engineSlicing.js';
import type { Answer, EngineWorkerData, PrepareRequest, Question, RenderedNode, RenderedOutcome, RunDone, RunFailed, RunRequest } from './engineWorkerProtocol.js';

const data = workerData as EngineWorkerData;
const answered = new Int32Array(data.answered);

/** Asks the ledger's thread and waits for its answer (it answers from its event loop, never waiting on this thread). */
function ask(q: Question): Answer {
  data.questions.postMessage(q);
  Atomics.wait(answered, 0, 0);
  Atomics.store(answered, 0, 0);
  const m = receiveMessageOnPort(data.questions);
  if (m === undefined) throw new Error('the ledger thread signalled an answer it did not send');
  return m.message as Answer;
}

const packages: PackageCache = new Map();
const undecodable = new Set<string>();
/** The run whose slice is going: its id goes with the questions it asks. */
let current = 0;
function getPackage(packageId: string): Package | undefined {
  const known = packages.get(packageId);
  if (known !== undefined || undecodable.has(packageId)) return known;
  const a = ask({ kind: 'package', run: current, packageId });
  if (a.kind !== 'package' || a.payload === undefined) return undefined;
  const r = decodeArchive(archiveOf(packageId, a.payload), packages, packageId);
  if (!r.ok) {
    undecodable.add(packageId);
    return undefined;
  }
  return r.value;
}

/**
 * Copies of contracts by id, in two generations: a copy read or made goes to the young one; when
 * that is full, the old one is dropped and the young one takes its place. Each step is O(1) (a
 * Map's oldest-first deletion is not, with many deletions), and a copy in use is never the oldest.
 */
let young = new Map<string, LedgerContract>();
let old = new Map<string, LedgerContract>();
function copyOf(contractId: string): LedgerContract | undefined {
  const c = young.get(contractId);
  if (c !== undefined) return c;
  const o = old.get(contractId);
  if (o !== undefined) keep(contractId, o);
  return o;
}
function keep(contractId: string, c: LedgerContract): void {
  young.set(contractId, c);
  if (young.size >= data.keptContracts / 2) {
    old = young;
    young = new Map();
  }
}

/** Where `trace` output goes: the array of the run whose slice is going. */
let traces: string[] | undefined;
const engine = new UpdateEngine({
  getPackage,
  stepBudget: data.limits.stepBudget,
  allocationBudget: data.limits.allocationBudget,
  maxValueBytes: data.limits.maxTransactionBytes,
  onTrace: (message) => traces?.push(message),
});

async function run(r: RunRequest, slicing: Slicing): Promise<RunDone> {
  const unasked = new Set<string>();
  /** What the ledger's thread answered this run (absent ones included: never asked twice). */
  const answers = new Map<string, LedgerContract | undefined>();
  const runTraces: string[] = [];
  const getContract = (contractId: string): LedgerContract | undefined => {
    if (answers.has(contractId)) return answers.get(contractId);
    const known = copyOf(contractId);
    if (known !== undefined) {
      unasked.add(contractId);
      return known;
    }
    const a = ask({ kind: 'contract', run: r.id, contractId });
    const c = a.kind === 'contract' ? a.contract : undefined;
    answers.set(contractId, c);
    if (c !== undefined) keep(contractId, c);
    return c;
  };
  // Traces of interleaved runs: each slice's output goes to the run whose slice it is.
  const own: Slicing = {
    steps: slicing.steps,
    pause: async () => {
      traces = undefined;
      await slicing.pause();
      traces = runTraces;
      current = r.id;
    },
  };
  traces = runTraces;
  current = r.id;
  const resolved = new Map<string, string | undefined>();
  const packageResolution = (packageName: string): string | undefined => {
    if (resolved.has(packageName)) return resolved.get(packageName);
    const a = ask({ kind: 'resolve', run: r.id, packageName });
    const id = a.kind === 'resolve' ? a.packageId : undefined;
    resolved.set(packageName, id);
    return id;
  };
  const outcome = await engine.submitSliced({
    update: r.update, submitters: r.submitters, transactionSeed: r.transactionSeed, preparationTime: r.preparationTime, ledgerTime: r.ledgerTime, getContract, packageResolution,
  }, own);
  traces = undefined;
  if (outcome.ok) for (const c of outcome.transaction.created) keep(c.contractId, { templateId: c.templateId, argument: c.argument, signatories: c.signatories, observers: c.observers });
  return { kind: 'done', id: r.id, outcome: r.raw === true ? plain(outcome) : rendered(outcome, r.resultTypes), unasked: [...unasked], traces: runTraces };
}

/** The engine's outcome as plain data: its transaction's node seeds (derived when first read) written out. */
function plain(outcome: SubmissionResult): SubmissionResult {
  return outcome.ok ? { ...outcome, transaction: plainTransaction(outcome.transaction) } : outcome;
}

const dataTypes = packageDataTypes(getPackage);
const text = (value: Value, type: Type): string => encodeJsonText(value, type, dataTypes);

/** The choice an exercise node ran, from its package: the template's, or the interface's it was exercised through. */
function choiceOf(n: ExerciseNode): TemplateChoice | undefined {
  const owner = n.interfaceId ?? n.templateId;
  const module = getPackage(owner.packageId)?.modules.get(owner.module);
  const def = n.interfaceId === undefined ? module?.templates.get(owner.name) : module?.interfaces.get(owner.name);
  return def?.choices.get(n.choice);
}

/** Types equal as Daml compares them (not a deep comparison of two clones' every field: one per transfer showed in profiles). */
const sameType = (a: Type, b: Type | undefined): boolean => b !== undefined && typesEqual(a, b);

/**
 * The outcome as it crosses (RenderedTransaction): each value rendered as the ledger renders it
 * (`EngineRuntime.json`, by the same types), and the results by the commands' result types (a
 * lone exercise's result is its root node's, rendered once).
 */
function rendered(outcome: SubmissionResult, resultTypes: readonly (Type | undefined)[]): RenderedOutcome {
  if (!outcome.ok) return outcome;
  const t = outcome.transaction;
  const nodes = t.nodes.map((n): RenderedNode => {
    if (n.kind === 'create') return { ...n, argument: text(n.argument, { kind: 'con', tycon: n.templateId, args: [] }) };
    if (n.kind === 'fetch') return { kind: 'fetch', nodeId: n.nodeId };
    if (n.kind !== 'exercise') return n;
    const choice = choiceOf(n);
    if (choice === undefined) throw new Error(`the engine exercised choice ${n.choice}, which ${n.templateId.module}:${n.templateId.name} does not declare`);
    return {
      ...n,
      choiceArgument: text(n.choiceArgument, choice.argBinder.type),
      exerciseResult: n.exerciseResult === undefined ? undefined : text(n.exerciseResult, choice.returnType),
    };
  });
  const values = resultTypes.length === 1 ? [outcome.result] : outcome.result.kind === 'struct' ? outcome.result.fields : [];
  const root = t.roots.length === 1 ? t.nodes[t.roots[0]!] : undefined;
  const rootNode = root === undefined ? undefined : nodes[root.nodeId];
  const results = resultTypes.map((type, i) => {
    const v = values[i];
    if (v === undefined) return 'null';
    // The lone exercise command's result is its root node's: rendered once when by the same type.
    if (root?.kind === 'exercise' && root.exerciseResult === v && rootNode?.kind === 'exercise' && rootNode.exerciseResult !== undefined
      && type !== undefined && sameType(type, choiceOf(root)?.returnType)) return rootNode.exerciseResult;
    return text(v, type ?? ANY_TYPE);
  });
  return { ok: true, rendered: { nodes, roots: t.roots, archived: t.archived }, results, steps: outcome.steps, readsLedgerTime: outcome.readsLedgerTime };
}

parentPort!.on('message', (r: RunRequest | PrepareRequest) => {
  if (r.kind === 'prepare') {
    current = 0;
    for (const id of r.packageIds) getPackage(id);
    return;
  }
  // A run that throws, or whose outcome does not clone, is handed back (the ledger's thread makes it).
  void run(r, ENGINE_SLICING)
    .then((done) => parentPort!.postMessage(done))
    .catch(() => parentPort!.postMessage({ kind: 'failed', id: r.id } satisfies RunFailed));
});
