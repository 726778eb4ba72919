/**
 * `daml test` without a JVM: decode a DAR, find its scripts, run each on a fresh ledger (in memory
 * unless the caller brings another, such as the reference's ledger core).
 * Shared by the CLI (`canton-conformance test --dar`), the bench and the tests.
 */
import type { DefValue } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { BuiltinName, FirstOrderBuiltin } from '../builtins/Builtin.js';
import type { Dar } from '../decode/decodeDar.js';
import type { Slicing } from '../eval/Evaluator.js';
import { replacesBuiltins } from '../eval/Evaluator.js';
import { decodeDar } from '../decode/decodeDar.js';
import { Packages, lookupValue } from '../decode/Packages.js';
import { findScripts, scriptName } from './findScripts.js';
import type { ScriptCoverage } from './ScriptCoverage.js';
import { scriptLibraryOf } from './scriptLibrary.js';
import { InMemoryScriptLedger } from './InMemoryScriptLedger.js';
import type { ScriptLedger } from './ScriptLedger.js';
import type { Question, ScriptFailure } from './ScriptRunner.js';
import { ScriptRunner } from './ScriptRunner.js';
import type { Value } from '../value/Value.js';

export interface LoadedDar {
  /** The DAR file as read (a ledger that runs scripts uploads it). */
  readonly bytes: Uint8Array;
  readonly dar: Dar;
  readonly packages: Packages;
  /** The main package's scripts, by module then name. */
  readonly scripts: readonly QualifiedName[];
}

export type LoadDarResult = { readonly ok: true; readonly loaded: LoadedDar } | { readonly ok: false; readonly message: string };

/** `inflated`: the DAR's entries, inflated already (see `decodeDar`). */
export function loadDarScripts(bytes: Uint8Array, inflated?: Readonly<Record<string, Uint8Array>>): LoadDarResult {
  const packages = new Packages();
  const decoded = decodeDar(bytes, packages.cache, inflated);
  if (!decoded.ok) return { ok: false, message: `not a readable DAR: ${decoded.failure.message}` };
  packages.addDar(decoded.value);
  return { ok: true, loaded: { bytes, dar: decoded.value, packages, scripts: findScripts(decoded.value.main) } };
}

/**
 * Why the runner cannot run `scripts`: the first daml-script release among those they were built
 * with that it does not know (`scriptLibrary.ts`), or undefined when it knows them all.
 */
export function unknownScriptLibrary(loaded: LoadedDar, scripts: readonly QualifiedName[]): string | undefined {
  const seen = new Set<string>();
  for (const ref of scripts) {
    const type = lookupValue((id) => loaded.packages.get(id), ref)?.type;
    if (type?.kind !== 'con' || seen.has(type.tycon.packageId)) continue;
    seen.add(type.tycon.packageId);
    const library = scriptLibraryOf(loaded.packages.get(type.tycon.packageId), type.tycon.packageId);
    if (!library.ok) return library.message;
  }
  return undefined;
}

/** What a fresh script ledger is made with (`runDarScripts` makes one per script). */
export interface ScriptLedgerSetup {
  readonly loaded: LoadedDar;
  /** Receives `trace` / `debug` output of choices and templates. */
  readonly onTrace: (message: string) => void;
  /** Steps one submission may take. */
  readonly stepBudget: number | undefined;
  /** For tests only: builtins replacing the engine's. */
  readonly builtinOverrides: ReadonlyMap<BuiltinName, FirstOrderBuiltin> | undefined;
  /** For tests only: see `EvaluatorOptions.directDepth` (the in-memory ledger takes it). */
  readonly directDepth?: number;
  /**
   * The run evaluates the scripts' own code in slices (`RunScriptsOptions.slicing`): a ledger that
   * runs engine work in the caller's process does too, else at once, as the scripts' code runs.
   */
  readonly sliced?: boolean;
  /**
   * The top-level values the ledgers of this run evaluated so far (none with `builtinOverrides`):
   * computed once for all of a run's scripts, as upstream's engine computes a definition once for
   * its compiled packages. A map per run, so what a run takes does not depend on earlier runs.
   */
  readonly sharedValues?: Map<DefValue, Value>;
}

/** A ledger for one script, and the evaluation steps its submissions and views took. */
export type ScriptLedgerFactory = (setup: ScriptLedgerSetup) => ScriptLedger & { readonly stepsUsed: number } | Promise<ScriptLedger & { readonly stepsUsed: number }>;

/** The in-memory ledger `daml test` gives each script. */
export const inMemoryScriptLedger: ScriptLedgerFactory = (setup) => new InMemoryScriptLedger({
  getPackage: (id) => setup.loaded.packages.get(id), onTrace: setup.onTrace, builtinOverrides: setup.builtinOverrides, stepBudget: setup.stepBudget,
  directDepth: setup.directDepth, sharedValues: setup.sharedValues,
});

export interface ScriptResult {
  /** `Module:name`. */
  readonly name: string;
  readonly ref: QualifiedName;
  readonly ok: boolean;
  readonly failure: ScriptFailure | undefined;
  readonly durationMs: number;
  /** Evaluation steps of the script's own code. */
  readonly steps: number;
  /** Evaluation steps of its submissions and interface views, on the ledger. */
  readonly ledgerSteps: number;
  readonly questions: number;
  /** `trace` / `debug` output, in order (script code, then choices as they ran). */
  readonly trace: readonly string[];
}

export interface RunScriptsOptions {
  /** Evaluation steps each script may take. */
  readonly stepBudget?: number;
  /** For tests only: builtins replacing the engine's (never reachable from the CLI). */
  readonly builtinOverrides?: ReadonlyMap<BuiltinName, FirstOrderBuiltin>;
  /** For tests only: see `EvaluatorOptions.directDepth` (0: the machine alone). */
  readonly directDepth?: number;
  readonly onResult?: (result: ScriptResult) => void;
  /** Sees each question a script asks (name and version), e.g. to count them. */
  readonly onQuestion?: (script: QualifiedName, question: Question) => void;
  /** The clock durations are measured with (ms). */
  readonly now?: () => number;
  /** The ledger each script runs on, fresh per script. Default: in memory (`inMemoryScriptLedger`). */
  readonly ledger?: ScriptLedgerFactory;
  /** Records what the scripts created, exercised and queried (`ScriptCoverage.report` sums it up). */
  readonly coverage?: ScriptCoverage;
  /** See `ScriptRunOptions.randomSeed`. */
  readonly randomSeed?: string;
  /** See `ScriptRunOptions.slicing`: the scripts' own code evaluated in slices that yield. */
  readonly slicing?: Slicing;
}

/** Runs `scripts` (default: all of the DAR's), each on a fresh ledger, in order. */
export async function runDarScripts(loaded: LoadedDar, scripts: readonly QualifiedName[] = loaded.scripts, options: RunScriptsOptions = {}): Promise<ScriptResult[]> {
  const getPackage = (id: string) => loaded.packages.get(id);
  const runner = new ScriptRunner(getPackage, () => loaded.packages.all());
  const now = options.now ?? (() => performance.now());
  const results: ScriptResult[] = [];
  const sharedValues = replacesBuiltins(options.builtinOverrides) ? undefined : new Map<DefValue, Value>();
  for (const ref of scripts) {
    const trace: string[] = [];
    const onTrace = (m: string) => { trace.push(m); };
    const ledger = await (options.ledger ?? inMemoryScriptLedger)({
      loaded, onTrace, builtinOverrides: options.builtinOverrides, stepBudget: options.stepBudget, directDepth: options.directDepth, sliced: options.slicing !== undefined,
      ...(sharedValues === undefined ? {} : { sharedValues }),
    });
    const started = now();
    const outcome = await runner.run(ref, ledger, { onTrace, stepBudget: options.stepBudget, builtinOverrides: options.builtinOverrides, directDepth: options.directDepth,
      onQuestion: options.onQuestion && ((q) => options.onQuestion!(ref, q)), coverage: options.coverage, randomSeed: options.randomSeed,
      ...(options.slicing === undefined ? {} : { slicing: options.slicing }),
    });
    const result: ScriptResult = {
      name: scriptName(ref), ref, ok: outcome.ok, failure: outcome.ok ? undefined : outcome.failure,
      durationMs: now() - started, steps: outcome.steps, ledgerSteps: ledger.stepsUsed, questions: outcome.questions, trace,
    };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
