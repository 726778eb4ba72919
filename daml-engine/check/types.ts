/**
 * The checker's view of types for the typing rules (daml-lf-2.rst "Type system"): a known head
 * applied to arguments, or `UNKNOWN`, which agrees with any type. Heads are builtin types,
 * `con:` type constructors, `var:` type variables in scope (rigid: equal to themselves only) and
 * `nat:` Numeric scales. Whatever the checker cannot yet type exactly (`forall`, synonyms,
 * structs) becomes `UNKNOWN`, so an imprecision can miss an ill-typed package but never refuse a
 * well-typed one. Comparison and printing use loops or bounded depth, never recursion on
 * input depth.
 */
import type { QualifiedName, Type } from '../ast/Type.js';

export interface TyNode {
  /** A builtin type name (`INT64`, `ARROW`, ...) or `con:` + the qualified name. */
  readonly head: string;
  readonly args: readonly Ty[];
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
 * `t` as a `Ty`; type variables are `subst`'s (a data type's parameters) or UNKNOWN. Memoised per
 * node (types are DAGs once interned: a small package can name an exponential tree), so the cost
 * is the DAG's size; recursive only up to MAX_DEPTH.
 */
export function toTy(t: Type, subst?: ReadonlyMap<string, Ty>): Ty {
  return convert(t, subst, subst ? new Map() : converted, 0);
}

interface Memo { get(t: Type): Ty | undefined; set(t: Type, ty: Ty): unknown }

function convert(t: Type, subst: ReadonlyMap<string, Ty> | undefined, memo: Memo, depth: number): Ty {
  const known = memo.get(t);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) return UNKNOWN;
  const d = depth + 1;
  let r: Ty;
  switch (t.kind) {
    case 'var': {
      // A variable the substitution names is its type (a data type's parameter, a `∀`
      // instantiated); any other is one in scope, rigid: it equals itself only.
      const args = t.args.map((a) => convert(a, subst, memo, d));
      const head = subst?.get(t.name);
      if (head === undefined) r = { head: `var:${t.name}`, args };
      else r = head === UNKNOWN || args.length === 0 ? head : { head: head.head, args: [...head.args, ...args] };
      break;
    }
    case 'con': r = con(t.tycon, t.args.map((a) => convert(a, subst, memo, d))); break;
    case 'builtin': r = t.args.length === 0 ? b(t.builtin) : b(t.builtin, t.args.map((a) => convert(a, subst, memo, d))); break;
    case 'app': {
      const f = convert(t.lhs, subst, memo, d);
      r = f === UNKNOWN ? UNKNOWN : { head: f.head, args: [...f.args, convert(t.rhs, subst, memo, d)] };
      break;
    }
    // A Numeric's scale (`Numeric 10`): equal scales only.
    case 'nat': r = nat(t.value); break;
    // Synonyms, `forall` (no instantiation yet) and structs: not tracked.
    case 'syn': case 'forall': case 'struct': r = UNKNOWN; break;
  }
  memo.set(t, r);
  return r;
}

/**
 * Whether `a` and `b` can be the same type (UNKNOWN agrees with anything). A loop, not recursion;
 * pairs already compared are skipped, so shared (DAG) types cost their size, not their tree's.
 */
export function agree(a: Ty, b: Ty): boolean {
  const stack: Ty[] = [a, b];
  let seen: Map<TyNode, Set<TyNode>> | undefined;
  let steps = 0;
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x === UNKNOWN || y === UNKNOWN || x === y) continue;
    if (x.head !== y.head) return false;
    // A partly applied head (`app`) against a full one: not tracked.
    if (x.args.length !== y.args.length || x.args.length === 0) continue;
    if (++steps > 64) {
      seen ??= new Map();
      let ys = seen.get(x);
      if (!ys) { ys = new Set(); seen.set(x, ys); }
      if (ys.has(y)) continue;
      ys.add(y);
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
  const s = show(t, 0, budget);
  return budget.left < 0 ? `${s.slice(0, 200)}…` : s;
}

function show(t: Ty, depth: number, budget: { left: number }): string {
  if (budget.left < 0) return '…';
  if (t === UNKNOWN) return '?';
  if (depth > 6) return '…';
  budget.left -= 8;
  if (t.head === 'ARROW' && t.args.length === 2) {
    const from = t.args[0] ?? null;
    const l = show(from, depth + 1, budget);
    return `${from !== null && from.head === 'ARROW' ? `(${l})` : l} → ${show(t.args[1] ?? null, depth + 1, budget)}`;
  }
  const name = t.head.startsWith('con:') ? t.head.slice(t.head.lastIndexOf(':') + 1) : t.head.startsWith('var:') || t.head.startsWith('nat:') ? t.head.slice(4) : NAMES[t.head] ?? t.head;
  if (t.args.length === 0) return name;
  const parts = [name];
  for (const a of t.args) {
    if (budget.left < 0) { parts.push('…'); break; }
    const s = show(a, depth + 1, budget);
    parts.push(a !== null && a.args.length > 0 ? `(${s})` : s);
  }
  return parts.join(' ');
}
