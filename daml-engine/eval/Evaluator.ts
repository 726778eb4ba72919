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
import type { BuiltinFailure, BuiltinName, BuiltinOutcome, FirstOrderBuiltin } from '../builtins/Builtin.js';
import { BUILTINS } from '../builtins/builtins.js';
import type { Expr } from '../ast/Expr.js';
import type { DefTemplate, DefValue, Package, TemplateChoice } from '../ast/Package.js';
import { qualifiedKey } from '../ast/Package.js';
import type { QualifiedName } from '../ast/Type.js';
import { PackageFormatError } from '../decode/decodePackage.js';
import { WireError } from '../decode/WireReader.js';
import type {
  AnyExceptionValue, FunctionValue, ListValue, RecordValue, StructValue, UpdateValue, Value, VariantValue,
} from '../value/Value.js';
import { FALSE, NIL, NONE, TRUE, UNIT, some, text } from '../value/Value.js';
import type { Definition, EvalError, EvalResult } from './EvalResult.js';
import { describeDefinition } from './EvalResult.js';
import { builtinCost, CELL_BYTES, recordBytes, SLOT_BYTES } from './allocationCost.js';
import { typesEqual } from './typesEqual.js';
import type { Intrinsic, IntrinsicName, MachineIntrinsic } from './intrinsics.js';
import { COMPOSE, definitionFingerprint, intrinsicFor, SCRIPTF_FMAP_FINGERPRINTS } from './intrinsics.js';
import type { PendingQuestion } from './freeMonad.js';
import { BIND_OP, FREE_BIND, FREE_CONTINUE, FREE_MAP, MAP_OP, NO_OPS, oneOp, opsAfter, pendingQuestion, pureLike, withContinue } from './freeMonad.js';
import type { Alt, Node } from './Node.js';
import { compileNode, nodeOf } from './Node.js';
import type { Env } from './Env.js';
import { ARGS, bindEnv, EnvCell, letBind, sameLayout, Scope, scopeOf } from './Env.js';

export type { Env } from './Env.js';
export { bindEnv } from './Env.js';

/** Tags of `Fn` (written as literals in the machine's switches, see Op in Node.ts). */
export const enum FnTag { Closure = 0, Pap = 1, Builtin = 2, TyClosure = 3 }

/**
 * The function values the evaluator builds, one class for every kind (`tag`), each its own
 * `FunctionValue`: the machine reads one object shape (four literal shapes made its loads
 * polymorphic) and a closure is one allocation, not a value around a closure. Fields by tag:
 * closure: `params`, `body`, `env`, `def`; partial application (`pap`): `inner` (a closure or a
 * builtin) and its `args` so far; builtin: `name`, `arity`, `impl`; `Λ α : 'nat' . e`
 * (tyClosure): `arity` the type arguments still `pending`, `body`, `env`, `def`.
 */
export class Fn implements FunctionValue {
  readonly kind = 'function' as const;
  constructor(
    readonly tag: FnTag,
    /** closure: its parameter count; builtin: its arity; tyClosure: type arguments pending. */
    readonly arity: number,
    readonly params: readonly string[] | null,
    readonly body: Node | null,
    readonly env: Env,
    readonly def: Definition | undefined,
    readonly inner: Fn | null,
    readonly args: readonly Value[] | null,
    readonly name: BuiltinName | IntrinsicName | '',
    readonly impl: FirstOrderBuiltin | undefined,
  ) {}

  /** `FunctionValue`'s opaque payload: the function itself (on the prototype, so no value holds itself). */
  get fn(): object {
    return this;
  }
}

const closure = (params: readonly string[], body: Node, env: Env, def: Definition | undefined): Fn =>
  new Fn(0 /* Closure */, params.length, params, body, env, def, null, null, '', undefined);
const pap = (inner: Fn, args: readonly Value[]): Fn => new Fn(1 /* Pap */, inner.arity - args.length, null, null, null, undefined, inner, args, '', undefined);
const builtinFn = (name: BuiltinName | IntrinsicName, arity: number, impl: FirstOrderBuiltin | undefined): Fn =>
  new Fn(2 /* Builtin */, arity, null, null, null, undefined, null, null, name, impl);
const tyClosure = (pending: number, body: Node, env: Env, def: Definition | undefined): Fn =>
  new Fn(3 /* TyClosure */, pending, null, body, env, def, null, null, '', undefined);

/** One function value per intrinsic, shared by every evaluator (like the default builtins). */
const intrinsicValues = new Map<Intrinsic, Fn>();
/** A machine intrinsic's function value per definition: it keeps that definition's body (`body`, `def`), run where the native code does not apply. */
const machineIntrinsicValues = new WeakMap<DefValue, Fn>();
function intrinsicValue(def: DefValue, ref: QualifiedName, getPackage: (id: string) => Package | undefined): Fn | undefined {
  const intrinsic = intrinsicFor(def, ref, getPackage);
  if (intrinsic === undefined) return undefined;
  if ('machine' in intrinsic) return machineIntrinsicValue(def, ref, intrinsic);
  let fn = intrinsicValues.get(intrinsic);
  if (fn === undefined) intrinsicValues.set(intrinsic, (fn = builtinFn(intrinsic.name, intrinsic.arity, intrinsic)));
  return fn;
}

function machineIntrinsicValue(def: DefValue, ref: QualifiedName, intrinsic: MachineIntrinsic): Fn {
  let fn = machineIntrinsicValues.get(def);
  if (fn === undefined) {
    fn = new Fn(2 /* Builtin */, intrinsic.arity, null, rootNode(def.expr, null), null, ref, null, null, intrinsic.name, undefined);
    machineIntrinsicValues.set(def, fn);
  }
  return fn;
}

/** A chain's function (freeMonad.ts): applied to its first continuation, its operations and an answer. */
const FREE_CONTINUE_FN = builtinFn(FREE_CONTINUE, 3, undefined);

/** The chain that applies `first`, then `ops` (freeMonad.ts). */
const chain = (first: Value, ops: StructValue): Fn => pap(FREE_CONTINUE_FN, [first, ops]);

/** A continuation as a chain: its first function and operations (none when it is not a chain). */
const asChain = (c: Value): { first: Value; ops: StructValue | undefined } => {
  const fn = c as Fn;
  return fn.tag === 1 /* Pap */ && fn.inner === FREE_CONTINUE_FN ? { first: fn.args![0]!, ops: fn.args![1] as StructValue } : { first: c, ops: undefined };
};

/**
 * Whether a Functor dictionary's `fmap` is daml-script's ScriptF `fmap`: its `m_fmap` method is a
 * closure `\_ -> v` where `v` has a listed fingerprint (freeMonad.ts). Remembered per method body (nodes are shared).
 */
const scriptFunctors = new WeakMap<Node, boolean>();
function isScriptFunctor(dict: Value, getPackage: (id: string) => Package | undefined): boolean {
  if (dict.kind !== 'struct') return false;
  const method = dict.fields[dict.fieldNames.indexOf('m_fmap')];
  if (method === undefined || method.kind !== 'function') return false;
  const fn = method as Fn;
  if (fn.tag !== 0 /* Closure */ || fn.arity !== 1) return false;
  const body = fn.body!;
  let verdict = scriptFunctors.get(body);
  if (verdict === undefined) {
    const fingerprint = body.src.kind === 'val' ? definitionFingerprint(body.src.ref, getPackage) : undefined;
    verdict = fingerprint !== undefined && SCRIPTF_FMAP_FINGERPRINTS.has(fingerprint);
    scriptFunctors.set(body, verdict);
  }
  return verdict;
}

/** A closure of `params` over `body` with an empty environment (Daml Script's runner makes the identity so). */
export function closedFunction(params: readonly string[], body: Expr): FunctionValue {
  return closure(params, nodeOf(body, new Scope(params, null)), null, undefined);
}

const roots = new WeakMap<Expr, Node>();

/**
 * The root node of `expr` evaluated in `env`: one per expression object and environment layout
 * (every caller evaluates a definition body, template expression or update in one layout; a
 * caller using another gets a node of its own, uncached), compiled under that layout's scope,
 * so its variable nodes' slots hold.
 */
function rootNode(expr: Expr, env: Env): Node {
  // A literal or a variable costs nothing to compile: callers make them afresh per command (the
  // update engine's create and exercise arguments), and a WeakMap entry each would cost the collector.
  if (expr.kind === 'lit') return nodeOf(expr, null);
  if (expr.kind === 'var') return nodeOf(expr, scopeOf(env));
  const root = roots.get(expr);
  if (root !== undefined) return sameLayout(root.scope, env) ? root : nodeOf(expr, scopeOf(env));
  const node = nodeOf(expr, scopeOf(env));
  roots.set(expr, node);
  return node;
}

/**
 * A suspended update: the `update` of an `UpdateValue` (interpreted by the update engine). `node`
 * is its compiled `update` node (the `Update` in `node.x`, its sub-expressions `updateKids`), in
 * whose scope's layout `env` is.
 */
export interface SuspendedUpdate {
  readonly node: Node;
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
  /**
   * How many calls the direct evaluator nests on the JavaScript stack before the machine's frames
   * take over (default 256, a few hundred bytes each); 0 runs the machine alone. Both take the
   * same steps to the same result: tests compare them at several depths.
   */
  readonly directDepth?: number;
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
  /**
   * Whether library functions with a native equivalent run natively (see intrinsics.ts): the same
   * results in fewer steps. Tests turn it off to compare the two. Default true, but false with
   * `builtinOverrides`: native code uses the engine's own builtins, not the replaced ones.
   */
  readonly intrinsics?: boolean;
}

/**
 * How a sliced run yields (`runMachineSliced`): after about `steps` evaluation steps it awaits
 * `pause()` (e.g. `setImmediate`), so the event loop serves others between slices.
 */
export interface Slicing {
  readonly steps: number;
  readonly pause: () => Promise<void>;
}

/**
 * Whether `overrides` replaces any builtin (tests do, to prove checks can fail): values made with
 * other builtins are not the engine's, so top-level values are not shared then.
 */
export const replacesBuiltins = (overrides: ReadonlyMap<BuiltinName, FirstOrderBuiltin> | undefined): boolean => overrides !== undefined && overrides.size > 0;

/** The default allocation budget of one run: 256 MiB. */
export const DEFAULT_ALLOCATION_BUDGET = 256 * 1024 * 1024;

/** daml-prim's stable package `DA.Exception.ArithmeticError` (its id in every reference DAR). */
export const ARITHMETIC_ERROR_PACKAGE_ID = 'ee33fb70918e7aaa3d3fc44d64a399fb2bf5bcefc54201b1690ecd448551ba88';

/**
 * The builtin values of evaluators without `builtinOverrides`, shared (immutable functions and
 * constants): a builtin node's remembered value then holds for all of them, where an evaluator
 * per sliced run made each resolve its builtins afresh.
 */
const DEFAULT_BUILTIN_VALUES = new Map<BuiltinName, Value>();

/** Builtins the evaluator implements itself, with their value arities. */
const EVALUATOR_ARITIES: Partial<Record<BuiltinName, number>> = {
  TRACE: 2, FOLDL: 3, FOLDR: 3, EQUAL_LIST: 3, ANY_EXCEPTION_MESSAGE: 1,
};

// Continuation frames: one class for every kind, tag `t`, so the machine's loads of a frame see one
// object shape (sixteen literal shapes made `frame.t` and every field load megamorphic). Tags are
// written as literals with the name in a comment (see Op in Node.ts: V8 jumps on literal cases only):
// 0 AppFun, 1 AppArgs, 2 ApplyTo, 3 TyApp, 4 Case, 5 Let, 6 One, 7 Two, 8 Collect, 9 SetTop,
// 10 Foldl, 11 Foldr, 12 EqualList, 13 Restore, 14 Catch, 15 Then, 16 FreeChain, 17 ApplyFn.
/**
 * One continuation frame. Fields by tag:
 * - AppFun (evaluating an application's function): `node` the `app` node, `env`;
 * - AppArgs (its arguments): `f` the function, `node`, `vals` the arguments so far, `i` the one evaluating, `env`;
 * - ApplyTo: applies the returned function to `vals[i..]` (the arguments a callee did not take);
 * - TyApp: `i` type arguments to apply; Case: `node` the `case` node, `env`;
 * - Let: binding `node.kids[i]` of a `let`, `env` so far; One / Two: `node`, `env` (Two: `f` the first value);
 * - Collect: the items of a record, struct or list node, `vals` so far, `i`, `env`;
 * - SetTop: `x` the `DefValue` being evaluated and the definition to restore (`SetTop`);
 * - Foldl: `f`, `x` the rest of the list; Foldr: `f`, `vals` the items, `i` the next (from the end);
 * - EqualList: `f` the equality, `x` the rests (`Rests`); Restore: `x` the definition;
 * - Catch: `x` a handler for Daml exceptions (the update engine's try/catch pushes these);
 * - Then: `x` a continuation of the update engine, receiving the value returned to it;
 * - FreeChain: a chain of Free's operations applied (freeMonad.ts): `f` the operations, `i` the
 *   next, `x` the `Pure` whose type an `fmap`'s result takes (undefined after a `>>=`'s);
 * - ApplyFn: applies `f` to the value returned (function composition, after the inner function).
 * The rare kinds share `x` (read back with its type by the one place that reads each), and the
 * rarest two put a pair there: every frame carries every field (six million frames a
 * splice-amulet-test run, 8 bytes a field), so fewer fields is less to allocate.
 */
class Frame {
  constructor(
    public t: number,
    public node: Node | null,
    public env: Env,
    public i: number,
    public vals: Value[] | null,
    public f: Value | undefined,
    public x: unknown,
  ) {}
}

/** A SetTop frame's `x`: the top-level value being evaluated, and the definition to restore after it. */
interface SetTop { readonly value: DefValue; readonly saved: Definition | undefined }
/** An EqualList frame's `x`: the rests of the two lists. */
interface Rests { readonly xs: ListValue; readonly ys: ListValue }

const applyToFrame = (args: Value[], from: number) => new Frame(2 /* ApplyTo */, null, null, from, args, undefined, undefined);
const setTopFrame = (value: DefValue, saved: Definition | undefined) => new Frame(9 /* SetTop */, null, null, 0, null, undefined, { value, saved } satisfies SetTop);
const foldlFrame = (f: Value, rest: ListValue) => new Frame(10 /* Foldl */, null, null, 0, null, f, rest);
const foldrFrame = (f: Value, items: Value[]) => new Frame(11 /* Foldr */, null, null, items.length - 1, items, f, undefined);
const equalListFrame = (eq: Value, xs: ListValue, ys: ListValue) => new Frame(12 /* EqualList */, null, null, 0, null, eq, { xs, ys } satisfies Rests);
const restoreFrame = (def: Definition | undefined) => new Frame(13 /* Restore */, null, null, 0, null, undefined, def);
const catchFrame = (handler: (exception: AnyExceptionValue) => void) => new Frame(14 /* Catch */, null, null, 0, null, undefined, handler);
const thenFrame = (resume: (value: Value) => void) => new Frame(15 /* Then */, null, null, 0, null, undefined, resume);
const freeChainFrame = (ops: StructValue, next: number, pureOf: VariantValue | undefined) => new Frame(16 /* FreeChain */, null, null, next, null, ops, pureOf);
const applyFnFrame = (f: Value) => new Frame(17 /* ApplyFn */, null, null, 0, null, f, undefined);

/**
 * 1 for the opcodes `atom` may find a value for without a step (and Uncompiled, which it compiles
 * first): variables, top-level values, builtins, literals, projections, type applications.
 */
const MAYBE_ATOM = new Uint8Array(64);
for (const op of [0, 1, 2, 3, 4, 6, 11, 14, 19, 22]) MAYBE_ATOM[op] = 1;

/** What the machine does after a capture (see `unwound`). */
const enum Cap { Eval = 0, Give = 1, Step = 2, Apply = 3, Failed = 4 }

/**
 * How many `ev` calls nest on the JavaScript stack, by default, before the rest goes to the
 * machine's frames: a few hundred bytes each, far below Node's stack (about 1 MB) whatever called
 * the evaluator.
 */
const DIRECT_DEPTH = 256;

/**
 * Thrown to unwind the direct evaluator into machine frames (never leaves the evaluator). A plain
 * object, made once: an Error would capture a stack trace on every throw.
 */
const CAPTURE = { capture: true } as const;

/** `evApply`'s answer when a closure's body is to be evaluated next (the machine's evalIn). */
const TAIL: unique symbol = Symbol('tail');

/** An evaluation stops: the reason, as data. */
class Stop {
  constructor(readonly error: EvalError) {}
}

/**
 * A `val` node resolved: its definition, and its value as the evaluator `owner` (its map of
 * top-level values) last found it. Nodes are shared by evaluators whose values may differ
 * (`valueOverride`, `builtinOverrides`), so the value is only read back by the same evaluator.
 */
interface ResolvedVal {
  readonly def: DefValue;
  readonly body: Node;
  owner: Map<DefValue, Value | null> | undefined;
  value: Value | undefined;
  /**
   * The value as found in a `sharedValues` map, for every evaluator sharing that map and without a
   * `valueOverride` (their values are the shared ones): the update engine makes an evaluator per
   * sliced run, and one `owner` flipping between them and the script's evaluator cost map lookups.
   */
  shared: Map<DefValue, Value> | undefined;
  sharedValue: Value | undefined;
  /** The native function that computes this definition, if it has one (intrinsics.ts). */
  readonly intrinsic: Value | undefined;
}
const resolvedVal = (def: DefValue, ref: QualifiedName, getPackage: (id: string) => Package | undefined): ResolvedVal => ({
  def, body: rootNode(def.expr, null), owner: undefined, value: undefined, shared: undefined, sharedValue: undefined,
  intrinsic: intrinsicValue(def, ref, getPackage),
});

/** A `builtin` node's value as the evaluator `owner` (its map of builtin values) made it. */
interface ResolvedBuiltin { owner: Map<BuiltinName, Value>; value: Value }

export class Evaluator {
  private readonly getPackage: (id: string) => Package | undefined;
  private readonly budget: number;
  private readonly directDepth: number;
  private readonly allocationBudget: number;
  private readonly onTrace: ((message: string) => void) | undefined;
  private readonly arithmeticError: QualifiedName;
  private readonly valueOverride: ((ref: QualifiedName) => Value | undefined) | undefined;
  private readonly builtinOverrides: ReadonlyMap<BuiltinName, FirstOrderBuiltin> | undefined;
  /** Top-level values evaluated so far (null while one is being evaluated: a cycle). */
  private readonly topValues = new Map<DefValue, Value | null>();
  private readonly sharedValues: Map<DefValue, Value> | undefined;
  private readonly intrinsics: boolean;
  /** Builtin values made so far: one map for every evaluator without overrides (they make the same values). */
  private readonly builtinValues: Map<BuiltinName, Value>;

  // Machine registers, live during one run.
  private k: Frame[] = [];
  private steps = 0;
  /** Bytes allocated by this run so far (see allocationCost.ts). */
  private allocated = 0;
  private def: Definition | undefined;
  private mode: 0 | 1 = 0; // 0: evaluate `expr` in `env`; 1: return `ret` to the top frame
  private expr: Node = nodeOf({ kind: 'lit', value: UNIT }, null);
  private env: Env = null;
  private ret: Value = UNIT;

  constructor(options: EvaluatorOptions) {
    this.getPackage = options.getPackage;
    this.budget = options.stepBudget ?? 100_000_000;
    this.directDepth = options.directDepth ?? DIRECT_DEPTH;
    this.allocationBudget = options.allocationBudget ?? DEFAULT_ALLOCATION_BUDGET;
    this.onTrace = options.onTrace;
    this.valueOverride = options.valueOverride;
    this.builtinOverrides = options.builtinOverrides;
    this.sharedValues = options.sharedValues;
    this.intrinsics = options.intrinsics ?? options.builtinOverrides === undefined;
    this.builtinValues = options.builtinOverrides === undefined ? DEFAULT_BUILTIN_VALUES : new Map();
    this.arithmeticError = {
      packageId: options.arithmeticErrorPackageId ?? ARITHMETIC_ERROR_PACKAGE_ID,
      module: 'DA.Exception.ArithmeticError',
      name: 'ArithmeticError',
    };
  }

  /** Evaluates a closed expression (or one over `bindings`). */
  evaluate(expr: Expr, bindings: readonly (readonly [string, Value])[] = [], definition?: Definition): EvalResult {
    let env: Env = null;
    for (const [name, value] of bindings) env = bindEnv(name, value, env);
    return this.run(() => { this.def = definition; this.evalIn(rootNode(expr, env), env); });
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
    this.k.push(thenFrame(resume));
  }

  /** Pushes a handler for Daml exceptions thrown by what runs above it. */
  catchWith(handler: (exception: AnyExceptionValue) => void): void {
    this.k.push(catchFrame(handler));
  }

  /** Evaluates `expr` in `env`, with `definition` named in failures while it runs. */
  evalWith(expr: Expr, env: Env, definition?: Definition): void {
    this.evalNode(rootNode(expr, env), env, definition);
  }

  /**
   * Evaluates the node `n` in `env`, which has the layout of the scope `n` was made under (the
   * update engine's `updateKids`), with `definition` named in failures while it runs.
   */
  evalNode(n: Node, env: Env, definition?: Definition): void {
    if (definition) {
      this.k.push(restoreFrame(this.def));
      this.def = definition;
    }
    this.evalIn(n, env);
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
      this.free.length = 0;
      this.k = savedK;
    }
  }

  /** Popped frames kept for reuse (`push`, `release`); emptied when a run ends, so none keeps its environment alive. */
  private readonly free: Frame[] = [];

  /** The stack of a sliced run between its slices. */
  private pausedK: Frame[] = [];

  /**
   * Runs until the continuation stack is back to `bottom` frames with a value returned (true), or
   * until `stepLimit` steps are taken (false: the registers hold where to go on).
   */
  private loop(bottom: number, stepLimit: number): boolean {
    const k = this.k;
    const budget = this.budget;
    // A step compares the count once, with the nearer of the slice's limit and the budget (`ev` too).
    const stop = stepLimit < budget ? stepLimit : budget;
    const savedStop = this.stop;
    const savedDepth = this.depth;
    this.stop = stop;
    this.depth = 0;
    try {
      for (;;) {
        const steps = this.steps;
        if (steps >= stop) {
          if (steps >= stepLimit) return false;
          this.steps = steps + 1; // the refused step counts, as it always has (the result's `steps` is one past the error's)
          throw new Stop({
            kind: 'budgetExceeded', steps, definition: this.def,
            message: `evaluation exceeded its budget of ${budget} steps in ${describeDefinition(this.def)}`,
          });
        }
        this.steps = steps + 1;
        if (this.mode === 0) {
          if (this.directDepth === 0) {
            this.step(this.expr, this.env);
            continue;
          }
          try {
            this.give(this.ev(this.expr, this.env));
          } catch (e) {
            if (e !== CAPTURE) throw e;
            this.unwound();
          }
        } else {
          if (k.length === bottom) return true;
          this.resume(k.pop()!);
        }
      }
    } finally {
      this.stop = savedStop;
      this.depth = savedDepth;
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

  /**
   * Pushes a frame of one of the machine's own kinds (0-8), reusing a popped one when there is
   * one: six million frames a splice-amulet-test run were a fifth of what it allocated.
   */
  private push(t: number, node: Node | null, env: Env, i: number, vals: Value[] | null, f: Value | undefined): void {
    const frame = this.free.pop();
    if (frame === undefined) {
      this.k.push(new Frame(t, node, env, i, vals, f, undefined));
      return;
    }
    frame.t = t;
    frame.node = node;
    frame.env = env;
    frame.i = i;
    frame.vals = vals;
    frame.f = f;
    this.k.push(frame);
  }

  /**
   * Keeps a popped frame for reuse: the caller read what it needs, and nothing else holds it (the
   * stack does not, and a frame reaches no one but the machine). A few suffice (the stack shrinks
   * one frame at a time); the rest are the collector's.
   */
  private release(frame: Frame): void {
    if (this.free.length < 16) this.free.push(frame);
  }

  private evalIn(expr: Node, env: Env): void {
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

  /** One evaluation step of the node `n` in `env`. */
  private step(n: Node, env: Env): void {
    if (n.op === 0 /* Uncompiled */) compileNode(n);
    switch (n.op) {
      case 1 /* Var */: {
        const value = lookup(n, env);
        if (value === undefined) return this.fail('crash', `unbound variable ${n.s}`);
        return this.give(value);
      }
      case 2 /* Val */: return this.val(n);
      case 3 /* Builtin */: return this.give(this.builtinOf(n));
      case 4 /* Lit */: return this.give(n.v!);
      case 5 /* RecCon */: {
        if (n.names === null) this.resolveRecCon(n);
        const kids = n.kids!;
        if (kids.length === 0) return this.give({ kind: 'record', tycon: n.x as QualifiedName, fieldNames: n.names!, fields: [] });
        return this.collect(n, new Array<Value>(kids.length), 0, env, undefined);
      }
      case 6 /* RecProj */: case 11 /* StructProj */: {
        const record = this.at(n.a!, env);
        if (record !== undefined) return this.finishOne(n, record, env);
        this.push(6 /* One */, n, env, 0, null, undefined);
        return this.evalIn(n.a!, env);
      }
      case 8 /* VariantCon */: case 23 /* OptionalSome */: case 24 /* ToAny */: case 25 /* FromAny */:
      case 27 /* ToAnyException */: case 28 /* FromAnyException */: case 29 /* Throw */: case 30 /* ToInterface */: case 31 /* FromInterface */:
      case 32 /* CallInterface */: case 33 /* SignatoryInterface */: case 34 /* ObserverInterface */: case 35 /* ViewInterface */:
      case 37 /* InterfaceTemplateTypeRep */: case 38 /* ToRequiredInterface */: case 39 /* FromRequiredInterface */:
        this.push(6 /* One */, n, env, 0, null, undefined);
        return this.evalIn(n.a!, env);
      case 7 /* RecUpd */: case 12 /* StructUpd */: case 36 /* UnsafeFromInterface */: case 40 /* UnsafeFromRequiredInterface */:
      case 41 /* ChoiceController */: case 42 /* ChoiceObserver */:
        this.push(7 /* Two */, n, env, 0, null, undefined);
        return this.evalIn(n.a!, env);
      case 9 /* EnumCon */: return this.give(this.enumValue(n));
      case 10 /* StructCon */: {
        const kids = n.kids!;
        if (kids.length === 0) return this.give({ kind: 'struct', fieldNames: [], fields: [] });
        return this.collect(n, new Array<Value>(kids.length), 0, env, undefined);
      }
      case 13 /* App */: {
        // Atoms (variables, literals, builtins, evaluated top-level values) need no step of their own.
        const fn = this.at(n.a!, env);
        if (fn === undefined) {
          this.push(0 /* AppFun */, n, env, 0, null, undefined);
          return this.evalIn(n.a!, env);
        }
        return this.applyNode(fn, n, env);
      }
      case 14 /* TyApp */: {
        const v = this.atom(n, env);
        if (v !== undefined) return this.give(v);
        this.push(3 /* TyApp */, null, null, n.i, null, undefined);
        return this.evalIn(n.a!, env);
      }
      case 15 /* Abs */:
        this.charge(recordBytes(5));
        return this.give(closure(n.names!, n.a!, env, this.def));
      case 16 /* TyAbs */:
        if (n.i === 0) return this.evalIn(n.a!, env); // erasable: Λ α . v is v
        this.charge(recordBytes(5));
        return this.give(tyClosure(n.i, n.a!, env, this.def));
      case 17 /* Case */: {
        const a = n.a!;
        const scrut = this.at(a, env);
        if (scrut !== undefined) return this.match(scrut, n.alts!, env);
        this.push(4 /* Case */, n, env, 0, null, undefined);
        return this.evalIn(n.a!, env);
      }
      case 18 /* Let */: return this.bind(n, 0, env, undefined);
      case 19 /* Nil */: case 22 /* OptionalNone */: case 26 /* TypeRep */: return this.give(n.v!);
      case 20 /* Cons */: {
        const kids = n.kids!;
        return this.collect(n, new Array<Value>(kids.length), 0, env, undefined);
      }
      case 21 /* Update */: {
        const update: SuspendedUpdate = { node: n, env, def: this.def };
        return this.give({ kind: 'update', update } satisfies UpdateValue);
      }
      case 43 /* Experimental */:
        return this.fail('crash', `experimental builtin ${n.s} is not supported`);
      case 0 /* Uncompiled */:
        return this.fail('crash', 'an expression the compile stage does not know');
    }
  }

  // ---- the direct evaluator --------------------------------------------------------------------
  //
  // The machine above pays for every step in registers, a frame pushed and popped, and a dispatch
  // on its mode. The direct evaluator (`ev`) takes the same steps on the JavaScript stack: where
  // the machine pushes a frame and evaluates a sub-expression, `ev` calls itself and waits for the
  // value; a tail position (a call's body, a case's alternative, a let's body) loops in place, as
  // the machine's does without a frame. It counts every step the machine would, at the same points
  // (a node stepped, a frame resumed), so budgets, slices and the results' `steps` are the same.
  //
  // When the machine has to take over (the budget or a slice's end is reached, the JavaScript
  // stack is `directDepth` calls deep, or a node needs the machine's own frames: an exception
  // thrown, a method of an interface, a choice's controllers, EQUAL_LIST, TRACE ...), `ev` throws
  // CAPTURE: each call it unwinds through (`waitFor`, `evItems`, `evApply`, `evFold`) adds the frame
  // the machine would hold at that point (made only now), and the loop pushes them and does what
  // was left of the step (`unwound`). Speedy keeps its own stack for the same reason; here the JavaScript stack is the
  // fast path and the machine's stack the general one.

  /** The frames `ev` calls unwound through (innermost first), while a capture unwinds. */
  private readonly captured: Frame[] = [];
  /** What the machine does once a capture's frames are pushed (`Cap`), and with what. */
  private capKind = 0;
  private capNode: Node | null = null;
  private capEnv: Env = null;
  private capValue: Value | undefined = undefined;
  private capArgs: Value[] | null = null;
  private capFrom = 0;
  private capName: BuiltinName | IntrinsicName | '' = '';
  private capFailure: BuiltinFailure | undefined = undefined;
  /** `ev` calls on the JavaScript stack now. */
  private depth = 0;
  /** The step count at which `ev` hands over: the nearer of the slice's end and the budget. */
  private stop = 0;
  /** Where a call returning TAIL continues (`evApply`). */
  private tn: Node | null = null;
  private te: Env = null;

  /** Unwinds `ev` into machine frames: `kind` says what the machine does then (see `unwound`). */
  private capture(kind: Cap, node: Node | null, env: Env, value: Value | undefined): never {
    this.capKind = kind;
    this.capNode = node;
    this.capEnv = env;
    this.capValue = value;
    throw CAPTURE;
  }

  /** The machine's side of a capture: push the frames `ev` unwound through, then finish the step. */
  private unwound(): void {
    const c = this.captured;
    for (let i = c.length - 1; i >= 0; i--) this.k.push(c[i]!);
    c.length = 0;
    this.depth = 0;
    const node = this.capNode;
    const env = this.capEnv;
    const value = this.capValue;
    const args = this.capArgs;
    const failure = this.capFailure;
    this.capNode = null;
    this.capEnv = null;
    this.capValue = undefined;
    this.capArgs = null;
    this.capFailure = undefined;
    switch (this.capKind) {
      case 0 /* Eval: the step at node is not counted yet */: return this.evalIn(node!, env);
      case 1 /* Give: the resume of the top frame is not counted yet */: return this.give(value!);
      case 2 /* Step: counted; the machine takes it */: return this.step(node!, env);
      case 3 /* Apply: within a counted step */: return this.applyFun(value as Fn, args!, this.capFrom);
      case 4 /* Failed: a builtin failed within a counted step */: return this.builtinFailed(this.capName as BuiltinName, failure!);
    }
  }

  /** The step at `n`, before `ev` continues there in place. */
  private next(n: Node, env: Env): void {
    if (this.steps >= this.stop) this.capture(0 /* Eval */, n, env, undefined);
    this.steps++;
  }

  /** Evaluates `n` to a value where the machine would push a frame first (the caller's `site`). */
  private sub(n: Node, env: Env): Value {
    if (this.steps >= this.stop || this.depth >= this.directDepth) this.capture(0 /* Eval */, n, env, undefined);
    this.steps++;
    return this.ev(n, env);
  }

  /** The resume of the caller's frame with `v` (a step of its own). */
  private tick(v: Value): void {
    if (this.steps >= this.stop) this.capture(1 /* Give */, null, null, v);
    this.steps++;
  }

  /**
   * `a` evaluated in `aEnv` where the machine holds the frame (`t`, `node`, `env`, `i`, `f`, `x`)
   * while it waits, then that frame's resume counted: a capture meanwhile makes the frame.
   */
  private waitFor(a: Node, aEnv: Env, t: number, node: Node | null, env: Env, i: number, f: Value | undefined, x: unknown): Value {
    try {
      const v = this.sub(a, aEnv);
      this.tick(v);
      return v;
    } catch (e) {
      if (e === CAPTURE) this.captured.push(new Frame(t, node, env, i, null, f, x));
      throw e;
    }
  }

  /** Evaluates `n` in `env` to a value; the step at `n` is counted. */
  private ev(n: Node, env: Env): Value {
    this.depth++;
    try {
      for (;;) {
        if (n.op === 0 /* Uncompiled */) compileNode(n);
        switch (n.op) {
          case 1 /* Var */: {
            const value = lookup(n, env);
            if (value === undefined) return this.fail('crash', `unbound variable ${n.s}`);
            return value;
          }
          case 2 /* Val */: {
            const value = this.valOf(n);
            if (value !== undefined) return value;
            // Evaluated now, as the machine's SetTop frame does.
            const ref = n.x as ResolvedVal;
            const saved = this.def;
            this.def = (n.src as Extract<Expr, { kind: 'val' }>).ref;
            const v = this.waitFor(ref.body, null, 9 /* SetTop */, null, null, 0, undefined, { value: ref.def, saved } satisfies SetTop);
            this.topValues.set(ref.def, v);
            this.sharedValues?.set(ref.def, v);
            this.def = saved;
            return v;
          }
          case 3 /* Builtin */: return this.builtinOf(n);
          case 4 /* Lit */: case 19 /* Nil */: case 22 /* OptionalNone */: case 26 /* TypeRep */: return n.v!;
          case 5 /* RecCon */: case 10 /* StructCon */: case 20 /* Cons */: {
            if (n.op === 5 /* RecCon */ && n.names === null) this.resolveRecCon(n);
            const kids = n.kids!;
            if (kids.length === 0) {
              return n.op === 5 /* RecCon */
                ? { kind: 'record', tycon: n.x as QualifiedName, fieldNames: n.names!, fields: [] }
                : { kind: 'struct', fieldNames: [], fields: [] };
            }
            return this.collectedValue(n, this.evItems(8 /* Collect */, n, env, undefined));
          }
          case 6 /* RecProj */: case 11 /* StructProj */: {
            const value = this.at(n.a!, env) ?? this.waitFor(n.a!, env, 6 /* One */, n, env, 0, undefined, undefined);
            return this.oneValue(n, value);
          }
          case 8 /* VariantCon */: case 23 /* OptionalSome */: case 24 /* ToAny */: case 25 /* FromAny */:
          case 27 /* ToAnyException */: case 28 /* FromAnyException */: case 30 /* ToInterface */: case 31 /* FromInterface */:
          case 37 /* InterfaceTemplateTypeRep */: case 38 /* ToRequiredInterface */: case 39 /* FromRequiredInterface */: {
            return this.oneValue(n, this.waitFor(n.a!, env, 6 /* One */, n, env, 0, undefined, undefined));
          }
          case 32 /* CallInterface */: case 33 /* SignatoryInterface */: case 34 /* ObserverInterface */: case 35 /* ViewInterface */: {
            // As the machine's One frame, then its inTemplate: the body under a Restore frame, naming the template.
            const v = this.waitFor(n.a!, env, 6 /* One */, n, env, 0, undefined, undefined);
            const { record, param, body } = this.interfaceBody(n, v);
            const saved = this.def;
            this.def = record.tycon;
            const bodyEnv = bindEnv(param, record, null);
            const r = this.waitFor(rootNode(body, bodyEnv), bodyEnv, 13 /* Restore */, null, null, 0, undefined, saved);
            this.def = saved;
            return r;
          }
          case 7 /* RecUpd */: case 12 /* StructUpd */: case 36 /* UnsafeFromInterface */: case 40 /* UnsafeFromRequiredInterface */: {
            const a = this.waitFor(n.a!, env, 7 /* Two */, n, env, 0, undefined, undefined);
            const b = this.waitFor(n.b!, env, 7 /* Two */, n, env, 0, a, undefined);
            return this.twoValue(n, a, b);
          }
          case 9 /* EnumCon */: return this.enumValue(n);
          case 13 /* App */: {
            const fn = this.at(n.a!, env) ?? this.waitFor(n.a!, env, 0 /* AppFun */, n, env, 0, undefined, undefined);
            // As the machine's applyNode: a closure taking exactly one to three atoms is entered without an array.
            const cell = this.directCall(fn, n, env);
            if (cell !== undefined) {
              this.def = (fn as Fn).def;
              env = cell;
              n = (fn as Fn).body!;
              this.next(n, env);
              continue;
            }
            const r = this.evApply(fn, this.evItems(1 /* AppArgs */, n, env, fn), 0);
            if (r !== TAIL) return r;
            n = this.tn!;
            env = this.te;
            this.next(n, env);
            continue;
          }
          case 14 /* TyApp */: {
            const v = this.atom(n, env);
            if (v !== undefined) return v;
            let count = n.i;
            let value = this.waitFor(n.a!, env, 3 /* TyApp */, null, null, count, undefined, undefined);
            // As the machine's TyApp frame: only a type abstraction over a `nat` takes type arguments.
            let enter: Fn | null = null;
            for (;;) {
              if (value.kind !== 'function' || (value as Fn).tag !== 3 /* TyClosure */) break;
              const fn = value as Fn;
              if (count < fn.arity) {
                value = tyClosure(fn.arity - count, fn.body!, fn.env, fn.def);
                break;
              }
              this.def = fn.def;
              if (count === fn.arity) {
                enter = fn;
                break;
              }
              count -= fn.arity;
              value = this.waitFor(fn.body!, fn.env, 3 /* TyApp */, null, null, count, undefined, undefined);
            }
            if (enter === null) return value;
            // Saturated: its body, in place.
            env = enter.env;
            n = enter.body!;
            this.next(n, env);
            continue;
          }
          case 15 /* Abs */:
            this.charge(recordBytes(5));
            return closure(n.names!, n.a!, env, this.def);
          case 16 /* TyAbs */:
            if (n.i === 0) {
              n = n.a!;
              this.next(n, env);
              continue;
            }
            this.charge(recordBytes(5));
            return tyClosure(n.i, n.a!, env, this.def);
          case 17 /* Case */: {
            const scrut = this.at(n.a!, env) ?? this.waitFor(n.a!, env, 4 /* Case */, n, env, 0, undefined, undefined);
            const alt = this.pick(scrut, n.alts!);
            env = altEnv(alt, scrut, env);
            n = alt.body;
            this.next(n, env);
            continue;
          }
          case 18 /* Let */: {
            const bounds = n.kids!;
            const names = n.names!;
            for (let i = 0; i < bounds.length; i++) {
              const bound = bounds[i]!;
              const value = this.at(bound, env) ?? this.waitFor(bound, env, 5 /* Let */, n, env, i, undefined, undefined);
              env = letBind(names, i, value, env);
            }
            n = n.a!;
            this.next(n, env);
            continue;
          }
          case 21 /* Update */: {
            const update: SuspendedUpdate = { node: n, env, def: this.def };
            return { kind: 'update', update } satisfies UpdateValue;
          }
          default:
            // Throw, the choice nodes, and what the compile stage does not know: the machine's.
            return this.capture(2 /* Step */, n, env, undefined);
        }
      }
    } finally {
      this.depth--;
    }
  }

  /**
   * The values of `node`'s items (an application's arguments, a record's, struct's or list's
   * items), atoms read inline, the others evaluated in order, as the machine's AppArgs (`t` 1,
   * `f` the function) or Collect (`t` 8) frame collects them; a capture makes that frame.
   */
  private evItems(t: number, node: Node, env: Env, f: Value | undefined): Value[] {
    const kids = node.kids!;
    const vals = new Array<Value>(kids.length);
    let i = 0;
    try {
      for (; i < kids.length; i++) {
        const kid = kids[i]!;
        let value = this.at(kid, env);
        if (value === undefined) {
          value = this.sub(kid, env);
          this.tick(value);
        }
        vals[i] = value;
      }
      return vals;
    } catch (e) {
      if (e === CAPTURE) this.captured.push(new Frame(t, node, env, i, vals, f, undefined));
      throw e;
    }
  }

  /**
   * Applies `fnv` to `args[from..]` as the machine's applyFn does, within a counted step: returns
   * the value, or TAIL when a closure's body is to be evaluated (at `tn` in `te`, its step not yet counted).
   */
  private evApply(fnv: Value, args: Value[], from: number): Value | typeof TAIL {
    // The only frame the machine pushes here is ApplyTo (an over-applied callee): `sI` its next argument.
    let site = false;
    let sI = 0;
    let sVals: Value[] | null = null;
    try {
      for (;;) {
        if (fnv.kind !== 'function') return this.fail('crash', `applied a ${fnv.kind} value as a function`);
        const fn = fnv as Fn;
        const count = args.length - from;
        switch (fn.tag) {
          case 0 /* Closure */: {
            const n = fn.arity;
            if (count < n) {
              this.charge(recordBytes(count + 2));
              return pap(fn, from === 0 ? args : args.slice(from));
            }
            const env = new EnvCell(fn.params!, args, from, ARGS, fn.env);
            this.def = fn.def;
            if (count === n) {
              this.tn = fn.body!;
              this.te = env;
              return TAIL;
            }
            site = true; sI = from + n; sVals = args;
            fnv = this.sub(fn.body!, env);
            this.tick(fnv);
            site = false;
            from += n;
            continue;
          }
          case 1 /* Pap */: {
            const inner = fn.inner!;
            const held = fn.args!;
            if (count >= fn.arity && inner.tag === 0 /* Closure */) {
              const m = held.length;
              const n = inner.arity;
              const env = papCell(inner, held, args, from);
              this.def = inner.def;
              if (count === n - m) {
                this.tn = inner.body!;
                this.te = env;
                return TAIL;
              }
              site = true; sI = from + n - m; sVals = args;
              fnv = this.sub(inner.body!, env);
              this.tick(fnv);
              site = false;
              from += n - m;
              continue;
            }
            fnv = inner;
            args = joinArgs(held, args, from);
            from = 0;
            continue;
          }
          case 2 /* Builtin */: {
            if (count < fn.arity) {
              this.charge(recordBytes(count + 2));
              if (count === 2 && fn.name === COMPOSE) this.def = fn.def; // `f . g` enters the body, as `(.)`'s closure would.
              return pap(fn, from === 0 ? args : args.slice(from));
            }
            const impl = fn.impl;
            const over = count > fn.arity;
            if (impl === undefined) {
              if (fn.name === COMPOSE && fn.def !== undefined) {
                if (this.depth >= this.directDepth) return this.onMachine(fn, args, from);
                // `(f . g) x`: as the body `f (g x)`, in `.`'s definition: `g x` first, then `f` in tail
                // position, or, over-applied, `f`'s result applied to the rest (the machine's ApplyTo frame).
                const f = args[from]!;
                if (over) { site = true; sI = from + fn.arity; sVals = args; }
                this.def = fn.def;
                let v: Value;
                try {
                  v = this.applied(args[from + 1]!, [args[from + 2]!]);
                  this.tick(v);
                } catch (e) {
                  if (e === CAPTURE) this.captured.push(applyFnFrame(f));
                  throw e;
                }
                if (!over) { fnv = f; args = [v]; from = 0; continue; }
                fnv = this.applied(f, [v]);
                this.tick(fnv);
                site = false;
                from += fn.arity;
                continue;
              }
              if (!over && fn.def !== undefined) {
                // Machine intrinsics (a `def` marks them): Free's (freeMonad.ts).
                if (fn.name === FREE_BIND) {
                  const m = args[from + 1]!;
                  // `Pure a >>= f` is `f a`, in tail position.
                  if (m.kind === 'variant' && m.constructor === 'Pure') { fnv = args[from + 2]!; args = [m.value]; from = 0; continue; }
                  const wrapped = this.freeWrapped(args[from]!, m, BIND_OP, args[from + 2]!);
                  if (wrapped !== undefined) return wrapped;
                } else if (fn.name === FREE_MAP) {
                  const m = args[from + 2]!;
                  if (m.kind === 'variant' && m.constructor === 'Pure') {
                    if (this.depth < this.directDepth) return this.evChain(NO_OPS, 0, m, args[from + 1]!, m.value);
                    return this.onMachine(fn, args, from);
                  }
                  const wrapped = this.freeWrapped(args[from]!, m, MAP_OP, args[from + 1]!);
                  if (wrapped !== undefined) return wrapped;
                }
                // Otherwise the definition's own body, applied to the arguments (as an over-applied closure is).
                site = true; sI = from; sVals = args;
                this.def = fn.def;
                fnv = this.sub(fn.body!, null);
                this.tick(fnv);
                site = false;
                continue;
              }
              if (!over && fn.name === FREE_CONTINUE && this.depth < this.directDepth) {
                return this.evChain(args[from + 1] as StructValue, 0, undefined, args[from]!, args[from + 2]!);
              }
              if (!over && (fn.name === 'FOLDL' || fn.name === 'FOLDR') && this.depth < this.directDepth) return this.evFold(fn, args, from);
              // EQUAL_LIST, TRACE, ANY_EXCEPTION_MESSAGE (and the folds past the depth or over-applied): the machine applies them.
              return this.onMachine(fn, args, from);
            }
            if (over) { site = true; sI = from + fn.arity; sVals = args; }
            const name = fn.name as BuiltinName;
            const outcome = this.invoke(impl, name, from === 0 && count === fn.arity ? args : args.slice(from, from + fn.arity));
            if (!outcome.ok) {
              this.capName = name;
              this.capFailure = outcome.failure;
              return this.capture(4 /* Failed */, null, null, undefined);
            }
            if (!over) return outcome.value;
            fnv = outcome.value;
            this.tick(fnv);
            site = false;
            from += fn.arity;
            continue;
          }
          case 3 /* TyClosure */: return this.fail('crash', 'applied a type abstraction to a value argument');
        }
      }
    } catch (e) {
      if (e === CAPTURE && site) this.captured.push(new Frame(2 /* ApplyTo */, null, null, sI, sVals, undefined, undefined));
      throw e;
    }
  }

  /**
   * FOLDL and FOLDR (exactly their three arguments, at `args[from..]`) as the machine's Foldl and
   * Foldr frames run them: each function call between two steps of the frame, on the JavaScript stack.
   */
  private evFold(fn: Fn, args: readonly Value[], from: number): Value {
    const f = args[from]!;
    const list = args[from + 2]!;
    const left = fn.name === 'FOLDL';
    if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `${left ? 'FOLDL' : 'FOLDR'} over a ${list.kind}`);
    // The frame the machine holds: Foldl's `x` the rest of the list, Foldr's `i` the next item from the end.
    let cell: ListValue = list;
    let items: Value[] | null = null;
    let i = 0;
    let acc = args[from + 1]!;
    this.depth++;
    try {
      if (left) {
        for (;;) {
          this.tick(acc);
          if (cell.kind === 'nil') return acc;
          const head = cell.head;
          cell = cell.tail;
          acc = this.applied(f, [acc, head]);
        }
      }
      items = [];
      for (let c: ListValue = list; c.kind === 'cons'; c = c.tail) items.push(c.head);
      this.charge(SLOT_BYTES * items.length);
      i = items.length - 1;
      for (;;) {
        this.tick(acc);
        if (i < 0) return acc;
        const item = items[i]!;
        i--;
        acc = this.applied(f, [item, acc]);
      }
    } catch (e) {
      if (e === CAPTURE) this.captured.push(left ? foldlFrame(f, cell) : new Frame(11 /* Foldr */, null, null, i, items, f, undefined));
      throw e;
    } finally {
      this.depth--;
    }
  }

  /** Unwinds to the machine, which applies the builtin `fn` to `args[from..]` (it pushes the frames the call needs). */
  private onMachine(fn: Fn, args: Value[], from: number): never {
    this.capArgs = args;
    this.capFrom = from;
    return this.capture(3 /* Apply */, null, null, fn);
  }

  /**
   * A chain of Free's operations (freeMonad.ts) from `ops[i]` on, after `f` applied to `a`, as the
   * machine's FreeChain frame runs it: each function call between two steps of the frame, on the
   * JavaScript stack. `pureOf`: the result of `f` is an `fmap`'s, to be made `Pure` like it.
   */
  private evChain(ops: StructValue, i: number, pureOf: VariantValue | undefined, f: Value, a: Value): Value {
    this.depth++;
    try {
      for (;;) {
        const v = this.applied(f, [a]);
        this.tick(v);
        const m = pureOf === undefined ? v : this.pureLike(pureOf, v);
        if (m.kind !== 'variant') return this.fail('crash', `a Free operation gave a ${m.kind}`);
        if (m.constructor !== 'Pure' || i === ops.fields.length) return this.chained(m, ops, i);
        pureOf = ops.fieldNames[i] === MAP_OP ? m : undefined;
        f = ops.fields[i]!;
        a = m.value;
        i++;
      }
    } catch (e) {
      if (e === CAPTURE) this.captured.push(freeChainFrame(ops, i, pureOf));
      throw e;
    } finally {
      this.depth--;
    }
  }

  /** `Pure v` of the type of `like`. */
  private pureLike(like: VariantValue, v: Value): VariantValue {
    this.charge(recordBytes(4));
    return pureLike(like, v);
  }

  /** `m` (a chain's result) with the operations `ops[i..]` still to come: after its question's continuation when it is `Free`. */
  private chained(m: VariantValue, ops: StructValue, i: number): Value {
    if (m.constructor === 'Pure' || i === ops.fields.length) return m;
    const p = pendingQuestion(m);
    if (p === undefined) return this.fail('crash', 'a Free value of a chain is not a ScriptF question');
    return this.continuedBy(p, ops, i);
  }

  /** The pending question `p` whose continuation is followed by `ops[i..]`. */
  private continuedBy(p: PendingQuestion, ops: StructValue, i: number): VariantValue {
    const { first, ops: before } = asChain(p.question.fields[p.continueAt]!);
    const after = opsAfter(before, ops, i);
    // The two arrays of the operations, the chain, the question, its ScriptF and the Free.
    this.charge(2 * SLOT_BYTES * after.fields.length + recordBytes(4) + recordBytes(p.question.fields.length) + recordBytes(1) + recordBytes(4));
    return withContinue(p, chain(first, after));
  }

  /**
   * Free's `>>=` or `fmap` (`op`) of `f` over `m`, when `m` is a `Free (ScriptF question)` and the
   * Functor dictionary `dict` is ScriptF's: the question with `f` after its continuation. Else undefined.
   */
  private freeWrapped(dict: Value, m: Value, op: typeof BIND_OP | typeof MAP_OP, f: Value): VariantValue | undefined {
    if (m.kind !== 'variant' || m.constructor !== 'Free' || !isScriptFunctor(dict, this.getPackage)) return undefined;
    const p = pendingQuestion(m);
    return p === undefined ? undefined : this.continuedBy(p, oneOp(op, f), 0);
  }

  /** `f` applied to `args` and evaluated to a value (within a counted step, as the machine's applyFn). */
  private applied(f: Value, args: Value[]): Value {
    const r = this.evApply(f, args, 0);
    return r === TAIL ? this.sub(this.tn!, this.te) : r;
  }

  /** The `val` node's definition, remembered on the node; undefined when it is missing (the step that evaluates the node says why). */
  private resolveVal(n: Node): ResolvedVal | undefined {
    const ref = (n.src as Extract<Expr, { kind: 'val' }>).ref;
    const found = this.getPackage(ref.packageId)?.modules.get(ref.module)?.values.get(ref.name);
    if (found === undefined) return undefined;
    const resolved = resolvedVal(found, ref, this.getPackage);
    n.x = resolved;
    return resolved;
  }

  /** An enum constructor's value, made once per node. */
  private enumValue(n: Node): Value {
    if (n.v === undefined) {
      const tycon = (n.src as Extract<Expr, { kind: 'enumCon' }>).tycon;
      const dt = this.dataType(tycon);
      const rank = dt.cons.kind === 'enum' ? dt.cons.constructors.indexOf(n.s) : -1;
      if (rank < 0) return this.fail('crash', `no enum constructor ${n.s} in ${tycon.module}:${tycon.name}`);
      n.v = { kind: 'enum', tycon, constructor: n.s, rank };
    }
    return n.v;
  }

  /** A top-level value: remembered on the node for this evaluator, evaluated on first use. */
  private val(n: Node): void {
    const value = this.valOf(n);
    if (value !== undefined) return this.give(value);
    const ref = n.x as ResolvedVal;
    this.k.push(setTopFrame(ref.def, this.def));
    this.def = (n.src as Extract<Expr, { kind: 'val' }>).ref;
    this.evalIn(ref.body, null);
  }

  /**
   * The value of the `val` node `n` when this evaluator has it; undefined when it is to be
   * evaluated now (its body is `n.x`'s, marked as being evaluated: a value needing itself fails).
   */
  private valOf(n: Node): Value | undefined {
    const src = n.src as Extract<Expr, { kind: 'val' }>;
    let ref = n.x as ResolvedVal | undefined;
    if (!ref) {
      const found = this.module(src.ref, 'value').values.get(src.ref.name);
      if (!found) return this.fail('missingDefinition', `no value ${src.ref.module}:${src.ref.name} in package ${src.ref.packageId}`);
      n.x = ref = resolvedVal(found, src.ref, this.getPackage);
    } else if (ref.owner === this.topValues) {
      return ref.value!;
    } else if (this.sharedValues !== undefined && ref.shared === this.sharedValues && this.valueOverride === undefined) {
      // A value in the shared map is done: this evaluator cannot be evaluating it (a value that
      // needs itself never reaches the map).
      return ref.sharedValue!;
    }
    if (ref.intrinsic !== undefined && this.intrinsics) return ref.intrinsic;
    const def = ref.def;
    let cached = this.topValues.get(def);
    if (cached === undefined) {
      const shared = this.sharedValues?.get(def);
      if (shared !== undefined) {
        this.topValues.set(def, (cached = shared));
        if (this.valueOverride === undefined) {
          ref.shared = this.sharedValues;
          ref.sharedValue = shared;
          return shared;
        }
      }
    }
    if (cached === undefined && this.valueOverride) {
      // Asked per evaluator, not per node: expression nodes (and their caches) are shared.
      cached = this.valueOverride(src.ref);
      if (cached) this.topValues.set(def, cached);
    }
    if (cached) {
      ref.owner = this.topValues;
      ref.value = cached;
      return cached;
    }
    if (cached === null) return this.fail('crash', `the value ${src.ref.module}:${src.ref.name} depends on itself`);
    this.topValues.set(def, null);
    return undefined;
  }

  /** Continues the top frame with the returned value `this.ret`. */
  private resume(frame: Frame): void {
    const v = this.ret;
    switch (frame.t) {
      case 0 /* AppFun */: {
        const node = frame.node!;
        const env = frame.env;
        this.release(frame);
        return this.applyNode(v, node, env);
      }
      case 1 /* AppArgs */:
        frame.vals![frame.i] = v;
        return this.collectArgs(frame.f!, frame.node!, frame.vals!, frame.i + 1, frame.env, frame);
      case 2 /* ApplyTo */: {
        const args = frame.vals!;
        const from = frame.i;
        this.release(frame);
        return this.applyFn(v, args, from);
      }
      case 3 /* TyApp */: {
        if (v.kind !== 'function') return this.give(v);
        const fn = v as Fn;
        if (fn.tag !== 3 /* TyClosure */) return this.give(v);
        const count = frame.i;
        this.release(frame);
        if (count < fn.arity) return this.give(tyClosure(fn.arity - count, fn.body!, fn.env, fn.def));
        if (count > fn.arity) this.push(3 /* TyApp */, null, null, count - fn.arity, null, undefined);
        this.enter(fn.def);
        return this.evalIn(fn.body!, fn.env);
      }
      case 4 /* Case */: {
        const alts = frame.node!.alts!;
        const env = frame.env;
        this.release(frame);
        return this.match(v, alts, env);
      }
      case 5 /* Let */: {
        const node = frame.node!;
        return this.bind(node, frame.i + 1, letBind(node.names!, frame.i, v, frame.env), frame);
      }
      case 6 /* One */: {
        const node = frame.node!;
        const env = frame.env;
        this.release(frame);
        return this.finishOne(node, v, env);
      }
      case 7 /* Two */: {
        if (frame.f === undefined) {
          frame.f = v;
          this.k.push(frame);
          return this.evalIn(frame.node!.b!, frame.env);
        }
        const node = frame.node!;
        const first = frame.f;
        this.release(frame);
        return this.finishTwo(node, first, v);
      }
      case 8 /* Collect */:
        frame.vals![frame.i] = v;
        return this.collect(frame.node!, frame.vals!, frame.i + 1, frame.env, frame);
      case 9 /* SetTop */: {
        const { value, saved } = frame.x as SetTop;
        this.topValues.set(value, v);
        this.sharedValues?.set(value, v);
        this.def = saved;
        return this.give(v);
      }
      case 10 /* Foldl */: {
        const cell = frame.x as ListValue;
        if (cell.kind === 'nil') return this.give(v);
        frame.x = cell.tail;
        this.k.push(frame);
        return this.applyFn(frame.f!, [v, cell.head]);
      }
      case 11 /* Foldr */: {
        const i = frame.i;
        if (i < 0) return this.give(v);
        frame.i = i - 1;
        this.k.push(frame);
        return this.applyFn(frame.f!, [frame.vals![i]!, v]);
      }
      case 12 /* EqualList */: {
        if (v.kind !== 'bool' || !v.value) return this.give(FALSE);
        const { xs, ys } = frame.x as Rests;
        return this.equalList(frame.f!, xs, ys);
      }
      case 13 /* Restore */:
        this.def = frame.x as Definition | undefined;
        return this.give(v);
      case 14 /* Catch */:
        return this.give(v);
      case 15 /* Then */:
        return (frame.x as (value: Value) => void)(v);
      case 17 /* ApplyFn */:
        return this.applyFn(frame.f!, [v]);
      case 16 /* FreeChain */: {
        const ops = frame.f as StructValue;
        const i = frame.i;
        const pureOf = frame.x as VariantValue | undefined;
        const m = pureOf === undefined ? v : this.pureLike(pureOf, v);
        if (m.kind !== 'variant') return this.fail('crash', `a Free operation gave a ${m.kind}`);
        if (m.constructor !== 'Pure' || i === ops.fields.length) return this.give(this.chained(m, ops, i));
        frame.i = i + 1;
        frame.x = ops.fieldNames[i] === MAP_OP ? m : undefined;
        this.k.push(frame);
        return this.applyFn(ops.fields[i]!, [m.value]);
      }
    }
  }

  private enter(def: Definition | undefined): void {
    this.def = def;
  }

  // ---- application ---------------------------------------------------------------------------

  /**
   * `atom`, its most frequent cases first: small enough to be inlined where it is called, so a
   * node that can never be an atom (an application, a lambda: a third of the questions) costs no call.
   */
  private at(n: Node, env: Env): Value | undefined {
    const op = n.op;
    if (op === 1 /* Var */) return lookup(n, env);
    return MAYBE_ATOM[op] === 1 ? this.atom(n, env) : undefined;
  }

  /** The value of a node that needs no evaluation step, or undefined. */
  private atom(n: Node, env: Env): Value | undefined {
    if (n.op === 0 /* Uncompiled */) compileNode(n);
    switch (n.op) {
      case 4 /* Lit */: case 19 /* Nil */: case 22 /* OptionalNone */: return n.v;
      case 1 /* Var */: return lookup(n, env);
      case 3 /* Builtin */: return this.builtinOf(n);
      case 2 /* Val */: {
        // Resolved here too (not only by the step that evaluates it): whether an earlier run met
        // this node must not change how many steps this one takes.
        const ref = (n.x as ResolvedVal | undefined) ?? this.resolveVal(n);
        if (ref === undefined) return undefined;
        if (ref.owner === this.topValues) return ref.value;
        if (ref.intrinsic !== undefined && this.intrinsics) return ref.intrinsic;
        const shared = this.sharedValues;
        if (shared !== undefined && ref.shared === shared && this.valueOverride === undefined) return ref.sharedValue;
        const own = this.topValues.get(ref.def);
        if (own) {
          ref.owner = this.topValues;
          ref.value = own;
          return own;
        }
        const v = shared?.get(ref.def);
        if (v !== undefined) {
          if (this.valueOverride === undefined) {
            ref.shared = shared;
            ref.sharedValue = v;
          } else {
            ref.owner = this.topValues;
            ref.value = v;
          }
        }
        return v;
      }
      case 6 /* RecProj */: {
        // A field of a record at hand; anything else (a misfit included) takes a step.
        const record = this.at(n.a!, env);
        if (record === undefined || record.kind !== 'record') return undefined;
        let index = n.i;
        if (index < 0 || record.fieldNames[index] !== n.s) {
          index = record.fieldNames.indexOf(n.s);
          if (index < 0) return undefined;
          n.i = index;
        }
        return record.fields[index];
      }
      case 11 /* StructProj */: {
        // A field of a struct at hand (a type class method of a dictionary, mostly), as recProj.
        const struct = this.at(n.a!, env);
        if (struct === undefined || struct.kind !== 'struct') return undefined;
        const index = fieldIndex(n, struct.fieldNames);
        return index < 0 ? undefined : struct.fields[index];
      }
      case 14 /* TyApp */: {
        // Type arguments are erased, except by a type abstraction over a `nat` (it takes a step).
        const v = this.at(n.a!, env);
        return v !== undefined && v.kind === 'function' && (v as Fn).tag === 3 /* TyClosure */ ? undefined : v;
      }
      default: return undefined;
    }
  }

  /**
   * Applies `fn` to the arguments of the `app` node `node`: a call `directCall` enters, or with
   * an array of the arguments (`collectArgs`).
   */
  private applyNode(fn: Value, node: Node, env: Env): void {
    const cell = this.directCall(fn, node, env);
    if (cell !== undefined) {
      this.def = (fn as Fn).def;
      return this.evalIn((fn as Fn).body!, cell);
    }
    return this.collectArgs(fn, node, new Array<Value>(node.kids!.length), 0, env, undefined);
  }

  /**
   * The environment `fn`'s body runs in when `fn` is a closure taking exactly the `app` node's
   * one to three arguments and all of them are atoms: they go in its cell, with no argument array
   * (five million calls a splice-amulet-test run). Otherwise undefined: atoms have no effects, so
   * falling back after some were read just reads them again.
   */
  private directCall(fn: Value, node: Node, env: Env): EnvCell | undefined {
    const args = node.kids!;
    const count = args.length;
    if (count > 3 || count === 0 || fn.kind !== 'function' || (fn as Fn).tag !== 0 /* Closure */ || (fn as Fn).arity !== count) return undefined;
    const f = fn as Fn;
    const a = this.at(args[0]!, env);
    if (a === undefined) return undefined;
    let b: Value | undefined;
    let c: Value | undefined;
    if (count > 1) {
      b = this.at(args[1]!, env);
      if (b === undefined) return undefined;
      if (count > 2) {
        c = this.at(args[2]!, env);
        if (c === undefined) return undefined;
      }
    }
    return new EnvCell(f.params!, a, b, c, f.env);
  }

  /**
   * Evaluates the arguments of an application from `args[i]` on, atoms inline, then applies.
   * `vals` is made at the arguments' count (an empty array grows a backing store of 16 on first push).
   */
  private collectArgs(fn: Value, node: Node, vals: Value[], i: number, env: Env, frame: Frame | undefined): void {
    const args = node.kids!;
    for (const n = args.length; i < n; i++) {
      const arg = args[i]!;
      const value = this.at(arg, env);
      if (value === undefined) {
        if (frame) {
          frame.i = i;
          this.k.push(frame);
        } else {
          this.push(1 /* AppArgs */, node, env, i, vals, fn);
        }
        return this.evalIn(arg, env);
      }
      vals[i] = value;
    }
    if (frame) this.release(frame);
    return this.applyFn(fn, vals);
  }

  /**
   * Binds the `let` node's bindings from `i` on, in order, atoms inline, then evaluates its body.
   * Frames are popped before they resume: one still in use is pushed again, not copied.
   */
  private bind(node: Node, i: number, env: Env, frame: Frame | undefined): void {
    const bounds = node.kids!;
    const names = node.names!;
    for (; i < bounds.length; i++) {
      const bound = bounds[i]!;
      const value = this.at(bound, env);
      if (value === undefined) {
        if (frame) {
          frame.i = i;
          frame.env = env;
          this.k.push(frame);
        } else {
          this.push(5 /* Let */, node, env, i, null, undefined);
        }
        return this.evalIn(bound, env);
      }
      env = letBind(names, i, value, env);
    }
    if (frame) this.release(frame);
    return this.evalIn(node.a!, env);
  }

  /** Evaluates the items of a record, struct or list from `exprs[i]` on, atoms inline, then builds it. */
  private collect(node: Node, vals: Value[], i: number, env: Env, frame: Frame | undefined): void {
    const exprs = node.kids!;
    for (const n = exprs.length; i < n; i++) {
      const e = exprs[i]!;
      const value = this.at(e, env);
      if (value === undefined) {
        if (frame) {
          frame.i = i;
          this.k.push(frame);
        } else {
          this.push(8 /* Collect */, node, env, i, vals, undefined);
        }
        return this.evalIn(e, env);
      }
      vals[i] = value;
    }
    if (frame) this.release(frame);
    return this.finishCollect(node, vals);
  }

  /** Applies `fnv` to `args[from..]` (an over-applied callee leaves the rest to an ApplyTo frame, without copying). */
  private applyFn(fnv: Value, args: Value[], from = 0): void {
    if (fnv.kind !== 'function') return this.fail('crash', `applied a ${fnv.kind} value as a function`);
    return this.applyFun(fnv as Fn, args, from);
  }

  private applyFun(fn: Fn, args: Value[], from: number): void {
    const count = args.length - from;
    switch (fn.tag) {
      case 0 /* Closure */: {
        const n = fn.arity;
        if (count < n) {
          this.charge(recordBytes(count + 2));
          return this.give(pap(fn, from === 0 ? args : args.slice(from)));
        }
        // The parameters are one cell over the argument array itself (an ApplyTo frame reads the rest of it).
        const env = new EnvCell(fn.params!, args, from, ARGS, fn.env);
        if (count > n) this.push(2 /* ApplyTo */, null, null, from + n, args, undefined);
        this.def = fn.def;
        return this.evalIn(fn.body!, env);
      }
      case 1 /* Pap */: {
        const inner = fn.inner!;
        const held = fn.args!;
        if (count >= fn.arity && inner.tag === 0 /* Closure */) {
          // Saturated: one cell over what the partial application holds and the new arguments (the rest to an ApplyTo frame).
          const m = held.length;
          const n = inner.arity;
          const env = papCell(inner, held, args, from);
          if (count > n - m) this.push(2 /* ApplyTo */, null, null, from + n - m, args, undefined);
          this.def = inner.def;
          return this.evalIn(inner.body!, env);
        }
        return this.applyFun(inner, joinArgs(held, args, from), 0);
      }
      case 2 /* Builtin */: {
        if (count < fn.arity) {
          this.charge(recordBytes(count + 2));
          if (count === 2 && fn.name === COMPOSE) this.def = fn.def; // `f . g` enters the body, as `(.)`'s closure would.
          return this.give(pap(fn, from === 0 ? args : args.slice(from)));
        }
        if (count > fn.arity) this.push(2 /* ApplyTo */, null, null, from + fn.arity, args, undefined);
        return this.callBuiltin(fn, from === 0 && count === fn.arity ? args : args.slice(from, from + fn.arity));
      }
      case 3 /* TyClosure */: return this.fail('crash', 'applied a type abstraction to a value argument');
    }
  }


  /** A builtin node's value, remembered on the node for this evaluator (overrides differ between evaluators). */
  private builtinOf(n: Node): Value {
    const resolved = n.x as ResolvedBuiltin | undefined;
    if (resolved !== undefined && resolved.owner === this.builtinValues) return resolved.value;
    const value = this.builtinValue((n.src as Extract<Expr, { kind: 'builtin' }>).builtin);
    if (resolved === undefined) n.x = { owner: this.builtinValues, value } satisfies ResolvedBuiltin;
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
      value = builtinFn(name, arity, impl);
    }
    this.builtinValues.set(name, value);
    return value;
  }

  /** Calls the builtin `fn` (tag Builtin, so `name` is set) with exactly its arity of arguments. */
  private callBuiltin(fn: Fn, args: Value[]): void {
    const name = fn.name as BuiltinName;
    if (fn.impl) {
      const outcome = this.invoke(fn.impl, name, args);
      if (outcome.ok) return this.give(outcome.value);
      return this.builtinFailed(name, outcome.failure);
    }
    return this.evaluatorBuiltin(name, args, fn);
  }

  /** Runs a first-order builtin, charged by what it builds. */
  private invoke(impl: FirstOrderBuiltin, name: BuiltinName | IntrinsicName, args: readonly Value[]): BuiltinOutcome {
    // An intrinsic sizes itself (what it builds or walks); a builtin is sized by name (`builtinCost`).
    const cost = impl.cost;
    this.charge(cost === undefined ? builtinCost(name, args) : cost(args));
    try {
      return impl.apply(args);
    } catch (e) {
      // V8's own limits (a string or array past its maximum length), met only under a budget raised past them.
      if (!(e instanceof RangeError)) throw e;
      throw new Stop({
        kind: 'allocationExceeded', allocated: this.allocated, budget: this.allocationBudget, definition: this.def,
        message: `builtin ${name} would build a value past the engine's limits (${e.message}) in ${describeDefinition(this.def)}`,
      });
    }
  }

  /** A first-order builtin failed: an arithmetic error is a Daml exception, the rest end the run. */
  private builtinFailed(name: BuiltinName, failure: BuiltinFailure): void {
    switch (failure.kind) {
      case 'arithmetic': {
        // daml-lf-2.rst: arithmetic failures throw daml-prim's ArithmeticError, catchable.
        if (failure.definition !== undefined) this.def = failure.definition;
        const payload: RecordValue = { kind: 'record', tycon: this.arithmeticError, fieldNames: ['message'], fields: [text(failure.message)] };
        return this.throwException({ kind: 'anyException', type: { kind: 'con', tycon: this.arithmeticError, args: [] }, value: payload });
      }
      case 'error': throw new Stop({ kind: 'userError', message: failure.message, definition: this.def });
      case 'failWithStatus': throw new Stop({ ...failure, definition: this.def });
      case 'crash': return this.fail('crash', `builtin ${name}: ${failure.message}`);
    }
  }

  /** The builtins the machine runs itself (they apply functions or push frames). */
  private evaluatorBuiltin(name: BuiltinName | IntrinsicName, args: Value[], fn: Fn): void {
    switch (name) {
      case COMPOSE: {
        const [f, g, x] = args as [Value, Value, Value];
        this.k.push(applyFnFrame(f));
        this.def = fn.def;
        return this.applyFn(g, [x]);
      }
      case FREE_BIND: {
        const [dict, m, f] = args as [Value, Value, Value];
        if (m.kind === 'variant' && m.constructor === 'Pure') return this.applyFn(f, [m.value]);
        const wrapped = this.freeWrapped(dict, m, BIND_OP, f);
        if (wrapped !== undefined) return this.give(wrapped);
        return this.definitionBody(fn, args);
      }
      case FREE_MAP: {
        const [dict, f, m] = args as [Value, Value, Value];
        if (m.kind === 'variant' && m.constructor === 'Pure') {
          this.k.push(freeChainFrame(NO_OPS, 0, m));
          return this.applyFn(f, [m.value]);
        }
        const wrapped = this.freeWrapped(dict, m, MAP_OP, f);
        if (wrapped !== undefined) return this.give(wrapped);
        return this.definitionBody(fn, args);
      }
      case FREE_CONTINUE: {
        const [first, ops, answer] = args as [Value, StructValue, Value];
        this.k.push(freeChainFrame(ops, 0, undefined));
        return this.applyFn(first, [answer]);
      }
      case 'TRACE': {
        const [message, value] = args as [Value, Value];
        this.onTrace?.(message.kind === 'text' ? message.value : String(message.kind));
        return this.give(value);
      }
      case 'FOLDL': {
        const [f, z, list] = args as [Value, Value, Value];
        if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `FOLDL over a ${list.kind}`);
        this.k.push(foldlFrame(f, list));
        return this.give(z);
      }
      case 'FOLDR': {
        const [f, z, list] = args as [Value, Value, Value];
        if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `FOLDR over a ${list.kind}`);
        const items: Value[] = [];
        for (let cell: ListValue = list; cell.kind === 'cons'; cell = cell.tail) items.push(cell.head);
        this.charge(SLOT_BYTES * items.length);
        this.k.push(foldrFrame(f, items));
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
        this.k.push(restoreFrame(this.def));
        this.k.push(applyToFrame([exception.value], 0));
        this.def = type.tycon;
        return this.evalIn(rootNode(def.message, null), null);
      }
      default: return this.fail('crash', `builtin ${name} is not implemented`);
    }
  }

  /** A machine intrinsic's definition, its own Daml body, applied to `args`. */
  private definitionBody(fn: Fn, args: Value[]): void {
    this.push(2 /* ApplyTo */, null, null, 0, args, undefined);
    this.def = fn.def;
    return this.evalIn(fn.body!, null);
  }

  private equalList(eq: Value, xs: ListValue, ys: ListValue): void {
    if (xs.kind === 'nil' || ys.kind === 'nil') return this.give(xs.kind === ys.kind ? TRUE : FALSE);
    this.k.push(equalListFrame(eq, xs.tail, ys.tail));
    return this.applyFn(eq, [xs.head, ys.head]);
  }

  /** Unwinds to the innermost handler; with none, the evaluation ends with the exception. */
  throwException(exception: AnyExceptionValue): void {
    const k = this.k;
    while (k.length > 0) {
      const frame = k.pop()!;
      if (frame.t === 14 /* Catch */) return (frame.x as (exception: AnyExceptionValue) => void)(exception);
      if (frame.t === 9 /* SetTop */) this.topValues.delete((frame.x as SetTop).value);
      else if (frame.t === 13 /* Restore */) this.def = frame.x as Definition | undefined; // the handler runs in its own definition
    }
    throw new Stop({ kind: 'unhandledException', exception, definition: this.def });
  }

  // ---- case --------------------------------------------------------------------------------

  private match(v: Value, alts: readonly Alt[], env: Env): void {
    const alt = this.pick(v, alts);
    return this.evalIn(alt.body, altEnv(alt, v, env));
  }

  /** The first alternative matching `v` (none: the run fails). */
  private pick(v: Value, alts: readonly Alt[]): Alt {
    for (let j = 0; j < alts.length; j++) {
      const alt = alts[j]!;
      switch (alt.k) {
        case 0 /* Default */: return alt;
        case 1 /* Variant */: if (v.kind === 'variant' && v.constructor === alt.con) return alt; break;
        case 2 /* Enum */: if (v.kind === 'enum' && v.constructor === alt.con) return alt; break;
        case 3 /* Unit */: if (v.kind === 'unit') return alt; break;
        case 4 /* True */: if (v.kind === 'bool' && v.value) return alt; break;
        case 5 /* False */: if (v.kind === 'bool' && !v.value) return alt; break;
        case 6 /* Nil */: if (v.kind === 'nil') return alt; break;
        case 7 /* Cons */: if (v.kind === 'cons') return alt; break;
        case 8 /* None */: if (v.kind === 'optional' && v.value === undefined) return alt; break;
        case 9 /* Some */: if (v.kind === 'optional' && v.value !== undefined) return alt; break;
      }
    }
    return this.fail('crash', `no case alternative matches a ${v.kind} value`);
  }

  // ---- nodes with sub-expressions -----------------------------------------------------------

  private finishOne(node: Node, v: Value, env: Env): void {
    switch (node.op) {
      case 29 /* Throw */:
        return this.throwException({ kind: 'anyException', type: (node.src as Extract<Expr, { kind: 'throw' }>).exceptionType, value: v });
      case 32 /* CallInterface */: case 35 /* ViewInterface */: case 33 /* SignatoryInterface */: case 34 /* ObserverInterface */: {
        const { record, param, body } = this.interfaceBody(node, v);
        return this.inTemplate(record, param, body);
      }
      default:
        void env;
        return this.give(this.oneValue(node, v));
    }
  }

  /** The value a node of one sub-expression (a projection, a constructor, a conversion) makes of `v`, its sub-expression's value. */
  private oneValue(node: Node, v: Value): Value {
    switch (node.op) {
      case 6 /* RecProj */: {
        if (v.kind !== 'record') return this.fail('crash', `projected field ${node.s} of a ${v.kind}`);
        let index = node.i;
        if (index < 0 || v.fieldNames[index] !== node.s) {
          index = v.fieldNames.indexOf(node.s);
          if (index < 0) return this.fail('crash', `no field ${node.s} in ${v.tycon.module}:${v.tycon.name}`);
          node.i = index;
        }
        return v.fields[index]!;
      }
      case 8 /* VariantCon */: {
        const tycon = (node.src as Extract<Expr, { kind: 'variantCon' }>).tycon.tycon;
        let rank = node.i;
        if (rank < 0) {
          const dt = this.dataType(tycon);
          rank = dt.cons.kind === 'variant' ? dt.cons.constructors.findIndex((c) => c.name === node.s) : -1;
          if (rank < 0) return this.fail('crash', `no constructor ${node.s} in ${tycon.module}:${tycon.name}`);
          node.i = rank;
        }
        this.charge(recordBytes(4));
        return { kind: 'variant', tycon, constructor: node.s, rank, value: v };
      }
      case 11 /* StructProj */: {
        if (v.kind !== 'struct') return this.fail('crash', `struct projection of a ${v.kind}`);
        const index = fieldIndex(node, v.fieldNames);
        if (index < 0) return this.fail('crash', `no struct field ${node.s}`);
        return v.fields[index]!;
      }
      case 23 /* OptionalSome */: this.charge(CELL_BYTES); return some(v);
      case 24 /* ToAny */: this.charge(recordBytes(2)); return { kind: 'any', type: typeOf(node), value: v };
      case 25 /* FromAny */:
        if (v.kind !== 'any') return this.fail('crash', `from_any of a ${v.kind}`);
        return typesEqual(v.type, typeOf(node)) ? some(v.value) : NONE;
      case 27 /* ToAnyException */: return { kind: 'anyException', type: typeOf(node), value: v };
      case 28 /* FromAnyException */:
        if (v.kind !== 'anyException') return this.fail('crash', `from_any_exception of a ${v.kind}`);
        return typesEqual(v.type, typeOf(node)) ? some(v.value) : NONE;
      case 30 /* ToInterface */: case 38 /* ToRequiredInterface */: return v;
      case 31 /* FromInterface */:
        return this.templateOf(v) === qualifiedKey((node.src as Extract<Expr, { kind: 'fromInterface' }>).template) ? some(v) : NONE;
      case 39 /* FromRequiredInterface */:
        return this.instanceOf(v, (node.src as Extract<Expr, { kind: 'fromRequiredInterface' }>).requiring) ? some(v) : NONE;
      case 37 /* InterfaceTemplateTypeRep */: {
        const { record } = this.contract(v);
        return { kind: 'typeRep', type: { kind: 'con', tycon: record.tycon, args: [] } };
      }
      default:
        return this.fail('crash', `unexpected ${node.src.kind} continuation`);
    }
  }

  private finishTwo(node: Node, a: Value, b: Value): void {
    switch (node.op) {
      case 41 /* ChoiceController */: case 42 /* ChoiceObserver */: {
        const ref = (node.src as Extract<Expr, { kind: 'choiceController' | 'choiceObserver' }>).template;
        const template = this.template(ref);
        const choice: TemplateChoice | undefined = template.choices.get(node.s);
        if (!choice) return this.fail('missingDefinition', `no choice ${node.s} on ${ref.module}:${ref.name}`);
        const body = node.op === 41 /* ChoiceController */ ? choice.controllers : choice.observers;
        if (!body) return this.give(NIL);
        this.k.push(restoreFrame(this.def));
        this.def = ref;
        const env = bindEnv(choice.argBinder.name, b, bindEnv(template.param, a, null));
        return this.evalIn(rootNode(body, env), env);
      }
      default: return this.give(this.twoValue(node, a, b));
    }
  }

  /** The value a node of two sub-expressions (an update, an unsafe conversion) makes of their values `a` and `b`. */
  private twoValue(node: Node, a: Value, b: Value): Value {
    switch (node.op) {
      case 7 /* RecUpd */: {
        if (a.kind !== 'record') return this.fail('crash', `updated field ${node.s} of a ${a.kind}`);
        const index = a.fieldNames.indexOf(node.s);
        if (index < 0) return this.fail('crash', `no field ${node.s} in ${a.tycon.module}:${a.tycon.name}`);
        this.charge(recordBytes(a.fields.length));
        const fields = a.fields.slice();
        fields[index] = b;
        return { kind: 'record', tycon: a.tycon, fieldNames: a.fieldNames, fields };
      }
      case 12 /* StructUpd */: {
        if (a.kind !== 'struct') return this.fail('crash', `struct update of a ${a.kind}`);
        const index = a.fieldNames.indexOf(node.s);
        if (index < 0) return this.fail('crash', `no struct field ${node.s}`);
        this.charge(recordBytes(a.fields.length));
        const fields = a.fields.slice();
        fields[index] = b;
        return { kind: 'struct', fieldNames: a.fieldNames, fields };
      }
      case 36 /* UnsafeFromInterface */: {
        const template = (node.src as Extract<Expr, { kind: 'unsafeFromInterface' }>).template;
        if (this.templateOf(b) !== qualifiedKey(template)) {
          return this.fail('crash', `contract ${a.kind === 'contractId' ? a.value : '?'} is not a ${template.module}:${template.name}`);
        }
        return b;
      }
      case 40 /* UnsafeFromRequiredInterface */: {
        const requiring = (node.src as Extract<Expr, { kind: 'unsafeFromRequiredInterface' }>).requiring;
        if (!this.instanceOf(b, requiring)) {
          return this.fail('crash', `contract ${a.kind === 'contractId' ? a.value : '?'} does not implement ${requiring.module}:${requiring.name}`);
        }
        return b;
      }
      default: return this.fail('crash', `unexpected ${node.src.kind} continuation`);
    }
  }

  private finishCollect(node: Node, vals: Value[]): void {
    return this.give(this.collectedValue(node, vals));
  }

  /** The record, struct or list a node of items makes of their values. */
  private collectedValue(node: Node, vals: Value[]): Value {
    switch (node.op) {
      case 5 /* RecCon */:
        this.charge(recordBytes(vals.length));
        return { kind: 'record', tycon: node.x as QualifiedName, fieldNames: node.names!, fields: vals };
      case 10 /* StructCon */: {
        const order = node.x as readonly number[];
        this.charge(recordBytes(vals.length));
        const fields = new Array<Value>(vals.length);
        for (let i = 0; i < vals.length; i++) fields[order[i]!] = vals[i]!;
        return { kind: 'struct', fieldNames: node.names!, fields };
      }
      case 20 /* Cons */: {
        let list = vals[vals.length - 1]!;
        if (list.kind !== 'cons' && list.kind !== 'nil') return this.fail('crash', `cons onto a ${list.kind}`);
        this.charge(CELL_BYTES * (vals.length - 1));
        for (let i = vals.length - 2; i >= 0; i--) list = { kind: 'cons', head: vals[i]!, tail: list };
        return list;
      }
      default: return this.fail('crash', `unexpected ${node.src.kind} continuation`);
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

  /** Orders a record construction's fields as its definition does (`kids`, `names`, `x` the type constructor). */
  private resolveRecCon(n: Node): void {
    const expr = n.src as Extract<Expr, { kind: 'recCon' }>;
    const dt = this.dataType(expr.tycon.tycon);
    if (dt.cons.kind !== 'record') return this.fail('crash', `${expr.tycon.tycon.module}:${expr.tycon.tycon.name} is not a record`);
    const byName = new Map(expr.fields.map((f) => [f.field, f.expr]));
    const exprs = dt.cons.fieldNames.map((name) => byName.get(name));
    if (exprs.some((e) => e === undefined) || byName.size !== exprs.length) {
      return this.fail('crash', `record ${expr.tycon.tycon.module}:${expr.tycon.tycon.name} built with fields ${[...byName.keys()].join(', ')}`);
    }
    n.kids = exprs.map((e) => nodeOf(e!, n.scope));
    n.x = expr.tycon.tycon;
    n.names = dt.cons.fieldNames;
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

  /**
   * What an interface node (`call_interface`, `view_interface`, `signatory_interface`,
   * `observer_interface`) runs for the interface value `v`: the contract's template's method,
   * view, signatories or observers, with the contract bound to the template's parameter.
   */
  private interfaceBody(node: Node, v: Value): { readonly record: RecordValue; readonly param: string; readonly body: Expr } {
    const { template, record } = this.contract(v);
    switch (node.op) {
      case 32 /* CallInterface */: {
        const iface = (node.src as Extract<Expr, { kind: 'callInterface' }>).iface;
        const body = this.instance(template, record, iface).methods.get(node.s);
        if (!body) return this.fail('crash', `${record.tycon.module}:${record.tycon.name} has no method ${node.s} of ${iface.module}:${iface.name}`);
        return { record, param: template.param, body };
      }
      case 35 /* ViewInterface */:
        return { record, param: template.param, body: this.instance(template, record, (node.src as Extract<Expr, { kind: 'viewInterface' }>).iface).view };
      case 33 /* SignatoryInterface */: return { record, param: template.param, body: template.signatories };
      default: return { record, param: template.param, body: template.observers };
    }
  }

  /** Evaluates a template-scoped expression with the template parameter bound to the contract. */
  private inTemplate(record: RecordValue, param: string, body: Expr): void {
    this.k.push(restoreFrame(this.def));
    this.def = record.tycon;
    const env = bindEnv(param, record, null);
    return this.evalIn(rootNode(body, env), env);
  }
}

/**
 * The value of the variable node `n` in `env` (undefined: unbound): `n.d` groups up, slot `n.i`,
 * as the compile stage resolved them from the node's scope. Sound because `env` always has the
 * layout of that scope: a root is compiled for its environment's layout (`rootNode`), and the
 * machine extends environments exactly as the compile stage extends scopes (parameters, `let`
 * bindings, case binders).
 */
function lookup(n: Node, env: Env): Value | undefined {
  let d = n.d;
  if (d < 0) return undefined;
  let e = env!;
  for (; d > 0; d--) e = e.up!;
  // Slot `i` of the cell (EnvCell's layout, Env.ts): the machine's most frequent read.
  const c = e.c;
  const i = n.i;
  if (c === ARGS) return (e.a as readonly Value[])[(e.b as number) + i];
  return i === 0 ? e.a as Value | undefined : i === 1 ? e.b as Value | undefined : c;
}

/**
 * The cell a saturated partial application of the closure `inner` enters: the `held` arguments,
 * then `args[from..]` up to its arity, in one array.
 */
function papCell(inner: Fn, held: readonly Value[], args: readonly Value[], from: number): EnvCell {
  const m = held.length;
  const n = inner.arity;
  const vals = new Array<Value>(n);
  for (let i = 0; i < m; i++) vals[i] = held[i]!;
  for (let i = m; i < n; i++) vals[i] = args[from + i - m]!;
  return new EnvCell(inner.params!, vals, 0, ARGS, inner.env);
}

/**
 * The arguments a partial application holds followed by `args[from..]`, in one new array
 * (`Array.prototype.concat` costs several times more: it checks every argument for spreading).
 */
function joinArgs(held: readonly Value[], args: readonly Value[], from: number): Value[] {
  const m = held.length;
  const out = new Array<Value>(m + args.length - from);
  for (let i = 0; i < m; i++) out[i] = held[i]!;
  for (let i = from; i < args.length; i++) out[m + i - from] = args[i]!;
  return out;
}

/** The environment of a matched alternative's body: its binders bound to `v`'s parts. */
function altEnv(alt: Alt, v: Value, env: Env): Env {
  switch (alt.k) {
    case 1 /* Variant */: return new EnvCell(alt.names, (v as Extract<Value, { kind: 'variant' }>).value, undefined, undefined, env);
    case 7 /* Cons */: return new EnvCell(alt.names, (v as Extract<Value, { kind: 'cons' }>).head, (v as Extract<Value, { kind: 'cons' }>).tail, undefined, env);
    case 9 /* Some */: return new EnvCell(alt.names, (v as Extract<Value, { kind: 'optional' }>).value, undefined, undefined, env);
    default: return env;
  }
}

/** The position of a struct projection's field, remembered on the node (structs of one type share their names). */
function fieldIndex(node: Node, fieldNames: readonly string[]): number {
  const cached = node.i;
  if (cached >= 0 && fieldNames[cached] === node.s) return cached;
  const index = fieldNames.indexOf(node.s);
  if (index >= 0) node.i = index;
  return index;
}

/** The type a `to_any`, `from_any`, `to_any_exception` or `from_any_exception` node names. */
function typeOf(node: Node) {
  return (node.src as Extract<Expr, { kind: 'toAny' | 'fromAny' | 'toAnyException' | 'fromAnyException' }>).type;
}
