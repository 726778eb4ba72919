/**
 * Run-time values of the Daml-LF engine (daml-lf-2.rst "Values"; value.rst for the serializable
 * subset that reaches the ledger).
 *
 * Representation choices, for speed and exactness:
 * - Int64 and Timestamp are `bigint` (64-bit ranges are checked by the builtins, never wrapped).
 * - Numeric is an unscaled `bigint` with its scale (0..37): `{ scale: 10, unscaled: 12345n }` is
 *   0.0000012345. At most 38 significant digits (|unscaled| < 10^38).
 * - Text is a JS string; builtins that count or split text work by Unicode code point.
 * - Date is days since 1970-01-01 (a JS number, within 0001-01-01..9999-12-31).
 * - Lists are immutable cons cells so that `Cons` and case analysis are O(1).
 * - TextMap and GenMap keep their entries sorted by key (code point order for TextMap, the
 *   total order on values for GenMap), so equality, ordering and iteration follow the spec.
 * - Records, variants and enums carry their type constructor; records share the field-name array
 *   of their definition, so a record costs one array of values.
 * - Functions and updates are the evaluator's own: the builtins never look inside them.
 */
import type { QualifiedName, Type } from '../ast/Type.js';

export type Value =
  | UnitValue
  | BoolValue
  | Int64Value
  | NumericValue
  | BigNumericValue
  | TextValue
  | DateValue
  | TimestampValue
  | PartyValue
  | ContractIdValue
  | RecordValue
  | VariantValue
  | EnumValue
  | StructValue
  | ListValue
  | OptionalValue
  | TextMapValue
  | GenMapValue
  | AnyValue
  | TypeRepValue
  | AnyExceptionValue
  | RoundingModeValue
  | FailureCategoryValue
  | FunctionValue
  | UpdateValue;

export interface UnitValue { readonly kind: 'unit' }
export interface BoolValue { readonly kind: 'bool'; readonly value: boolean }
export interface Int64Value { readonly kind: 'int64'; readonly value: bigint }
export interface NumericValue { readonly kind: 'numeric'; readonly scale: number; readonly unscaled: bigint }
export interface BigNumericValue { readonly kind: 'bigNumeric'; readonly scale: number; readonly unscaled: bigint }
export interface TextValue { readonly kind: 'text'; readonly value: string }
/** Days since 1970-01-01. */
export interface DateValue { readonly kind: 'date'; readonly days: number }
/** Microseconds since 1970-01-01T00:00:00Z. */
export interface TimestampValue { readonly kind: 'timestamp'; readonly micros: bigint }
export interface PartyValue { readonly kind: 'party'; readonly value: string }
/** A contract id in its hex form (`00` + discriminator + suffix for V1). */
export interface ContractIdValue { readonly kind: 'contractId'; readonly value: string }

export interface RecordValue {
  readonly kind: 'record';
  readonly tycon: QualifiedName;
  /** The definition's field names, shared by every value of the type. */
  readonly fieldNames: readonly string[];
  readonly fields: readonly Value[];
}
export interface VariantValue {
  readonly kind: 'variant';
  readonly tycon: QualifiedName;
  readonly constructor: string;
  /** Position of the constructor in the definition: the order of variants compares by it. */
  readonly rank: number;
  readonly value: Value;
}
export interface EnumValue {
  readonly kind: 'enum';
  readonly tycon: QualifiedName;
  readonly constructor: string;
  readonly rank: number;
}
/** Structs are compared field by field in the order of their (sorted) field names. */
export interface StructValue {
  readonly kind: 'struct';
  readonly fieldNames: readonly string[];
  readonly fields: readonly Value[];
}

export type ListValue = NilValue | ConsValue;
export interface NilValue { readonly kind: 'nil' }
export interface ConsValue { readonly kind: 'cons'; readonly head: Value; readonly tail: ListValue }

export interface OptionalValue { readonly kind: 'optional'; readonly value: Value | undefined }
export interface TextMapValue { readonly kind: 'textMap'; readonly entries: readonly (readonly [string, Value])[] }
export interface GenMapValue { readonly kind: 'genMap'; readonly entries: readonly (readonly [Value, Value])[] }
export interface AnyValue { readonly kind: 'any'; readonly type: Type; readonly value: Value }
export interface TypeRepValue { readonly kind: 'typeRep'; readonly type: Type }
/** A thrown exception as a value: its type (a record type constructor) and payload. */
export interface AnyExceptionValue { readonly kind: 'anyException'; readonly type: Type; readonly value: Value }
export type RoundingMode = 'UP' | 'DOWN' | 'CEILING' | 'FLOOR' | 'HALF_UP' | 'HALF_DOWN' | 'HALF_EVEN' | 'UNNECESSARY';
export interface RoundingModeValue { readonly kind: 'roundingMode'; readonly mode: RoundingMode }
export type FailureCategory = 'INVALID_INDEPENDENT_OF_SYSTEM_STATE' | 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER';
export interface FailureCategoryValue { readonly kind: 'failureCategory'; readonly category: FailureCategory }

/** A closure, a partial application or a builtin: opaque outside the evaluator. */
export interface FunctionValue { readonly kind: 'function'; readonly fn: object }
/** A suspended update (or scenario/script step): opaque outside the evaluator. */
export interface UpdateValue { readonly kind: 'update'; readonly update: object }

export const UNIT: UnitValue = { kind: 'unit' };
export const TRUE: BoolValue = { kind: 'bool', value: true };
export const FALSE: BoolValue = { kind: 'bool', value: false };
export const NIL: NilValue = { kind: 'nil' };
export const NONE: OptionalValue = { kind: 'optional', value: undefined };

export const bool = (value: boolean): BoolValue => (value ? TRUE : FALSE);
export const int64 = (value: bigint): Int64Value => ({ kind: 'int64', value });
export const text = (value: string): TextValue => ({ kind: 'text', value });
export const some = (value: Value): OptionalValue => ({ kind: 'optional', value });
/** The text of a Text value, '' for any other (native code on well-typed arguments reads them so). */
export const textOf = (v: Value): string => (v.kind === 'text' ? v.value : '');

/** A JS array as a Daml list (front to back). */
export function listOf(items: readonly Value[]): ListValue {
  let list: ListValue = NIL;
  for (let i = items.length - 1; i >= 0; i--) list = { kind: 'cons', head: items[i]!, tail: list };
  return list;
}

/** A Daml list as a JS array (front to back). */
export function listItems(list: ListValue): Value[] {
  const items: Value[] = [];
  for (let cell = list; cell.kind === 'cons'; cell = cell.tail) items.push(cell.head);
  return items;
}
