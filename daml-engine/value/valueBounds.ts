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
 * Measures `v`: undefined when it nests at most `maxNesting` deep and, added to `usedBytes`, stays
 * within `maxBytes`; else the first bound it breaks. `onBytes` receives its size when it fits.
 */
export function valueBoundsProblem(v: Value, maxNesting: number, maxBytes: number, usedBytes = 0, onBytes?: (bytes: number) => void): BoundsProblem | undefined {
  let bytes = usedBytes;
  // Two parallel stacks instead of an object per value: every command measures its values.
  const values: Value[] = [v];
  const depths: number[] = [0];
  const nest = (child: Value, depth: number): BoundsProblem | undefined => {
    if (depth > maxNesting) return { kind: 'nesting', limit: maxNesting };
    values.push(child);
    depths.push(depth);
    return undefined;
  };
  while (values.length > 0) {
    const x = values.pop()!;
    const depth = depths.pop()!;
    let problem: BoundsProblem | undefined;
    switch (x.kind) {
      case 'text': case 'party': case 'contractId': bytes += 2 + x.value.length; break;
      case 'numeric': case 'bigNumeric': bytes += 4 + digits(x.unscaled); break;
      case 'int64': case 'timestamp': bytes += 10; break;
      case 'record': case 'struct':
        bytes += 2;
        for (const f of x.fields) if ((problem = nest(f, depth + 1))) return problem;
        break;
      case 'variant':
        bytes += 2 + x.constructor.length;
        problem = nest(x.value, depth + 1);
        break;
      case 'enum': bytes += 2 + x.constructor.length; break;
      case 'optional':
        bytes += 2;
        if (x.value !== undefined) problem = nest(x.value, depth + 1);
        break;
      case 'cons': case 'nil':
        bytes += 2;
        for (let cell: ListValue = x; cell.kind === 'cons'; cell = cell.tail) if ((problem = nest(cell.head, depth + 1))) return problem;
        break;
      case 'textMap':
        bytes += 2;
        for (const [k, e] of x.entries) {
          bytes += 2 + k.length;
          if ((problem = nest(e, depth + 1))) return problem;
        }
        break;
      case 'genMap':
        bytes += 2;
        for (const [k, e] of x.entries) if ((problem = nest(k, depth + 1)) || (problem = nest(e, depth + 1))) return problem;
        break;
      case 'any': case 'anyException':
        problem = nest(x.value, depth);
        break;
      default: bytes += 2;
    }
    if (problem) return problem;
    if (bytes > maxBytes) return { kind: 'size', bytes, limit: maxBytes };
  }
  onBytes?.(bytes - usedBytes);
  return undefined;
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
