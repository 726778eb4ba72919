/**
 * The checker's view of types for the typing rules (daml-lf-2.rst "Type system"): a known head
 * applied to arguments, or `UNKNOWN`, which agrees with any type. Whatever the checker cannot yet
 * type exactly (type variables, `forall`, synonyms, structs, Numeric scales, higher-kinded
 * applications) becomes `UNKNOWN`, so an imprecision can miss an ill-typed package but never
 * refuse a well-typed one. Comparison and printing use loops or bounded depth, never recursion on
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
export const conHead = (q: QualifiedName): string => `con:${q.packageId}:${q.module}:${q.name}`;
export const con = (q: QualifiedName, args: readonly Ty[] = []): TyNode => ({ head: conHead(q), args });
export const fn = (from: Ty, to: Ty): TyNode => ({ head: 'ARROW', args: [from, to] });
export const list = (t: Ty): TyNode => b('LIST', [t]);
export const optional = (t: Ty): TyNode => b('OPTIONAL', [t]);
export const update = (t: Ty): TyNode => b('UPDATE', [t]);
export const contractId = (t: Ty): TyNode => b('CONTRACT_ID', [t]);
export const BOOL = b('BOOL'); export const TEXT = b('TEXT'); export const INT64 = b('INT64');
export const PARTY = b('PARTY'); export const DATE = b('DATE'); export const TIMESTAMP = b('TIMESTAMP');
export const UNIT = b('UNIT');

/** Variable-free types converted once. */
const converted = new WeakMap<Type, Ty>();

/**
 * `t` as a `Ty`; type variables are `subst`'s (a data type's parameters) or UNKNOWN. Recursive:
 * the checker bounded every type's depth before (measure.ts).
 */
export function toTy(t: Type, subst?: ReadonlyMap<string, Ty>): Ty {
  if (!subst) {
    const known = converted.get(t);
    if (known !== undefined) return known;
  }
  let r: Ty;
  switch (t.kind) {
    case 'var': r = t.args.length === 0 && subst ? subst.get(t.name) ?? UNKNOWN : UNKNOWN; break;
    case 'con': r = con(t.tycon, t.args.map((a) => toTy(a, subst))); break;
    case 'builtin':
      // Numeric's scale is not tracked (nat kinds): `Numeric ?`.
      r = t.builtin === 'NUMERIC' ? b('NUMERIC', [UNKNOWN]) : t.args.length === 0 ? b(t.builtin) : b(t.builtin, t.args.map((a) => toTy(a, subst)));
      break;
    case 'app': {
      const f = toTy(t.lhs, subst);
      r = f === UNKNOWN || f.head === 'NUMERIC' ? UNKNOWN : { head: f.head, args: [...f.args, toTy(t.rhs, subst)] };
      break;
    }
    // Synonyms, `forall` (no instantiation yet), structs and nats: not tracked.
    case 'syn': case 'forall': case 'struct': case 'nat': r = UNKNOWN; break;
  }
  if (!subst) converted.set(t, r);
  return r;
}

/** Whether `a` and `b` can be the same type (UNKNOWN agrees with anything). A loop, not recursion. */
export function agree(a: Ty, b: Ty): boolean {
  const stack: Ty[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x === UNKNOWN || y === UNKNOWN || x === y) continue;
    if (x.head !== y.head) return false;
    // A partly applied head (`app`) against a full one: not tracked.
    if (x.args.length !== y.args.length) continue;
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

/** The type in Daml-LF's notation, `?` for unknown parts; cut at a few levels. */
export function showTy(t: Ty, depth = 0): string {
  if (t === UNKNOWN) return '?';
  if (depth > 6) return '…';
  if (t.head === 'ARROW' && t.args.length === 2) {
    const from = t.args[0] ?? null;
    const l = showTy(from, depth + 1);
    return `${from !== null && from.head === 'ARROW' ? `(${l})` : l} → ${showTy(t.args[1] ?? null, depth + 1)}`;
  }
  const name = t.head.startsWith('con:') ? t.head.slice(t.head.lastIndexOf(':') + 1) : NAMES[t.head] ?? t.head;
  if (t.args.length === 0) return name;
  return [name, ...t.args.map((a) => {
    const s = showTy(a, depth + 1);
    return a !== null && a.args.length > 0 ? `(${s})` : s;
  })].join(' ');
}
