/**
 * Runs a Daml Script (daml-script 3.x) against a `ScriptLedger`.
 *
 * A script is `Script { runScript : () -> Free ScriptF (a, ()), dummy }` (module
 * `Daml.Script.Internal.LowLevel`). `Free` is `Pure x | Free (ScriptF next)`; `ScriptF` wraps a
 * `Question { commandName, commandVersion, payload, locations, continue }`. The runner answers
 * each question (`ScriptCommands.ts`) and applies `continue` to the answer, until `Pure (a, ())`.
 * As the upstream runner does, it replaces `dangerousCast` (the library's untyped coercion) by the
 * identity.
 *
 * The loop is iterative: a script asking a million questions uses no JS stack; it awaits each
 * answer (the ledger's are asynchronous), so a long script yields between questions. `Catch` pushes a
 * frame; an exception (a Daml `throw`, an unhandled exception from a submission that must
 * succeed) unwinds to the innermost frame, whose `continue` receives `Left exception`.
 */
import { createHash } from 'node:crypto';

import type { Expr } from '../ast/Expr.js';
import type { DefValue, Package } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import type { BuiltinName, FirstOrderBuiltin } from '../builtins/Builtin.js';
import { lookupValue } from '../decode/Packages.js';
import type { Slicing } from '../eval/Evaluator.js';
import { closedFunction, Evaluator, replacesBuiltins } from '../eval/Evaluator.js';
import type { Definition, EvalError, EvalResult } from '../eval/EvalResult.js';
import { describeDefinition } from '../eval/EvalResult.js';
import type { AnyExceptionValue, Value } from '../value/Value.js';
import { UNIT } from '../value/Value.js';
import { describeException } from './describeException.js';
import type { ScriptCoverage } from './ScriptCoverage.js';
import type { ScriptLibrary } from './scriptLibrary.js';
import { scriptLibraryOf } from './scriptLibrary.js';
import { answer } from './ScriptCommands.js';
import type { ScriptLedger } from './ScriptLedger.js';
import { ScriptLedgerRefusal } from './ScriptLedger.js';
import { ScriptValues, ShapeError, constructorOf, field, text } from './ScriptValues.js';

export const LOW_LEVEL_MODULE = 'Daml.Script.Internal.LowLevel';

export interface ScriptRunOptions {
  /** Evaluation steps the script's own code may take in all (each submission has the ledger's budget). Default 200,000,000. */
  readonly stepBudget?: number;
  /** Receives `trace` / `debug` output of the script code. */
  readonly onTrace?: (message: string) => void;
  /** For tests only: builtins replacing the engine's (see `EvaluatorOptions.builtinOverrides`). */
  readonly builtinOverrides?: ReadonlyMap<BuiltinName, FirstOrderBuiltin>;
  /** For tests only: see `EvaluatorOptions.directDepth` (0: the machine alone). */
  readonly directDepth?: number;
  /** Sees each question the script asks, before it is answered. */
  readonly onQuestion?: (question: Question) => void;
  /** Records what the script's submissions and interface queries used. */
  readonly coverage?: ScriptCoverage;
  /**
   * Mixed into the draws where daml-script draws at random (party names): give a fresh one per
   * run against a shared participant, where the same names would collide. Default: none, so a
   * run is deterministic.
   */
  readonly randomSeed?: string;
  /**
   * Evaluate the script's own code in slices that yield (`Evaluator.runMachineSliced`), so a
   * script run inside a server's process never holds its other clients. Default: at once.
   */
  readonly slicing?: Slicing;
}

export type ScriptFailureKind =
  /** A Daml exception nobody caught. */
  | 'unhandledException'
  /** `error` / `abort` / `fail`, or a submission that must fail succeeded. */
  | 'userError'
  /** A submission that must succeed failed. */
  | 'submitFailed'
  /** A question this runner does not answer. */
  | 'unsupportedCommand'
  /** The script was built with a daml-script release this runner does not know. */
  | 'unknownScriptLibrary'
  /** The ledger refused a question outright (static time set backwards on a participant, ...). */
  | 'ledgerRefused'
  | 'budgetExceeded'
  /** The definition is not a Script, or is missing. */
  | 'notAScript'
  /** Anything else the engine reports (a missing definition, ill-typed code). */
  | 'engine';

export interface ScriptFailure {
  readonly kind: ScriptFailureKind;
  readonly message: string;
}

export type ScriptOutcome =
  | { readonly ok: true; readonly value: Value; readonly steps: number; readonly questions: number }
  | { readonly ok: false; readonly failure: ScriptFailure; readonly steps: number; readonly questions: number };

/** What answering one question gave. */
export type Answer =
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'throw'; readonly exception: AnyExceptionValue }
  | { readonly kind: 'fail'; readonly failure: ScriptFailure }
  /** `Catch`: run `script` (a Script value) in a frame that catches its exceptions. */
  | { readonly kind: 'catch'; readonly script: Value };

export interface Question {
  readonly name: string;
  readonly version: bigint;
  readonly payload: Value;
}

/** The evaluator and values one script run answers questions with. */
export interface ScriptContext {
  readonly ledger: ScriptLedger;
  readonly values: ScriptValues;
  readonly evaluator: Evaluator;
  readonly coverage: ScriptCoverage | undefined;
  /** The daml-script release the script was built with. */
  readonly library: ScriptLibrary;
  /** `n` hex digits, deterministic per run (where daml-script draws random ones). */
  randomHex(n: number): string;
}

const IDENTITY: Value = closedFunction(['x'], { kind: 'var', name: 'x' });

export class ScriptRunner {
  /**
   * Per daml-script package, what every script of the run shares: the value builder (its type
   * look-ups) and the top-level values evaluated so far (their evaluators replace the same
   * `dangerousCast`). Upstream's engine computes a definition once for all machines of its compiled
   * packages (Speedy's `SDefinition` cache), so a `trace` in a top-level value shows once a run there too.
   */
  private readonly byLibrary = new Map<string, { readonly values: ScriptValues; readonly topValues: Map<DefValue, Value> }>();

  constructor(
    private readonly getPackage: (id: string) => Package | undefined,
    private readonly allPackages: () => Iterable<Package>,
  ) {}

  /** Runs the script `ref` against `ledger`. Failures are data, never thrown. */
  async run(ref: QualifiedName, ledger: ScriptLedger, options: ScriptRunOptions = {}): Promise<ScriptOutcome> {
    const where = `${ref.module}:${ref.name} (package ${ref.packageId})`;
    const def = lookupValue(this.getPackage, ref);
    if (!def) return { ok: false, failure: { kind: 'notAScript', message: `no definition ${where}` }, steps: 0, questions: 0 };
    const type = def.type;
    if (type.kind !== 'con' || type.tycon.module !== LOW_LEVEL_MODULE || type.tycon.name !== 'Script') {
      return { ok: false, failure: { kind: 'notAScript', message: `${where} is not a Script (its type is not ${LOW_LEVEL_MODULE}:Script)` }, steps: 0, questions: 0 };
    }
    return this.runExpr({ kind: 'val', ref }, type.tycon.packageId, where, ledger, options);
  }

  /**
   * Runs the Script `expr` evaluates to, built against the daml-script package `scriptPackageId`;
   * `where` names it in failures.
   */
  async runExpr(expr: Expr, scriptPackageId: string, where: string, ledger: ScriptLedger, options: ScriptRunOptions = {}): Promise<ScriptOutcome> {
    const budget = options.stepBudget ?? 200_000_000;
    let steps = 0;
    let questions = 0;
    const done = (failure: ScriptFailure): ScriptOutcome => ({ ok: false, failure, steps, questions });
    const library = scriptLibraryOf(this.getPackage(scriptPackageId), scriptPackageId);
    if (!library.ok) return done({ kind: 'unknownScriptLibrary', message: `${where}: ${library.message}` });

    let shared = this.byLibrary.get(scriptPackageId);
    if (shared === undefined) {
      shared = { values: new ScriptValues(this.allPackages, this.getPackage, scriptPackageId), topValues: new Map() };
      this.byLibrary.set(scriptPackageId, shared);
    }
    const { values } = shared;
    const evaluator = new Evaluator({
      getPackage: this.getPackage,
      ...(replacesBuiltins(options.builtinOverrides) ? {} : { sharedValues: shared.topValues }),
      stepBudget: budget,
      onTrace: options.onTrace,
      builtinOverrides: options.builtinOverrides,
      directDepth: options.directDepth,
      valueOverride: (r) => (r.packageId === scriptPackageId && r.module === LOW_LEVEL_MODULE && r.name === 'dangerousCast' ? IDENTITY : undefined),
    });
    let draws = 0;
    const randomHex = (n: number) => createHash('sha256').update(`${options.randomSeed ?? ''}${where}/${draws++}`).digest('hex').slice(0, n);
    const ctx: ScriptContext = { ledger, values, evaluator, randomHex, coverage: options.coverage, library: library.library };

    const evalFailure = (error: EvalError): ScriptFailure => {
      switch (error.kind) {
        case 'userError': return { kind: 'userError', message: `${error.message} (in ${describeDefinition(error.definition)})` };
        case 'budgetExceeded': return { kind: 'budgetExceeded', message: `${where} exceeded its budget of ${budget} steps (in ${describeDefinition(error.definition)})` };
        case 'unhandledException': return this.uncaught(evaluator, error.exception, error.definition);
        case 'failWithStatus': return { kind: 'userError', message: `${error.errorId}: ${error.message}` };
        default: return { kind: 'engine', message: error.message };
      }
    };
    /** Counts an evaluation's steps; `Stop` when the budget is spent. */
    const account = (r: EvalResult): EvalResult => {
      steps += r.steps;
      return r;
    };

    // `Catch` frames: the `continue` of each open Catch question.
    const catches: Value[] = [];
    let pending: { kind: 'apply'; fn: Value; arg: Value } | { kind: 'start'; script: Value };
    // In slices when asked: the same machine, paused between slices (one sliced run at a time, as here).
    const slicing = options.slicing;
    const evaluate = (e: Expr): Promise<EvalResult> | EvalResult =>
      slicing === undefined ? evaluator.evaluate(e) : evaluator.runMachineSliced(() => evaluator.evalWith(e, null), slicing);
    const apply = (fn: Value, args: readonly Value[]): Promise<EvalResult> | EvalResult =>
      slicing === undefined ? evaluator.apply(fn, args) : evaluator.runMachineSliced(() => evaluator.applyValue(fn, args), slicing);
    const start = account(await evaluate(expr));
    if (!start.ok) return start.error.kind === 'unhandledException' ? done(this.uncaught(evaluator, start.error.exception, start.error.definition)) : done(evalFailure(start.error));
    pending = { kind: 'start', script: start.value };

    try {
      for (;;) {
        if (steps > budget) return done({ kind: 'budgetExceeded', message: `${where} exceeded its budget of ${budget} steps` });
        // Evaluate to the next `Free` value.
        const next = pending.kind === 'start'
          ? account(await apply(field(pending.script, 'runScript'), [UNIT]))
          : account(await apply(pending.fn, [pending.arg]));
        let thrown: AnyExceptionValue | undefined;
        let thrownIn: Definition | undefined;
        let free: Value | undefined;
        if (next.ok) free = next.value;
        else if (next.error.kind === 'unhandledException') ({ exception: thrown, definition: thrownIn } = next.error);
        else return done(evalFailure(next.error));

        if (free !== undefined) {
          if (constructorOf(free) === 'Pure') {
            const result = field((free as { value: Value }).value, '_1');
            const frame = catches.pop();
            if (frame === undefined) return { ok: true, value: result, steps, questions };
            pending = { kind: 'apply', fn: frame, arg: values.right(result) };
            continue;
          }
          const question = field((free as { value: Value }).value, 'unpack');
          questions++;
          const q: Question = {
            name: text(field(question, 'commandName')),
            version: (() => { const v = field(question, 'commandVersion'); return v.kind === 'int64' ? v.value : 0n; })(),
            payload: field(question, 'payload'),
          };
          options.onQuestion?.(q);
          // The ledger may answer over the network: the loop awaits, and stays a loop.
          const got = await answer(q, ctx);
          switch (got.kind) {
            case 'value': pending = { kind: 'apply', fn: field(question, 'continue'), arg: got.value }; continue;
            case 'fail': return done(got.failure);
            case 'catch': {
              catches.push(field(question, 'continue'));
              const inner = account(await apply(got.script, [UNIT]));
              if (inner.ok) { pending = { kind: 'start', script: inner.value }; continue; }
              if (inner.error.kind !== 'unhandledException') return done(evalFailure(inner.error));
              ({ exception: thrown, definition: thrownIn } = inner.error);
              break;
            }
            case 'throw': thrown = got.exception; break;
          }
        }
        // An exception: the innermost Catch receives it.
        const frame = catches.pop();
        if (frame === undefined) return done(this.uncaught(evaluator, thrown!, thrownIn));
        pending = { kind: 'apply', fn: frame, arg: values.left(thrown!) };
      }
    } catch (error) {
      if (error instanceof ShapeError) return done({ kind: 'engine', message: `${where}: unexpected script value: ${error.message}` });
      if (error instanceof ScriptLedgerRefusal) return done({ kind: 'ledgerRefused', message: error.message });
      throw error;
    }
  }

  /** An uncaught exception, with its message as Daml computes it. */
  private uncaught(evaluator: Evaluator, exception: AnyExceptionValue, thrownIn: Definition | undefined): ScriptFailure {
    const where = thrownIn ? ` (thrown in ${describeDefinition(thrownIn)})` : '';
    return { kind: 'unhandledException', message: `unhandled exception ${describeException(evaluator, exception)}${where}` };
  }
}
