/**
 * Depth of types and kinds, computed without recursion and once per node: interning makes them
 * DAGs (a type may name an earlier one, LF 2.dev kinds too), so a 100,000-deep type costs no more
 * than its entries, and the checker's recursive functions run only on types under the bound.
 */
import type { Kind, Type } from '../ast/Type.js';

const typeDepths = new WeakMap<Type, number>();
const kindDepths = new WeakMap<Kind, number>();

function typeChildren(t: Type, out: Type[]): void {
  switch (t.kind) {
    case 'var': case 'con': case 'syn': case 'builtin': out.push(...t.args); return;
    case 'forall': out.push(t.body); return;
    case 'struct': for (const f of t.fields) out.push(f.type); return;
    case 'app': out.push(t.lhs, t.rhs); return;
    case 'nat': return;
  }
}

function kindChildren(k: Kind, out: Kind[]): void {
  if (k.kind === 'arrow') out.push(...k.params, k.result);
}

function depthOf<T extends object>(root: T, memo: WeakMap<T, number>, children: (n: T, out: T[]) => void, limit: number): number {
  const known = memo.get(root);
  if (known !== undefined) return known;
  const stack: T[] = [root];
  const expanded = new Set<T>();
  const kids: T[] = [];
  while (stack.length > 0) {
    const n = stack[stack.length - 1]!;
    if (memo.has(n)) { stack.pop(); continue; }
    kids.length = 0;
    children(n, kids);
    if (!expanded.has(n)) {
      expanded.add(n);
      for (const c of kids) if (!memo.has(c)) stack.push(c);
      continue;
    }
    let depth = 0;
    for (const c of kids) depth = Math.max(depth, memo.get(c) ?? limit + 1);
    memo.set(n, depth + 1);
    stack.pop();
  }
  return memo.get(root)!;
}

/** Levels of the type's tree (a leaf is 1). */
export function typeDepth(t: Type, limit: number): number {
  return depthOf(t, typeDepths, typeChildren, limit);
}

export function kindDepth(k: Kind, limit: number): number {
  return depthOf(k, kindDepths, kindChildren, limit);
}
