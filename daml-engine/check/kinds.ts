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

export function kindsEqual(a: K, b: K): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return kindsEqual(a.from, b.from) && kindsEqual(a.to, b.to);
}

export function showKind(k: K): string {
  if (typeof k === 'string') return k;
  const from = typeof k.from === 'string' ? k.from : `(${showKind(k.from)})`;
  return `${from} → ${showKind(k.to)}`;
}

/** `k1 → … → kn → *` */
export function arrowToStar(params: readonly K[]): K {
  let out: K = '*';
  for (let i = params.length - 1; i >= 0; i--) out = { from: params[i]!, to: out };
  return out;
}
