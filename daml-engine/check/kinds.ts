/** Kinds in curried form (`k1 → k2 → *`), which is how kinds apply and compare (daml-lf-2.rst "Kinds"). */
import type { Kind } from '../ast/Type.js';

export type K = '*' | 'nat' | { readonly from: K; readonly to: K };

export const STAR: K = '*';

/** Call only on kinds whose depth was bounded (see measure.ts). */
export function curried(k: Kind): K {
  if (k.kind === 'star') return '*';
  if (k.kind === 'nat') return 'nat';
  let out = curried(k.result);
  for (let i = k.params.length - 1; i >= 0; i--) out = { from: curried(k.params[i]!), to: out };
  return out;
}

/** Iterative along `→` chains (a data type may have many parameters); recursive on parameter kinds only, whose size kind() bounded. */
export function kindsEqual(a: K, b: K): boolean {
  let x = a;
  let y = b;
  for (;;) {
    if (typeof x === 'string' || typeof y === 'string') return x === y;
    if (!kindsEqual(x.from, y.from)) return false;
    x = x.to;
    y = y.to;
  }
}

/** At most `max` arrows are printed. */
export function showKind(k: K, max = 20): string {
  const parts: string[] = [];
  let cur = k;
  while (typeof cur !== 'string') {
    if (parts.length === max) { parts.push('…'); return parts.join(' → '); }
    parts.push(typeof cur.from === 'string' ? cur.from : `(${showKind(cur.from, max)})`);
    cur = cur.to;
  }
  parts.push(cur);
  return parts.join(' → ');
}

/** `k1 → … → kn → *` */
export function arrowToStar(params: readonly K[]): K {
  let out: K = '*';
  for (let i = params.length - 1; i >= 0; i--) out = { from: params[i]!, to: out };
  return out;
}

/**
 * A kind as a short key (`*`, `n`, `(*>*)`, curried), so `∀` binders and type arguments compare
 * by string. Recursive on the kind's size, which callers bounded.
 */
export function keyOfKind(k: K): string {
  return typeof k === 'string' ? (k === 'nat' ? 'n' : '*') : `(${keyOfKind(k.from)}>${keyOfKind(k.to)})`;
}
