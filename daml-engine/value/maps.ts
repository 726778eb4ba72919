/**
 * TextMap and GenMap as sorted entry arrays (daml-lf-2.rst "Text map functions", "Generic map
 * functions": every operation returns a map ordered by key). Lookups are binary searches;
 * updates copy the array, which keeps maps immutable values.
 */
import { compareValues } from './compare.js';
import { compareText } from './text.js';
import type { GenMapValue, TextMapValue, Value } from './Value.js';

type Entries<K> = readonly (readonly [K, Value])[];

/** Index of `key`, or -(insertion point) - 1 when absent. */
function search<K>(entries: Entries<K>, key: K, compare: (a: K, b: K) => number): number {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(entries[mid]![0], key);
    if (c < 0) lo = mid + 1;
    else if (c > 0) hi = mid - 1;
    else return mid;
  }
  return -lo - 1;
}

function insert<K>(entries: Entries<K>, key: K, value: Value, compare: (a: K, b: K) => number): Entries<K> {
  const i = search(entries, key, compare);
  const copy = entries.slice();
  if (i >= 0) copy[i] = [key, value];
  else copy.splice(-i - 1, 0, [key, value]);
  return copy;
}

function remove<K>(entries: Entries<K>, key: K, compare: (a: K, b: K) => number): Entries<K> {
  const i = search(entries, key, compare);
  if (i < 0) return entries;
  const copy = entries.slice();
  copy.splice(i, 1);
  return copy;
}

export const EMPTY_TEXT_MAP: TextMapValue = { kind: 'textMap', entries: [] };
export const EMPTY_GEN_MAP: GenMapValue = { kind: 'genMap', entries: [] };

export const textMapInsert = (map: TextMapValue, key: string, value: Value): TextMapValue =>
  ({ kind: 'textMap', entries: insert(map.entries, key, value, compareText) });

export function textMapLookup(map: TextMapValue, key: string): Value | undefined {
  const i = search(map.entries, key, compareText);
  return i >= 0 ? map.entries[i]![1] : undefined;
}

export function textMapDelete(map: TextMapValue, key: string): TextMapValue {
  const entries = remove(map.entries, key, compareText);
  return entries === map.entries ? map : { kind: 'textMap', entries };
}

/** GenMap keys must be comparable: comparing the key with itself throws for functions. */
function checkKey(key: Value): void {
  compareValues(key, key);
}

export function genMapInsert(map: GenMapValue, key: Value, value: Value): GenMapValue {
  checkKey(key);
  return { kind: 'genMap', entries: insert(map.entries, key, value, compareValues) };
}

export function genMapLookup(map: GenMapValue, key: Value): Value | undefined {
  checkKey(key);
  const i = search(map.entries, key, compareValues);
  return i >= 0 ? map.entries[i]![1] : undefined;
}

export function genMapDelete(map: GenMapValue, key: Value): GenMapValue {
  checkKey(key);
  const entries = remove(map.entries, key, compareValues);
  return entries === map.entries ? map : { kind: 'genMap', entries };
}

/** A TextMap from entries in any order (later keys win), as the JSON API and the engine build them. */
export function textMapOf(entries: Iterable<readonly [string, Value]>): TextMapValue {
  const byKey = new Map<string, Value>(entries);
  return { kind: 'textMap', entries: [...byKey].sort((a, b) => compareText(a[0], b[0])) };
}
