/**
 * Depth of types (and size of kinds), computed without recursion, types once per node: interning
 * makes them DAGs (a type may name an earlier one, LF 2.dev kinds too), so a 100,000-deep type
 * costs no more than its entries, and the checker's recursive functions run only under the bound.
 */
import type { Kind, Type } from '../ast/Type.js';

/**
 * Writes a type's children to `out` from index 0 and returns how many: `out` is reused, its
 * entries past the count are stale (no `length = 0`, which drops the array's storage each time).
 */
function typeChildren(t: Type, out: Type[]): number {
  switch (t.kind) {
    case 'var': case 'con': case 'syn': case 'builtin': for (let i = 0; i < t.args.length; i++) out[i] = t.args[i]!; return t.args.length;
    case 'forall': out[0] = t.body; return 1;
    case 'struct': for (let i = 0; i < t.fields.length; i++) out[i] = t.fields[i]!.type; return t.fields.length;
    case 'app': out[0] = t.lhs; out[1] = t.rhs; return 2;
    case 'nat': return 0;
  }
}

/**
 * Depths and variable-freeness of the types one check meets, kept as long as the check: one plain
 * map (a type's depth times two, plus one when it holds no type variable), so measuring a node
 * costs one look-up per child and one store; not a process-wide weak map (a package's types are
 * measured by its own check only, and weak maps cost several times more per look-up and in the
 * collector).
 */
export class TypeMeasures {
  readonly #measured = new Map<Type, number>();
  /** A node's children and the walk's stack, reused by every call (`typeDepth` is not re-entered). */
  readonly #kids: Type[] = [];
  readonly #stack: Type[] = [];

  /** Levels of the type's tree (a leaf is 1). */
  typeDepth(root: Type, limit: number): number {
    const measured = this.#measured;
    const known = measured.get(root);
    if (known !== undefined) return known >> 1;
    const stack = this.#stack;
    let sp = 0;
    stack[sp++] = root;
    /** Nodes whose children were pushed: met again with a child unmeasured, they are on a cycle. */
    let expanded: Set<Type> | undefined;
    const kids = this.#kids;
    while (sp > 0) {
      const n = stack[sp - 1]!;
      if (measured.has(n)) { sp--; continue; }
      const count = typeChildren(n, kids);
      let depth = 0;
      let free = n.kind !== 'var';
      let missing = false;
      for (let i = 0; i < count; i++) {
        const m = measured.get(kids[i]!);
        if (m === undefined) { missing = true; break; }
        if (m >> 1 > depth) depth = m >> 1;
        if ((m & 1) === 0) free = false;
      }
      if (missing) {
        if (expanded === undefined || !expanded.has(n)) {
          for (let i = 0; i < count; i++) if (!measured.has(kids[i]!)) stack[sp++] = kids[i]!;
          (expanded ??= new Set()).add(n);
          continue;
        }
        // Only a cycle leaves a child unmeasured: deeper than any limit, and not variable-free.
        depth = 0;
        free = false;
        for (let i = 0; i < count; i++) {
          const m = measured.get(kids[i]!);
          depth = m === undefined ? limit + 1 : Math.max(depth, m >> 1);
        }
      }
      measured.set(n, ((depth + 1) << 1) | (free ? 1 : 0));
      sp--;
    }
    return measured.get(root)! >> 1;
  }

  /** Whether `t` (already measured by `typeDepth`) holds no type variable. */
  isVarFree(t: Type): boolean {
    return ((this.#measured.get(t) ?? 0) & 1) === 1;
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
