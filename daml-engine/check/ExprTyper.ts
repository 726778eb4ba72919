/**
 * The expression typing rules of daml-lf-2.rst ("Type system", "Well-formed expressions") for the
 * upload check: each expression's type is inferred bottom-up and compared with what its context
 * requires (application arguments, record and variant fields, case patterns and alternatives,
 * `let` and update-block bindings, update forms, builtin signatures, definitions' declared types).
 * Runs on expressions the scope walker (checkPackage.ts) accepted, so names resolve and variables
 * are bound. What it cannot type exactly is UNKNOWN (types.ts), which agrees with anything: a
 * false refusal of a real package is worse than a missed ill-typed one. An explicit stack of
 * frames and a stack of result types: no recursion on expression depth.
 */
import type { CaseAlt, Expr, TypeConApp, Update } from '../ast/Expr.js';
import type { DataCons, DefDataType, DefInterface, DefTemplate, Module, TemplateChoice } from '../ast/Package.js';
import type { Kind, QualifiedName, Type } from '../ast/Type.js';
import type { Value } from '../value/Value.js';
import { BUILTIN_TYPES, builtinParamKinds, instantiateBuiltin } from './builtinTypes.js';
import type { CheckReason } from './CheckFailure.js';
import {
  abstractOver, agree, b, BOOL, con, conHead, contractId, DATE, fn, INT64, instantiate, isForall, kindKey, list, nat, numeric, optional,
  PARTY, showTy, struct, structField, TEXT, TIMESTAMP, toTy, type Ty, type TyNode, unfold, UNIT, UNKNOWN, update,
} from './types.js';

/** The look-ups the typer borrows from the package checker (which fails with a CheckFailure). */
export interface TypingContext {
  fail(reason: CheckReason): never;
  /** The scope walk's checks, for a walk with them (`roots(..., scoped)`): see PackageChecker. */
  tick(): void;
  readonly limits: { readonly exprDepth: number };
  /** Frames between two pauses of a walk, and what to restore after one. */
  readonly stepsPerPause: number;
  /** The kind of a type in the scope of type variables bound, as `kindKey` writes kinds. */
  kindKeyOf(t: Type): string;
  resumed(): void;
  /** A `val` or `builtin` leaf's reference or availability. */
  leaf(e: Expr): void;
  /** A node's own references, arities and types (its subexpressions are the walk's). */
  nodeScope(e: Expr): void;
  bindTypeVars(params: readonly TypeVar[]): void;
  unbindTypeVars(params: readonly TypeVar[]): void;
  moduleOf(q: QualifiedName): Module;
  consOf<C extends DataCons['kind']>(q: QualifiedName, kind: C): { dt: DefDataType; cons: Extract<DataCons, { kind: C }> };
  templateOf(q: QualifiedName): DefTemplate;
  interfaceOf(q: QualifiedName): DefInterface;
  choiceOf(q: QualifiedName, choice: string, of: 'template' | 'interface'): TemplateChoice;
}

export interface Root { readonly e: Expr; readonly type: Ty; readonly what: string }
/** What a mismatch names; a function where building the text costs (it is built only on a refusal). */
type What = string | (() => string);
export interface Bound { readonly name: string; readonly type: Ty }
type TypeVar = { readonly name: string; readonly kind: Kind };

type Frame =
  /** An expression at depth `d` (rules leave it 0: `node` sets its children's). */
  | { readonly k: 'e'; readonly e: Expr; d: number }
  /** Pops a type and compares it with `type` (`keep`: leaves it). */
  | { readonly k: 'expect'; readonly type: Ty; readonly what: What; readonly keep?: boolean }
  | { readonly k: 'push'; readonly type: Ty }
  /** Pops an argument's type and the function's, pushes the result. */
  | { readonly k: 'apply'; readonly i: number; readonly head: string }
  | { readonly k: 'abs'; readonly params: readonly Ty[] }
  | { readonly k: 'bind'; readonly names: readonly string[]; readonly types: readonly Ty[] }
  | { readonly k: 'unbind'; readonly names: readonly string[] }
  /** A `let` (or update block, `upd`) binding: pops the bound expression's type, binds the name. */
  | { readonly k: 'letBind'; readonly name: string; readonly type: Ty; readonly upd: boolean }
  /** A case's alternatives, their bodies at depth `d` (set by `node` as for 'e'). */
  | { readonly k: 'alts'; readonly alts: readonly CaseAlt[]; d: number }
  /** A type abstraction's variables, in scope of its body (in the checker's scope too, to kind type arguments). */
  | { readonly k: 'tbind' | 'tunbind'; readonly params: readonly TypeVar[] }
  /** Pops an alternative's type and the earlier ones' (`first`: none yet). */
  | { readonly k: 'join'; readonly first: boolean }
  /** Pops a type abstraction's body type, pushes its `∀` type. */
  | { readonly k: 'forall'; readonly params: readonly TypeVar[]; readonly checked: boolean }
  /** Pops a polymorphic expression's type, pushes it at `types`. */
  | { readonly k: 'tyApp'; readonly types: readonly Ty[]; readonly asts: readonly Type[]; readonly head: string }
  /** Pops the fields' types (in `names`' order), pushes the struct type. */
  | { readonly k: 'struct'; readonly names: readonly string[] }
  /** Pops a struct's type, pushes its field's. */
  | { readonly k: 'proj'; readonly field: string }
  /** Pops the new field's type and the struct's, pushes the struct's. */
  | { readonly k: 'structUpd'; readonly field: string };

const ANY = b('ANY');
const ANY_EXCEPTION = b('ANY_EXCEPTION');
const TYPE_REP = b('TYPE_REP');
const PARTIES = list(PARTY);

export class ExprTyper {
  readonly #vars = new Map<string, Ty[]>();
  readonly #vals: Ty[] = [];
  /**
   * Type abstractions whose body has a declared type: a polymorphic value's `/\ a. e` against its
   * declared `∀ a. τ` (`e : τ`, `a` rigid), which names a mismatch inside the body; other
   * abstractions get the `∀` type of their body (`forallOf`).
   */
  readonly polymorphicBodies = new Map<Expr, Ty>();
  /** Type variables in scope, by name: how many binders of each (a shadowed one makes a `∀` UNKNOWN). */
  readonly #typeVars = new Map<string, number>();
  /**
   * Whether this walk also makes the scope walk's checks (checkPackage.ts): every variable bound,
   * references resolved, types well-kinded, depth and work bounded. One walk instead of two.
   */
  scoped = false;

  constructor(readonly cx: TypingContext) {}

  /** Each root, with `bound` in scope, must have its type (and, `scoped`, pass the scope walk's checks). */
  *roots(roots: readonly Root[], bound: readonly Bound[], scoped = false): Generator<void, void> {
    this.scoped = scoped;
    for (const r of roots) {
      const stack: Frame[] = [
        { k: 'unbind', names: bound.map((x) => x.name) },
        { k: 'expect', type: r.type, what: r.what },
        { k: 'e', e: r.e, d: 1 },
        { k: 'bind', names: bound.map((x) => x.name), types: bound.map((x) => x.type) },
      ];
      yield* this.run(stack);
    }
  }

  /** Forgets the bindings and types of a walk a failure cut short. */
  reset(): void {
    this.#vars.clear();
    this.#vals.length = 0;
    this.polymorphicBodies.clear();
    this.#typeVars.clear();
  }

  /**
   * `∀ params. body` of a type abstraction (daml-lf-2.rst TyAbs), or UNKNOWN where a parameter
   * shadows a type variable in scope: the body's types name both alike, so abstracting could
   * capture the outer one.
   */
  forallOf(params: readonly TypeVar[], body: Ty): Ty {
    const kinds = params.map((p) => kindKey(p.kind));
    if (params.some((p, i) => kinds[i] === undefined || (this.#typeVars.get(p.name) ?? 0) > 0 || params.findIndex((q) => q.name === p.name) !== i)) return UNKNOWN;
    let t = body;
    for (let i = params.length - 1; i >= 0; i--) t = abstractOver(params[i]!.name, kinds[i]!, t);
    return t;
  }

  /** A type argument must have its binder's kind (daml-lf-2.rst TyApp), `key` as `kindKey` writes it. */
  kindOfArgument(arg: Type, key: string, i: number, head: string): void {
    const found = this.cx.kindKeyOf(arg);
    if (found !== key) this.cx.fail({ kind: 'kindMismatch', detail: `type argument ${i + 1} of ${head}: expected kind ${showKindKey(key)}, found ${showKindKey(found)}` });
  }

  /** A struct type's field, or a refusal naming what was projected. */
  fieldOf(t: TyNode, field: string): Ty {
    const ft = structField(t, field);
    if (ft === undefined) this.cx.fail({ kind: 'typeMismatch', detail: `field ${field} of a value of type ${showTy(t)}, which has none` });
    return ft;
  }

  /**
   * The type a value's body must have: its declared type, or, for `∀ a₁…aₙ. τ` defined by
   * `/\ b₁…bₙ. e` with the same kinds, `e`'s type `τ[aᵢ ↦ bᵢ]` (registered for the tyAbs rule)
   * and UNKNOWN for the abstraction itself.
   */
  valueBodyType(declared: Type, body: Expr): Ty {
    const type = toTy(declared);
    if (declared.kind !== 'forall' || body.kind !== 'tyAbs' || body.params.length !== declared.vars.length) return type;
    if (!declared.vars.every((v, i) => kindKey(v.kind) === kindKey(body.params[i]!.kind))) return type;
    const rigid = new Map<string, Ty>(declared.vars.map((v, i) => [v.name, { head: `var:${body.params[i]!.name}`, args: [] }]));
    this.polymorphicBodies.set(body, toTy(declared.body, rigid));
    return type;
  }

  mismatch(what: What, expected: Ty, found: Ty): never {
    this.cx.fail({ kind: 'typeMismatch', detail: `${typeof what === 'string' ? what : what()}: expected ${showTy(expected)}, found ${showTy(found)}` });
  }

  /** Pauses every `cx.stepsPerPause` frames (see PackageChecker.STEPS_PER_PAUSE). */
  *run(stack: Frame[]): Generator<void, void> {
    while (this.runSome(stack, this.cx.stepsPerPause)) {
      yield;
      this.cx.resumed();
    }
  }

  /** Up to `n` frames; whether any are left. The loop stays a plain function, which V8 optimizes better than a generator's. */
  runSome(stack: Frame[], n: number): boolean {
    for (let i = 0; i < n && stack.length > 0; i++) this.step(stack.pop()!, stack);
    return stack.length > 0;
  }

  /** Runs one frame; those that walk further push theirs on `stack`. */
  step(f: Frame, stack: Frame[]): void {
    const vals = this.#vals;
    switch (f.k) {
      case 'e': this.expr(f.e, stack, f.d); break;
      case 'expect': {
        const t = f.keep ? vals[vals.length - 1]! : vals.pop()!;
        if (!agree(t, f.type)) this.mismatch(f.what, f.type, t);
        break;
      }
      case 'push': vals.push(f.type); break;
      case 'apply': {
        const arg = vals.pop()!;
        const fun = unfold(vals.pop()!);
        if (fun === UNKNOWN) { vals.push(UNKNOWN); break; }
        if (fun.head !== 'ARROW' || fun.args.length !== 2) {
          this.cx.fail({ kind: 'typeMismatch', detail: `${f.head} of type ${showTy(fun)} is applied to argument ${f.i + 1}, but it is not a function` });
        }
        const from = fun.args[0]!;
        if (!agree(arg, from)) this.mismatch(`argument ${f.i + 1} of ${f.head}`, from, arg);
        vals.push(fun.args[1]!);
        break;
      }
      case 'abs': {
        let t = vals.pop()!;
        for (let i = f.params.length - 1; i >= 0; i--) t = fn(f.params[i]!, t);
        vals.push(t);
        break;
      }
      case 'bind': for (let i = 0; i < f.names.length; i++) this.bind(f.names[i]!, f.types[i]!); break;
      case 'unbind': for (const n of f.names) this.unbind(n); break;
      case 'letBind': {
        const t = vals.pop()!;
        const want = f.upd ? update(f.type) : f.type;
        if (!agree(t, want)) this.mismatch(`binding ${f.name}`, want, t);
        this.bind(f.name, f.type);
        break;
      }
      case 'alts': this.alts(f.alts, vals.pop()!, stack, f.d); break;
      // Bound in the checker's scope too (also after a separate scope walk): type arguments are kinded in it.
      case 'tbind':
        this.cx.bindTypeVars(f.params);
        for (const p of f.params) this.#typeVars.set(p.name, (this.#typeVars.get(p.name) ?? 0) + 1);
        break;
      case 'tunbind':
        this.cx.unbindTypeVars(f.params);
        for (const p of f.params) this.#typeVars.set(p.name, this.#typeVars.get(p.name)! - 1);
        break;
      case 'forall': {
        const body = vals.pop()!;
        // A value's own abstraction had its body checked against the declared type already (valueBodyType).
        vals.push(f.checked ? UNKNOWN : this.forallOf(f.params, body));
        break;
      }
      case 'tyApp': {
        let t: Ty = vals.pop()!;
        for (let i = 0; i < f.types.length; i++) {
          // Applied to a type, what is not known as polymorphic stays UNKNOWN (an imprecision, not a refusal).
          t = unfold(t);
          if (t === UNKNOWN || !isForall(t)) { t = UNKNOWN; break; }
          this.kindOfArgument(f.asts[i]!, t.head.slice('forall:'.length), i, f.head);
          t = instantiate(t as TyNode, f.types[i]!);
        }
        vals.push(t);
        break;
      }
      case 'struct': {
        const types = vals.splice(vals.length - f.names.length, f.names.length);
        vals.push(struct(f.names.map((name, i) => ({ name, type: types[i]! }))));
        break;
      }
      case 'proj': {
        const t = unfold(vals.pop()!);
        vals.push(t === UNKNOWN ? UNKNOWN : this.fieldOf(t, f.field));
        break;
      }
      case 'structUpd': {
        const u = vals.pop()!;
        const t = unfold(vals[vals.length - 1]!);
        if (t !== UNKNOWN) {
          const want = this.fieldOf(t, f.field);
          if (!agree(u, want)) this.mismatch(`update of field ${f.field} of ${showTy(t)}`, want, u);
        }
        break;
      }
      case 'join': {
        if (f.first) break;
        const t = vals.pop()!;
        const before = vals.pop()!;
        if (!agree(t, before)) this.mismatch('case alternatives of different types', before, t);
        vals.push(before ?? t);
        break;
      }
    }
  }

  bind(name: string, t: Ty): void {
    const xs = this.#vars.get(name);
    if (xs) xs.push(t);
    else this.#vars.set(name, [t]);
  }

  /** A name's list stays when it empties (see checkPackage.ts's Scope): `expr` reads no entry as an empty one. */
  unbind(name: string): void {
    this.#vars.get(name)!.pop();
  }

  /** A data type applied to its arguments, and the substitution of its parameters. */
  applied(app: TypeConApp, dt: DefDataType): { type: TyNode; subst: ReadonlyMap<string, Ty> | undefined } {
    const args = app.args.map((a) => toTy(a));
    if (dt.params.length === 0) return { type: con(app.tycon), subst: undefined };
    return { type: con(app.tycon, args), subst: new Map(dt.params.map((p, i) => [p.name, args[i] ?? UNKNOWN])) };
  }

  expr(e: Expr, stack: Frame[], d: number): void {
    const vals = this.#vals;
    if (this.scoped) {
      this.cx.tick();
      if (d > this.cx.limits.exprDepth) this.cx.fail({ kind: 'tooDeep', what: 'expression', limit: this.cx.limits.exprDepth });
      if (e.kind === 'var') {
        const xs = this.#vars.get(e.name);
        if (xs === undefined || xs.length === 0) this.cx.fail({ kind: 'unknownVariable', name: e.name });
      } else if (e.kind === 'val' || e.kind === 'builtin') this.cx.leaf(e);
      else if (e.kind !== 'lit') this.cx.nodeScope(e);
    }
    // Leaves (most nodes) first, before the helpers below are made.
    switch (e.kind) {
      case 'var': vals.push(this.#vars.get(e.name)?.at(-1) ?? UNKNOWN); return;
      case 'val': {
        const v = this.cx.moduleOf(e.ref).values.get(e.ref.name);
        vals.push(v ? toTy(v.type) : UNKNOWN);
        return;
      }
      case 'builtin': vals.push(BUILTIN_TYPES[e.builtin] ?? UNKNOWN); return;
      case 'lit': vals.push(litType(e.value)); return;
      default: this.node(e, stack, d);
    }
  }

  /**
   * A node's rule, from NODE_RULES by its kind: one small function per kind rather than one switch
   * over ~45 kinds, so V8 optimizes each rule on its own once it is hot, and a kind first met late
   * (or a new node shape) deoptimizes and recompiles that rule only, not every rule at once.
   */
  node(e: NodeExpr, stack: Frame[], d: number): void {
    // Frames in the order they run, the subexpressions one level down. Those up to the first that
    // walks further (a node, a case's alternatives) run at once, as they would popped next; the
    // rest are pushed reversed.
    const seq: Frame[] = [];
    (NODE_RULES[e.kind] as NodeRule<NodeExpr>)(this, e, seq, this.#vals);
    let i = 0;
    for (; i < seq.length; i++) {
      const f = seq[i]!;
      if (f.k === 'alts' || (f.k === 'e' && !isLeaf(f.e))) break;
      if (f.k === 'e') this.expr(f.e, stack, d + 1);
      else this.step(f, stack);
    }
    for (let j = seq.length - 1; j >= i; j--) {
      const f = seq[j]!;
      if (f.k === 'e' || f.k === 'alts') f.d = d + 1;
      stack.push(f);
    }
  }

  /** Each binding sees the ones before it; update blocks bind an `Update τ`'s result `τ`. */
  bindings(bindings: readonly { name: string; type: Type; bound: Expr }[], body: Expr, upd: boolean, seq: Frame[]): void {
    for (const x of bindings) seq.push({ k: 'e', e: x.bound, d: 0 }, { k: 'letBind', name: x.name, type: toTy(x.type), upd });
    seq.push({ k: 'e', e: body, d: 0 });
    if (upd) seq.push({ k: 'expect', type: update(UNKNOWN), what: 'the last update of a block', keep: true });
    seq.push({ k: 'unbind', names: bindings.map((x) => x.name) });
  }

  update(u: Update, seq: Frame[]): void {
    switch (u.kind) {
      case 'pure': { const t = toTy(u.type); want(seq, u.expr, t, 'pure'); result(seq, update(t)); return; }
      case 'block': this.bindings(u.bindings, u.body, true, seq); return;
      case 'create': want(seq, u.expr, con(u.template), 'create'); result(seq, update(contractId(con(u.template)))); return;
      case 'createInterface': want(seq, u.expr, con(u.iface), 'create_interface'); result(seq, update(contractId(con(u.iface)))); return;
      case 'exercise': case 'exerciseInterface': {
        const of = u.kind === 'exercise' ? u.template : u.iface;
        const c = this.cx.choiceOf(of, u.choice, u.kind === 'exercise' ? 'template' : 'interface');
        want(seq, u.cid, contractId(con(of)), `contract id of exercise ${u.choice}`);
        want(seq, u.arg, toTy(c.argBinder.type), `argument of choice ${u.choice}`);
        if (u.kind === 'exerciseInterface' && u.guard) want(seq, u.guard, fn(con(of), BOOL), `guard of exercise ${u.choice}`);
        result(seq, update(toTy(c.returnType)));
        return;
      }
      case 'exerciseByKey': {
        const c = this.cx.choiceOf(u.template, u.choice, 'template');
        want(seq, u.key, UNKNOWN, '');
        want(seq, u.arg, toTy(c.argBinder.type), `argument of choice ${u.choice}`);
        result(seq, update(toTy(c.returnType)));
        return;
      }
      case 'fetch': want(seq, u.cid, contractId(con(u.template)), 'fetch'); result(seq, update(con(u.template))); return;
      case 'fetchInterface': want(seq, u.cid, contractId(con(u.iface)), 'fetch_interface'); result(seq, update(con(u.iface))); return;
      case 'getTime': result(seq, update(TIMESTAMP)); return;
      // Key operations (absent from LF 2.1): not tracked.
      case 'lookupByKey': case 'fetchByKey': case 'queryNByKey': result(seq, UNKNOWN); return;
      case 'embedExpr': { const t = update(toTy(u.type)); want(seq, u.expr, t, 'embedded update'); result(seq, t); return; }
      case 'tryCatch': {
        const t = update(toTy(u.returnType));
        want(seq, u.tryExpr, t, 'try block');
        seq.push({ k: 'bind', names: [u.binder], types: [ANY_EXCEPTION] });
        want(seq, u.catchExpr, optional(t), 'catch handler');
        seq.push({ k: 'unbind', names: [u.binder] });
        result(seq, t);
        return;
      }
      case 'ledgerTimeLt': want(seq, u.expr, TIMESTAMP, 'ledger_time_lt'); result(seq, update(BOOL)); return;
    }
  }

  /** The constructor (or pattern) the alternatives leave unmatched, if any. */
  unmatched(alts: readonly CaseAlt[]): string | undefined {
    return unmatchedOf(alts, (a) => {
      const { cons } = a.kind === 'variant' ? this.cx.consOf(a.tycon, 'variant') : this.cx.consOf(a.tycon, 'enum');
      return cons.kind === 'variant' ? cons.constructors.map((c) => c.name) : cons.constructors;
    });
  }

  /** Case alternatives against the scrutinee's type `s`, their bodies at depth `d`; each binds its pattern's variables. */
  alts(alts: readonly CaseAlt[], scrutinee: Ty, stack: Frame[], d: number): void {
    const s = unfold(scrutinee);
    const missing = this.unmatched(alts);
    if (missing !== undefined) this.cx.fail({ kind: 'illFormed', detail: `non-exhaustive pattern match: no alternative for ${missing}` });
    const seq: Frame[] = [];
    const pattern = (head: string, what: string): void => {
      if (s !== UNKNOWN && s.head !== head) this.cx.fail({ kind: 'typeMismatch', detail: `pattern ${what} against a scrutinee of type ${showTy(s)}` });
    };
    const arg = (i: number): Ty => (s !== UNKNOWN ? s.args[i] ?? UNKNOWN : UNKNOWN);
    for (let i = 0; i < alts.length; i++) {
      const alt = alts[i]!;
      let names: string[] = [];
      let types: Ty[] = [];
      switch (alt.kind) {
        case 'default': break;
        case 'variant': {
          pattern(conHead(alt.tycon), alt.constructor);
          const { dt, cons } = this.cx.consOf(alt.tycon, 'variant');
          const c = cons.constructors.find((x) => x.name === alt.constructor)!;
          const subst = dt.params.length === 0 ? undefined : new Map(dt.params.map((p, j) => [p.name, arg(j)]));
          names = [alt.binder];
          types = [toTy(c.type, subst)];
          break;
        }
        case 'enum': pattern(conHead(alt.tycon), alt.constructor); break;
        case 'builtinCon': pattern(alt.con === 'unit' ? 'UNIT' : 'BOOL', alt.con === 'unit' ? '()' : alt.con === 'true' ? 'True' : 'False'); break;
        case 'nil': pattern('LIST', 'Nil'); break;
        case 'cons': pattern('LIST', 'Cons'); names = [alt.head, alt.tail]; types = [arg(0), list(arg(0))]; break;
        case 'optionalNone': pattern('OPTIONAL', 'None'); break;
        case 'optionalSome': pattern('OPTIONAL', 'Some'); names = [alt.binder]; types = [arg(0)]; break;
      }
      seq.push({ k: 'bind', names, types }, { k: 'e', e: alt.body, d }, { k: 'unbind', names }, { k: 'join', first: i === 0 });
    }
    for (let i = seq.length - 1; i >= 0; i--) stack.push(seq[i]!);
  }
}

/**
 * What no alternative matches, or undefined when they are exhaustive (daml-lf-2.rst "Pattern match
 * exhaustiveness": a default, or every constructor of the one type the patterns are of). Without
 * it a case that matches nothing would reach the engine, which has no answer for it.
 */
function unmatchedOf(alts: readonly CaseAlt[], constructorsOf: (alt: Extract<CaseAlt, { kind: 'variant' | 'enum' }>) => readonly string[]): string | undefined {
  if (alts.length === 0 || alts.some((a) => a.kind === 'default')) return undefined;
  const first = alts[0]!;
  // Each alternative by what it matches: a constructor, or the pattern's kind.
  const seen = new Set(alts.map((a) => (a.kind === 'variant' || a.kind === 'enum' ? a.constructor : a.kind === 'builtinCon' ? a.con : a.kind)));
  const firstMissing = (needed: readonly (readonly [string, string])[]) => needed.find(([k]) => !seen.has(k))?.[1];
  switch (first.kind) {
    case 'variant': case 'enum': return constructorsOf(first).find((c) => !seen.has(c));
    case 'builtinCon': return first.con === 'unit' ? undefined : firstMissing([['true', 'True'], ['false', 'False']]);
    case 'nil': case 'cons': return firstMissing([['nil', 'Nil'], ['cons', 'Cons']]);
    case 'optionalNone': case 'optionalSome': return firstMissing([['optionalNone', 'None'], ['optionalSome', 'Some']]);
    default: return undefined;
  }
}

/** `*`, `nat`, `* → *` for a kind key (`*`, `n`, `(*>*)`). */
function showKindKey(key: string): string {
  return key.replace(/n/g, 'nat').replace(/>/g, ' → ');
}

/** What a mismatch calls an applied expression: a builtin's or a definition's name, a variable's. */
function nameOf(e: Expr): string {
  return e.kind === 'builtin' ? e.builtin : e.kind === 'val' ? e.ref.name : e.kind === 'var' ? e.name : 'an expression';
}

/** Typed without frames of their own. */
function isLeaf(e: Expr): boolean {
  const k = e.kind;
  return k === 'var' || k === 'val' || k === 'builtin' || k === 'lit';
}

function litType(v: Value): Ty {
  switch (v.kind) {
    case 'unit': return UNIT;
    case 'bool': return BOOL;
    case 'int64': return INT64;
    case 'numeric': return numeric(nat(v.scale));
    case 'text': return TEXT;
    case 'date': return DATE;
    case 'timestamp': return TIMESTAMP;
    case 'party': return PARTY;
    case 'roundingMode': return b('ROUNDING_MODE');
    case 'failureCategory': return b('FAILURE_CATEGORY');
    default: return UNKNOWN;
  }
}

type NodeExpr = Exclude<Expr, { kind: 'var' | 'val' | 'builtin' | 'lit' }>;
/** Types node `e`: pushes its frames on `seq` in the order they run, or its type on `vals` directly. */
type NodeRule<E extends NodeExpr> = (t: ExprTyper, e: E, seq: Frame[], vals: Ty[]) => void;

/** `x` must have `type`. */
function want(seq: Frame[], x: Expr, type: Ty, what: What): void {
  seq.push({ k: 'e', e: x, d: 0 }, { k: 'expect', type, what });
}

function result(seq: Frame[], type: Ty): void {
  seq.push({ k: 'push', type });
}

function recProjOrUpd(t: ExprTyper, e: Extract<Expr, { kind: 'recProj' | 'recUpd' }>, seq: Frame[]): void {
  const { dt, cons } = t.cx.consOf(e.tycon.tycon, 'record');
  const { type, subst } = t.applied(e.tycon, dt);
  const field = cons.fields.find((f) => f.name === e.field)!;
  const ft = toTy(field.type, subst);
  want(seq, e.record, type, `record of ${e.kind === 'recProj' ? 'projection' : 'update'} ${e.field}`);
  if (e.kind === 'recUpd') { want(seq, e.update, ft, () => `update of field ${e.field} of ${showTy(type)}`); result(seq, type); } else result(seq, ft);
}

function unsafeFrom(seq: Frame[], cid: Expr, x: Expr, from: QualifiedName, to: QualifiedName, what: string): void {
  want(seq, cid, contractId(con(from)), `contract id of ${what}`);
  want(seq, x, con(from), what);
  result(seq, con(to));
}

function choiceParties(t: ExprTyper, e: Extract<Expr, { kind: 'choiceController' | 'choiceObserver' }>, seq: Frame[]): void {
  const c = t.cx.choiceOf(e.template, e.choice, 'template');
  want(seq, e.contract, con(e.template), 'contract');
  want(seq, e.arg, toTy(c.argBinder.type), `argument of choice ${e.choice}`);
  result(seq, PARTIES);
}

function interfaceParties(e: Extract<Expr, { kind: 'signatoryInterface' | 'observerInterface' }>, seq: Frame[]): void {
  want(seq, e.expr, con(e.iface), 'interface value');
  result(seq, PARTIES);
}

const NODE_RULES: { readonly [K in NodeExpr['kind']]: NodeRule<Extract<NodeExpr, { kind: K }>> } = {
  recCon: (t, e, seq) => {
    const { dt, cons } = t.cx.consOf(e.tycon.tycon, 'record');
    const { type, subst } = t.applied(e.tycon, dt);
    for (let i = 0; i < e.fields.length; i++) {
      const f = e.fields[i]!;
      want(seq, f.expr, toTy(cons.fields[i]!.type, subst), () => `field ${f.field} of ${showTy(type)}`);
    }
    result(seq, type);
  },
  recProj: recProjOrUpd,
  recUpd: recProjOrUpd,
  variantCon: (t, e, seq) => {
    const { dt, cons } = t.cx.consOf(e.tycon.tycon, 'variant');
    const { type, subst } = t.applied(e.tycon, dt);
    const c = cons.constructors.find((x) => x.name === e.constructor)!;
    want(seq, e.arg, toTy(c.type, subst), () => `argument of constructor ${e.constructor} of ${showTy(type)}`);
    result(seq, type);
  },
  enumCon: (_t, e, _seq, vals) => { vals.push(con(e.tycon)); },
  // Structs (type class dictionaries): fields sorted by name in the type.
  structCon: (_t, e, seq) => {
    for (const f of e.fields) seq.push({ k: 'e', e: f.expr, d: 0 });
    seq.push({ k: 'struct', names: e.fields.map((f) => f.field) });
  },
  structProj: (_t, e, seq) => { seq.push({ k: 'e', e: e.struct, d: 0 }, { k: 'proj', field: e.field }); },
  structUpd: (_t, e, seq) => { seq.push({ k: 'e', e: e.struct, d: 0 }, { k: 'e', e: e.update, d: 0 }, { k: 'structUpd', field: e.field }); },
  app: (_t, e, seq) => {
    // Named through its type application too (`LESS @Int64`, `id @Text`).
    const head = nameOf(e.fun.kind === 'tyApp' ? e.fun.expr : e.fun);
    seq.push({ k: 'e', e: e.fun, d: 0 });
    for (let i = 0; i < e.args.length; i++) seq.push({ k: 'e', e: e.args[i]!, d: 0 }, { k: 'apply', i, head });
  },
  // A `∀` type instantiated at the type arguments (daml-lf-2.rst TyApp); a builtin's by its scheme.
  tyApp: (t, e, seq) => {
    seq.push({ k: 'e', e: e.expr, d: 0 });
    const head = nameOf(e.expr);
    if (e.expr.kind !== 'builtin') seq.push({ k: 'tyApp', types: e.types.map((x) => toTy(x)), asts: e.types, head });
    else {
      const kinds = builtinParamKinds(e.expr.builtin, e.types.length);
      if (kinds !== undefined) e.types.forEach((x, i) => t.kindOfArgument(x, kinds[i]!, i, head));
      // A polymorphic builtin at its type arguments.
      const at = instantiateBuiltin(e.expr.builtin, e.types.map((x) => toTy(x)));
      if (at !== undefined) seq.push({ k: 'expect', type: UNKNOWN, what: '' }, { k: 'push', type: at });
    }
  },
  abs: (_t, e, seq) => {
    const names = e.params.map((p) => p.name);
    const types = e.params.map((p) => toTy(p.type));
    seq.push({ k: 'bind', names, types }, { k: 'e', e: e.body, d: 0 }, { k: 'unbind', names }, { k: 'abs', params: types });
  },
  tyAbs: (t, e, seq) => {
    seq.push({ k: 'tbind', params: e.params });
    const body = t.polymorphicBodies.get(e);
    if (body !== undefined) t.polymorphicBodies.delete(e);
    seq.push({ k: 'e', e: e.body, d: 0 }, { k: 'expect', type: body ?? UNKNOWN, what: 'body of the type abstraction', keep: true });
    seq.push({ k: 'tunbind', params: e.params }, { k: 'forall', params: e.params, checked: body !== undefined });
  },
  case: (_t, e, seq) => { seq.push({ k: 'e', e: e.scrut, d: 0 }, { k: 'alts', alts: e.alts, d: 0 }); },
  let: (t, e, seq) => { t.bindings(e.bindings, e.body, false, seq); },
  nil: (_t, e, _seq, vals) => { vals.push(list(toTy(e.type))); },
  cons: (_t, e, seq) => {
    const t = toTy(e.type);
    for (let i = 0; i < e.front.length; i++) want(seq, e.front[i]!, t, `list element ${i + 1}`);
    want(seq, e.tail, list(t), 'list tail');
    result(seq, list(t));
  },
  update: (t, e, seq) => { t.update(e.update, seq); },
  optionalNone: (_t, e, _seq, vals) => { vals.push(optional(toTy(e.type))); },
  optionalSome: (_t, e, seq) => { const t = toTy(e.type); want(seq, e.value, t, 'Some'); result(seq, optional(t)); },
  toAny: (_t, e, seq) => { want(seq, e.expr, toTy(e.type), 'to_any'); result(seq, ANY); },
  fromAny: (_t, e, seq) => { want(seq, e.expr, ANY, 'from_any'); result(seq, optional(toTy(e.type))); },
  typeRep: (_t, _e, _seq, vals) => { vals.push(TYPE_REP); },
  toAnyException: (_t, e, seq) => { want(seq, e.expr, toTy(e.type), 'to_any_exception'); result(seq, ANY_EXCEPTION); },
  fromAnyException: (_t, e, seq) => { want(seq, e.expr, ANY_EXCEPTION, 'from_any_exception'); result(seq, optional(toTy(e.type))); },
  throw: (_t, e, seq) => { want(seq, e.expr, toTy(e.exceptionType), 'throw'); result(seq, toTy(e.returnType)); },
  toInterface: (_t, e, seq) => { want(seq, e.expr, con(e.template), 'to_interface'); result(seq, con(e.iface)); },
  fromInterface: (_t, e, seq) => { want(seq, e.expr, con(e.iface), 'from_interface'); result(seq, optional(con(e.template))); },
  unsafeFromInterface: (_t, e, seq) => { unsafeFrom(seq, e.cid, e.expr, e.iface, e.template, 'unsafe_from_interface'); },
  callInterface: (t, e, seq) => {
    const m = t.cx.interfaceOf(e.iface).methods.get(e.method);
    want(seq, e.expr, con(e.iface), `call_interface ${e.method}`);
    result(seq, m ? toTy(m) : UNKNOWN);
  },
  signatoryInterface: (_t, e, seq) => { interfaceParties(e, seq); },
  observerInterface: (_t, e, seq) => { interfaceParties(e, seq); },
  viewInterface: (t, e, seq) => { want(seq, e.expr, con(e.iface), 'view_interface'); result(seq, toTy(t.cx.interfaceOf(e.iface).view)); },
  interfaceTemplateTypeRep: (_t, e, seq) => { want(seq, e.expr, con(e.iface), 'interface value'); result(seq, TYPE_REP); },
  toRequiredInterface: (_t, e, seq) => { want(seq, e.expr, con(e.requiring), 'to_required_interface'); result(seq, con(e.required)); },
  fromRequiredInterface: (_t, e, seq) => { want(seq, e.expr, con(e.required), 'from_required_interface'); result(seq, optional(con(e.requiring))); },
  unsafeFromRequiredInterface: (_t, e, seq) => { unsafeFrom(seq, e.cid, e.expr, e.required, e.requiring, 'unsafe_from_required_interface'); },
  choiceController: (t, e, seq) => { choiceParties(t, e, seq); },
  choiceObserver: (t, e, seq) => { choiceParties(t, e, seq); },
  experimental: (_t, e, _seq, vals) => { vals.push(toTy(e.type)); },
};
