/**
 * The order on types of daml-lf-2.rst "Type ordering" (<ₜ): used to order `Any` values and type
 * representations (`from_any` compares with the evaluator's `typesEqual`, which is total).
 *
 * A type is compared as an application spine: builtin constructors in the spec's order, then
 * type constructors (package id, module, name), then naturals, then structs, then applications,
 * which compare their function part first and their argument second.
 */
import type { BuiltinTypeName, QualifiedName, Type } from '../ast/Type.js';

const BUILTIN_RANK: Readonly<Record<BuiltinTypeName, number>> = {
  UNIT: 0, BOOL: 1, INT64: 2, TEXT: 3, TIMESTAMP: 4, PARTY: 5, LIST: 6, UPDATE: 7, DATE: 8,
  CONTRACT_ID: 9, OPTIONAL: 10, ARROW: 11, TEXTMAP: 12, NUMERIC: 13, ANY: 14, TYPE_REP: 15,
  GENMAP: 16, BIGNUMERIC: 17, ROUNDING_MODE: 18, ANY_EXCEPTION: 19,
  // Not in the spec's chain (never inside a type representation); placed after it to stay total.
  FAILURE_CATEGORY: 20,
};

const TYCON_RANK = 100;
const NAT_RANK = 101;
const STRUCT_RANK = 102;
// Applications come after every head (TypeOrderStructTyApp): compareSpines orders them first.

/** A type in spine form: applications become `app` nodes, one argument each. */
type Spine =
  | { readonly kind: 'head'; readonly rank: number; readonly tycon?: QualifiedName; readonly nat?: number; readonly fields?: readonly { readonly name: string; readonly type: Type }[] }
  | { readonly kind: 'app'; readonly fn: Spine; readonly arg: Type };

function spine(t: Type): Spine {
  switch (t.kind) {
    case 'builtin': return applied({ kind: 'head', rank: BUILTIN_RANK[t.builtin] }, t.args);
    case 'con': return applied({ kind: 'head', rank: TYCON_RANK, tycon: t.tycon }, t.args);
    case 'nat': return { kind: 'head', rank: NAT_RANK, nat: t.value };
    case 'struct': return { kind: 'head', rank: STRUCT_RANK, fields: t.fields };
    case 'app': return { kind: 'app', fn: spine(t.lhs), arg: t.rhs };
    case 'var':
    case 'syn':
    case 'forall':
      // The spec leaves <ₜ undefined here: type representations are closed and synonym-free.
      throw new TypeError(`type of kind '${t.kind}' cannot be ordered`);
  }
}

function applied(head: Spine, args: readonly Type[]): Spine {
  let s: Spine = head;
  for (const arg of args) s = { kind: 'app', fn: s, arg };
  return s;
}

function compareNames(a: QualifiedName, b: QualifiedName): number {
  return cmp(a.packageId, b.packageId) || cmp(a.module, b.module) || cmp(a.name, b.name);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareSpines(x: Spine, y: Spine): number {
  if (x.kind === 'app' || y.kind === 'app') {
    if (x.kind !== 'app') return -1;
    if (y.kind !== 'app') return 1;
    return compareSpines(x.fn, y.fn) || compareTypes(x.arg, y.arg);
  }
  if (x.rank !== y.rank) return x.rank - y.rank;
  if (x.rank === TYCON_RANK) return compareNames(x.tycon!, y.tycon!);
  if (x.rank === NAT_RANK) return x.nat! - y.nat!;
  if (x.rank === STRUCT_RANK) {
    const a = x.fields!;
    const b = y.fields!;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const byName = cmp(a[i]!.name, b[i]!.name);
      if (byName !== 0) return byName;
    }
    if (a.length !== b.length) return a.length - b.length;
    for (let i = 0; i < a.length; i++) {
      const byType = compareTypes(a[i]!.type, b[i]!.type);
      if (byType !== 0) return byType;
    }
  }
  return 0;
}

/** Negative, zero or positive as `a` comes before, equals or comes after `b` in <ₜ. */
export function compareTypes(a: Type, b: Type): number {
  return compareSpines(spine(a), spine(b));
}

/** `pkg:Module.Name:Entity.Name`: how Daml prints a type constructor's id. */
export function tyconName(t: Type): string | undefined {
  return t.kind === 'con' && t.args.length === 0 ? `${t.tycon.packageId}:${t.tycon.module}:${t.tycon.name}` : undefined;
}
