/**
 * Depth of types (and size of kinds), computed without recursion, types once per node: interning
 * makes them DAGs (a type may name an earlier one, LF 2.dev kinds too), so a 100,000-deep type
 * costs no more than its entries, and the checker's recursive functions run only under the bound.
 */
import type { Kind, Type } from '../ast/Type.js';

function typeChildren(t: Type, out: Type[]): void {
  switch (t.kind) {
    case 'var': case 'con': case 'syn': case 'builtin': for (const a of t.args) out.push(a); return;
    case 'forall': out.push(t.body); return;
    case 'struct': for (const f of t.fields) out.push(f.type); return;
    case 'app': out.push(t.lhs, t.rhs); return;
    case 'nat': return;
  }
}

function depthOf<T extends object>(root: T, memo: Map<T, number>, children: (n: T, out: T[]) => void, limit: number, done?: (n: T, kids: readonly T[]) => void): number {
  const known = memo.get(root);
  if (known !== undefined) return known;
  const stack: T[] = [root];
  let expanded: Set<T> | undefined;
  const kids: T[] = [];
  while (stack.length > 0) {
    const n = stack[stack.length - 1]!;
    if (memo.has(n)) { stack.pop(); continue; }
    kids.length = 0;
    children(n, kids);
    let depth = 0;
    let pending = false;
    const first = expanded === undefined || !expanded.has(n);
    for (const c of kids) {
      const d = memo.get(c);
      if (d !== undefined) depth = Math.max(depth, d);
      else if (first) { stack.push(c); pending = true; } else depth = limit + 1; // only a cycle leaves a child unmeasured
    }
    if (pending) { (expanded ??= new Set()).add(n); continue; }
    memo.set(n, depth + 1);
    done?.(n, kids);
    stack.pop();
  }
  return memo.get(root)!;
}

/**
 * Depths and variable-freeness of the types one check meets, kept as long as the check: plain
 * maps, not process-wide weak ones (a package's types are measured by its own check only, and
 * weak maps cost several times more per look-up and in the collector).
 */
export class TypeMeasures {
  readonly #depths = new Map<Type, number>();
  /** Types without any type variable: their kind does not depend on where they stand. */
  readonly #varFree = new Set<Type>();
  readonly #markVarFree = (n: Type, kids: readonly Type[]): void => {
    if (n.kind === 'var') return;
    for (const c of kids) if (!this.#varFree.has(c)) return;
    this.#varFree.add(n);
  };

  /** Levels of the type's tree (a leaf is 1). */
  typeDepth(t: Type, limit: number): number {
    return depthOf(t, this.#depths, typeChildren, limit, this.#markVarFree);
  }

  /** Whether `t` (already measured by `typeDepth`) holds no type variable. */
  isVarFree(t: Type): boolean {
    return this.#varFree.has(t);
  }
}

/** Nodes of a kind's tree (arrow parameters included), counting at most `limit + 1`. */
export function kindSize(k: Kind, limit: number): number {
  let count = 0;
  const stack: Kind[] = [k];
  while (stack.length > 0 && count <= limit) {
    const n = stack.pop()!;
    count++;
    if (n.kind === 'arrow') {
      for (const p of n.params) stack.push(p);
      stack.push(n.result);
    }
  }
  return count;
}
