/**
 * Variable environments with slot-indexed variables (Speedy's idea, daml-lf/speedy): a binder
 * group (a function's parameters, a `let`'s bindings, a case alternative's binders) is one cell of
 * a chain, and the compile stage resolves each variable to a (depth, index) pair, from the
 * `Scope` its node was made under, so a lookup walks `depth` links and reads one slot: no name
 * is compared at run time. A call binds all its parameters in one cell that keeps the argument
 * array itself (before: one cell per parameter).
 *
 * Cells carry their binder names, so callers outside the machine (the update engine, the
 * ledger's views) still build environments by name (`bindEnv`) and the evaluator compiles a
 * root for the layout they give (`scopeOf`).
 */
import type { Value } from '../value/Value.js';

/** Marks a cell over an argument array (in `c`, where an inline cell has its third binding). */
export const ARGS: unique symbol = Symbol('args');

/**
 * One binder group's values, in five fields (a cell is the machine's most frequent allocation:
 * twelve million a splice-amulet-test run, so every field is 8 bytes times that). Inline, slots
 * 0-2 are `a`, `b`, `c`: `let` and case binders (a case on a list, the most frequent match,
 * binds its head and tail in one object), and a call of a closure taking exactly its one to three
 * parameters, all atoms. Over an argument array, `c` is `ARGS`, `a` the array and `b` the offset
 * of slot 0 in it. The machine constructs cells and reads slots inline (`new EnvCell`, the
 * evaluator's `lookup`): a helper's call costs until the optimizing compiler inlines it.
 */
export class EnvCell {
  constructor(
    readonly names: readonly string[],
    readonly a: Value | readonly Value[] | undefined,
    /** Written after construction only by `letBind`, which fills a `let`'s cell binding by binding. */
    public b: Value | number | undefined,
    public c: Value | typeof ARGS | undefined,
    readonly up: Env,
  ) {}
}

/** A variable environment: a chain of binder groups, innermost first, shared by closures. */
export type Env = EnvCell | null;

/** `env` with `name` bound to `value` on top (the port for callers that build environments by name). */
export function bindEnv(name: string, value: Value, env: Env): Env {
  return new EnvCell([name], value, undefined, undefined, env);
}

/**
 * The environment after binding i of the `let` whose bindings are `names` took `value`: its
 * first value makes the let's one cell on `env` (inline up to three bindings, over an array
 * beyond), the others fill their slot of that cell, `env`. The slots after i are read by none
 * of the expressions evaluated before they are filled (their scopes end before them).
 */
export function letBind(names: readonly string[], i: number, value: Value, env: Env): Env {
  if (i === 0) {
    if (names.length <= 3) return new EnvCell(names, value, undefined, undefined, env);
    const vals = new Array<Value>(names.length);
    vals[0] = value;
    return new EnvCell(names, vals, 0, ARGS, env);
  }
  const cell = env!;
  if (cell.c === ARGS) (cell.a as Value[])[i] = value;
  else if (i === 1) cell.b = value;
  else cell.c = value;
  return cell;
}

/** A compile-time scope: the binder groups' names, innermost first, mirroring the run-time `Env`. */
export class Scope {
  constructor(
    readonly names: readonly string[],
    readonly up: Scope | null,
  ) {}
}

/** The compile-time scope of an environment's layout. */
export function scopeOf(env: Env): Scope | null {
  if (env === null) return null;
  // Built outermost first, iteratively: environments from callers are shallow, but never recurse on data.
  const cells: EnvCell[] = [];
  for (let e: Env = env; e !== null; e = e.up) cells.push(e);
  let scope: Scope | null = null;
  for (let i = cells.length - 1; i >= 0; i--) scope = new Scope(cells[i]!.names, scope);
  return scope;
}

/** Whether `env` has exactly the layout of `scope` (same groups, same names). */
export function sameLayout(scope: Scope | null, env: Env): boolean {
  let s = scope;
  let e = env;
  for (; s !== null && e !== null; s = s.up, e = e.up) {
    const a = s.names;
    const b = e.names;
    if (a === b) continue;
    if (a.length !== b.length) return false;
    for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  }
  return s === null && e === null;
}

/**
 * Where `name` is bound in `scope`: `depth` groups up, slot `index` (the last of equal names in a
 * group, as binding them one after another shadowed the earlier); depth -1 when unbound.
 */
export function resolve(scope: Scope | null, name: string): { readonly depth: number; readonly index: number } {
  let depth = 0;
  for (let s = scope; s !== null; s = s.up, depth++) {
    const names = s.names;
    for (let j = names.length - 1; j >= 0; j--) if (names[j] === name) return { depth, index: j };
  }
  return { depth: -1, index: -1 };
}
