/**
 * Sorted party sets without `Array.prototype.sort`: V8's sort allocates its merge state (about a
 * kilobyte) on every call, however short the array, and every create and exercise builds several
 * sets of two or three parties. Order is by UTF-16 code units, as JS's default sort and Java's
 * `String.compareTo` (the Daml engine's `Party` ordering) both order strings.
 */

/** Beyond this many, insertion is slower than sorting. */
const SMALL = 32;

/** `items` sorted, each once. */
export function sortedUnique(items: readonly string[]): string[] {
  if (items.length > SMALL) return [...new Set(items)].sort();
  const out: string[] = [];
  for (const item of items) insert(out, item);
  return out;
}

/** `items` as a sorted set: `items` itself when it is one already (a ledger's recorded parties are), else `sortedUnique`. */
export function sortedSet(items: readonly string[]): readonly string[] {
  for (let i = 1; i < items.length; i++) if (!(items[i - 1]! < items[i]!)) return sortedUnique(items);
  return items;
}

/** Whether two sorted, duplicate-free arrays hold the same parties. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** Adds `item` to the sorted, duplicate-free `set` unless present; true when added. */
export function insert(set: string[], item: string): boolean {
  let i = set.length;
  while (i > 0 && set[i - 1]! > item) i--;
  if (i > 0 && set[i - 1] === item) return false;
  set.push(item);
  for (let j = set.length - 1; j > i; j--) set[j] = set[j - 1]!;
  set[i] = item;
  return true;
}

/** The union of two sorted, duplicate-free arrays, sorted. */
export function union(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) { out.push(x); i++; } else if (y < x) { out.push(y); j++; } else { out.push(x); i++; j++; }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}
