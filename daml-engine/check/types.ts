/**
 * The checker's view of types for the typing rules (daml-lf-2.rst "Type system"): a known head
 * applied to arguments, or `UNKNOWN`, which agrees with any type. Heads are builtin types,
 * `con:` type constructors, `var:` type variables in scope (rigid: equal to themselves only) and
 * `nat:` Numeric scales, `bv:` variables bound by a `forall:` (de Bruijn indices), `struct:` and
 * `syn:` (a synonym applied, unfolded where compared). What the checker cannot type exactly (a
 * shadowing type abstraction, a kind too large to key, types past the depth bound) becomes
 * `UNKNOWN`, so an imprecision can miss an ill-typed package but never refuse a well-typed one.
 * Comparison and printing use loops or bounded depth, never recursion on input depth.
 */
import type { DefTypeSyn } from '../ast/Package.js';
import type { Kind, QualifiedName, Type } from '../ast/Type.js';
import { curried, keyOfKind } from './kinds.js';
import { kindSize } from './measure.js';

export interface TyNode {
  /** A builtin type name (`INT64`, `ARROW`, ...) or `con:` + the qualified name. */
  readonly head: string;
  readonly args: readonly Ty[];
  /** A synonym's name (`syn:` heads): expanded only where a comparison needs it (`unfold`). */
  readonly synonym?: QualifiedName;
}
export type Ty = TyNode | null;
export const UNKNOWN = null;

const cache = new Map<string, TyNode>();
/** A builtin type without arguments (shared). */
export function b(name: string, args: readonly Ty[] = []): TyNode {
  if (args.length > 0) return { head: name, args };
  let t = cache.get(name);
  if (!t) { t = { head: name, args: [] }; cache.set(name, t); }
  return t;
}
/**
 * A type constructor without arguments by name object (the decoder shares one per name): built
 * once, its head compared as the same string, and the node itself shared (types are never mutated).
 */
const bare = new WeakMap<QualifiedName, TyNode>();
function bareCon(q: QualifiedName): TyNode {
  let t = bare.get(q);
  if (t === undefined) { t = { head: `con:${q.packageId}:${q.module}:${q.name}`, args: [] }; bare.set(q, t); }
  return t;
}
export const conHead = (q: QualifiedName): string => bareCon(q).head;
export const con = (q: QualifiedName, args?: readonly Ty[]): TyNode => (args === undefined || args.length === 0 ? bareCon(q) : { head: bareCon(q).head, args });
export const fn = (from: Ty, to: Ty): TyNode => ({ head: 'ARROW', args: [from, to] });
export const list = (t: Ty): TyNode => b('LIST', [t]);
export const optional = (t: Ty): TyNode => b('OPTIONAL', [t]);
export const update = (t: Ty): TyNode => b('UPDATE', [t]);
export const contractId = (t: Ty): TyNode => b('CONTRACT_ID', [t]);
export const BOOL = b('BOOL'); export const TEXT = b('TEXT'); export const INT64 = b('INT64');
export const PARTY = b('PARTY'); export const DATE = b('DATE'); export const TIMESTAMP = b('TIMESTAMP');
export const UNIT = b('UNIT');
/** A type-level natural, a Numeric's scale (0..37, so shared). */
export const nat = (n: number): TyNode => (Number.isInteger(n) && n >= 0 && n <= 37 ? b(`nat:${n}`) : { head: `nat:${n}`, args: [] });
/** `Numeric` at scale `n` (a literal's), or at UNKNOWN. */
export const numeric = (scale: Ty): TyNode => b('NUMERIC', [scale]);

/** Types converted once (without a substitution). */
const converted = new WeakMap<Type, Ty>();

/**
 * Past this depth a type is UNKNOWN. The check bounds the depth of the package's own types first
 * (500, measure.ts), but a dependency checked later may not have been yet.
 */
const MAX_DEPTH = 1000;

/**
 * Synonyms `toTy` expands (daml-lf-2.rst "Type normalization"). The checker sets its package's
 * look-up before each definition: checks of several uploads interleave between definitions.
 */
export type SynonymLookup = (q: QualifiedName) => DefTypeSyn | undefined;
let synonymOf: SynonymLookup | undefined;
export function useSynonyms(lookup: SynonymLookup | undefined): void {
  synonymOf = lookup;
}

/**
 * `t` as a `Ty`, normalized: struct fields sorted, `∀` binders as de Bruijn
 * indices (`bv:0` is the nearest binder), so types equal up to renaming are equal `Ty`s. Type
 * variables are `subst`'s (a data type's parameters, a `∀` instantiated) or rigid (`var:`).
 * Memoised per node (types are DAGs once interned: a small package can name an exponential
 * tree), so the cost is the DAG's size; recursive only up to MAX_DEPTH.
 */
export function toTy(t: Type, subst?: ReadonlyMap<string, Ty>): Ty {
  return convert(t, subst, subst ? new Map() : converted, 0);
}

interface Memo { get(t: Type): Ty | undefined; set(t: Type, ty: Ty): unknown }

const NO_ARGS: readonly Ty[] = [];

/** A variable bound by the `index`-th enclosing `∀` (0: the nearest). */
const bv = (index: number): TyNode => b(`bv:${index}`);
const bvIndex = (t: TyNode): number => (t.head.startsWith('bv:') ? Number(t.head.slice(3)) : -1);
export const isForall = (t: Ty): boolean => t !== UNKNOWN && t.head.startsWith('forall:');

/** `∀ (α : k). body`, `body` already in de Bruijn form for α. */
const forallNode = (kind: string, body: Ty): TyNode => ({ head: `forall:${kind}`, args: [body] });

/** A kind's key (`keyOfKind`), or undefined for a kind too large to key (its `∀` is UNKNOWN then). */
export function kindKey(k: Kind): string | undefined {
  return kindSize(k, 64) > 64 ? undefined : keyOfKind(curried(k));
}

function convert(t: Type, subst: ReadonlyMap<string, Ty> | undefined, memo: Memo, depth: number): Ty {
  const known = memo.get(t);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) return UNKNOWN;
  const d = depth + 1;
  let r: Ty;
  switch (t.kind) {
    case 'var': {
      // A variable the substitution names is its type; any other is one in scope, rigid.
      const args = t.args.length === 0 ? NO_ARGS : t.args.map((a) => convert(a, subst, memo, d));
      const head = subst?.get(t.name);
      r = head === undefined ? { head: `var:${t.name}`, args } : applyTy(head, args);
      break;
    }
    case 'con': r = t.args.length === 0 ? con(t.tycon) : con(t.tycon, t.args.map((a) => convert(a, subst, memo, d))); break;
    case 'builtin': r = t.args.length === 0 ? b(t.builtin) : b(t.builtin, t.args.map((a) => convert(a, subst, memo, d))); break;
    case 'app': r = applyTy(convert(t.lhs, subst, memo, d), [convert(t.rhs, subst, memo, d)]); break;
    // A Numeric's scale (`Numeric 10`): equal scales only.
    case 'nat': r = nat(t.value); break;
    case 'struct': {
      const fields = t.fields.map((f) => ({ name: f.name, type: convert(f.type, subst, memo, d) }));
      r = struct(fields);
      break;
    }
    // Kept as the synonym applied (small to substitute into), expanded where compared.
    case 'syn': r = { head: `syn:${t.tysyn.packageId}:${t.tysyn.module}:${t.tysyn.name}`, args: t.args.map((a) => convert(a, subst, memo, d)), synonym: t.tysyn }; break;
    case 'forall': {
      const kinds = t.vars.map((v) => kindKey(v.kind));
      if (kinds.some((k) => k === undefined)) { r = UNKNOWN; break; }
      // Inside the body, the i-th of n binders is index n-1-i; what the substitution holds moves under them.
      const n = t.vars.length;
      const inner = new Map<string, Ty>();
      if (subst) for (const [name, ty] of subst) inner.set(name, shift(ty, n));
      t.vars.forEach((v, i) => inner.set(v.name, bv(n - 1 - i)));
      r = convert(t.body, inner, new Map(), d);
      for (let i = n - 1; i >= 0; i--) r = forallNode(kinds[i]!, r);
      break;
    }
  }
  memo.set(t, r);
  return r;
}

const isSynonym = (t: TyNode): boolean => t.synonym !== undefined;

/** Expansions made, per synonym node (a node's expansion never changes: its name fixes the definition). */
const expansions = new WeakMap<TyNode, Ty>();

/** `t` with the synonym at its head expanded, repeatedly (daml-lf-2.rst RewriteSynonym); UNKNOWN where it cannot be. */
export function unfold(t: Ty): Ty {
  for (let n = 0; t !== UNKNOWN && t.synonym !== undefined; n++) {
    if (n > 100) return UNKNOWN;
    const known = expansions.get(t);
    if (known !== undefined) { t = known; continue; }
    const syn = synonymOf?.(t.synonym);
    if (syn === undefined || syn.params.length !== t.args.length) return UNKNOWN;
    const args = t.args;
    const r = convert(syn.type, new Map(syn.params.map((p, i) => [p.name, args[i]!])), new Map(), 0);
    expansions.set(t, r);
    t = r;
  }
  return t;
}

/** `f` applied to more type arguments (a variable or constructor partly applied). */
function applyTy(f: Ty, args: readonly Ty[]): Ty {
  if (f === UNKNOWN || args.length === 0) return f;
  if (isForall(f) || f.head.startsWith('struct:') || isSynonym(f)) return UNKNOWN;
  return { head: f.head, args: [...f.args, ...args] };
}

/** A struct type, its fields sorted by name (daml-lf-2.rst RewriteStruct). */
export function struct(fields: readonly { readonly name: string; readonly type: Ty }[]): TyNode {
  const sorted = [...fields].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { head: `struct:${sorted.map((f) => f.name).join(',')}`, args: sorted.map((f) => f.type) };
}

/** A struct type's field `name`, or undefined when `t` is no struct or lacks it. */
export function structField(t: TyNode, name: string): Ty | undefined {
  if (!t.head.startsWith('struct:')) return undefined;
  const i = t.head.slice(7).split(',').indexOf(name);
  return i < 0 ? undefined : t.args[i];
}

/**
 * Rewrites `t` node by node: `leaf` may replace each bound variable (`bv:`) or rigid one (`var:`),
 * its arguments rewritten already, at the number of `∀` crossed. Memoised per node and depth;
 * UNKNOWN past MAX_DEPTH or 100,000 nodes (an imprecision, never a refusal).
 */
function rewrite(t: Ty, leaf: (x: TyNode, under: number) => Ty | undefined): Ty {
  let work = 0;
  // One map per number of binders crossed (few), not one per node.
  const memos: Map<TyNode, Ty>[] = [];
  const go = (x: Ty, under: number, depth: number): Ty => {
    if (x === UNKNOWN) return x;
    const variable = x.head.startsWith('bv:') || x.head.startsWith('var:');
    if (x.args.length === 0 && !variable) return x;
    if (depth > MAX_DEPTH || ++work > 100_000) return UNKNOWN;
    const memo = (memos[under] ??= new Map());
    const seen = memo.get(x);
    if (seen !== undefined) return seen;
    let node = x;
    if (x.args.length > 0) {
      const inner = isForall(x) ? under + 1 : under;
      let changed = false;
      const args = x.args.map((a) => { const y = go(a, inner, depth + 1); if (y !== a) changed = true; return y; });
      if (changed) node = x.synonym === undefined ? { head: x.head, args } : { head: x.head, args, synonym: x.synonym };
    }
    const r = (variable ? leaf(node, under) : undefined) ?? node;
    memo.set(x, r);
    return r;
  };
  return go(t, 0, 0);
}

/** `t` moved under `n` more binders: its free `bv:` indices grow by n. */
function shift(t: Ty, n: number): Ty {
  if (n === 0 || t === UNKNOWN) return t;
  return rewrite(t, (x, under) => {
    const i = bvIndex(x);
    return i >= under ? applyTy(bv(i + n), x.args) : undefined;
  });
}

/** `∀ (name : kind). body` of a type abstraction: the rigid `name` of `body` becomes the new binder. */
export function abstractOver(name: string, kind: string, body: Ty): TyNode {
  const rigid = `var:${name}`;
  return forallNode(kind, rewrite(body, (x, under) => (x.head === rigid ? applyTy(bv(under), x.args) : undefined)));
}

/**
 * Instances made, per `∀` type and argument: a polymorphic definition is applied at the same
 * (converted once, so identical) types again and again.
 */
const instances = new WeakMap<TyNode, Map<Ty, Ty>>();

/** `(∀ α. body) @arg`: α replaced by `arg` (daml-lf-2.rst TyApp). */
export function instantiate(forall: TyNode, arg: Ty): Ty {
  let byArg = instances.get(forall);
  const known = byArg?.get(arg);
  if (known !== undefined) return known;
  const r = substitute(forall, arg);
  if (!byArg) { byArg = new Map(); instances.set(forall, byArg); }
  byArg.set(arg, r);
  return r;
}

function substitute(forall: TyNode, arg: Ty): Ty {
  return rewrite(forall.args[0]!, (x, under) => {
    const i = bvIndex(x);
    if (i < 0) return undefined;
    if (i === under) return applyTy(shift(arg, under), x.args);
    return i > under ? applyTy(bv(i - 1), x.args) : undefined;
  });
}

/** Pairs of types found to agree or not, within one comparison (a synonym's arguments compare in nested calls). */
interface Compared { readonly yes: Map<TyNode, Set<TyNode>>; readonly no: Map<TyNode, Set<TyNode>> }
const found = (m: Map<TyNode, Set<TyNode>>, a: TyNode, b: TyNode): boolean => m.get(a)?.has(b) === true;
function record(m: Map<TyNode, Set<TyNode>>, a: TyNode, b: TyNode): void {
  let bs = m.get(a);
  if (!bs) { bs = new Set(); m.set(a, bs); }
  bs.add(b);
}

/**
 * Whether `a` and `b` can be the same type (UNKNOWN agrees with anything). A loop, not recursion;
 * pairs already compared are skipped, so shared (DAG) types cost their size, not their tree's. The
 * one nesting, a synonym's arguments, shares what it found with its caller (`compared`): two types
 * built apart (one converted, one instantiated) compare each level's pair once, equal or not.
 */
export function agree(a: Ty, b: Ty, compared?: Compared): boolean {
  if (a === UNKNOWN || b === UNKNOWN || a === b) return true;
  if (compared && found(compared.yes, a, b)) return true;
  if (compared && found(compared.no, a, b)) return false;
  const r = agreeLoop(a, b, compared);
  if (compared) record(r ? compared.yes : compared.no, a, b);
  return r;
}

function agreeLoop(a: TyNode, b: TyNode, outer: Compared | undefined): boolean {
  let compared = outer;
  const stack: Ty[] = [a, b];
  let seen: Map<TyNode, Set<TyNode>> | undefined;
  let steps = 0;
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x === UNKNOWN || y === UNKNOWN || x === y) continue;
    if (x.head !== y.head) {
      if (!isSynonym(x) && !isSynonym(y)) return false;
      stack.push(unfold(x), unfold(y));
      continue;
    }
    // The same synonym at agreeing arguments agrees; otherwise (a parameter it ignores) compare what it stands for.
    if (isSynonym(x)) {
      const shared = (compared ??= { yes: new Map(), no: new Map() });
      if (found(shared.no, x, y)) return false;
      if (!x.args.every((p, i) => agree(p, y.args[i]!, shared))) {
        if (!agree(unfold(x), unfold(y), shared)) { record(shared.no, x, y); return false; }
      }
      continue;
    }
    // A partly applied head (`app`) against a full one: not tracked.
    if (x.args.length !== y.args.length || x.args.length === 0) continue;
    if (++steps > 64) {
      seen ??= new Map();
      if (found(seen, x, y)) continue;
      record(seen, x, y);
    }
    for (let i = 0; i < x.args.length; i++) stack.push(x.args[i]!, y.args[i]!);
  }
  return true;
}

const NAMES: Record<string, string> = {
  UNIT: 'Unit', BOOL: 'Bool', INT64: 'Int64', DATE: 'Date', TIMESTAMP: 'Timestamp', NUMERIC: 'Numeric', PARTY: 'Party',
  TEXT: 'Text', CONTRACT_ID: 'ContractId', OPTIONAL: 'Optional', LIST: 'List', GENMAP: 'GenMap', ANY: 'Any',
  ANY_EXCEPTION: 'AnyException', TYPE_REP: 'TypeRep', UPDATE: 'Update', TEXTMAP: 'TextMap', BIGNUMERIC: 'BigNumeric',
  ROUNDING_MODE: 'RoundingMode', FAILURE_CATEGORY: 'FailureCategory',
};

/** The type in Daml-LF's notation, `?` for unknown parts; cut at a few levels and ~200 characters. */
export function showTy(t: Ty): string {
  const budget = { left: 200 };
  const s = show(t, 0, 0, budget);
  return budget.left < 0 ? `${s.slice(0, 200)}…` : s;
}

/** `binders`: the `∀`s crossed, whose variables print as t0, t1, … from the outermost. */
function show(t: Ty, depth: number, binders: number, budget: { left: number }): string {
  if (budget.left < 0) return '…';
  if (t === UNKNOWN) return '?';
  if (depth > 6) return '…';
  budget.left -= 8;
  const sub = (x: Ty, more = 0): string => show(x, depth + 1, binders + more, budget);
  if (t.head === 'ARROW' && t.args.length === 2) {
    const from = t.args[0] ?? null;
    const l = sub(from);
    return `${from !== null && (from.head === 'ARROW' || isForall(from)) ? `(${l})` : l} → ${sub(t.args[1] ?? null)}`;
  }
  if (isForall(t)) return `∀t${binders}. ${sub(t.args[0] ?? null, 1)}`;
  if (t.head.startsWith('struct:')) {
    const names = t.head.slice(7).split(',');
    return `⟨${t.args.map((a, i) => `${names[i]}: ${sub(a)}`).join(', ')}⟩`;
  }
  const index = bvIndex(t);
  const name = index >= 0 ? `t${binders - 1 - index}`
    : t.head.startsWith('con:') || t.head.startsWith('syn:') ? t.head.slice(t.head.lastIndexOf(':') + 1)
      : t.head.startsWith('var:') || t.head.startsWith('nat:') ? t.head.slice(4) : NAMES[t.head] ?? t.head;
  if (t.args.length === 0) return name;
  const parts = [name];
  for (const a of t.args) {
    if (budget.left < 0) { parts.push('…'); break; }
    const s = sub(a);
    parts.push(a !== null && a.args.length > 0 && !a.head.startsWith('struct:') ? `(${s})` : s);
  }
  return parts.join(' ');
}
