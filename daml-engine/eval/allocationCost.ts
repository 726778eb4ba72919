/**
 * What evaluation allocates, in bytes, for the per-run allocation budget (`EvaluatorOptions.
 * allocationBudget`). The figures are V8's approximate sizes: they need not be exact, only
 * proportional to what is built, so that a run that would build gigabytes stops after building
 * its budget, and before the builtin that would exceed it runs.
 *
 * Builtins are charged from their arguments *before* they run (EXPLODE_TEXT of a 64 Mi-character
 * text must not build its list first); the evaluator charges the values it constructs (list
 * cells, records, variants, closures) as it makes them. Environment bindings are not charged:
 * each takes a step, and the step budget bounds them.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import type { IntrinsicName } from './intrinsics.js';
import type { ListValue, Value } from '../value/Value.js';

/** One heap object's header and a few fields: a list cell, a boxed scalar, an environment link. */
export const CELL_BYTES = 32;
/** A pointer-sized slot in an array of fields or arguments. */
export const SLOT_BYTES = 8;
/** A record, struct or variant: its header, plus a slot per field. */
export const recordBytes = (fields: number): number => 24 + SLOT_BYTES * fields;
/** A text of `length` UTF-16 code units (two bytes each, as V8 stores non-Latin-1 strings). */
export const textBytes = (length: number): number => 16 + 2 * length;

const textLength = (v: Value | undefined): number => (v !== undefined && v.kind === 'text' ? v.value.length : 0);
const mapSize = (v: Value | undefined): number => (v !== undefined && (v.kind === 'genMap' || v.kind === 'textMap') ? v.entries.length : 0);
/** Hex digits of a BigNumeric's unscaled value (bigint sizes are not exposed: its text, BigNumerics being rare); a Numeric has at most 38 decimal digits. */
const bigDigits = (v: Value | undefined): number => (v !== undefined && v.kind === 'bigNumeric' ? v.unscaled.toString(16).length : 32);

/** Walks a list's spine (its cells are charged already), summing `f` over its items. */
function sumList(v: Value | undefined, f: (item: Value) => number): { readonly items: number; readonly sum: number } {
  let items = 0;
  let sum = 0;
  if (v === undefined || (v.kind !== 'cons' && v.kind !== 'nil')) return { items, sum };
  for (let cell: ListValue = v; cell.kind === 'cons'; cell = cell.tail) {
    items++;
    sum += f(cell.head);
  }
  return { items, sum };
}

/**
 * The bytes a first-order builtin builds, from its (fully applied) arguments, before it runs.
 * Builtins whose result is bounded by a constant (comparisons, Int64 arithmetic, lookups) cost
 * one cell.
 */
export function builtinCost(name: BuiltinName | IntrinsicName, args: readonly Value[]): number {
  // Most calls are of builtins costing one cell (comparisons, Int64 arithmetic): one set look-up,
  // not the switch's string comparisons one after another.
  if (!SIZED.has(name)) return CELL_BYTES;
  switch (name) {
    case 'APPEND_TEXT':
      return textBytes(textLength(args[0]) + textLength(args[1]));
    case 'EXPLODE_TEXT':
      // A list cell and a one-character text per character.
      return textLength(args[0]) * (CELL_BYTES + textBytes(2));
    case 'TEXT_TO_CODE_POINTS':
      return textLength(args[0]) * (CELL_BYTES + CELL_BYTES);
    case 'IMPLODE_TEXT': {
      const { sum } = sumList(args[0], (t) => textLength(t));
      return textBytes(sum);
    }
    case 'CODE_POINTS_TO_TEXT': {
      const { items } = sumList(args[0], () => 0);
      return textBytes(2 * items);
    }
    case 'TEXT_TO_HEX':
      // Up to three UTF-8 bytes a code unit, two hex digits a byte.
      return textBytes(6 * textLength(args[0]));
    case 'HEX_TO_TEXT': case 'SHA256_TEXT': case 'KECCAK256_TEXT': case 'SHA256_HEX': case 'TEXT_TO_PARTY':
    case 'TEXT_TO_INT64': case 'TEXT_TO_NUMERIC':
      // The work is proportional to the input; the result is at most as large.
      return textBytes(textLength(args[0]));
    case 'GENMAP_INSERT': case 'GENMAP_DELETE':
      // The entries array is copied: a slot pair per entry, and the new entry.
      return recordBytes(2 * (mapSize(args[args.length - 1]) + 1)) + (name === 'GENMAP_INSERT' ? CELL_BYTES : 0);
    case 'TEXTMAP_INSERT': case 'TEXTMAP_DELETE':
      return recordBytes(2 * (mapSize(args[args.length - 1]) + 1)) + (name === 'TEXTMAP_INSERT' ? CELL_BYTES : 0);
    case 'GENMAP_KEYS': case 'GENMAP_VALUES':
      return mapSize(args[0]) * CELL_BYTES;
    case 'TEXTMAP_TO_LIST':
      return mapSize(args[0]) * (CELL_BYTES + recordBytes(2) + textBytes(0));
    case 'ADD_NUMERIC': case 'SUB_NUMERIC': case 'MUL_NUMERIC': case 'DIV_NUMERIC': case 'ROUND_NUMERIC': case 'CAST_NUMERIC':
    case 'SHIFT_NUMERIC': case 'INT64_TO_NUMERIC': case 'NUMERIC_TO_TEXT': case 'INT64_TO_TEXT': case 'NUMERIC_TO_INT64':
      // Numeric and Int64 are bounded (38 digits): a bigint and its text.
      return 2 * CELL_BYTES;
    case 'SCALE_BIGNUMERIC': case 'PRECISION_BIGNUMERIC': case 'ADD_BIGNUMERIC': case 'SUB_BIGNUMERIC': case 'MUL_BIGNUMERIC':
    case 'DIV_BIGNUMERIC': case 'SHIFT_RIGHT_BIGNUMERIC': case 'BIGNUMERIC_TO_NUMERIC': case 'NUMERIC_TO_BIGNUMERIC': case 'BIGNUMERIC_TO_TEXT': {
      // A bigint (and its text) as large as its operands together.
      let digits = 0;
      for (const a of args) digits += bigDigits(a);
      return CELL_BYTES + 4 * digits;
    }
    default:
      return CELL_BYTES;
  }
}

/** The builtins `builtinCost` sizes from their arguments (the others cost one cell). */
const SIZED: ReadonlySet<string> = new Set<BuiltinName>([
  'APPEND_TEXT', 'EXPLODE_TEXT', 'TEXT_TO_CODE_POINTS', 'IMPLODE_TEXT', 'CODE_POINTS_TO_TEXT', 'TEXT_TO_HEX',
  'HEX_TO_TEXT', 'SHA256_TEXT', 'KECCAK256_TEXT', 'SHA256_HEX', 'TEXT_TO_PARTY', 'TEXT_TO_INT64', 'TEXT_TO_NUMERIC',
  'GENMAP_INSERT', 'GENMAP_DELETE', 'TEXTMAP_INSERT', 'TEXTMAP_DELETE', 'GENMAP_KEYS', 'GENMAP_VALUES', 'TEXTMAP_TO_LIST',
  'ADD_NUMERIC', 'SUB_NUMERIC', 'MUL_NUMERIC', 'DIV_NUMERIC', 'ROUND_NUMERIC', 'CAST_NUMERIC',
  'SHIFT_NUMERIC', 'INT64_TO_NUMERIC', 'NUMERIC_TO_TEXT', 'INT64_TO_TEXT', 'NUMERIC_TO_INT64',
  'SCALE_BIGNUMERIC', 'PRECISION_BIGNUMERIC', 'ADD_BIGNUMERIC', 'SUB_BIGNUMERIC', 'MUL_BIGNUMERIC',
  'DIV_BIGNUMERIC', 'SHIFT_RIGHT_BIGNUMERIC', 'BIGNUMERIC_TO_NUMERIC', 'NUMERIC_TO_BIGNUMERIC', 'BIGNUMERIC_TO_TEXT',
]);
