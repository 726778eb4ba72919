/**
 * The total order and equality on comparable values of daml-lf-2.rst "Generic comparison
 * functions" (LESS_EQ and the rules it defines EQUAL, LESS, GREATER by). The engine keeps
 * GenMap keys sorted with it too.
 *
 * Values compared are always of one type, so a kind mismatch or a function is a broken program:
 * `ValueCrash` is thrown and the builtin reports it as a crash.
 */
import { compareNumeric } from './numeric.js';
import { compareText } from './text.js';
import { compareTypes } from './compareTypes.js';
import type { RoundingMode, Value } from './Value.js';

/** Comparing what the spec says cannot be compared (functions, updates, ill-typed values). */
export class ValueCrash extends Error {
  override readonly name = 'ValueCrash';
}

const ROUNDING_ORDER: readonly RoundingMode[] = ['UP', 'DOWN', 'CEILING', 'FLOOR', 'HALF_UP', 'HALF_DOWN', 'HALF_EVEN', 'UNNECESSARY'];

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);
const compareBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Negative, zero or positive as `a` is less than, equal to or greater than `b`.
 * Iterative over lists (Daml lists may be long); recursive only into nested structure.
 */
export function compareValues(a: Value, b: Value): number {
  switch (a.kind) {
    case 'unit': same(a, b); return 0;
    case 'bool': return Number(a.value) - Number(same(a, b).value);
    case 'int64': return compareBig(a.value, same(a, b).value);
    case 'numeric':
    case 'bigNumeric': return compareNumeric(a, same(a, b));
    case 'text':
    case 'party': return sign(compareText(a.value, same(a, b).value));
    case 'date': return sign(a.days - same(a, b).days);
    case 'timestamp': return compareBig(a.micros, same(a, b).micros);
    case 'contractId': return compareContractIds(a.value, same(a, b).value);
    case 'record': return compareArrays(a.fields, same(a, b).fields);
    case 'struct': return compareArrays(a.fields, same(a, b).fields);
    case 'variant': {
      const y = same(a, b);
      return a.rank !== y.rank ? sign(a.rank - y.rank) : compareValues(a.value, y.value);
    }
    case 'enum': return sign(a.rank - same(a, b).rank);
    case 'nil':
    case 'cons': return compareLists(a, b);
    case 'optional': {
      const y = same(a, b);
      if (a.value === undefined) return y.value === undefined ? 0 : -1;
      return y.value === undefined ? 1 : compareValues(a.value, y.value);
    }
    case 'textMap': {
      const y = same(a, b);
      return compareEntries(a.entries, y.entries, (k1, k2) => sign(compareText(k1, k2)));
    }
    case 'genMap': return compareEntries(a.entries, same(a, b).entries, compareValues);
    case 'any':
    case 'anyException': {
      const y = same(a, b);
      return sign(compareTypes(a.type, y.type)) || compareValues(a.value, y.value);
    }
    case 'typeRep': return sign(compareTypes(a.type, same(a, b).type));
    case 'roundingMode': return sign(ROUNDING_ORDER.indexOf(a.mode) - ROUNDING_ORDER.indexOf(same(a, b).mode));
    case 'failureCategory': return sign(categoryRank(a.category) - categoryRank(same(a, b).category));
    case 'function':
    case 'update':
      throw new ValueCrash('Try to compare functions');
  }
}

/** EQUAL: `compareValues(a, b) === 0`, with the cheap answers first. */
export function equalValues(a: Value, b: Value): boolean {
  if (a === b && a.kind !== 'function' && a.kind !== 'update') return true;
  return compareValues(a, b) === 0;
}

function same<V extends Value>(a: V, b: Value): V {
  const listKinds = a.kind === 'nil' || a.kind === 'cons';
  if (b.kind !== a.kind && !(listKinds && (b.kind === 'nil' || b.kind === 'cons'))) {
    if (b.kind === 'function' || b.kind === 'update') throw new ValueCrash('Try to compare functions');
    throw new ValueCrash(`cannot compare a ${a.kind} with a ${b.kind}`);
  }
  return b as V;
}

const categoryRank = (c: string): number => (c === 'INVALID_INDEPENDENT_OF_SYSTEM_STATE' ? 0 : 1);

function compareArrays(x: readonly Value[], y: readonly Value[]): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(x[i]!, y[i]!);
    if (c !== 0) return c;
  }
  return sign(x.length - y.length);
}

function compareLists(a: Value, b: Value): number {
  let x = a;
  let y = same(a, b);
  for (;;) {
    if (x.kind === 'nil') return y.kind === 'nil' ? 0 : -1;
    if (y.kind === 'nil') return 1;
    if (x.kind !== 'cons' || y.kind !== 'cons') throw new ValueCrash('ill-typed list');
    const c = compareValues(x.head, y.head);
    if (c !== 0) return c;
    x = x.tail;
    y = y.tail;
  }
}

function compareEntries<K>(x: readonly (readonly [K, Value])[], y: readonly (readonly [K, Value])[], compareKeys: (a: K, b: K) => number): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = compareKeys(x[i]![0], y[i]![0]) || compareValues(x[i]![1], y[i]![1]);
    if (c !== 0) return c;
  }
  return sign(x.length - y.length);
}

/**
 * Contract ids order as text. Two V1 ids are not comparable when one is non-suffixed (exactly
 * `00` + 64 hex digits of discriminator) and a strict prefix of the other (contract-id.rst): the
 * order would change once the suffix is known.
 */
function compareContractIds(a: string, b: string): number {
  if (a !== b && isV1(a) && isV1(b)) {
    const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
    if (shorter.length === V1_UNSUFFIXED_LENGTH && longer.startsWith(shorter)) {
      throw new ValueCrash(`contract ids ${a} and ${b} are not comparable`);
    }
  }
  return sign(compareText(a, b));
}

const V1_UNSUFFIXED_LENGTH = 66;
const isV1 = (id: string): boolean => id.startsWith('00');
