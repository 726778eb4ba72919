import type { Expr, Update } from '../../../../daml-engine/ast/Expr.js';
import type { LedgerContract, SubmissionResult } from '../../../../daml-engine/update/UpdateEngine.js';
import type { Slicing } from '../../../../daml-engine/eval/Evaluator.js';
import type { Transaction } from '../../../../daml-engine/update/Transaction.js';
import type { RenderedOutcome, RenderedTransaction } from './engineWorkerProtocol.js';
import type { Value } from '../../../../daml-engine/value/Value.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { canonicalArgumentOf, decodeBlobCached } from '../blob.js';
import type { LedgerError } from '../errors.js';
import { fail, ledgerError } from '../errors.js';
import type { InterpretEnv, PreparedTransaction } from '../interpret.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { synchronizerFor, type ValidatedSubmission } from '../submission.js';
import type { DamlValue } from '../wire.js';
import { cantonErrorOf } from './cantonErrorOf.js';
import type { EngineCommand } from './engineCommandOf.js';
import { ANY_TYPE } from './engineCommandOf.js';
import type { EngineTemplateDef } from './EngineCatalogue.js';
import { isEngineDef } from './EngineCatalogue.js';
import type { EngineRuntime } from './EngineRuntime.js';
import type { StoreNodes } from './storeNodesOf.js';
import { storeNodesOf } from './storeNodesOf.js';

type R<T> = Result<T, LedgerError>;
const preprocessing = (cause: string, extra: Omit<LedgerError, 'code' | 'cause'> = {}) => err(ledgerError('COMMAND_PREPROCESSING_FAILED', cause, extra));

/** What an engine run produced: the transaction to commit, and the engine's own results and transaction. */
export interface EngineRun {
  readonly prepared: PreparedTransaction;
  /** The result of each command, as engine values. */
  readonly results: readonly Value[];
  readonly transaction: Transaction;
}

/**
 * How a run is seeded and timed when the caller decides it (interactive submission seeds from the
 * transaction UUID and runs again at the signed preparation time); by default a fresh seed from the
 * ledger's contract-id nonce, the preparation time `now`, the ledger time max(now, minLedgerTime).
 */
export interface EngineRunOptions {
  readonly transactionSeed?: Uint8Array;
  /** Microseconds since the epoch. */
  readonly preparationTime?: bigint;
  /** Microseconds since the epoch: what `get_time` answers, and the ledger time the transaction commits at. */
  readonly ledgerTime?: bigint;
}

/** The seed and times a run is made with (microseconds since the epoch). */
interface RunAt {
  readonly transactionSeed: Uint8Array;
  readonly preparationTime: bigint;
  readonly ledgerTime: bigint;
}

/**
 * An engine run made ahead of the commit, in slices that yield (`preRunEngineCommands`): its
 * outcome, the times and seed it ran with, and the contracts it read as the store held them then.
 */
export interface PreRun extends RunAt {
  /** The engine's outcome, or the engine thread's (its transaction rendered: `'rendered' in outcome`). */
  readonly outcome: SubmissionResult | RenderedOutcome;
  /** Made for a run whose seed the ledger drew (`inSlicesTwice`'s capture): taken by the next such run, whatever its times. */
  readonly unseeded?: boolean;
  /** Contract id -> the store's contract and whether it was active when the run read it (undefined: not in the store). */
  readonly reads: ReadonlyMap<string, { readonly stored: StoredContract | undefined; readonly active: boolean }>;
  /** The engine commands it ran (the command service's pre-run): the commit runs the same ones, not decoded again. */
  readonly commands?: readonly EngineCommand[];
}

/** Pre-runs waiting for their commit, by the submission's commands array (the request's own). */
const preRuns = new WeakMap<object, PreRun>();

/**
 * Runs engine commands in slices that yield to the event loop (other clients are served
 * meanwhile) and keeps the outcome for `runEngineCommands` of the same submission, which commits
 * it synchronously when every contract it read is still as it was (else it runs again, at once).
 */
export async function preRunEngineCommands(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], now: number, slicing: Slicing,
): Promise<void> {
  const ledgerTime = BigInt(Math.trunc(Math.max(now, submission.minLedgerTimeMs ?? 0))) * 1000n;
  const transactionSeed = env.nextTransactionSeed();
  const preparationTime = BigInt(Math.trunc(now)) * 1000n;
  const at = { transactionSeed, preparationTime, ledgerTime };
  const pre = await runOnThread(env, rt, submission, commands, at) ?? await runInSlices(env, rt, submission, commands, at, slicing);
  if (pre !== undefined) preRuns.set(submission.commands, { ...pre, commands });
}

/**
 * The engine commands of `submission`'s pre-run, if one waits for it: its commit runs those,
 * as the outcome it reuses was made from them (the request's JSON is not decoded twice).
 */
export function preRunCommandsOf(submission: ValidatedSubmission): readonly EngineCommand[] | undefined {
  return preRuns.get(submission.commands)?.commands;
}

/** A run made ahead on this thread: its outcome holds the engine's values. */
type ValuePreRun = PreRun & { readonly outcome: SubmissionResult };

/** How a run made ahead reads contracts: the submission's look-up, each read recorded as the store held it then. */
function recordingLookup(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission) {
  const reads = new Map<string, { stored: StoredContract | undefined; active: boolean }>();
  const lookup = contractLookup(env, rt, submission, new Map());
  if (!lookup.ok) return undefined;
  const record = (contractId: string): void => {
    if (reads.has(contractId)) return;
    const stored = env.store.contract(contractId);
    reads.set(contractId, { stored, active: stored?.isActive ?? false });
  };
  const getContract = (contractId: string): LedgerContract | undefined => {
    record(contractId);
    return lookup.value.contract(contractId);
  };
  const usable = (contractId: string): boolean => {
    record(contractId);
    return lookup.value.usable(contractId);
  };
  return { reads, getContract, usable };
}

/**
 * A run made ahead on the engine thread (the command service's, rendered; a captured one of
 * interactive submission or Daml Script, `raw`), when the ledger has one that can make it;
 * undefined otherwise, and when a contract copy the thread used is no longer one the submission's
 * look-up gives it (active, and visible to it): the caller makes the run here then.
 */
async function runOnThread(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], at: RunAt, raw = false,
): Promise<PreRun | undefined> {
  const worker = rt.worker;
  if (worker?.usable !== true || commands.length === 0) return undefined;
  const looking = recordingLookup(env, rt, submission);
  if (looking === undefined) return undefined;
  const { reads, getContract, usable } = looking;
  rt.slicedRunsInProgress++;
  const made = await worker.run({ update: updateOf(commands), submitters: submission.actAs, ...at, resultTypes: commands.map((c) => c.resultType), raw }, getContract, resolutionOf(rt, submission))
    .finally(() => { rt.slicedRunsInProgress--; });
  if (made === undefined) return undefined;
  if (!made.unasked.every(usable)) {
    worker.counts.stale++;
    return undefined;
  }
  rt.stepsUsed += made.outcome.steps;
  for (const t of made.traces) rt.options.onTrace?.(t);
  return { outcome: made.outcome, ...at, reads };
}

/**
 * The package each package name runs as in this submission, as Canton's package preference
 * gives it (the highest version vetted now, or the one `packageIdSelectionPreference` names), for
 * the engine's interface calls on contracts of another version; asked once a name per run.
 */
function resolutionOf(rt: EngineRuntime, submission: ValidatedSubmission): (packageName: string) => string | undefined {
  const resolved = new Map<string, string | undefined>();
  return (name) => {
    if (!resolved.has(name)) resolved.set(name, rt.options.selectPackageId(name, submission.packageIdSelectionPreference ?? [], true));
    return resolved.get(name);
  };
}

/** A run made ahead whose outcome holds the engine's values (a raw run of the engine thread, or one made here). */
function valuePreRun(pre: PreRun | undefined): ValuePreRun | undefined {
  return pre !== undefined && !('rendered' in pre.outcome) ? (pre as ValuePreRun) : undefined;
}

/** One engine run in slices at the given seed and times, with what it read; undefined when its disclosed contracts are refused (the synchronous run answers that). */
async function runInSlices(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], at: RunAt, slicing: Slicing,
): Promise<ValuePreRun | undefined> {
  const looking = recordingLookup(env, rt, submission);
  if (looking === undefined || commands.length === 0) return undefined;
  const { reads, getContract } = looking;
  rt.slicedRunsInProgress++;
  const outcome = await rt.engine.submitSliced({
    update: updateOf(commands),
    submitters: submission.actAs, ...at, getContract, packageResolution: resolutionOf(rt, submission),
  }, slicing).finally(() => { rt.slicedRunsInProgress--; });
  rt.stepsUsed += outcome.steps;
  return { outcome, ...at, reads };
}

/**
 * Runs seeded by their caller (interactive prepare and execute) cannot be run ahead like the
 * command service's: their seed and times are computed deep inside a synchronous operation.
 * `inSlicesTwice` runs the operation once capturing them (its answer discarded: it stops at the
 * first engine run, before any effect), runs them in slices, then runs the operation again, which
 * takes each run whose seed and times match and whose inputs are unchanged (else runs it at once).
 */
interface CapturedRun {
  readonly start: (slicing: Slicing) => Promise<ValuePreRun | undefined>;
}
let capturing: CapturedRun[] | undefined;
let replaying: ValuePreRun[] | undefined;

/** Why a capturing pass stopped: never answered to anyone (the pass's answer is discarded). */
const CAPTURED = 'engine run captured to run in slices';

export async function inSlicesTwice<T>(operation: () => T, slicing: Slicing): Promise<T> {
  const captured: CapturedRun[] = [];
  let first: T;
  capturing = captured;
  try {
    first = operation();
  } finally {
    capturing = undefined;
  }
  // No engine run: the first pass's answer is the answer.
  if (captured.length === 0) return first;
  const ran: ValuePreRun[] = [];
  for (const c of captured) {
    const pre = await c.start(slicing);
    if (pre !== undefined) ran.push(pre);
  }
  replaying = ran;
  try {
    return operation();
  } finally {
    replaying = undefined;
  }
}

/** The next replayed run whose seed the ledger drew (taken), when what it read is unchanged. */
function takeReplayedUnseeded(env: InterpretEnv): ValuePreRun | undefined {
  const i = replaying?.findIndex((p) => p.unseeded === true) ?? -1;
  if (i < 0) return undefined;
  const [pre] = (replaying as ValuePreRun[]).splice(i, 1) as [ValuePreRun];
  return stillAsRead(env, pre) ? pre : undefined;
}

/**
 * Whether every contract a run made ahead read is one this submission may use now (collected into
 * `inputs` by `usable`): else the run is made again, here, from empty inputs. `stillAsRead` saw the
 * store unchanged; this also holds the run to the submission's own view (its parties, its
 * disclosed contracts), so a run never commits an exercise of a contract its inputs lack.
 */
function allUsable(pre: PreRun, inputs: Map<string, StoredContract>, usable: (contractId: string) => boolean): boolean {
  for (const contractId of pre.reads.keys()) {
    if (!usable(contractId)) {
      inputs.clear();
      return false;
    }
  }
  return true;
}

/** Whether every contract a run made ahead read is as the store held it then (else the run must be made again). */
function stillAsRead(env: InterpretEnv, pre: PreRun): boolean {
  for (const [contractId, then] of pre.reads) {
    const now = env.store.contract(contractId);
    if (now !== then.stored || (now?.isActive ?? false) !== then.active) return false;
  }
  return true;
}

/** The replayed run made for these seed and times (taken), when what it read is unchanged. */
function takeReplayed(env: InterpretEnv, seed: Uint8Array, preparationTime: bigint, ledgerTime: bigint): ValuePreRun | undefined {
  if (replaying === undefined) return undefined;
  const i = replaying.findIndex((p) => p.unseeded !== true && Buffer.compare(Buffer.from(p.transactionSeed), Buffer.from(seed)) === 0 && p.preparationTime === preparationTime
    // A run that never read the time is the same at any ledger time; a refusal is the answer at the time it ran (the request's).
    && (p.ledgerTime === ledgerTime || !p.outcome.ok || !p.outcome.readsLedgerTime));
  if (i < 0) return undefined;
  const [pre] = replaying.splice(i, 1) as [ValuePreRun];
  return stillAsRead(env, pre) ? pre : undefined;
}

/**
 * The pre-run of `submission`, when every contract it read is still as it was (taken: used once);
 * `rendered`: whether one the engine thread made, whose values are JSON only, may be taken.
 */
function takePreRun(env: InterpretEnv, submission: ValidatedSubmission, rendered: boolean): PreRun | undefined {
  const pre = preRuns.get(submission.commands);
  if (pre === undefined || (!rendered && pre.outcome.ok && 'rendered' in pre.outcome)) return undefined;
  preRuns.delete(submission.commands);
  return stillAsRead(env, pre) ? pre : undefined;
}

/** How the engine sees contracts for a submission (`contractLookup`). */
interface ContractLookup {
  /** The contract as the engine runs it; undefined when the submission may not use it. */
  readonly contract: (contractId: string) => LedgerContract | undefined;
  /**
   * Whether the submission may use the contract, without its argument as an engine value (a
   * contract the engine thread created is held as JSON here, and a run there already had it).
   */
  readonly usable: (contractId: string) => boolean;
}

/** How the engine sees contracts for `submission`: disclosed ones first, then the store's as its readers see them; `inputs` collects those used. */
function contractLookup(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, inputs: Map<string, StoredContract>): R<ContractLookup> {
  const { actAs, readAs } = submission;
  const disclosed = disclosedContracts(env, submission);
  if (!disclosed.ok) return disclosed;
  const usableContract = (contractId: string): StoredContract | undefined => {
    const shown = disclosed.value.get(contractId);
    const c = shown ?? env.store.contract(contractId);
    if (!c || !c.isActive || c.createdOffset === 0) return undefined;
    if (shown === undefined && !c.stakeholders.some((p) => actAs.includes(p) || readAs.includes(p))) return undefined;
    if (!isEngineDef(c.template) || c.template.kind !== 'template') return undefined;
    return c;
  };
  return ok({
    contract: (contractId) => {
      const c = usableContract(contractId);
      const argument = c === undefined ? undefined : rt.argumentOf(c);
      if (c === undefined || !argument) return undefined;
      inputs.set(contractId, c);
      // The stakeholders recorded at the create: the engine need not run the template's expressions again.
      return { templateId: (c.template as EngineTemplateDef).engine.name, argument, signatories: c.signatories, observers: c.observers };
    },
    usable: (contractId) => {
      const c = usableContract(contractId);
      if (c !== undefined) inputs.set(contractId, c);
      return c !== undefined;
    },
  });
}

/**
 * The command service's engine commands as one transaction of `submission`: the run the engine
 * thread made ahead when it still holds (its transaction already rendered as JSON), else
 * `runEngineCommands` (a run made ahead on this thread, or one made now).
 */
export function interpretEngineCommands(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], now: number): R<PreparedTransaction> {
  const waiting = preRuns.get(submission.commands)?.outcome;
  if (waiting !== undefined && 'rendered' in waiting) {
    const inputs = new Map<string, StoredContract>();
    const lookup = contractLookup(env, rt, submission, inputs);
    if (!lookup.ok) return lookup;
    const pre = takePreRun(env, submission, true);
    // The inputs as this lookup sees them (the same contracts: nothing it read has changed).
    if (pre !== undefined && 'rendered' in pre.outcome && allUsable(pre, inputs, lookup.value.usable)) {
      return finishRendered(env, rt, submission, pre.outcome, inputs, Number(pre.ledgerTime / 1000n));
    }
  }
  const run = runEngineCommands(env, rt, submission, commands, now);
  return run.ok ? ok(run.value.prepared) : run;
}

/** Runs engine commands as one transaction of `submission` (its parties, disclosed contracts, ledger time). */
export function runEngineCommands(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], now: number, options: EngineRunOptions = {},
): R<EngineRun> {
  // A caller that chose the ledger time (interactive execution, within the signed bounds) commits at it.
  const ledgerTime = options.ledgerTime === undefined ? Math.max(now, submission.minLedgerTimeMs ?? 0) : Number(options.ledgerTime / 1000n);
  const inputs = new Map<string, StoredContract>();
  const lookup = contractLookup(env, rt, submission, inputs);
  if (!lookup.ok) return lookup;
  const getContract = lookup.value.contract;
  if (commands.length === 0) return preprocessing('The submitted command is missing a mandatory field: commands');
  // A run made ahead in slices (the command service's), committed now if what it read still holds.
  const pre = options.transactionSeed === undefined && options.ledgerTime === undefined ? takePreRun(env, submission, false) : undefined;
  const usable = (contractId: string) => getContract(contractId) !== undefined;
  if (pre !== undefined && !('rendered' in pre.outcome) && allUsable(pre, inputs, usable)) {
    // The inputs as this lookup sees them (the same contracts: nothing it read has changed).
    return finishRun(env, rt, submission, commands, pre.outcome, inputs, Number(pre.ledgerTime / 1000n));
  }
  // An unseeded run captured by the first pass (`inSlicesTwice`): its seed was drawn then, once.
  const unseeded = options.transactionSeed === undefined ? takeReplayedUnseeded(env) : undefined;
  if (unseeded !== undefined && allUsable(unseeded, inputs, usable)) {
    rt.slicedRunsTaken++;
    return finishRun(env, rt, submission, commands, unseeded.outcome, inputs, Number(unseeded.ledgerTime / 1000n));
  }
  // The seed only has to be fresh: the ledger's contract-id nonce makes it so (interactive submission re-derives it).
  const transactionSeed = options.transactionSeed ?? env.nextTransactionSeed();
  const preparationTime = options.preparationTime ?? BigInt(Math.trunc(now)) * 1000n;
  const ledgerTimeMicros = options.ledgerTime ?? BigInt(Math.trunc(ledgerTime)) * 1000n;
  if (capturing !== undefined) {
    const at = { transactionSeed, preparationTime, ledgerTime: ledgerTimeMicros };
    const seeded = options.transactionSeed !== undefined;
    capturing.push({ start: async (slicing) => {
      // On the engine thread when there is one (its outcome the engine's own: the prepared
      // transaction is built from its values), else in slices here.
      const pre = valuePreRun(await runOnThread(env, rt, submission, commands, at, true)) ?? await runInSlices(env, rt, submission, commands, at, slicing);
      return pre === undefined ? undefined : { ...pre, unseeded: !seeded };
    } });
    return err(ledgerError('LEDGER_API_INTERNAL_ERROR', CAPTURED));
  }
  const replayed = options.transactionSeed === undefined ? undefined : takeReplayed(env, transactionSeed, preparationTime, ledgerTimeMicros);
  if (replayed !== undefined && allUsable(replayed, inputs, usable)) {
    rt.slicedRunsTaken++;
    return finishRun(env, rt, submission, commands, replayed.outcome, inputs, ledgerTime);
  }
  const run = rt.engine.submit({
    update: updateOf(commands),
    submitters: submission.actAs,
    transactionSeed,
    preparationTime,
    ledgerTime: ledgerTimeMicros,
    getContract,
    packageResolution: resolutionOf(rt, submission),
  });
  rt.stepsUsed += run.steps;
  return finishRun(env, rt, submission, commands, run, inputs, ledgerTime);
}

/** An engine run's outcome as the ledger's prepared transaction. */
function finishRun(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], run: SubmissionResult,
  inputs: Map<string, StoredContract>, ledgerTime: number,
): R<EngineRun> {
  if (!run.ok) return err(cantonErrorOf(run.error));
  const values: Value[] = commands.length === 1 ? [run.result] : run.result.kind === 'struct' ? [...run.result.fields] : [];
  const prepared = preparedOf(env, rt, submission, run.transaction, inputs, ledgerTime, run.readsLedgerTime, () => commands.map((c, i): DamlValue => {
    const v = values[i];
    return v === undefined ? null : rt.json(v, c.resultType ?? ANY_TYPE);
  }));
  return prepared.ok ? ok({ prepared: prepared.value, results: values, transaction: run.transaction }) : prepared;
}

/** A run the engine thread made, as the ledger's prepared transaction: its values are already the JSON the ledger shows. */
function finishRendered(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, run: Extract<RenderedOutcome, { ok: true }>, inputs: Map<string, StoredContract>, ledgerTime: number,
): R<PreparedTransaction> {
  return preparedOf(env, rt, submission, run.rendered, inputs, ledgerTime, run.readsLedgerTime, () => run.results.map((text) => JSON.parse(text) as DamlValue));
}

/** The prepared transaction of an engine transaction (its values as engine values, or as rendered JSON), its results' JSON made when first read. */
function preparedOf(
  env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, tx: Transaction | RenderedTransaction, inputs: Map<string, StoredContract>,
  ledgerTime: number, dependsOnTime: boolean, makeResults: () => DamlValue[],
): R<PreparedTransaction> {
  for (const c of inputs.values()) {
    if (c.inFlight) {
      return fail('UNKNOWN_CONTRACT_SYNCHRONIZERS', `The synchronizers for the contracts ${c.contractId} are currently unknown due to ongoing contract reassignments`, {
        context: { contractIds: c.contractId },
      });
    }
  }
  const synchronizer = synchronizerFor(env.config.synchronizers, submission, inputs);
  if (!synchronizer.ok) return synchronizer;
  const converted = storeNodesOf(rt, env.interner, tx, inputs, ledgerTime);
  return ok(new EnginePrepared(submission, converted, [...inputs.values()], synchronizer.value, ledgerTime, dependsOnTime, makeResults));
}

/**
 * An engine run's prepared transaction. The results' JSON is made when first read (fixtures, the
 * seeded worlds): the command service answers with the transaction, and a Daml Script run takes
 * the engine's values, so most runs never do. A class, not an object literal with a getter: V8
 * builds the latter's accessor through the runtime on every command. A copy made by spreading
 * one must name `results` itself (spreading copies own properties only).
 */
class EnginePrepared implements PreparedTransaction {
  readonly nodes: PreparedTransaction['nodes'];
  readonly created: PreparedTransaction['created'];
  readonly consumed: PreparedTransaction['consumed'];
  #results: DamlValue[] | undefined;
  #makeResults: (() => DamlValue[]) | undefined;

  constructor(
    readonly submission: ValidatedSubmission, converted: StoreNodes, readonly inputs: readonly StoredContract[], readonly synchronizer: number,
    readonly ledgerTime: number, readonly dependsOnTime: boolean, makeResults: () => DamlValue[],
  ) {
    this.nodes = converted.nodes;
    this.created = converted.created;
    this.consumed = converted.consumed;
    this.#makeResults = makeResults;
  }

  get results(): DamlValue[] {
    if (this.#results === undefined) {
      this.#results = this.#makeResults!();
      this.#makeResults = undefined;
    }
    return this.#results;
  }
}

/** The update the engine runs for `commands`: a lone command's own, else `sequence`. */
function updateOf(commands: readonly EngineCommand[]): Update {
  return commands.length === 1 ? (commands[0] as EngineCommand).update : sequence(commands);
}

/** Commands run in order, each result kept: `r0 <- c0; ...; pure (struct r0 ...)`. */
function sequence(commands: readonly EngineCommand[]): Update {
  const names = commands.map((_, i) => `cmd$${i}`);
  const fields = names.map((n) => ({ field: n, expr: { kind: 'var', name: n } as Expr }));
  return {
    kind: 'block',
    bindings: commands.map((c, i) => ({ name: names[i] as string, type: ANY_TYPE, bound: { kind: 'update', update: c.update } })),
    body: { kind: 'update', update: { kind: 'pure', type: ANY_TYPE, expr: { kind: 'structCon', fields } } },
  };
}

/** No disclosed contracts (most submissions): one shared empty map. */
const NONE_DISCLOSED: ReadonlyMap<string, StoredContract> = new Map();

function disclosedContracts(env: InterpretEnv, submission: ValidatedSubmission): R<ReadonlyMap<string, StoredContract>> {
  if (submission.disclosedContracts.length === 0) return ok(NONE_DISCLOSED);
  const out = new Map<string, StoredContract>();
  for (const d of submission.disclosedContracts) {
    const decoded = decodeBlobCached(d.createdEventBlob, env.config.blobKey);
    if (!decoded.ok) return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract is invalid: ${decoded.reason}`, { context: { contract_id: d.contractId ?? '' } });
    const p = decoded.value;
    if (d.contractId !== undefined && d.contractId !== p.contractId) {
      return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract ${d.contractId} does not match its createdEventBlob (which is for ${p.contractId})`, { context: { contract_id: d.contractId } });
    }
    if (d.templateId !== undefined) {
      // A package-name id names the template in any version of its package.
      const t = env.catalogue.resolve(d.templateId);
      const own = env.store.contract(p.contractId)?.template;
      const byName = own !== undefined && d.templateId === `#${own.packageName}:${own.qualifiedName}`;
      if (!byName && (!t.ok || t.value.id !== p.templateId)) {
        return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract ${p.contractId}: template id ${d.templateId} does not match its createdEventBlob`, { context: { contract_id: p.contractId } });
      }
    }
    const stored = env.store.contract(p.contractId);
    if (!stored || stored.template.id !== p.templateId || canonicalArgumentOf(stored) !== decoded.canonicalArgument()) {
      return fail('CONTRACT_NOT_FOUND', `Contract could not be found with id ${p.contractId}`, { context: { contract_id: p.contractId } });
    }
    out.set(p.contractId, stored);
  }
  return ok(out);
}
