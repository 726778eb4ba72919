/**
 * The Daml-LF 2 evaluator: a CEK-style machine (control, environment, continuation) with an
 * explicit continuation stack, so Daml recursion depth is bounded by memory, never by the JS
 * stack. Evaluation is call-by-value as daml-lf-2.rst "Operational semantics" defines it; types
 * are erased except where the semantics needs them (`to_any`, `from_any`, `type_rep`, exceptions)
 * and in type abstractions over a `nat` kind, which stay values until applied (ValExpTyAbsNat).
 *
 * The evaluator holds no store: it asks its caller for packages (`getPackage`). Top-level values
 * are evaluated on first use and cached; names are resolved once per expression node.
 *
 * Updates evaluate to suspended `update` values (daml-lf-2.rst "Update interpretation" runs them).
 */
import type { BuiltinName, FirstOrderBuiltin } from '../builtins/Builtin.js';
import { BUILTINS } from '../builtins/builtins.js';
import type { CaseAlt, Expr, Update } from '../ast/Expr.js';
import type { DefTemplate, DefValue, Package, TemplateChoice } from '../ast/Package.js';
import { qualifiedKey } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import { PackageFormatError } from '../decode/decodePackage.js';
import { WireError } from '../decode/WireReader.js';
import type {
  AnyExceptionValue, FunctionValue, ListValue, RecordValue, UpdateValue, Value,
} from '../value/Value.js';
import { FALSE, NIL, NONE, TRUE, UNIT, some, text } from '../value/Value.js';
import type { Definition, EvalError, EvalResult } from './EvalResult.js';
import { describeDefinition } from './EvalResult.js';
import { builtinCost, CELL_BYTES, recordBytes, SLOT_BYTES } from './allocationCost.js';
import { typesEqual } from './typesEqual.js';

/** A variable environment: an immutable linked list, shared by closures. */
export type Env = { readonly name: string; readonly value: Value; readonly next: Env } | null;

/** The function values the evaluator builds (the `fn` of a `FunctionValue`). */
export type Fn =
  | { readonly tag: 'closure'; readonly params: readonly { readonly name: string }[]; readonly body: Expr; readonly env: Env; readonly def: Definition | undefined }
  | { readonly tag: 'pap'; readonly fn: Fn; readonly args: readonly Value[] }
  | { readonly tag: 'builtin'; readonly name: BuiltinName; readonly arity: number; readonly impl: FirstOrderBuiltin | undefined }
  /** `Λ α : 'nat' . e`: evaluated when `pending` more type arguments have been applied. */
  | { readonly tag: 'tyClosure'; readonly pending: number; readonly body: Expr; readonly env: Env; readonly def: Definition | undefined };

/** A suspended update: the `update` of an `UpdateValue` (interpreted by the update engine). */
export interface SuspendedUpdate {
  readonly update: Update;
  readonly env: Env;
  readonly def: Definition | undefined;
}

export interface EvaluatorOptions {
  /** The caller's packages by id. */
  readonly getPackage: (packageId: string) => Package | undefined;
  /** Steps one call of `evaluate` / `apply` may take (default 100,000,000). */
  readonly stepBudget?: number;
  /**
   * Bytes one call of `evaluate` / `apply` may allocate (default 256 MiB, `DEFAULT_ALLOCATION_BUDGET`):
   * builtins are charged by the size of what they build before they run, the machine by the cells,
   * records and closures it makes (see allocationCost.ts).
   */
  readonly allocationBudget?: number;
  /** Receives `TRACE` messages (Daml's `trace` / `debug`). */
  readonly onTrace?: (message: string) => void;
  /** The package of daml-prim's `DA.Exception.ArithmeticError` (stable across SDKs). */
  readonly arithmeticErrorPackageId?: string;
  /**
   * Top-level values the caller provides instead of their definitions (Daml Script's runner
   * replaces `dangerousCast` by the identity). Asked once per definition, on first use.
   */
  readonly valueOverride?: (ref: QualifiedName) => Value | undefined;
  /** First-order builtins replacing the engine's own (tests prove checks can fail with them). */
  readonly builtinOverrides?: ReadonlyMap<BuiltinName, FirstOrderBuiltin>;
  /**
   * Top-level values already evaluated, shared by evaluators of the same packages (the update
   * engine gives each sliced run its own evaluator, and all of them this cache). Pure, so shared safely.
   */
  readonly sharedValues?: Map<DefValue, Value>;
}

/**
 * How a sliced run yields (`runMachineSliced`): after about `steps` evaluation steps it awaits
 * `pause()` (e.g. `setImmediate`), so the event loop serves others between slices.
 */
export interface Slicing {
  readonly steps: number;
  readonly pause: () => Promise<void>;
}

/** The default allocation budget of one run: 256 MiB. */
export const DEFAULT_ALLOCATION_BUDGET = 256 * 1024 * 1024;

/** daml-prim's stable package `DA.Exception.ArithmeticError` (its id in every reference DAR). */
export const ARITHMETIC_ERROR_PACKAGE_ID = 'ee33fb70918e7aaa3d3fc44d64a399fb2bf5bcefc54201b1690ecd448551ba88';

/** Builtins the evaluator implements itself, with their value arities. */
const EVALUATOR_ARITIES: Partial<Record<BuiltinName, number>> = {
  TRACE: 2, FOLDL: 3, FOLDR: 3, EQUAL_LIST: 3, ANY_EXCEPTION_MESSAGE: 1,
};

// Continuation frames. Plain objects with a numeric tag: one allocation per pushed frame.
const enum K {
  AppFun, AppArgs, ApplyTo, TyApp, Case, Let, One, Two, Collect, SetTop, Foldl, Foldr, EqualList, Restore, Catch, Then,
}
type Frame =
  | { t: K.AppFun; args: readonly Expr[]; env: Env }
  | { t: K.AppArgs; fn: Value; args: readonly Expr[]; vals: Value[]; i: number; env: Env }
  /** Applies the returned function to `args[from..]` (the arguments a callee did not take). */
  | { t: K.ApplyTo; args: Value[]; from: number }
  | { t: K.TyApp; count: number }
  | { t: K.Case; alts: readonly CaseAlt[]; env: Env }
  | { t: K.Let; bindings: readonly { readonly name: string; readonly bound: Expr }[]; i: number; body: Expr; env: Env }
  | { t: K.One; node: Expr; env: Env }
  | { t: K.Two; node: Expr; env: Env; first: Value | undefined }
  | { t: K.Collect; node: Expr; exprs: readonly Expr[]; vals: Value[]; i: number; env: Env }
  | { t: K.SetTop; def: DefValue; saved: Definition | undefined }
  | { t: K.Foldl; f: Value; rest: ListValue }
  | { t: K.Foldr; f: Value; items: Value[]; i: number }
  | { t: K.EqualList; eq: Value; xs: ListValue; ys: ListValue }
  | { t: K.Restore; def: Definition | undefined }
  /** A handler for Daml exceptions (the update engine's try/catch pushes these). */
  | { t: K.Catch; handler: (exception: AnyExceptionValue) => void }
  /** A continuation of the update engine: receives the value returned to it. */
  | { t: K.Then; resume: (value: Value) => void };

/** An evaluation stops: the reason, as data. */
class Stop {
  constructor(readonly error: EvalError) {}
}

const fnValue = (fn: Fn): FunctionValue => ({ kind: 'function', fn });

/**
 * A `val` node resolved: its definition, and its value as the evaluator `owner` (its map of
 * top-level values) last found it. Nodes are shared by evaluators whose values may differ
 * (`valueOverride`, `builtinOverrides`), so the value is only read back by the same evaluator.
 */
interface ResolvedVal { readonly def: DefValue; owner: Map<DefValue, Value | null> | undefined; value: Value | undefined }
/** A `builtin` node's value as the evaluator `owner` (its map of builtin values) made it. */
interface ResolvedBuiltin { owner: Map<BuiltinName, Value>; value: Value }

interface RecConCache { readonly fieldNames: readonly string[]; readonly exprs: readonly Expr[]; readonly tycon: QualifiedName }
/** Fields evaluate in the expression's order; `order[i]` is the sorted position of field i. */
interface StructConCache { readonly fieldNames: readonly string[]; readonly exprs: readonly Expr[]; readonly order: readonly number[] }

export class Evaluator {
  private readonly getPackage: (id: string) => Package | undefined;
  private readonly budget: number;
  private readonly allocationBudget: number;
  private readonly onTrace: ((message: string) => void) | undefined;
  private readonly arithmeticError: QualifiedName;
  private readonly valueOverride: ((ref: QualifiedName) => Value | undefined) | undefined;
  private readonly builtinOverrides: ReadonlyMap<BuiltinName, FirstOrderBuiltin> | undefined;
  /** Top-level values evaluated so far (null while one is being evaluated: a cycle). */
  private readonly topValues = new Map<DefValue, Value | null>();
  private readonly sharedValues: Map<DefValue, Value> | undefined;
  private readonly builtinValues = new Map<BuiltinName, Value>();

  // Machine registers, live during one run.
  private k: Frame[] = [];
  private steps = 0;
  /** Bytes allocated by this run so far (see allocationCost.ts). */
  private allocated = 0;
  private def: Definition | undefined;
  private mode: 0 | 1 = 0; // 0: evaluate `expr` in `env`; 1: return `ret` to the top frame
  private expr: Expr = { kind: 'lit', value: UNIT };
  private env: Env = null;
  private ret: Value = UNIT;

  constructor(options: EvaluatorOptions) {
    this.getPackage = options.getPackage;
    this.budget = options.stepBudget ?? 100_000_000;
    this.allocationBudget = options.allocationBudget ?? DEFAULT_ALLOCATION_BUDGET;
    this.onTrace = options.onTrace;
    this.valueOverride = options.valueOverride;
    this.builtinOverrides = options.builtinOverrides;
    this.sharedValues = options.sharedValues;
    this.arithmeticError = {
      packageId: options.arithmeticErrorPackageId ?? ARITHMETIC_ERROR_PACKAGE_ID,
      module: 'DA.Exception.ArithmeticError',
      name: 'ArithmeticError',
    };
  }

  /** Evaluates a closed expression (or one over `bindings`). */
  evaluate(expr: Expr, bindings: readonly (readonly [string, Value])[] = [], definition?: Definition): EvalResult {
    let env: Env = null;
    for (const [name, value] of bindings) env = { name, value, next: env };
    return this.run(() => { this.def = definition; this.evalIn(expr, env); });
  }

  /** The value of a top-level definition. */
  value(ref: QualifiedName): EvalResult {
    return this.evaluate({ kind: 'val', ref });
  }

  /** Applies a function value to arguments. */
  apply(fn: Value, args: readonly Value[]): EvalResult {
    return this.run(() => { this.def = undefined; this.applyFn(fn, [...args]); });
  }

  // ---- ports for the update engine: it drives this machine with frames, never recursively ----

  /** Runs the machine from `start` until its stack is empty (the update engine's entry point). */
  runMachine(start: () => void, definition?: Definition): EvalResult {
    return this.run(() => { this.def = definition; start(); });
  }

  /**
   * `runMachine` in slices: after every `slicing.steps` steps the run awaits `slicing.pause()`.
   * The machine's registers are this run's until it ends: an evaluator runs one sliced run at a
   * time, and no other run meanwhile (the update engine gives each its own evaluator).
   */
  async runMachineSliced(start: () => void, slicing: Slicing, definition?: Definition): Promise<EvalResult> {
    if (this.slicedRunning) throw new Error('an evaluator runs one sliced run at a time');
    this.slicedRunning = true;
    try {
      let r = this.run(() => { this.def = definition; start(); }, slicing.steps, false);
      while (r === 'paused') {
        await slicing.pause();
        r = this.run(() => undefined, this.steps + slicing.steps, true);
      }
      return r;
    } finally {
      this.slicedRunning = false;
    }
  }

  private slicedRunning = false;

  /** Pushes a continuation: `resume` receives the next value returned to it. */
  then(resume: (value: Value) => void): void {
    this.k.push({ t: K.Then, resume });
  }

  /** Pushes a handler for Daml exceptions thrown by what runs above it. */
  catchWith(handler: (exception: AnyExceptionValue) => void): void {
    this.k.push({ t: K.Catch, handler });
  }

  /** Evaluates `expr` in `env`, with `definition` named in failures while it runs. */
  evalWith(expr: Expr, env: Env, definition?: Definition): void {
    if (definition) {
      this.k.push({ t: K.Restore, def: this.def });
      this.def = definition;
    }
    this.evalIn(expr, env);
  }

  /** Returns `value` to the top frame. */
  returnValue(value: Value): void {
    this.give(value);
  }

  /** Applies a function value to arguments; the result returns to the top frame. */
  applyValue(fn: Value, args: readonly Value[]): void {
    this.applyFn(fn, [...args]);
  }

  /** Ends the run with `error` (a failure of the ledger model, as data). */
  abort(error: EvalError): never {
    throw new Stop(error);
  }

  /** The definition running now, for failure messages. */
  get definition(): Definition | undefined {
    return this.def;
  }

  // ---- the machine ---------------------------------------------------------------------------

  private run(start: () => void): EvalResult;
  private run(start: () => void, stepLimit: number, resuming: boolean): EvalResult | 'paused';
  /**
   * Runs `start` then the machine to the end; with `stepLimit`, returns 'paused' once that many
   * steps are taken (registers and stack kept: call again with `resuming` to go on).
   */
  private run(start: () => void, stepLimit = Infinity, resuming = false): EvalResult | 'paused' {
    const savedK = this.k;
    if (resuming) {
      this.k = this.pausedK;
    } else {
      this.k = [];
      this.steps = 0;
      this.allocated = 0;
    }
    let completed = false;
    let paused = false;
    try {
      start();
      if (!this.loop(0, stepLimit)) {
        paused = true;
        this.pausedK = this.k;
        return 'paused';
      }
      completed = true;
      return { ok: true, value: this.ret, steps: this.steps };
    } catch (error) {
      if (error instanceof Stop) return { ok: false, error: error.error, steps: this.steps };
      if (error instanceof PackageFormatError || error instanceof WireError) {
        return { ok: false, error: { kind: 'crash', message: `malformed package: ${error.message}`, definition: this.def }, steps: this.steps };
      }
      throw error;
    } finally {
      // Values left half-evaluated by a failure are evaluated afresh next time. A run that
      // completed popped every SetTop frame it pushed: nothing to scan (a script asks thousands).
      if (!completed && !paused) for (const [def, value] of this.topValues) if (value === null) this.topValues.delete(def);
      if (!paused) this.pausedK = [];
      this.k = savedK;
    }
  }

  /** The stack of a sliced run between its slices. */
  private pausedK: Frame[] = [];

  /**
   * Runs until the continuation stack is back to `depth` frames with a value returned (true), or
   * until `stepLimit` steps are taken (false: the registers hold where to go on).
   */
  private loop(depth: number, stepLimit: number): boolean {
    const k = this.k;
    const budget = this.budget;
    for (;;) {
      if (this.steps >= stepLimit) return false;
      if (++this.steps > budget) {
        throw new Stop({
          kind: 'budgetExceeded', steps: this.steps - 1, definition: this.def,
          message: `evaluation exceeded its budget of ${budget} steps in ${describeDefinition(this.def)}`,
        });
      }
      if (this.mode === 0) {
        this.step(this.expr, this.env);
      } else {
        if (k.length === depth) return true;
        this.resume(k.pop()!);
      }
    }
  }

  /** Charges `bytes` to the run's allocation budget; past it, the run stops. */
  private charge(bytes: number): void {
    if ((this.allocated += bytes) <= this.allocationBudget) return;
    throw new Stop({
      kind: 'allocationExceeded', allocated: this.allocated, budget: this.allocationBudget, definition: this.def,
      message: `evaluation exceeded its allocation budget of ${this.allocationBudget} bytes in ${describeDefinition(this.def)}`,
    });
  }

  private evalIn(expr: Expr, env: Env): void {
    this.mode = 0;
    this.expr = expr;
    this.env = env;
  }

  private give(value: Value): void {
    this.mode = 1;
    this.ret = value;
  }

  private fail(kind: 'crash' | 'missingDefinition', message: string): never {
    throw new Stop({ kind, message, definition: this.def });
  }

  /** One evaluation step of `expr` in `env`. */
  private step(expr: Expr, env: Env): void {
    switch (expr.kind) {
      case 'var': {
        for (let e = env; e !== null; e = e.next) if (e.name === expr.name) { this.give(e.value); return; }
        return this.fail('crash', `unbound variable ${expr.name}`);
      }
      case 'val': {
        let ref = expr.cache as ResolvedVal | undefined;
        if (!ref) {
          const found = this.module(expr.ref, 'value').values.get(expr.ref.name);
          if (!found) return this.fail('missingDefinition', `no value ${expr.ref.module}:${expr.ref.name} in package ${expr.ref.packageId}`);
          expr.cache = ref = { def: found, owner: undefined, value: undefined };
        } else if (ref.owner === this.topValues) {
          return this.give(ref.value!);
        }
        const def = ref.def;
        let cached = this.topValues.get(def);
        if (cached === undefined) {
          const shared = this.sharedValues?.get(def);
          if (shared !== undefined) this.topValues.set(def, (cached = shared));
        }
        if (cached === undefined && this.valueOverride) {
          // Asked per evaluator, not per node: expression nodes (and their caches) are shared.
          cached = this.valueOverride(expr.ref);
          if (cached) this.topValues.set(def, cached);
        }
        if (cached) {
          ref.owner = this.topValues;
          ref.value = cached;
          return this.give(cached);
        }
        if (cached === null) return this.fail('crash', `the value ${expr.ref.module}:${expr.ref.name} depends on itself`);
        this.topValues.set(def, null);
        this.k.push({ t: K.SetTop, def, saved: this.def });
        this.def = expr.ref;
        this.evalIn(def.expr, null);
        return;
      }
      case 'builtin': return this.give(this.builtinOf(expr));
      case 'lit': return this.give(expr.value);
      case 'recCon': {
        const cache = this.recConCache(expr);
        if (cache.exprs.length === 0) return this.give({ kind: 'record', tycon: cache.tycon, fieldNames: cache.fieldNames, fields: [] });
        return this.collect(expr, cache.exprs, new Array<Value>(cache.exprs.length), 0, env, undefined);
      }
      case 'recProj': {
        const record = this.atom(expr.record, env);
        if (record !== undefined) return this.finishOne(expr, record, env);
        this.k.push({ t: K.One, node: expr, env });
        return this.evalIn(expr.record, env);
      }
      case 'structProj': {
        const struct = this.atom(expr.struct, env);
        if (struct !== undefined) return this.finishOne(expr, struct, env);
        this.k.push({ t: K.One, node: expr, env });
        return this.evalIn(expr.struct, env);
      }
      case 'variantCon': case 'optionalSome': case 'toAny': case 'fromAny':
      case 'toAnyException': case 'fromAnyException': case 'throw': case 'toInterface': case 'fromInterface':
      case 'callInterface': case 'signatoryInterface': case 'observerInterface': case 'viewInterface':
      case 'interfaceTemplateTypeRep': case 'toRequiredInterface': case 'fromRequiredInterface':
        this.k.push({ t: K.One, node: expr, env });
        return this.evalIn(oneSub(expr), env);
      case 'recUpd': case 'structUpd': case 'unsafeFromInterface': case 'unsafeFromRequiredInterface':
      case 'choiceController': case 'choiceObserver':
        this.k.push({ t: K.Two, node: expr, env, first: undefined });
        return this.evalIn(firstSub(expr), env);
      case 'enumCon': {
        if (!expr.cache) {
          const dt = this.dataType(expr.tycon);
          const rank = dt.cons.kind === 'enum' ? dt.cons.constructors.indexOf(expr.constructor) : -1;
          if (rank < 0) return this.fail('crash', `no enum constructor ${expr.constructor} in ${expr.tycon.module}:${expr.tycon.name}`);
          expr.cache = { kind: 'enum', tycon: expr.tycon, constructor: expr.constructor, rank };
        }
        return this.give(expr.cache);
      }
      case 'structCon': {
        const cache = structConCache(expr);
        if (cache.exprs.length === 0) return this.give({ kind: 'struct', fieldNames: [], fields: [] });
        return this.collect(expr, cache.exprs, new Array<Value>(cache.exprs.length), 0, env, undefined);
      }
      case 'app': {
        // Atoms (variables, literals, builtins, evaluated top-level values) need no step of their own.
        const fn = this.atom(expr.fun, env);
        if (fn === undefined) {
          this.k.push({ t: K.AppFun, args: expr.args, env });
          return this.evalIn(expr.fun, env);
        }
        return this.collectArgs(fn, expr.args, new Array<Value>(expr.args.length), 0, env);
      }
      case 'tyApp': {
        const v = this.atom(expr, env);
        if (v !== undefined) return this.give(v);
        this.k.push({ t: K.TyApp, count: expr.types.length });
        return this.evalIn(expr.expr, env);
      }
      case 'abs':
        this.charge(recordBytes(5));
        return this.give(fnValue({ tag: 'closure', params: expr.params, body: expr.body, env, def: this.def }));
      case 'tyAbs': {
        let pending = 0;
        for (let i = 0; i < expr.params.length; i++) if (expr.params[i]!.kind.kind === 'nat') pending = i + 1;
        if (pending === 0) return this.evalIn(expr.body, env); // erasable: Λ α . v is v
        this.charge(recordBytes(5));
        return this.give(fnValue({ tag: 'tyClosure', pending, body: expr.body, env, def: this.def }));
      }
      case 'case': {
        const scrut = this.atom(expr.scrut, env);
        if (scrut !== undefined) return this.match(scrut, expr.alts, env);
        this.k.push({ t: K.Case, alts: expr.alts, env });
        return this.evalIn(expr.scrut, env);
      }
      case 'let': return this.bind(expr.bindings, 0, expr.body, env, undefined);
      case 'nil': return this.give(NIL);
      case 'cons': {
        const exprs = consExprs(expr);
        return this.collect(expr, exprs, new Array<Value>(exprs.length), 0, env, undefined);
      }
      case 'optionalNone': return this.give(NONE);
      case 'typeRep': return this.give({ kind: 'typeRep', type: expr.type });
      case 'update': {
        const update: SuspendedUpdate = { update: expr.update, env, def: this.def };
        return this.give({ kind: 'update', update } satisfies UpdateValue);
      }
      case 'experimental':
        return this.fail('crash', `experimental builtin ${expr.name} is not supported`);
    }
  }

  /** Continues the top frame with the returned value `this.ret`. */
  private resume(frame: Frame): void {
    const v = this.ret;
    switch (frame.t) {
      case K.AppFun: return this.collectArgs(v, frame.args, new Array<Value>(frame.args.length), 0, frame.env);
      case K.AppArgs:
        frame.vals[frame.i] = v;
        return this.collectArgs(frame.fn, frame.args, frame.vals, frame.i + 1, frame.env, frame);
      case K.ApplyTo: return this.applyFn(v, frame.args, frame.from);
      case K.TyApp: {
        if (v.kind !== 'function') return this.give(v);
        const fn = v.fn as Fn;
        if (fn.tag !== 'tyClosure') return this.give(v);
        if (frame.count < fn.pending) return this.give(fnValue({ ...fn, pending: fn.pending - frame.count }));
        if (frame.count > fn.pending) this.k.push({ t: K.TyApp, count: frame.count - fn.pending });
        this.enter(fn.def);
        return this.evalIn(fn.body, fn.env);
      }
      case K.Case: return this.match(v, frame.alts, frame.env);
      case K.Let:
        return this.bind(frame.bindings, frame.i + 1, frame.body, { name: frame.bindings[frame.i]!.name, value: v, next: frame.env }, frame);
      case K.One: return this.finishOne(frame.node, v, frame.env);
      case K.Two: {
        if (frame.first === undefined) {
          frame.first = v;
          this.k.push(frame);
          return this.evalIn(secondSub(frame.node), frame.env);
        }
        return this.finishTwo(frame.node, frame.first, v);
      }
      case K.Collect:
        frame.vals[frame.i] = v;
        return this.collect(frame.node, frame.exprs, frame.vals, frame.i + 1, frame.env, frame);
      case K.SetTop:
        this.topValues.set(frame.def, v);
        this.sharedValues?.set(frame.def, v);
        this.def = frame.saved;
        return this.give(v);
      case K.Foldl: {
        const cell = frame.rest;
        if (cell.kind === 'nil') return this.give(v);
        frame.rest = cell.tail;
        this.k.push(frame);
        return this.applyFn(frame.f, [v, cell.head]);
      }
      case K.Foldr: {
        const i = frame.i;
        if (i < 0) return this.give(v);
        frame.i = i - 1;
        this.k.push(frame);
        return this.applyFn(frame.f, [frame.items[i]!, v]);
      }
      case K.EqualList: {
        if (v.kind !== 'bool' || !v.value) return this.give(FALSE);
        return this.equalList(frame.eq, frame.xs, frame.ys);
      }
      case K.Restore:
        this.def = frame.def;
        return this.give(v);
      case K.Catch:
        return this.give(v);
      case K.Then:
        return frame.resume(v);
    }
  }

  private enter(def: Definition | undefined): void {
    this.def = def;
  }

  // ---- application ---------------------------------------------------------------------------

  /** The value of an expression that needs no evaluation step, or undefined. */
  private atom(expr: Expr, env: Env): Value | undefined {
    switch (expr.kind) {
      case 'lit': return expr.value;
      case 'var':
        for (let e = env; e !== null; e = e.next) if (e.name === expr.name) return e.value;
        return undefined; // the step reports the unbound variable
      case 'builtin': return this.builtinOf(expr);
      case 'val': {
        const ref = expr.cache as ResolvedVal | undefined;
        if (ref === undefined) return undefined;
        if (ref.owner === this.topValues) return ref.value;
        const v = this.topValues.get(ref.def) ?? this.sharedValues?.get(ref.def) ?? undefined;
        if (v !== undefined) {
          ref.owner = this.topValues;
          ref.value = v;
        }
        return v;
      }
      case 'nil': return NIL;
      case 'optionalNone': return NONE;
      case 'recProj': {
        // A field of a record at hand; anything else (a misfit included) takes a step.
        const record = this.atom(expr.record, env);
        if (record === undefined || record.kind !== 'record') return undefined;
        let index = expr.cache;
        if (index === undefined || record.fieldNames[index] !== expr.field) {
          index = record.fieldNames.indexOf(expr.field);
          if (index < 0) return undefined;
          expr.cache = index;
        }
        return record.fields[index];
      }
      case 'structProj': {
        // A field of a struct at hand (a type class method of a dictionary, mostly), as recProj.
        const struct = this.atom(expr.struct, env);
        if (struct === undefined || struct.kind !== 'struct') return undefined;
        const index = structFieldIndex(expr, struct.fieldNames);
        return index < 0 ? undefined : struct.fields[index];
      }
      case 'tyApp': {
        // Type arguments are erased, except by a type abstraction over a `nat` (it takes a step).
        const v = this.atom(expr.expr, env);
        return v !== undefined && v.kind === 'function' && (v.fn as Fn).tag === 'tyClosure' ? undefined : v;
      }
      default: return undefined;
    }
  }

  /**
   * Evaluates the arguments of an application from `args[i]` on, atoms inline, then applies.
   * `vals` is made at the arguments' count (an empty array grows a backing store of 16 on first push).
   */
  private collectArgs(fn: Value, args: readonly Expr[], vals: Value[], i: number, env: Env, frame?: Extract<Frame, { t: K.AppArgs }>): void {
    for (const n = args.length; i < n; i++) {
      const arg = args[i]!;
      const value = this.atom(arg, env);
      if (value === undefined) {
        if (frame) {
          frame.i = i;
          this.k.push(frame);
        } else {
          this.k.push({ t: K.AppArgs, fn, args, vals, i, env });
        }
        return this.evalIn(arg, env);
      }
      vals[i] = value;
    }
    return this.applyFn(fn, vals);
  }

  /**
   * Binds `bindings[i..]` in order, atoms inline, then evaluates `body`. Frames are popped before
   * they resume: one still in use is pushed again, not copied.
   */
  private bind(bindings: Extract<Frame, { t: K.Let }>['bindings'], i: number, body: Expr, env: Env, frame: Extract<Frame, { t: K.Let }> | undefined): void {
    for (; i < bindings.length; i++) {
      const binding = bindings[i]!;
      const value = this.atom(binding.bound, env);
      if (value === undefined) {
        if (frame) {
          frame.i = i;
          frame.env = env;
          this.k.push(frame);
        } else {
          this.k.push({ t: K.Let, bindings, i, body, env });
        }
        return this.evalIn(binding.bound, env);
      }
      env = { name: binding.name, value, next: env };
    }
    return this.evalIn(body, env);
  }

  /** Evaluates the items of a record, struct or list from `exprs[i]` on, atoms inline, then builds it. */
  private collect(node: Expr, exprs: readonly Expr[], vals: Value[], i: number, env: Env, frame: Extract<Frame, { t: K.Collect }> | undefined): void {
    for (const n = exprs.length; i < n; i++) {
      const e = exprs[i]!;
      const value = this.atom(e, env);
      if (value === undefined) {
        if (frame) {
          frame.i = i;
          this.k.push(frame);
        } else {
          this.k.push({ t: K.Collect, node, exprs, vals, i, env });
        }
        return this.evalIn(e, env);
      }
      vals[i] = value;
    }
    return this.finishCollect(node, vals);
  }

  /** Applies `fnv` to `args[from..]` (an over-applied callee leaves the rest to an ApplyTo frame, without copying). */
  private applyFn(fnv: Value, args: Value[], from = 0): void {
    if (fnv.kind !== 'function') return this.fail('crash', `applied a ${fnv.kind} value as a function`);
    return this.applyFun(fnv.fn as Fn, args, from);
  }

  private applyFun(fn: Fn, args: Value[], from: number): void {
    const count = args.length - from;
    switch (fn.tag) {
      case 'closure': {
        const n = fn.params.length;
        if (count < n) {
          this.charge(recordBytes(count + 2));
          return this.give(fnValue({ tag: 'pap', fn, args: from === 0 ? args : args.slice(from) }));
        }
        let env = fn.env;
        for (let i = 0; i < n; i++) env = { name: fn.params[i]!.name, value: args[from + i]!, next: env };
        if (count > n) this.k.push({ t: K.ApplyTo, args, from: from + n });
        this.def = fn.def;
        return this.evalIn(fn.body, env);
      }
      case 'pap': return this.applyFun(fn.fn, fn.args.concat(from === 0 ? args : args.slice(from)), 0);
      case 'builtin': {
        if (count < fn.arity) {
          this.charge(recordBytes(count + 2));
          return this.give(fnValue({ tag: 'pap', fn, args: from === 0 ? args : args.slice(from) }));
        }
        if (count > fn.arity) this.k.push({ t: K.ApplyTo, args, from: from + fn.arity });
        return this.callBuiltin(fn, from === 0 && count === fn.arity ? args : args.slice(from, from + fn.arity));
      }
      case 'tyClosure': return this.fail('crash', 'applied a type abstraction to a value argument');
    }
  }


  /** A builtin node's value, remembered on the node for this evaluator (overrides differ between evaluators). */
  private builtinOf(expr: Extract<Expr, { kind: 'builtin' }>): Value {
    const resolved = expr.cache as ResolvedBuiltin | undefined;
    if (resolved !== undefined && resolved.owner === this.builtinValues) return resolved.value;
    const value = this.builtinValue(expr.builtin);
    if (resolved === undefined) expr.cache = { owner: this.builtinValues, value } satisfies ResolvedBuiltin;
    else { resolved.owner = this.builtinValues; resolved.value = value; }
    return value;
  }

  private builtinValue(name: BuiltinName): Value {
    let value = this.builtinValues.get(name);
    if (value) return value;
    const impl = this.builtinOverrides?.get(name) ?? BUILTINS.get(name);
    const arity = impl?.arity ?? EVALUATOR_ARITIES[name];
    if (arity === undefined) return this.fail('crash', `builtin ${name} is not implemented`);
    if (arity === 0 && impl) {
      const outcome = impl.apply([]);
      if (!outcome.ok) return this.fail('crash', `builtin ${name}: ${outcome.failure.message}`);
      value = outcome.value;
    } else {
      value = fnValue({ tag: 'builtin', name, arity, impl });
    }
    this.builtinValues.set(name, value);
    return value;
  }

  private callBuiltin(fn: Extract<Fn, { tag: 'builtin' }>, args: Value[]): void {
    if (fn.impl) {
      this.charge(builtinCost(fn.name, args));
      let outcome;
      try {
        outcome = fn.impl.apply(args);
      } catch (e) {
        // V8's own limits (a string or array past its maximum length), met only under a budget raised past them.
        if (!(e instanceof RangeError)) throw e;
        throw new Stop({
          kind: 'allocationExceeded', allocated: this.allocated, budget: this.allocationBudget, definition: this.def,
          message: `builtin ${fn.name} would build a value past the engine's limits (${e.message}) in ${describeDefinition(this.def)}`,
        });
      }
      if (outcome.ok) return this.give(outcome.value);
      const failure = outcome.failure;
      switch (failure.kind) {
        case 'arithmetic': {
          // daml-lf-2.rst: arithmetic failures throw daml-prim's ArithmeticError, catchable.
          const payload: RecordValue = { kind: 'record', tycon: this.arithmeticError, fieldNames: ['message'], fields: [text(failure.message)] };
          return this.throwException({ kind: 'anyException', type: { kind: 'con', tycon: this.arithmeticError, args: [] }, value: payload });
        }
        case 'error': throw new Stop({ kind: 'userError', message: failure.message, definition: this.def });
        case 'failWithStatus': throw new Stop({ ...failure, definition: this.def });
        case 'crash': return this.fail('crash', `builtin ${fn.name}: ${failure.message}`);
      }
    }
    switch (fn.name) {
      case 'TRACE': {
        const [message, value] = args as [Value, Value];
        this.onTrace?.(message.kind === 'text' ? message.value : String(message.kind));
        return this.give(value);
      }
      case 'FOLDL': {
        const [f, z, list] = args as [Value, Value, Value];
        if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `FOLDL over a ${list.kind}`);
        this.k.push({ t: K.Foldl, f, rest: list });
        return this.give(z);
      }
      case 'FOLDR': {
        const [f, z, list] = args as [Value, Value, Value];
        if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `FOLDR over a ${list.kind}`);
        const items: Value[] = [];
        for (let cell: ListValue = list; cell.kind === 'cons'; cell = cell.tail) items.push(cell.head);
        this.charge(SLOT_BYTES * items.length);
        this.k.push({ t: K.Foldr, f, items, i: items.length - 1 });
        return this.give(z);
      }
      case 'EQUAL_LIST': {
        const [eq, xs, ys] = args as [Value, Value, Value];
        if ((xs.kind !== 'cons' && xs.kind !== 'nil') || (ys.kind !== 'cons' && ys.kind !== 'nil')) return this.fail('crash', 'EQUAL_LIST over non-lists');
        return this.equalList(eq, xs, ys);
      }
      case 'ANY_EXCEPTION_MESSAGE': {
        const [exception] = args as [Value];
        if (exception.kind !== 'anyException') return this.fail('crash', `ANY_EXCEPTION_MESSAGE of a ${exception.kind}`);
        const type = exception.type;
        if (type.kind !== 'con') return this.fail('crash', 'an exception whose type is not a type constructor');
        const def = this.module(type.tycon, 'data type').exceptions.get(type.tycon.name);
        if (!def) return this.fail('missingDefinition', `no exception ${type.tycon.module}:${type.tycon.name}`);
        this.k.push({ t: K.Restore, def: this.def });
        this.k.push({ t: K.ApplyTo, args: [exception.value], from: 0 });
        this.def = type.tycon;
        return this.evalIn(def.message, null);
      }
      default: return this.fail('crash', `builtin ${fn.name} is not implemented`);
    }
  }

  private equalList(eq: Value, xs: ListValue, ys: ListValue): void {
    if (xs.kind === 'nil' || ys.kind === 'nil') return this.give(xs.kind === ys.kind ? TRUE : FALSE);
    this.k.push({ t: K.EqualList, eq, xs: xs.tail, ys: ys.tail });
    return this.applyFn(eq, [xs.head, ys.head]);
  }

  /** Unwinds to the innermost handler; with none, the evaluation ends with the exception. */
  throwException(exception: AnyExceptionValue): void {
    const k = this.k;
    while (k.length > 0) {
      const frame = k.pop()!;
      if (frame.t === K.Catch) return frame.handler(exception);
      if (frame.t === K.SetTop) this.topValues.delete(frame.def);
      else if (frame.t === K.Restore) this.def = frame.def; // the handler runs in its own definition
    }
    throw new Stop({ kind: 'unhandledException', exception, definition: this.def });
  }

  // ---- case --------------------------------------------------------------------------------

  private match(v: Value, alts: readonly CaseAlt[], env: Env): void {
    for (const alt of alts) {
      switch (alt.kind) {
        case 'default': return this.evalIn(alt.body, env);
        case 'variant':
          if (v.kind === 'variant' && v.constructor === alt.constructor) return this.evalIn(alt.body, { name: alt.binder, value: v.value, next: env });
          break;
        case 'enum':
          if (v.kind === 'enum' && v.constructor === alt.constructor) return this.evalIn(alt.body, env);
          break;
        case 'builtinCon':
          if (alt.con === 'unit' ? v.kind === 'unit' : v.kind === 'bool' && v.value === (alt.con === 'true')) return this.evalIn(alt.body, env);
          break;
        case 'nil':
          if (v.kind === 'nil') return this.evalIn(alt.body, env);
          break;
        case 'cons':
          if (v.kind === 'cons') return this.evalIn(alt.body, { name: alt.tail, value: v.tail, next: { name: alt.head, value: v.head, next: env } });
          break;
        case 'optionalNone':
          if (v.kind === 'optional' && v.value === undefined) return this.evalIn(alt.body, env);
          break;
        case 'optionalSome':
          if (v.kind === 'optional' && v.value !== undefined) return this.evalIn(alt.body, { name: alt.binder, value: v.value, next: env });
          break;
      }
    }
    return this.fail('crash', `no case alternative matches a ${v.kind} value`);
  }

  // ---- nodes with sub-expressions -----------------------------------------------------------

  private finishOne(node: Expr, v: Value, env: Env): void {
    switch (node.kind) {
      case 'recProj': {
        if (v.kind !== 'record') return this.fail('crash', `projected field ${node.field} of a ${v.kind}`);
        let index = node.cache;
        if (index === undefined || v.fieldNames[index] !== node.field) {
          index = v.fieldNames.indexOf(node.field);
          if (index < 0) return this.fail('crash', `no field ${node.field} in ${v.tycon.module}:${v.tycon.name}`);
          node.cache = index;
        }
        return this.give(v.fields[index]!);
      }
      case 'variantCon': {
        let rank = node.cache;
        if (rank === undefined) {
          const dt = this.dataType(node.tycon.tycon);
          rank = dt.cons.kind === 'variant' ? dt.cons.constructors.findIndex((c) => c.name === node.constructor) : -1;
          if (rank < 0) return this.fail('crash', `no constructor ${node.constructor} in ${node.tycon.tycon.module}:${node.tycon.tycon.name}`);
          node.cache = rank;
        }
        this.charge(recordBytes(4));
        return this.give({ kind: 'variant', tycon: node.tycon.tycon, constructor: node.constructor, rank, value: v });
      }
      case 'structProj': {
        if (v.kind !== 'struct') return this.fail('crash', `struct projection of a ${v.kind}`);
        const index = structFieldIndex(node, v.fieldNames);
        if (index < 0) return this.fail('crash', `no struct field ${node.field}`);
        return this.give(v.fields[index]!);
      }
      case 'optionalSome': return this.charge(CELL_BYTES), this.give(some(v));
      case 'toAny': return this.charge(recordBytes(2)), this.give({ kind: 'any', type: node.type, value: v });
      case 'fromAny':
        if (v.kind !== 'any') return this.fail('crash', `from_any of a ${v.kind}`);
        return this.give(typesEqual(v.type, node.type) ? some(v.value) : NONE);
      case 'toAnyException': return this.give({ kind: 'anyException', type: node.type, value: v });
      case 'fromAnyException':
        if (v.kind !== 'anyException') return this.fail('crash', `from_any_exception of a ${v.kind}`);
        return this.give(typesEqual(v.type, node.type) ? some(v.value) : NONE);
      case 'throw': return this.throwException({ kind: 'anyException', type: node.exceptionType, value: v });
      case 'toInterface': case 'toRequiredInterface': return this.give(v);
      case 'fromInterface':
        return this.give(this.templateOf(v) === qualifiedKey(node.template) ? some(v) : NONE);
      case 'fromRequiredInterface':
        return this.give(this.instanceOf(v, node.requiring) ? some(v) : NONE);
      case 'callInterface': {
        const { template, record } = this.contract(v);
        const body = this.instance(template, record, node.iface).methods.get(node.method);
        if (!body) return this.fail('crash', `${record.tycon.module}:${record.tycon.name} has no method ${node.method} of ${node.iface.module}:${node.iface.name}`);
        return this.inTemplate(record, template.param, body);
      }
      case 'viewInterface': {
        const { template, record } = this.contract(v);
        return this.inTemplate(record, template.param, this.instance(template, record, node.iface).view);
      }
      case 'signatoryInterface': {
        const { template, record } = this.contract(v);
        return this.inTemplate(record, template.param, template.signatories);
      }
      case 'observerInterface': {
        const { template, record } = this.contract(v);
        return this.inTemplate(record, template.param, template.observers);
      }
      case 'interfaceTemplateTypeRep': {
        const { record } = this.contract(v);
        return this.give({ kind: 'typeRep', type: { kind: 'con', tycon: record.tycon, args: [] } });
      }
      default:
        void env;
        return this.fail('crash', `unexpected ${node.kind} continuation`);
    }
  }

  private finishTwo(node: Expr, a: Value, b: Value): void {
    switch (node.kind) {
      case 'recUpd': {
        if (a.kind !== 'record') return this.fail('crash', `updated field ${node.field} of a ${a.kind}`);
        const index = a.fieldNames.indexOf(node.field);
        if (index < 0) return this.fail('crash', `no field ${node.field} in ${a.tycon.module}:${a.tycon.name}`);
        this.charge(recordBytes(a.fields.length));
        const fields = a.fields.slice();
        fields[index] = b;
        return this.give({ kind: 'record', tycon: a.tycon, fieldNames: a.fieldNames, fields });
      }
      case 'structUpd': {
        if (a.kind !== 'struct') return this.fail('crash', `struct update of a ${a.kind}`);
        const index = a.fieldNames.indexOf(node.field);
        if (index < 0) return this.fail('crash', `no struct field ${node.field}`);
        this.charge(recordBytes(a.fields.length));
        const fields = a.fields.slice();
        fields[index] = b;
        return this.give({ kind: 'struct', fieldNames: a.fieldNames, fields });
      }
      case 'unsafeFromInterface':
        if (this.templateOf(b) !== qualifiedKey(node.template)) {
          return this.fail('crash', `contract ${a.kind === 'contractId' ? a.value : '?'} is not a ${node.template.module}:${node.template.name}`);
        }
        return this.give(b);
      case 'unsafeFromRequiredInterface':
        if (!this.instanceOf(b, node.requiring)) {
          return this.fail('crash', `contract ${a.kind === 'contractId' ? a.value : '?'} does not implement ${node.requiring.module}:${node.requiring.name}`);
        }
        return this.give(b);
      case 'choiceController': case 'choiceObserver': {
        const template = this.template(node.template);
        const choice: TemplateChoice | undefined = template.choices.get(node.choice);
        if (!choice) return this.fail('missingDefinition', `no choice ${node.choice} on ${node.template.module}:${node.template.name}`);
        const body = node.kind === 'choiceController' ? choice.controllers : choice.observers;
        if (!body) return this.give(NIL);
        this.k.push({ t: K.Restore, def: this.def });
        this.def = node.template;
        return this.evalIn(body, { name: choice.argBinder.name, value: b, next: { name: template.param, value: a, next: null } });
      }
      default: return this.fail('crash', `unexpected ${node.kind} continuation`);
    }
  }

  private finishCollect(node: Expr, vals: Value[]): void {
    switch (node.kind) {
      case 'recCon': {
        const cache = node.cache as RecConCache;
        this.charge(recordBytes(vals.length));
        return this.give({ kind: 'record', tycon: cache.tycon, fieldNames: cache.fieldNames, fields: vals });
      }
      case 'structCon': {
        const cache = node.cache as StructConCache;
        this.charge(recordBytes(vals.length));
        const fields = new Array<Value>(vals.length);
        for (let i = 0; i < vals.length; i++) fields[cache.order[i]!] = vals[i]!;
        return this.give({ kind: 'struct', fieldNames: cache.fieldNames, fields });
      }
      case 'cons': {
        let list = vals[vals.length - 1]!;
        if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `cons onto a ${list.kind}`);
        this.charge(CELL_BYTES * (vals.length - 1));
        for (let i = vals.length - 2; i >= 0; i--) list = { kind: 'cons', head: vals[i]!, tail: list };
        return this.give(list);
      }
      default: return this.fail('crash', `unexpected ${node.kind} continuation`);
    }
  }

  // ---- definitions ---------------------------------------------------------------------------

  /** The module of `ref`; `what` names the lookup as Daml's Reference does (`template`, `value`, `data type`). */
  private module(ref: QualifiedName, what: 'template' | 'value' | 'data type') {
    const pkg = this.getPackage(ref.packageId);
    if (!pkg) {
      throw new Stop({
        kind: 'missingDefinition', message: `package ${ref.packageId} is not available (needed for ${ref.module}:${ref.name})`, definition: this.def,
        missingPackage: { packageId: ref.packageId, reference: `${what} ${ref.packageId}:${ref.module}:${ref.name}` },
      });
    }
    const module = pkg.modules.get(ref.module);
    if (!module) return this.fail('missingDefinition', `no module ${ref.module} in package ${ref.packageId}`);
    return module;
  }

  private dataType(ref: QualifiedName) {
    const dt = this.module(ref, 'data type').dataTypes.get(ref.name);
    if (!dt) return this.fail('missingDefinition', `no data type ${ref.module}:${ref.name} in package ${ref.packageId}`);
    return dt;
  }

  template(ref: QualifiedName): DefTemplate {
    const t = this.module(ref, 'template').templates.get(ref.name);
    if (!t) return this.fail('missingDefinition', `no template ${ref.module}:${ref.name} in package ${ref.packageId}`);
    return t;
  }

  private recConCache(expr: Extract<Expr, { kind: 'recCon' }>): RecConCache {
    if (expr.cache) return expr.cache as RecConCache;
    const dt = this.dataType(expr.tycon.tycon);
    if (dt.cons.kind !== 'record') return this.fail('crash', `${expr.tycon.tycon.module}:${expr.tycon.tycon.name} is not a record`);
    const byName = new Map(expr.fields.map((f) => [f.field, f.expr]));
    const exprs = dt.cons.fieldNames.map((name) => byName.get(name));
    if (exprs.some((e) => e === undefined) || byName.size !== exprs.length) {
      return this.fail('crash', `record ${expr.tycon.tycon.module}:${expr.tycon.tycon.name} built with fields ${[...byName.keys()].join(', ')}`);
    }
    const cache: RecConCache = { fieldNames: dt.cons.fieldNames, exprs: exprs as Expr[], tycon: expr.tycon.tycon };
    expr.cache = cache;
    return cache;
  }

  /** The `packageId:module:name` of the template a contract value (a record) belongs to. */
  private templateOf(v: Value): string | undefined {
    return v.kind === 'record' ? qualifiedKey(v.tycon) : undefined;
  }

  private contract(v: Value): { template: DefTemplate; record: RecordValue } {
    if (v.kind !== 'record') return this.fail('crash', `an interface value that is a ${v.kind}, not a template record`);
    return { template: this.template(v.tycon), record: v };
  }

  private instance(template: DefTemplate, record: RecordValue, iface: QualifiedName) {
    const inst = template.implements.get(qualifiedKey(iface));
    if (!inst) return this.fail('crash', `${record.tycon.module}:${record.tycon.name} does not implement ${iface.module}:${iface.name}`);
    return inst;
  }

  private instanceOf(v: Value, iface: QualifiedName): boolean {
    if (v.kind !== 'record') return false;
    return this.template(v.tycon).implements.has(qualifiedKey(iface));
  }

  /** Evaluates a template-scoped expression with the template parameter bound to the contract. */
  private inTemplate(record: RecordValue, param: string, body: Expr): void {
    this.k.push({ t: K.Restore, def: this.def });
    this.def = record.tycon;
    return this.evalIn(body, { name: param, value: record, next: null });
  }
}

/** The position of a struct projection's field, remembered on the node (structs of one type share their names). */
function structFieldIndex(node: Extract<Expr, { kind: 'structProj' }>, fieldNames: readonly string[]): number {
  const cached = node.cache;
  if (cached !== undefined && fieldNames[cached] === node.field) return cached;
  const index = fieldNames.indexOf(node.field);
  if (index >= 0) node.cache = index;
  return index;
}

/** The single sub-expression of a node evaluated through a `One` frame. */
function oneSub(expr: Expr): Expr {
  switch (expr.kind) {
    case 'recProj': return expr.record;
    case 'variantCon': return expr.arg;
    case 'structProj': return expr.struct;
    case 'optionalSome': return expr.value;
    case 'toAny': case 'fromAny': case 'toAnyException': case 'fromAnyException': case 'throw':
    case 'toInterface': case 'fromInterface': case 'callInterface': case 'signatoryInterface':
    case 'observerInterface': case 'viewInterface': case 'interfaceTemplateTypeRep':
    case 'toRequiredInterface': case 'fromRequiredInterface':
      return expr.expr;
    default: throw new Error(`no single sub-expression in ${expr.kind}`);
  }
}

/** The first of the two sub-expressions of a node evaluated through a `Two` frame. */
function firstSub(expr: Expr): Expr {
  switch (expr.kind) {
    case 'recUpd': return expr.record;
    case 'structUpd': return expr.struct;
    case 'unsafeFromInterface': case 'unsafeFromRequiredInterface': return expr.cid;
    case 'choiceController': case 'choiceObserver': return expr.contract;
    default: throw new Error(`no two sub-expressions in ${expr.kind}`);
  }
}

/** The second, evaluated after the first. */
function secondSub(expr: Expr): Expr {
  switch (expr.kind) {
    case 'recUpd': case 'structUpd': return expr.update;
    case 'unsafeFromInterface': case 'unsafeFromRequiredInterface': return expr.expr;
    case 'choiceController': case 'choiceObserver': return expr.arg;
    default: throw new Error(`no two sub-expressions in ${expr.kind}`);
  }
}

const consCache = new WeakMap<Expr, readonly Expr[]>();
function consExprs(expr: Extract<Expr, { kind: 'cons' }>): readonly Expr[] {
  let exprs = consCache.get(expr);
  if (!exprs) { exprs = [...expr.front, expr.tail]; consCache.set(expr, exprs); }
  return exprs;
}

/** Struct values keep their fields sorted by name (daml-lf-2.rst, ValExpStructCon). */
function structConCache(expr: Extract<Expr, { kind: 'structCon' }>): StructConCache {
  if (expr.cache) return expr.cache as StructConCache;
  const fieldNames = expr.fields.map((f) => f.field).sort();
  const cache: StructConCache = { fieldNames, exprs: expr.fields.map((f) => f.expr), order: expr.fields.map((f) => fieldNames.indexOf(f.field)) };
  expr.cache = cache;
  return cache;
}

