/**
 * The bounds a value leaving the engine must keep: Daml's value nesting limit (Value.MAXIMUM_NESTING,
 * 100: records, variants, lists, optionals and maps each nest one level) and a size, in bytes of
 * its serialized form (approximately: a text counts its length, a number its digits). Walked
 * iteratively, so a value nested a million deep is measured, never a stack overflow.
 */
import type { ListValue, Value } from './Value.js';

/** Daml-LF's Value.MAXIMUM_NESTING. */
export const MAXIMUM_NESTING = 100;

export type BoundsProblem =
  | { readonly kind: 'nesting'; readonly limit: number }
  | { readonly kind: 'size'; readonly bytes: number; readonly limit: number };

/**
 * The stacks every measurement walks with, kept between calls: each command measures its result
 * and its nodes' values, and most are a record of a few scalars. Measuring is synchronous and
 * calls nothing back until it is done, so one pair serves every call.
 */
const values: Value[] = [];
const depths: number[] = [];

/**
 * Measures `v`: undefined when it nests at most `maxNesting` deep and, added to `usedBytes`, stays
 * within `maxBytes`; else the first bound it breaks. `onBytes` receives its size when it fits.
 */
export function valueBoundsProblem(v: Value, maxNesting: number, maxBytes: number, usedBytes = 0, onBytes?: (bytes: number) => void): BoundsProblem | undefined {
  const problem = measure(v, maxNesting, maxBytes, usedBytes);
  if (typeof problem !== 'number') {
    // A bound broke mid-walk: nothing of the value stays reachable from the stacks. A walk that
    // ends pops them empty, and keeps their room (emptied by `length = 0`, each would regrow).
    values.length = 0;
    depths.length = 0;
    return problem;
  }
  onBytes?.(problem - usedBytes);
  return undefined;
}

/** The bytes used once `v` is counted in, or the bound it breaks (two parallel stacks, no object per value). */
function measure(v: Value, maxNesting: number, maxBytes: number, usedBytes: number): number | BoundsProblem {
  let bytes = usedBytes;
  values.push(v);
  depths.push(0);
  while (values.length > 0) {
    const x = values.pop()!;
    const depth = depths.pop()!;
    // Children nest one level deeper; `any` wrappers at the same level.
    const child = depth + 1;
    switch (x.kind) {
      case 'text': case 'party': case 'contractId': bytes += 2 + x.value.length; break;
      case 'numeric': case 'bigNumeric': bytes += 4 + digits(x.unscaled); break;
      case 'int64': case 'timestamp': bytes += 10; break;
      case 'record': case 'struct':
        bytes += 2;
        if (x.fields.length > 0 && child > maxNesting) return { kind: 'nesting', limit: maxNesting };
        for (const f of x.fields) { values.push(f); depths.push(child); }
        break;
      case 'variant':
        bytes += 2 + x.constructor.length;
        if (child > maxNesting) return { kind: 'nesting', limit: maxNesting };
        values.push(x.value); depths.push(child);
        break;
      case 'enum': bytes += 2 + x.constructor.length; break;
      case 'optional':
        bytes += 2;
        if (x.value !== undefined) {
          if (child > maxNesting) return { kind: 'nesting', limit: maxNesting };
          values.push(x.value); depths.push(child);
        }
        break;
      case 'cons': case 'nil':
        bytes += 2;
        if (x.kind === 'cons' && child > maxNesting) return { kind: 'nesting', limit: maxNesting };
        for (let cell: ListValue = x; cell.kind === 'cons'; cell = cell.tail) { values.push(cell.head); depths.push(child); }
        break;
      case 'textMap':
        bytes += 2;
        if (x.entries.length > 0 && child > maxNesting) return { kind: 'nesting', limit: maxNesting };
        for (const [k, e] of x.entries) {
          bytes += 2 + k.length;
          values.push(e); depths.push(child);
        }
        break;
      case 'genMap':
        bytes += 2;
        if (x.entries.length > 0 && child > maxNesting) return { kind: 'nesting', limit: maxNesting };
        for (const [k, e] of x.entries) { values.push(k, e); depths.push(child, child); }
        break;
      case 'any': case 'anyException':
        if (depth > maxNesting) return { kind: 'nesting', limit: maxNesting };
        values.push(x.value); depths.push(depth);
        break;
      default: bytes += 2;
    }
    if (bytes > maxBytes) return { kind: 'size', bytes, limit: maxBytes };
  }
  return bytes;
}

const SAFE = 999_999_999_999_999n;

/** The length of `n` in decimal, sign included (`n.toString().length`, without the string for most numbers). */
function digits(n: bigint): number {
  if (n < -SAFE || n > SAFE) return n.toString().length;
  let x = Number(n);
  let d = 1;
  if (x < 0) { d++; x = -x; }
  while (x >= 10) { x = Math.floor(x / 10); d++; }
  return d;
}
