/**
 * PLACEHOLDER, replaced at merge by the complete first-order builtin table (same export).
 * Holds only the few builtins the evaluator's own tests use, with the specification's semantics.
 */
import type { BuiltinName, BuiltinOutcome, FirstOrderBuiltin } from './Builtin.js';
import type { Value } from '../value/Value.js';
import { bool, int64, text } from '../value/Value.js';

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;
const ok = (value: Value): BuiltinOutcome => ({ ok: true, value });
const int = (v: Value): bigint => (v.kind === 'int64' ? v.value : 0n);
const checked = (n: bigint, what: string): BuiltinOutcome =>
  n < MIN || n > MAX ? { ok: false, failure: { kind: 'arithmetic', message: `ArithmeticError while evaluating (${what}).` } } : ok(int64(n));

/** Order on the scalar values these tests compare (the full total order replaces it). */
function compare(a: Value, b: Value): number {
  if (a.kind === 'int64' && b.kind === 'int64') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === 'text' && b.kind === 'text') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === 'bool' && b.kind === 'bool') return Number(a.value) - Number(b.value);
  return 0;
}

const table: [BuiltinName, number, (args: readonly Value[]) => BuiltinOutcome][] = [
  ['ADD_INT64', 2, ([a, b]) => checked(int(a!) + int(b!), `ADD_INT64 ${int(a!)} ${int(b!)}`)],
  ['SUB_INT64', 2, ([a, b]) => checked(int(a!) - int(b!), `SUB_INT64 ${int(a!)} ${int(b!)}`)],
  ['MUL_INT64', 2, ([a, b]) => checked(int(a!) * int(b!), `MUL_INT64 ${int(a!)} ${int(b!)}`)],
  ['DIV_INT64', 2, ([a, b]) => (int(b!) === 0n
    ? { ok: false, failure: { kind: 'arithmetic', message: `ArithmeticError while evaluating (DIV_INT64 ${int(a!)} 0).` } }
    : checked(int(a!) / int(b!), `DIV_INT64 ${int(a!)} ${int(b!)}`))],
  ['EQUAL', 2, ([a, b]) => ok(bool(compare(a!, b!) === 0))],
  ['LESS', 2, ([a, b]) => ok(bool(compare(a!, b!) < 0))],
  ['LESS_EQ', 2, ([a, b]) => ok(bool(compare(a!, b!) <= 0))],
  ['GREATER', 2, ([a, b]) => ok(bool(compare(a!, b!) > 0))],
  ['GREATER_EQ', 2, ([a, b]) => ok(bool(compare(a!, b!) >= 0))],
  ['APPEND_TEXT', 2, ([a, b]) => ok(text((a as { value: string }).value + (b as { value: string }).value))],
  ['INT64_TO_TEXT', 1, ([a]) => ok(text(int(a!).toString()))],
  ['ERROR', 1, ([a]) => ({ ok: false, failure: { kind: 'error', message: (a as { value: string }).value } })],
];

export const BUILTINS: ReadonlyMap<BuiltinName, FirstOrderBuiltin> = new Map(
  table.map(([name, arity, apply]) => [name, { arity, apply }]),
);
