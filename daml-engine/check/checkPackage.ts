/**
 * The upload check of a Daml-LF 2 package, as a participant validates a DAR before recording it
 * (daml-lf-2.rst "Well-formed packages"): package name and version, references resolved (modules,
 * types, synonyms, values, templates, interfaces, choices, methods, fields, constructors, across
 * packages by id), kinds and well-formed types, every expression variable bound, builtins present
 * in the package's LF version, and nesting bounded. Nothing here recurses on input depth except
 * over types and kinds whose depth was bounded first (measure.ts); expressions are walked with an
 * explicit stack. Failures are data (CheckFailure).
 */
import type { CaseAlt, Expr, TypeConApp, Update } from '../ast/Expr.js';
import type {
  DataCons, DefDataType, DefException, DefInterface, DefTemplate, DefTypeSyn, DefValue, Module, Package, TemplateChoice,
} from '../ast/Package.js';
import type { BuiltinTypeName, Kind, QualifiedName, Type } from '../ast/Type.js';
import { spineOf } from '../ast/Type.js';
import type { CheckFailure, CheckReason, CheckResult } from './CheckFailure.js';
import { arrowToStar, curried, type K, keyOfKind, kindsEqual, showKind, STAR } from './kinds.js';
import { hasBuiltin, hasBuiltinType } from './lfFeatures.js';
import { kindSize, TypeMeasures } from './measure.js';
import { isPackageName, isPackageVersion } from './packageNames.js';
import { ExprTyper, type Bound, type Root } from './ExprTyper.js';
import { BOOL, con, contractId, fn, list, PARTY, TEXT, toTy, type Ty, UNKNOWN, update, useSynonyms } from './types.js';

/** Bounds; real packages stay far below them (see bench/RESULTS.md for splice-amulet's figures). */
export interface CheckLimits {
  /** Levels of a type or kind. */
  readonly typeDepth: number;
  /** Levels of an expression. */
  readonly exprDepth: number;
  /** Type and expression nodes visited per package (interning lets a small package name a huge tree). */
  readonly work: number;
}

export const DEFAULT_CHECK_LIMITS: CheckLimits = { typeDepth: 500, exprDepth: 5000, work: 50_000_000 };

/** Packages by id: the ones being checked and those already known (uploaded before). */
export type PackageLookup = (packageId: string) => Package | undefined;

/**
 * How a definition's expressions are walked. `separate`: the scope walk over them, then the typer
 * (the reference order: their first failure is the verdict). `merged`: one walk making both walks'
 * checks, cheaper, but its first failure may be another one. `auto` (the default): `merged`, and a
 * definition it refuses is checked again `separate`, so verdicts and messages are `separate`'s.
 */
export type CheckWalk = 'auto' | 'merged' | 'separate';

/** A definition's roots with the names bound around them (a walk in the scope walk's order). */
interface RootGroup { readonly roots: readonly Root[]; readonly bound: readonly Bound[] }

/** Internal unwinding only: `checkPackage` returns it as data. */
class Refusal {
  constructor(readonly failure: CheckFailure) {}
}

const NAT: K = 'nat';
const STAR_TO_STAR: K = { from: STAR, to: STAR };

const BUILTIN_TYPE_KINDS: Record<BuiltinTypeName, K> = {
  UNIT: STAR, BOOL: STAR, INT64: STAR, DATE: STAR, TIMESTAMP: STAR, PARTY: STAR, TEXT: STAR, ANY: STAR,
  ANY_EXCEPTION: STAR, TYPE_REP: STAR, FAILURE_CATEGORY: STAR, BIGNUMERIC: STAR, ROUNDING_MODE: STAR,
  NUMERIC: { from: NAT, to: STAR },
  CONTRACT_ID: STAR_TO_STAR, OPTIONAL: STAR_TO_STAR, LIST: STAR_TO_STAR, UPDATE: STAR_TO_STAR, TEXTMAP: STAR_TO_STAR,
  GENMAP: { from: STAR, to: STAR_TO_STAR }, ARROW: { from: STAR, to: STAR_TO_STAR },
};

/** Numeric scales: 0..37 (daml-lf-2.rst "Kinds, types and expressions"). */
const MAX_NAT = 37;

const showName = (q: QualifiedName): string => `${q.packageId}:${q.module}:${q.name}`;

/** No type variables in scope: a template's, choice's, key's, exception's or view's type. */
const NO_VARS: ReadonlySet<string> = new Set();

/** Why a builtin type is not serializable, in Daml's validator's words. */
const UNSERIALIZABLE_BUILTIN: Partial<Record<BuiltinTypeName, string>> & Record<'UPDATE' | 'ARROW' | 'ANY' | 'TYPE_REP' | 'ROUNDING_MODE' | 'BIGNUMERIC' | 'FAILURE_CATEGORY', string> = {
  UPDATE: 'Update', ARROW: 'function type', ANY: 'Any', TYPE_REP: 'TypeRep', ROUNDING_MODE: 'RoundingMode',
  BIGNUMERIC: 'BigNumeric', FAILURE_CATEGORY: 'FailureCategory',
};

/** A name bound several times (shadowing), counted. */
class Scope<T> {
  readonly #map = new Map<string, T[]>();
  bind(name: string, v: T): void {
    const xs = this.#map.get(name);
    if (xs) xs.push(v);
    else this.#map.set(name, [v]);
  }
  /** A name's list stays when it empties (the name is bound again soon): no map entry made and deleted per binding. */
  unbind(name: string): void {
    this.#map.get(name)!.pop();
  }
  get(name: string): T | undefined {
    const xs = this.#map.get(name);
    return xs === undefined || xs.length === 0 ? undefined : xs[xs.length - 1];
  }
  /** Forgets every binding (after a walk a failure cut short). */
  reset(): void {
    this.#map.clear();
  }
}

/** Type variables' kinds, and the kinds of types with variables found while those stay as they are. */
class TypeVarScope extends Scope<K> {
  /** Valid until a variable is bound or unbound: a type's kind depends on its variables' only. */
  readonly openKinds = new Map<Type, K>();
  override bind(name: string, v: K): void { this.openKinds.clear(); super.bind(name, v); }
  override unbind(name: string): void { this.openKinds.clear(); super.unbind(name); }
  override reset(): void { this.openKinds.clear(); super.reset(); }
}

type Item =
  | { readonly k: 'e'; readonly e: Expr; readonly d: number }
  /** A type in the expression: well-formed, of kind `*` when `star`. */
  | { readonly k: 't'; readonly t: Type; readonly star: boolean }
  | { readonly k: 'bind' | 'unbind'; readonly names: readonly string[] }
  | { readonly k: 'tbind' | 'tunbind'; readonly vars: readonly { readonly name: string; readonly kind: Kind }[] };

class PackageChecker {
  #definition: string | undefined;
  #work = 0;
  readonly #vars = new Scope<true>();
  readonly #tvars = new TypeVarScope();
  /** Kinds of variable-free types already checked (their kind is the same wherever they stand). */
  readonly #closedKinds = new Map<Type, K>();
  readonly #paramKinds = new Map<object, K>();
  readonly #measures = new TypeMeasures();

  /** The typing rules, run on expressions once the walk above accepted them (or with it: `CheckWalk`). */
  readonly #typer: ExprTyper = new ExprTyper(this);
  /** The definition being checked is walked in the reference order (`CheckWalk`). */
  #separate: boolean;

  constructor(readonly pkg: Package, readonly lookup: PackageLookup, readonly limits: CheckLimits, readonly walkMode: CheckWalk = 'auto') {
    this.#separate = walkMode === 'separate';
  }

  fail(reason: CheckReason): never {
    throw new Refusal({ packageId: this.pkg.id, definition: this.#definition, reason });
  }

  tick(): void {
    if (++this.#work > this.limits.work) this.fail({ kind: 'tooLarge', limit: this.limits.work });
  }

  /** The check, one definition per step (`checkPackageSteps`: a caller may yield between steps). */
  *check(): Generator<void, void> {
    const meta = this.pkg.metadata;
    if (!meta || !isPackageName(meta.name)) this.fail({ kind: 'badPackageName', name: meta?.name ?? '' });
    if (!isPackageVersion(meta.version)) this.fail({ kind: 'badPackageVersion', version: meta.version });
    for (const module of this.pkg.modules.values()) yield* this.module(module);
  }

  // ---- look-ups ------------------------------------------------------------------------------

  /**
   * A module's definitions, one kind after another (MODULE_DEFS), one per step. Each kind's check
   * is a method called through one call site: a kind met late (interfaces, exceptions) deoptimized
   * this generator's code with every check inlined, and had it compiled again.
   */
  *module(m: Module): Generator<void, void> {
    for (let k = 0; k < MODULE_DEFS.length; k++) {
      const kind = MODULE_DEFS[k]!;
      for (const d of kind.defs(m)) {
        if (kind.yieldFirst) yield;
        this.#definition = `${m.name}:${d.name}`;
        // Set again at each step: another upload's check may have run between two steps.
        useSynonyms(this.#synonymOf);
        if (this.walkMode !== 'auto') yield* kind.check(this, m, d);
        else yield* this.checkAgainOnFailure(kind, m, d);
        if (!kind.yieldFirst) yield;
      }
    }
    this.#definition = undefined;
  }

  /**
   * A definition checked with the merged walk; if it throws anything (a refusal, or a typing rule
   * meeting what the scope checks would have refused first), the state the walk left is dropped
   * and the definition is checked again in the reference order, whose outcome stands. The work
   * counted and the kinds cached are the same either way (the same types are kinded).
   */
  *checkAgainOnFailure(kind: ModuleDefKind<{ readonly name: string }>, m: Module, d: { readonly name: string }): Generator<void, void> {
    const work = this.#work;
    const definition = this.#definition;
    try {
      yield* kind.check(this, m, d);
    } catch {
      this.#work = work;
      this.#definition = definition;
      this.#typer.reset();
      this.#vars.reset();
      this.#tvars.reset();
      this.#separate = true;
      try {
        yield* kind.check(this, m, d);
      } finally {
        this.#separate = false;
      }
    }
  }

  /**
   * The expressions of a definition, group by group: merged, one walk per group; separate, the
   * scope walk over every group, then the typer over every group (the order the checks always had).
   */
  *walk(groups: readonly RootGroup[]): Generator<void, void> {
    if (!this.#separate) {
      for (const g of groups) yield* this.#typer.roots(g.roots, g.bound, true);
      return;
    }
    for (const g of groups) yield* this.exprs(g.roots.map((r) => r.e), g.bound.map((x) => x.name));
    for (const g of groups) yield* this.#typer.roots(g.roots, g.bound);
  }

  /**
   * A walk pauses after this many steps (a step is a few microseconds): a caller driving the
   * check in steps lets other clients in then, even within one hostile definition whose
   * expression DAG takes seconds to walk up to the work bound.
   */
  static readonly STEPS_PER_PAUSE = 1 << 16;
  readonly stepsPerPause = PackageChecker.STEPS_PER_PAUSE;

  /** Back from a pause: what another check may have changed meanwhile (the typer's synonym look-up). */
  resumed(): void {
    useSynonyms(this.#synonymOf);
  }

  // ---- the scope checks of the merged walk (ExprTyper with `scoped`) ----------------------------

  /** A `val` or `builtin` leaf (see `expr`). */
  leaf(e: Expr): void {
    if (e.kind === 'val') {
      if (!this.moduleOf(e.ref).values.has(e.ref.name)) this.fail({ kind: 'unknownReference', what: 'value', name: showName(e.ref) });
    } else if (e.kind === 'builtin') {
      if (!hasBuiltin(this.pkg.lfVersion, e.builtin)) this.fail({ kind: 'unavailableBuiltin', builtin: e.builtin, lfVersion: this.pkg.lfVersion });
    }
  }

  /** A node's own checks, then its types kinded at once (the merged walk's; the typer walks its subexpressions). */
  nodeScope(e: Expr): void {
    (NODE_OWN[e.kind as NodeExpr['kind']] as NodeCheck<NodeExpr>)(this, e as NodeExpr);
    kindTypes(this, e as NodeExpr);
  }

  /** The scope walk's `tbind`, all kinds before any binding (a failure leaves none bound). */
  bindTypeVars(params: readonly { readonly name: string; readonly kind: Kind }[]): void {
    this.distinct(params.map((v) => v.name), 'type parameter');
    const kinds = params.map((v) => this.kind(v.kind));
    for (let i = 0; i < params.length; i++) this.#tvars.bind(params[i]!.name, kinds[i]!);
  }

  unbindTypeVars(params: readonly { readonly name: string }[]): void {
    for (const v of params) this.#tvars.unbind(v.name);
  }

  synonym(m: Module, syn: DefTypeSyn): void {
    this.withTypeParams(syn.params, () => this.typeStar(syn.type));
    this.acyclic(m, syn);
  }

  /** The typer's synonym look-up (types.ts expands synonyms); undefined for what the scope checks refuse. */
  readonly #synonymOf = (q: QualifiedName): DefTypeSyn | undefined => {
    const p = q.packageId === this.pkg.id ? this.pkg : this.lookup(q.packageId);
    return p?.modules.get(q.module)?.synonyms.get(q.name);
  };

  /** This package's synonyms found acyclic. */
  readonly #acyclic = new Set<DefTypeSyn>();

  /**
   * Refuses a synonym that expands to itself (daml-lf-2.rst: type normalization needs no cycle
   * between synonyms); only this package's synonyms can close a cycle. Iterative.
   */
  acyclic(m: Module, root: DefTypeSyn): void {
    if (this.#acyclic.has(root)) return;
    type Named = { readonly syn: DefTypeSyn; readonly name: string };
    const path: (Named & { readonly next: Named[] })[] = [{ syn: root, name: `${m.name}:${root.name}`, next: this.synonymsNamedBy(root.type) }];
    const onPath = new Set<DefTypeSyn>([root]);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const n = top.next.pop();
      if (n === undefined) {
        this.#acyclic.add(top.syn);
        onPath.delete(top.syn);
        path.pop();
        continue;
      }
      if (this.#acyclic.has(n.syn)) continue;
      if (onPath.has(n.syn)) {
        const from = path.findIndex((x) => x.syn === n.syn);
        this.fail({ kind: 'illFormed', detail: `cycle in type synonyms: ${[...path.slice(from).map((x) => x.name), n.name].join(' → ')}` });
      }
      onPath.add(n.syn);
      path.push({ ...n, next: this.synonymsNamedBy(n.syn.type) });
    }
  }

  /** The synonyms of this package `t` names, with their names (each node of its DAG visited once). */
  synonymsNamedBy(t: Type): { readonly syn: DefTypeSyn; readonly name: string }[] {
    const named: { syn: DefTypeSyn; name: string }[] = [];
    this.eachTypeNode(t, (x) => {
      const syn = x.kind === 'syn' && x.tysyn.packageId === this.pkg.id ? this.#synonymOf(x.tysyn) : undefined;
      if (syn !== undefined && x.kind === 'syn') named.push({ syn, name: `${x.tysyn.module}:${x.tysyn.name}` });
      return true;
    });
    return named;
  }

  /**
   * Visits each node of `root` once (types are DAGs once interned), iteratively, counting the work;
   * `visit` says whether to go into the node's own types, or which types to go into instead.
   */
  eachTypeNode(root: Type, visit: (t: Type) => boolean | readonly Type[]): void {
    const seen = new Set<Type>();
    const stack: Type[] = [root];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      this.tick();
      const into = visit(x);
      if (into === false) continue;
      if (into !== true) { stack.push(...into); continue; }
      switch (x.kind) {
        case 'var': case 'con': case 'builtin': case 'syn': stack.push(...x.args); break;
        case 'app': stack.push(x.lhs, x.rhs); break;
        case 'forall': stack.push(x.body); break;
        case 'struct': for (const f of x.fields) stack.push(f.type); break;
        case 'nat': break;
      }
    }
  }

  *exception(m: Module, x: DefException): Generator<void, void> {
    const dt = m.dataTypes.get(x.name);
    if (!dt || dt.cons.kind !== 'record' || dt.params.length > 0) this.fail({ kind: 'illFormed', detail: 'an exception needs a record type of the same name without parameters' });
    this.serializable({ kind: 'con', tycon: this.self(m, x.name), args: [] }, NO_VARS, 'exception argument');
    yield* this.walk([{ roots: [{ e: x.message, type: fn(con(this.self(m, x.name)), TEXT), what: 'exception message' }], bound: [] }]);
  }

  *value(v: DefValue): Generator<void, void> {
    this.typeStar(v.type);
    let body: Expr;
    try {
      body = v.expr;
    } catch (e) {
      // Value bodies decode lazily: a wire error surfaces here.
      this.fail({ kind: 'undecodable', detail: e instanceof Error ? e.message : String(e) });
    }
    yield* this.walk([{ roots: [{ e: body, type: this.#typer.valueBodyType(v.type, body), what: 'value body' }], bound: [] }]);
  }

  package(id: string): Package {
    const p = id === this.pkg.id ? this.pkg : this.lookup(id);
    if (!p) this.fail({ kind: 'unknownReference', what: 'package', name: id });
    return p;
  }

  moduleOf(q: QualifiedName): Module {
    const m = this.package(q.packageId).modules.get(q.module);
    if (!m) this.fail({ kind: 'unknownReference', what: 'module', name: `${q.packageId}:${q.module}` });
    return m;
  }

  dataTypeOf(q: QualifiedName): DefDataType {
    const dt = this.moduleOf(q).dataTypes.get(q.name);
    if (!dt) this.fail({ kind: 'unknownReference', what: 'type', name: showName(q) });
    return dt;
  }

  consOf<C extends DataCons['kind']>(q: QualifiedName, kind: C): { dt: DefDataType; cons: Extract<DataCons, { kind: C }> } {
    const dt = this.dataTypeOf(q);
    if (dt.cons.kind !== kind) this.fail({ kind: 'illFormed', detail: `expected ${kind} type: ${showName(q)}` });
    return { dt, cons: dt.cons as Extract<DataCons, { kind: C }> };
  }

  templateOf(q: QualifiedName): DefTemplate {
    const t = this.moduleOf(q).templates.get(q.name);
    if (!t) this.fail({ kind: 'unknownReference', what: 'template', name: showName(q) });
    return t;
  }

  interfaceOf(q: QualifiedName): DefInterface {
    const i = this.moduleOf(q).interfaces.get(q.name);
    if (!i) this.fail({ kind: 'unknownReference', what: 'interface', name: showName(q) });
    return i;
  }

  choiceOf(q: QualifiedName, choice: string, of: 'template' | 'interface'): TemplateChoice {
    const c = (of === 'template' ? this.templateOf(q) : this.interfaceOf(q)).choices.get(choice);
    if (!c) this.fail({ kind: 'unknownReference', what: 'choice', name: `${showName(q)}:${choice}` });
    return c;
  }

  self(m: Module, name: string): QualifiedName {
    return { packageId: this.pkg.id, module: m.name, name };
  }

  // ---- definitions -----------------------------------------------------------------------------

  distinct(names: readonly string[], what: string): void {
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n)) this.fail({ kind: 'illFormed', detail: `duplicate ${what}: ${n}` });
      seen.add(n);
    }
  }

  withTypeParams(params: readonly { name: string; kind: Kind }[], body: () => void): void {
    this.distinct(params.map((p) => p.name), 'type parameter');
    for (const p of params) this.#tvars.bind(p.name, this.kind(p.kind));
    try {
      body();
    } finally {
      for (const p of params) this.#tvars.unbind(p.name);
    }
  }

  dataType(dt: DefDataType): void {
    this.withTypeParams(dt.params, () => {
      const cons = dt.cons;
      switch (cons.kind) {
        case 'record':
          this.distinct(cons.fields.map((f) => f.name), 'field');
          for (const f of cons.fields) this.typeStar(f.type);
          return;
        case 'variant':
          this.distinct(cons.constructors.map((f) => f.name), 'variant constructor');
          for (const f of cons.constructors) this.typeStar(f.type);
          return;
        case 'enum':
          if (dt.params.length > 0) this.fail({ kind: 'illFormed', detail: 'illegal higher order enum type' });
          this.distinct(cons.constructors, 'enum constructor');
          return;
        case 'interface':
          return;
      }
    });
    if (dt.serializable) this.serializableDataType(dt);
  }

  notSerializable(reason: string, problem: string): never {
    return this.fail({ kind: 'notSerializable', reason, problem });
  }

  /**
   * A data type marked serializable: its parameters of kind `*`, at least one constructor, each
   * field or constructor type serializable with the parameters in scope (Serializability.scala's
   * checkDataType; a serializable type naming it relies on the mark).
   */
  serializableDataType(dt: DefDataType): void {
    const problem = 'serializable data type';
    const no = (reason: string): never => this.notSerializable(reason, problem);
    for (const p of dt.params) if (p.kind.kind !== 'star') no(`higher-kinded type variable ${p.name} : ${showKind(this.kind(p.kind))}`);
    const vars = new Set(dt.params.map((p) => p.name));
    const cons = dt.cons;
    switch (cons.kind) {
      case 'record': for (const f of cons.fields) this.serializable(f.type, vars, problem); return;
      case 'variant':
        if (cons.constructors.length === 0) no('variant type without constructors');
        for (const c of cons.constructors) this.serializable(c.type, vars, problem);
        return;
      case 'enum': if (cons.constructors.length === 0) no('variant type without constructors'); return;
      case 'interface': no('Interface');
    }
  }

  /**
   * `t` must be serializable (daml-lf-2.rst "Serializable types", as Daml's validator checks it):
   * no function, Update, Any, synonym, struct, `∀` or free type variable; builtin containers
   * applied; data types marked serializable; `ContractId` of anything. Iterative, each node once.
   */
  serializable(root: Type, vars: ReadonlySet<string>, problem: string): void {
    const no = (reason: string): never => this.notSerializable(reason, problem);
    this.eachTypeNode(root, (t) => {
      switch (t.kind) {
        case 'var': if (!vars.has(t.name)) no(`free type variable ${t.name}`); return true;
        case 'nat': return no('Nat');
        case 'syn': return no(`type synonym ${t.tysyn.module}:${t.tysyn.name}`);
        case 'forall': return no('higher-ranked type');
        case 'struct': return no('structural record');
        case 'con':
          if (!this.dataTypeOf(t.tycon).serializable) no(`unserializable data type ${t.tycon.module}:${t.tycon.name}`);
          return true;
        case 'app': {
          // A type applied: a builtin's head with all its arguments, as the builtin form carries them.
          const { head, args } = spineOf(t);
          return head.kind === 'builtin' ? this.serializableBuiltin(head.builtin, args, problem) : true;
        }
        case 'builtin': return this.serializableBuiltin(t.builtin, t.args, problem);
      }
    });
  }

  /**
   * A builtin type applied to `args`: a container, whose arguments must be serializable too (what
   * it returns, for the walk to go into), or a serializable scalar (none).
   */
  serializableBuiltin(builtin: BuiltinTypeName, args: readonly Type[], problem: string): readonly Type[] {
    const no = (reason: string): never => this.notSerializable(reason, problem);
    const NONE: readonly Type[] = [];
    switch (builtin) {
      case 'CONTRACT_ID': if (args.length === 0) no('ContractId not applied to a template type'); return NONE;
      case 'NUMERIC': if (args.length !== 1 || args[0]!.kind !== 'nat') no('unapplied Numeric'); return NONE;
      case 'LIST': if (args.length !== 1) no('unapplied List'); return args;
      case 'OPTIONAL': if (args.length !== 1) no('unapplied Option'); return args;
      case 'TEXTMAP': if (args.length !== 1) no('unapplied TextMap'); return args;
      case 'GENMAP': if (args.length !== 2) no('unapplied GenMap'); return args;
      case 'INT64': case 'TEXT': case 'TIMESTAMP': case 'DATE': case 'PARTY': case 'BOOL': case 'UNIT': case 'ANY_EXCEPTION': return NONE;
      default: return no(UNSERIALIZABLE_BUILTIN[builtin] ?? builtin);
    }
  }

  *template(m: Module, t: DefTemplate): Generator<void, void> {
    const dt = m.dataTypes.get(t.name);
    if (!dt || dt.cons.kind !== 'record' || dt.params.length > 0) {
      this.fail({ kind: 'illFormed', detail: `expected monomorphic record type in template definition: ${t.name}` });
    }
    const tt = con(this.self(m, t.name));
    const param = [{ name: t.param, type: tt }];
    this.serializable({ kind: 'con', tycon: this.self(m, t.name), args: [] }, NO_VARS, 'template argument');
    yield* this.walk([{
      roots: [
        { e: t.precondition, type: BOOL, what: 'precondition' },
        { e: t.signatories, type: PARTIES, what: 'signatories' },
        { e: t.observers, type: PARTIES, what: 'observers' },
      ],
      bound: param,
    }]);
    for (const c of t.choices.values()) yield* this.choice(c, t.param, tt);
    if (t.key) {
      this.typeStar(t.key.type);
      this.serializable(t.key.type, NO_VARS, 'contract key');
      const kt = toTy(t.key.type);
      yield* this.walk([
        { roots: [{ e: t.key.body, type: kt, what: 'key' }], bound: param },
        { roots: [{ e: t.key.maintainers, type: fn(kt, PARTIES), what: 'key maintainers' }], bound: [] },
      ]);
    }
    for (const inst of t.implements.values()) {
      const iface = this.interfaceOf(inst.iface);
      for (const name of inst.methods.keys()) if (!iface.methods.has(name)) this.fail({ kind: 'unknownReference', what: 'method', name: `${showName(inst.iface)}:${name}` });
      for (const name of iface.methods.keys()) if (!inst.methods.has(name)) this.fail({ kind: 'illFormed', detail: `missing method ${name} of ${showName(inst.iface)}` });
      yield* this.walk([{
        roots: [
          { e: inst.view, type: toTy(iface.view), what: `view of ${inst.iface.name}` },
          ...[...inst.methods].map(([name, e]) => ({ e, type: iface.methods.has(name) ? toTy(iface.methods.get(name)!) : UNKNOWN, what: `method ${name} of ${inst.iface.name}` })),
        ],
        bound: param,
      }]);
    }
  }

  *iface(m: Module, i: DefInterface): Generator<void, void> {
    const dt = m.dataTypes.get(i.name);
    if (!dt || dt.cons.kind !== 'interface') this.fail({ kind: 'illFormed', detail: `an interface needs an interface type of the same name: ${i.name}` });
    this.typeStar(i.view);
    this.serializable(i.view, NO_VARS, 'view');
    for (const t of i.methods.values()) this.typeStar(t);
    for (const r of i.requires) this.interfaceOf(r);
    for (const c of i.choices.values()) yield* this.choice(c, i.param, con(this.self(m, i.name)));
  }

  /**
   * The type of `to_any`, `from_any` and `type_rep`: no type variable, `∀` or synonym anywhere in
   * it (Daml's checkAnyType), since a value of type Any carries its type as data, whole.
   */
  anyType(root: Type): void {
    this.eachTypeNode(root, (t) => {
      const bad = t.kind === 'var' ? `type variable ${t.name}` : t.kind === 'forall' ? 'a ∀ type' : t.kind === 'syn' ? `synonym ${t.tysyn.module}:${t.tysyn.name}` : undefined;
      if (bad !== undefined) this.fail({ kind: 'illFormed', detail: `expected a type containing neither type variables nor quantifiers, but found: ${bad}` });
      return true;
    });
  }

  /** The type of `throw`, `to_any_exception` and `from_any_exception`: an exception's (Daml's checkExceptionType). */
  exceptionType(t: Type): void {
    const found = t.kind === 'con' && t.args.length === 0 && this.moduleOf(t.tycon).exceptions.has(t.tycon.name);
    if (!found) this.fail({ kind: 'illFormed', detail: `expected an exception type, but found: ${t.kind === 'con' ? `${t.tycon.module}:${t.tycon.name}` : `a ${t.kind} type`}` });
  }

  /** A template's or interface's choice; `of` is the template or interface type. */
  *choice(c: TemplateChoice, param: string, of: Ty): Generator<void, void> {
    const at = this.#definition;
    this.#definition = `${at ?? ''}/${c.name}`;
    this.typeStar(c.argBinder.type);
    this.typeStar(c.returnType);
    this.serializable(c.argBinder.type, NO_VARS, 'choice argument');
    this.serializable(c.returnType, NO_VARS, 'choice result');
    const parts = [c.controllers, ...(c.observers ? [c.observers] : []), ...(c.authorizers ? [c.authorizers] : [])];
    const bound = [{ name: param, type: of }, { name: c.argBinder.name, type: toTy(c.argBinder.type) }];
    yield* this.walk([
      { roots: parts.map((e) => ({ e, type: PARTIES, what: 'controllers or observers' })), bound },
      // The scope walk bound these as (param, self, argument); only which names are bound matters to it.
      { roots: [{ e: c.update, type: update(toTy(c.returnType)), what: 'choice body' }], bound: [...bound, { name: c.selfBinder, type: contractId(of) }] },
    ]);
    this.#definition = at;
  }

  // ---- kinds and types -------------------------------------------------------------------------

  kind(k: Kind): K {
    // Its size bounds the curried form's depth (an arrow of n parameters is n deep once curried).
    if (kindSize(k, this.limits.typeDepth) > this.limits.typeDepth) this.fail({ kind: 'tooDeep', what: 'kind', limit: this.limits.typeDepth });
    return curried(k);
  }

  kindKeyOf(t: Type): string {
    return keyOfKind(this.typeKind(t));
  }

  typeStar(t: Type): void {
    const k = this.typeKind(t);
    if (k !== STAR) this.fail({ kind: 'kindMismatch', detail: `expected kind *, found ${showKind(k)}` });
  }

  typeKind(t: Type): K {
    const known = this.#closedKinds.get(t);
    if (known !== undefined) return known;
    if (this.#measures.typeDepth(t, this.limits.typeDepth) > this.limits.typeDepth) this.fail({ kind: 'tooDeep', what: 'type', limit: this.limits.typeDepth });
    return this.kindOfUnknown(t);
  }

  /** Recursive: callers bounded the depth first (typeKind). */
  kindOf(t: Type): K {
    const known = this.#closedKinds.get(t) ?? this.#tvars.openKinds.get(t);
    return known !== undefined ? known : this.kindOfUnknown(t);
  }

  /**
   * `kindOf` of a type not known yet (looked up already). Types with variables are remembered too,
   * while the variables in scope stay: a type naming a shared subtree twice, 60 levels deep (60
   * interned types on the wire), costs its DAG's size, not 2^60.
   */
  kindOfUnknown(t: Type): K {
    const k = this.kindOfNode(t);
    if (this.#measures.isVarFree(t)) this.#closedKinds.set(t, k);
    else this.#tvars.openKinds.set(t, k);
    return k;
  }

  /** `k1 → … → kn → *` of a data type or synonym's parameters, once per definition. */
  paramsKind(def: { readonly params: readonly { readonly kind: Kind }[] }): K {
    let k = this.#paramKinds.get(def);
    if (k === undefined) {
      k = arrowToStar(def.params.map((p) => this.kind(p.kind)));
      this.#paramKinds.set(def, k);
    }
    return k;
  }

  kindOfNode(t: Type): K {
    this.tick();
    switch (t.kind) {
      case 'var': {
        const k = this.#tvars.get(t.name);
        if (k === undefined) this.fail({ kind: 'unknownTypeVariable', name: t.name });
        return this.applyKind(k, t.args, t.name);
      }
      case 'con': {
        const dt = this.dataTypeOf(t.tycon);
        return this.applyKind(this.paramsKind(dt), t.args, t.tycon);
      }
      case 'syn': {
        const syn = this.moduleOf(t.tysyn).synonyms.get(t.tysyn.name);
        if (!syn) this.fail({ kind: 'unknownReference', what: 'synonym', name: showName(t.tysyn) });
        if (syn.params.length !== t.args.length) this.fail({ kind: 'illFormed', detail: `wrong arity in type synonym application: ${showName(t.tysyn)}` });
        this.applyKind(this.paramsKind(syn), t.args, t.tysyn);
        return STAR;
      }
      case 'builtin':
        if (!hasBuiltinType(this.pkg.lfVersion, t.builtin)) this.fail({ kind: 'unavailableBuiltin', builtin: t.builtin, lfVersion: this.pkg.lfVersion });
        return this.applyKind(BUILTIN_TYPE_KINDS[t.builtin], t.args, t.builtin);
      case 'forall':
        this.withTypeParams(t.vars, () => this.typeStarInner(t.body));
        return STAR;
      case 'struct':
        this.distinct(t.fields.map((f) => f.name), 'field');
        for (const f of t.fields) this.typeStarInner(f.type);
        return STAR;
      case 'nat':
        if (!Number.isInteger(t.value) || t.value < 0 || t.value > MAX_NAT) this.fail({ kind: 'illFormed', detail: `Numeric scale ${t.value} is not in 0..${MAX_NAT}` });
        return NAT;
      case 'app': {
        const f = this.kindOf(t.lhs);
        if (typeof f === 'string') this.fail({ kind: 'kindMismatch', detail: `expected higher kinded type, but found kind ${f}` });
        const a = this.kindOf(t.rhs);
        if (!kindsEqual(a, f.from)) this.fail({ kind: 'kindMismatch', detail: `expected kind ${showKind(f.from)}, found ${showKind(a)}` });
        return f.to;
      }
    }
  }

  typeStarInner(t: Type): void {
    const k = this.kindOf(t);
    if (k !== STAR) this.fail({ kind: 'kindMismatch', detail: `expected kind *, found ${showKind(k)}` });
  }

  /** `head`: the applied type's name (a qualified one is shown only on a refusal). */
  applyKind(k: K, args: readonly Type[], name: string | QualifiedName): K {
    let cur = k;
    const head = () => (typeof name === 'string' ? name : showName(name));
    for (const arg of args) {
      if (typeof cur === 'string') this.fail({ kind: 'kindMismatch', detail: `${head()} is applied to too many type arguments` });
      const a = this.kindOf(arg);
      if (!kindsEqual(a, cur.from)) this.fail({ kind: 'kindMismatch', detail: `argument of ${head()}: expected kind ${showKind(cur.from)}, found ${showKind(a)}` });
      cur = cur.to;
    }
    return cur;
  }

  tyConApp(app: TypeConApp, kind: DataCons['kind']): DataCons {
    const { dt, cons } = this.consOf(app.tycon, kind);
    if (dt.params.length !== app.args.length) this.fail({ kind: 'illFormed', detail: `wrong arity in typecon application: ${showName(app.tycon)}` });
    for (let i = 0; i < app.args.length; i++) {
      const arg = app.args[i]!;
      const k = this.typeKind(arg);
      if (!kindsEqual(k, this.kind(dt.params[i]!.kind))) this.fail({ kind: 'kindMismatch', detail: `argument ${i + 1} of ${showName(app.tycon)}` });
    }
    return cons;
  }

  // ---- expressions -------------------------------------------------------------------------------

  /** Walks each root with `names` bound, iteratively. */
  *exprs(roots: readonly Expr[], names: readonly string[]): Generator<void, void> {
    const stack: Item[] = [{ k: 'unbind', names }];
    for (const e of roots) stack.push({ k: 'e', e, d: 1 });
    stack.push({ k: 'bind', names });
    let steps = 0;
    while (stack.length > 0) {
      if (++steps === PackageChecker.STEPS_PER_PAUSE) { steps = 0; yield; this.resumed(); }
      const item = stack.pop()!;
      switch (item.k) {
        case 'e': this.expr(item.e, item.d, stack); break;
        case 't': if (item.star) this.typeStar(item.t); else this.typeKind(item.t); break;
        case 'bind': for (const n of item.names) this.#vars.bind(n, true); break;
        case 'unbind': for (const n of item.names) this.#vars.unbind(n); break;
        case 'tbind':
          this.distinct(item.vars.map((v) => v.name), 'type parameter');
          for (const v of item.vars) this.#tvars.bind(v.name, this.kind(v.kind));
          break;
        case 'tunbind': for (const v of item.vars) this.#tvars.unbind(v.name); break;
      }
    }
  }

  expr(e: Expr, d: number, stack: Item[]): void {
    this.tick();
    if (d > this.limits.exprDepth) this.fail({ kind: 'tooDeep', what: 'expression', limit: this.limits.exprDepth });
    // Leaves (most nodes) first, before the helpers below are made.
    switch (e.kind) {
      case 'var':
        if (this.#vars.get(e.name) === undefined) this.fail({ kind: 'unknownVariable', name: e.name });
        return;
      case 'val': {
        if (!this.moduleOf(e.ref).values.has(e.ref.name)) this.fail({ kind: 'unknownReference', what: 'value', name: showName(e.ref) });
        return;
      }
      case 'builtin':
        if (!hasBuiltin(this.pkg.lfVersion, e.builtin)) this.fail({ kind: 'unavailableBuiltin', builtin: e.builtin, lfVersion: this.pkg.lfVersion });
        return;
      case 'lit': return;
      default: this.node(e, d, stack);
    }
  }

  /**
   * A node's rule: its own checks (NODE_OWN), then its types and subexpressions pushed (NODE_PUSHES),
   * each from a table by its kind: one small function per kind rather than one switch
   * over ~45 kinds, so V8 optimizes each rule on its own once it is hot, and a kind first met late
   * deoptimizes and recompiles that rule only (see ExprTyper.node).
   */
  node(e: NodeExpr, d: number, stack: Item[]): void {
    (NODE_OWN[e.kind] as NodeCheck<NodeExpr>)(this, e);
    (NODE_PUSHES[e.kind] as NodeRule<NodeExpr>)(this, e, d, stack);
  }

  /** An alternative's body in scope of its binders (its constructor is checked by the case's NODE_OWN). */
  alt(alt: CaseAlt, d: number, stack: Item[]): void {
    switch (alt.kind) {
      case 'default': case 'builtinCon': case 'nil': case 'optionalNone': case 'enum': scoped(stack, d, [], alt.body); return;
      case 'variant': case 'optionalSome': scoped(stack, d, [alt.binder], alt.body); return;
      case 'cons': scoped(stack, d, [alt.head, alt.tail], alt.body); return;
    }
  }

  /** `let` and update blocks: each binding sees the ones before it. Pushed so they pop in order. */
  bindings(bindings: readonly { name: string; type: Type; bound: Expr }[], body: Expr, stack: Item[], d: number): void {
    stack.push({ k: 'unbind', names: bindings.map((b) => b.name) });
    stack.push({ k: 'e', e: body, d: d + 1 });
    for (let i = bindings.length - 1; i >= 0; i--) {
      const b = bindings[i]!;
      stack.push({ k: 'bind', names: [b.name] });
      stack.push({ k: 'e', e: b.bound, d: d + 1 });
      stack.push({ k: 't', t: b.type, star: true });
    }
  }

  /** An update's subexpressions and types (its own checks are updateOwn's, made before). */
  update(u: Update, d: number, stack: Item[]): void {
    const sub = (x: Expr): void => { subExpr(this, x, d, stack); };
    switch (u.kind) {
      case 'pure': case 'embedExpr': typeItem(stack, u.type); sub(u.expr); return;
      case 'block': this.bindings(u.bindings, u.body, stack, d); return;
      case 'create': case 'createInterface': sub(u.expr); return;
      case 'exercise': sub(u.cid); sub(u.arg); return;
      case 'exerciseInterface':
        sub(u.cid); sub(u.arg);
        if (u.guard) sub(u.guard);
        return;
      case 'exerciseByKey': sub(u.key); sub(u.arg); return;
      case 'lookupByKey': case 'fetchByKey': case 'queryNByKey': case 'getTime': return;
      case 'fetch': case 'fetchInterface': sub(u.cid); return;
      case 'ledgerTimeLt': sub(u.expr); return;
      case 'tryCatch': typeItem(stack, u.returnType); sub(u.tryExpr); scoped(stack, d, [u.binder], u.catchExpr); return;
    }
  }

  keyed(q: QualifiedName): void {
    if (!this.templateOf(q).key) this.fail({ kind: 'illFormed', detail: `tried to perform key lookup or fetch on template ${showName(q)}` });
  }
}

/** One kind of a module's definitions: which, when a step yields (before or after it), its check. */
interface ModuleDefKind<D extends { readonly name: string }> {
  readonly defs: (m: Module) => Iterable<D>;
  readonly yieldFirst: boolean;
  readonly check: (c: PackageChecker, m: Module, d: D) => Generator<void, void>;
}

/** The steps of a check that walks no expression (it pauses nowhere). */
function* noSteps(): Generator<void, void> {}

function defKind<D extends { readonly name: string }>(k: ModuleDefKind<D>): ModuleDefKind<{ readonly name: string }> {
  return k as unknown as ModuleDefKind<{ readonly name: string }>;
}

/** In the order the checker has always taken them. */
const MODULE_DEFS: readonly ModuleDefKind<{ readonly name: string }>[] = [
  defKind<DefDataType>({ defs: (m) => m.dataTypes.values(), yieldFirst: false, check: (c, _m, dt) => { c.dataType(dt); return noSteps(); } }),
  defKind<DefTypeSyn>({ defs: (m) => m.synonyms.values(), yieldFirst: false, check: (c, m, syn) => { c.synonym(m, syn); return noSteps(); } }),
  defKind<DefTemplate>({ defs: (m) => m.templates.values(), yieldFirst: false, *check(c, m, t) { yield* c.template(m, t); } }),
  defKind<DefInterface>({ defs: (m) => m.interfaces.values(), yieldFirst: false, *check(c, m, i) { yield* c.iface(m, i); } }),
  defKind<DefException>({ defs: (m) => m.exceptions.values(), yieldFirst: true, *check(c, m, x) { yield* c.exception(m, x); } }),
  defKind<DefValue>({ defs: (m) => m.values.values(), yieldFirst: true, *check(c, _m, v) { yield* c.value(v); } }),
];

type NodeExpr = Exclude<Expr, { kind: 'var' | 'val' | 'builtin' | 'lit' }>;
/** Checks node `e` at depth `d`: its own references at once, its subexpressions and types pushed on `stack`. */
type NodeRule<E extends NodeExpr> = (c: PackageChecker, e: E, d: number, stack: Item[]) => void;

/** A subexpression of a node at depth `d`; leaves are checked at once (fewer stack items). */
function subExpr(c: PackageChecker, x: Expr, d: number, stack: Item[]): void {
  if (x.kind === 'var' || x.kind === 'val' || x.kind === 'builtin' || x.kind === 'lit') c.expr(x, d + 1, stack);
  else stack.push({ k: 'e', e: x, d: d + 1 });
}

function typeItem(stack: Item[], t: Type, star = true): void {
  stack.push({ k: 't', t, star });
}

/** `x` in scope of `names` only. */
function scoped(stack: Item[], d: number, names: readonly string[], x: Expr): void {
  stack.push({ k: 'unbind', names }, { k: 'e', e: x, d: d + 1 }, { k: 'bind', names });
}

/** A node's own checks, without its types or subexpressions: references, arities, constructors. */
type NodeCheck<E extends NodeExpr> = (c: PackageChecker, e: E) => void;

const none = (): void => {};

function recordApp(c: PackageChecker, e: Extract<Expr, { kind: 'recProj' | 'recUpd' }>): void {
  const cons = c.tyConApp(e.tycon, 'record') as Extract<DataCons, { kind: 'record' }>;
  if (!cons.fields.some((f) => f.name === e.field)) c.fail({ kind: 'unknownReference', what: 'field', name: `${showName(e.tycon.tycon)}:${e.field}` });
}

function templateInterfaceCheck(c: PackageChecker, e: Extract<Expr, { kind: 'toInterface' | 'fromInterface' | 'unsafeFromInterface' }>): void {
  c.interfaceOf(e.iface);
  const t = c.templateOf(e.template);
  if (![...t.implements.values()].some((i) => sameName(i.iface, e.iface))) {
    c.fail({ kind: 'illFormed', detail: `template ${showName(e.template)} does not implement interface ${showName(e.iface)}` });
  }
}

function interfaceCheck(c: PackageChecker, e: { readonly iface: QualifiedName }): void {
  c.interfaceOf(e.iface);
}

function requiredInterfaceCheck(c: PackageChecker, e: Extract<Expr, { kind: 'toRequiredInterface' | 'fromRequiredInterface' | 'unsafeFromRequiredInterface' }>): void {
  c.interfaceOf(e.required);
  const requiring = c.interfaceOf(e.requiring);
  if (!requiring.requires.some((r) => sameName(r, e.required))) {
    c.fail({ kind: 'illFormed', detail: `interface ${showName(e.requiring)} does not require ${showName(e.required)}` });
  }
}

function choiceCheck(c: PackageChecker, e: Extract<Expr, { kind: 'choiceController' | 'choiceObserver' }>): void {
  c.choiceOf(e.template, e.choice, 'template');
}

/** An update's own checks (its types and subexpressions are the walk's). */
function updateOwn(c: PackageChecker, u: Update): void {
  switch (u.kind) {
    case 'create': c.templateOf(u.template); return;
    case 'createInterface': c.interfaceOf(u.iface); return;
    case 'exercise': c.choiceOf(u.template, u.choice, 'template'); return;
    case 'exerciseInterface': c.choiceOf(u.iface, u.choice, 'interface'); return;
    case 'exerciseByKey': c.keyed(u.template); c.choiceOf(u.template, u.choice, 'template'); return;
    case 'lookupByKey': case 'fetchByKey': case 'queryNByKey': c.keyed(u.template); return;
    case 'fetch': c.templateOf(u.template); return;
    case 'fetchInterface': c.interfaceOf(u.iface); return;
    default: return;
  }
}

/**
 * Every node kind's own checks, made first by both walks: the scope walk (`node`, which then
 * pushes the node's types and subexpressions: NODE_PUSHES) and the merged walk (`nodeScope`, which
 * kinds the types at once, `kindTypes`, and leaves the subexpressions to the typer). Written once,
 * so the walks cannot drift.
 */
const NODE_OWN: { readonly [K in NodeExpr['kind']]: NodeCheck<Extract<NodeExpr, { kind: K }>> } = {
  recCon: (c, e) => {
    const cons = c.tyConApp(e.tycon, 'record') as Extract<DataCons, { kind: 'record' }>;
    if (cons.fields.length !== e.fields.length || cons.fields.some((f, i) => f.name !== e.fields[i]!.field)) {
      c.fail({ kind: 'illFormed', detail: `field mismatch in record construction of ${showName(e.tycon.tycon)}` });
    }
  },
  recProj: recordApp,
  recUpd: recordApp,
  variantCon: (c, e) => {
    const cons = c.tyConApp(e.tycon, 'variant') as Extract<DataCons, { kind: 'variant' }>;
    if (!cons.constructors.some((x) => x.name === e.constructor)) c.fail({ kind: 'unknownReference', what: 'constructor', name: `${showName(e.tycon.tycon)}:${e.constructor}` });
  },
  enumCon: (c, e) => {
    const { cons } = c.consOf(e.tycon, 'enum');
    if (!cons.constructors.includes(e.constructor)) c.fail({ kind: 'unknownReference', what: 'constructor', name: `${showName(e.tycon)}:${e.constructor}` });
  },
  structCon: (c, e) => { c.distinct(e.fields.map((f) => f.field), 'field'); },
  structProj: none,
  structUpd: none,
  app: (c, e) => { if (e.args.length === 0) c.fail({ kind: 'illFormed', detail: 'application without arguments' }); },
  tyApp: (c, e) => { if (e.types.length === 0) c.fail({ kind: 'illFormed', detail: 'type application without types' }); },
  abs: (c, e) => { if (e.params.length === 0) c.fail({ kind: 'illFormed', detail: 'abstraction without parameters' }); },
  tyAbs: (c, e) => { if (e.params.length === 0) c.fail({ kind: 'illFormed', detail: 'type abstraction without parameters' }); },
  case: (c, e) => {
    if (e.alts.length === 0) c.fail({ kind: 'illFormed', detail: 'empty case' });
    for (const alt of e.alts) {
      if (alt.kind === 'variant') {
        const { cons } = c.consOf(alt.tycon, 'variant');
        if (!cons.constructors.some((x) => x.name === alt.constructor)) c.fail({ kind: 'unknownReference', what: 'constructor', name: `${showName(alt.tycon)}:${alt.constructor}` });
      } else if (alt.kind === 'enum') {
        const { cons } = c.consOf(alt.tycon, 'enum');
        if (!cons.constructors.includes(alt.constructor)) c.fail({ kind: 'unknownReference', what: 'constructor', name: `${showName(alt.tycon)}:${alt.constructor}` });
      }
    }
  },
  let: none,
  nil: none,
  cons: (c, e) => { if (e.front.length === 0) c.fail({ kind: 'illFormed', detail: 'empty Cons front' }); },
  update: (c, e) => { updateOwn(c, e.update); },
  optionalNone: none,
  typeRep: (c, e) => { c.anyType(e.type); },
  experimental: none,
  optionalSome: none,
  toAny: (c, e) => { c.anyType(e.type); },
  fromAny: (c, e) => { c.anyType(e.type); },
  toAnyException: (c, e) => { c.exceptionType(e.type); },
  fromAnyException: (c, e) => { c.exceptionType(e.type); },
  throw: (c, e) => { c.exceptionType(e.exceptionType); },
  toInterface: templateInterfaceCheck,
  fromInterface: templateInterfaceCheck,
  unsafeFromInterface: templateInterfaceCheck,
  callInterface: (c, e) => {
    if (!c.interfaceOf(e.iface).methods.has(e.method)) c.fail({ kind: 'unknownReference', what: 'method', name: `${showName(e.iface)}:${e.method}` });
  },
  signatoryInterface: interfaceCheck,
  observerInterface: interfaceCheck,
  viewInterface: interfaceCheck,
  interfaceTemplateTypeRep: interfaceCheck,
  toRequiredInterface: requiredInterfaceCheck,
  fromRequiredInterface: requiredInterfaceCheck,
  unsafeFromRequiredInterface: requiredInterfaceCheck,
  choiceController: choiceCheck,
  choiceObserver: choiceCheck,
};

function typeOnly(_c: PackageChecker, e: { readonly type: Type }, _d: number, stack: Item[]): void {
  typeItem(stack, e.type);
}

function typedExpr(c: PackageChecker, e: { readonly type: Type; readonly expr: Expr }, d: number, stack: Item[]): void {
  typeItem(stack, e.type);
  subExpr(c, e.expr, d, stack);
}

function exprOnly(c: PackageChecker, e: { readonly expr: Expr }, d: number, stack: Item[]): void {
  subExpr(c, e.expr, d, stack);
}

/** The scope walk's pushes per node kind, after its NODE_OWN checks (see `rule`). */
const NODE_PUSHES: { readonly [K in NodeExpr['kind']]: NodeRule<Extract<NodeExpr, { kind: K }>> } = {
  recCon: (c, e, d, stack) => { for (const f of e.fields) subExpr(c, f.expr, d, stack); },
  recProj: (c, e, d, stack) => { subExpr(c, e.record, d, stack); },
  recUpd: (c, e, d, stack) => { subExpr(c, e.record, d, stack); subExpr(c, e.update, d, stack); },
  variantCon: (c, e, d, stack) => { subExpr(c, e.arg, d, stack); },
  enumCon: none,
  structCon: (c, e, d, stack) => { for (const f of e.fields) subExpr(c, f.expr, d, stack); },
  structProj: (c, e, d, stack) => { subExpr(c, e.struct, d, stack); },
  structUpd: (c, e, d, stack) => { subExpr(c, e.struct, d, stack); subExpr(c, e.update, d, stack); },
  app: (c, e, d, stack) => {
    subExpr(c, e.fun, d, stack);
    for (const a of e.args) subExpr(c, a, d, stack);
  },
  tyApp: (c, e, d, stack) => {
    subExpr(c, e.expr, d, stack);
    for (const t of e.types) typeItem(stack, t, false);
  },
  abs: (_c, e, d, stack) => {
    scoped(stack, d, e.params.map((p) => p.name), e.body);
    for (const p of e.params) typeItem(stack, p.type);
  },
  tyAbs: (c, e, d, stack) => {
    stack.push({ k: 'tunbind', vars: e.params });
    subExpr(c, e.body, d, stack);
    stack.push({ k: 'tbind', vars: e.params });
  },
  case: (c, e, d, stack) => {
    for (const alt of e.alts) c.alt(alt, d, stack);
    subExpr(c, e.scrut, d, stack);
  },
  let: (c, e, d, stack) => { c.bindings(e.bindings, e.body, stack, d); },
  nil: typeOnly,
  cons: (c, e, d, stack) => {
    typeItem(stack, e.type);
    for (const x of e.front) subExpr(c, x, d, stack);
    subExpr(c, e.tail, d, stack);
  },
  update: (c, e, d, stack) => { c.update(e.update, d, stack); },
  optionalNone: typeOnly,
  typeRep: typeOnly,
  experimental: typeOnly,
  optionalSome: (c, e, d, stack) => { typeItem(stack, e.type); subExpr(c, e.value, d, stack); },
  toAny: typedExpr,
  fromAny: typedExpr,
  toAnyException: typedExpr,
  fromAnyException: typedExpr,
  throw: (c, e, d, stack) => { typeItem(stack, e.returnType); typeItem(stack, e.exceptionType); subExpr(c, e.expr, d, stack); },
  toInterface: exprOnly,
  fromInterface: exprOnly,
  unsafeFromInterface: (c, e, d, stack) => { subExpr(c, e.cid, d, stack); subExpr(c, e.expr, d, stack); },
  callInterface: exprOnly,
  signatoryInterface: exprOnly,
  observerInterface: exprOnly,
  viewInterface: exprOnly,
  interfaceTemplateTypeRep: exprOnly,
  toRequiredInterface: exprOnly,
  fromRequiredInterface: exprOnly,
  unsafeFromRequiredInterface: (c, e, d, stack) => { subExpr(c, e.cid, d, stack); subExpr(c, e.expr, d, stack); },
  choiceController: (c, e, d, stack) => { subExpr(c, e.contract, d, stack); subExpr(c, e.arg, d, stack); },
  choiceObserver: (c, e, d, stack) => { subExpr(c, e.contract, d, stack); subExpr(c, e.arg, d, stack); },
};

/** The types a node names, kinded at once by the merged walk (the scope walk pushes them: NODE_PUSHES). */
function kindTypes(c: PackageChecker, e: NodeExpr): void {
  switch (e.kind) {
    case 'tyApp': for (const t of e.types) c.typeKind(t); return;
    case 'abs': for (const p of e.params) c.typeStar(p.type); return;
    case 'let': for (const x of e.bindings) c.typeStar(x.type); return;
    case 'nil': case 'cons': case 'optionalNone': case 'typeRep': case 'experimental': case 'optionalSome':
    case 'toAny': case 'fromAny': case 'toAnyException': case 'fromAnyException':
      c.typeStar(e.type); return;
    case 'throw': c.typeStar(e.returnType); c.typeStar(e.exceptionType); return;
    case 'update': {
      const u = e.update;
      if (u.kind === 'pure' || u.kind === 'embedExpr') c.typeStar(u.type);
      else if (u.kind === 'block') for (const x of u.bindings) c.typeStar(x.type);
      else if (u.kind === 'tryCatch') c.typeStar(u.returnType);
      return;
    }
    default: return;
  }
}

const PARTIES = list(PARTY);

function sameName(a: QualifiedName, b: QualifiedName): boolean {
  return a.packageId === b.packageId && a.module === b.module && a.name === b.name;
}

/**
 * Checks one package whole. `lookup` answers the other packages it may reference (the DAR's own
 * and those already known); the package itself needs not be in it.
 */
export function checkPackage(pkg: Package, lookup: PackageLookup, limits: CheckLimits = DEFAULT_CHECK_LIMITS, walk: CheckWalk = 'auto'): CheckResult {
  const steps = checkPackageSteps(pkg, lookup, limits, walk);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `checkPackage` one definition per step: the caller drives it and may yield to the event loop
 * between steps (an HTTP upload does, so a large package's check never holds other clients).
 */
export function* checkPackageSteps(pkg: Package, lookup: PackageLookup, limits: CheckLimits = DEFAULT_CHECK_LIMITS, walk: CheckWalk = 'auto'): Generator<void, CheckResult> {
  try {
    yield* new PackageChecker(pkg, lookup, limits, walk).check();
    return { ok: true };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, failure: e.failure };
    throw e;
  } finally {
    useSynonyms(undefined);
  }
}

/** Checks each package in turn; the first failure. */
export function checkPackages(pkgs: readonly Package[], lookup: PackageLookup, limits: CheckLimits = DEFAULT_CHECK_LIMITS, walk: CheckWalk = 'auto'): CheckResult {
  for (const p of pkgs) {
    const r = checkPackage(p, lookup, limits, walk);
    if (!r.ok) return r;
  }
  return { ok: true };
}
