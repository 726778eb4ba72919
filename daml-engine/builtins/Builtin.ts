/**
 * The contract between the evaluator and the builtin functions (daml-lf-2.rst "Built-in functions").
 *
 * Types are erased at run time: builtins whose result scale is not fixed by their inputs take a
 * scale witness (a `Numeric α` argument) as the spec says, so a builtin sees only values.
 *
 * First-order builtins are plain functions over fully applied arguments and live in `BUILTINS`.
 * The few that call back into Daml code (FOLDL, FOLDR, EQUAL_LIST, ANY_EXCEPTION_MESSAGE) or touch
 * the evaluator's state (TRACE) are the evaluator's own and are listed in `EVALUATOR_BUILTINS`.
 */
import type { QualifiedName } from '../ast/Type.js';
import type { FailureCategory, Value } from '../value/Value.js';

/** Builtin function names as in daml_lf2.proto's `BuiltinFunction`. */
export type BuiltinName =
  | 'TRACE' | 'ERROR'
  | 'EQUAL' | 'LESS_EQ' | 'LESS' | 'GREATER_EQ' | 'GREATER'
  | 'ADD_INT64' | 'SUB_INT64' | 'MUL_INT64' | 'DIV_INT64' | 'MOD_INT64' | 'EXP_INT64'
  | 'ADD_NUMERIC' | 'SUB_NUMERIC' | 'MUL_NUMERIC' | 'DIV_NUMERIC' | 'ROUND_NUMERIC' | 'CAST_NUMERIC'
  | 'SHIFT_NUMERIC' | 'INT64_TO_NUMERIC' | 'NUMERIC_TO_INT64'
  | 'INT64_TO_TEXT' | 'NUMERIC_TO_TEXT' | 'TIMESTAMP_TO_TEXT' | 'DATE_TO_TEXT' | 'PARTY_TO_TEXT'
  | 'TEXT_TO_PARTY' | 'TEXT_TO_INT64' | 'TEXT_TO_NUMERIC' | 'CONTRACT_ID_TO_TEXT' | 'SHA256_TEXT'
  | 'EXPLODE_TEXT' | 'APPEND_TEXT' | 'IMPLODE_TEXT' | 'CODE_POINTS_TO_TEXT' | 'TEXT_TO_CODE_POINTS'
  | 'DATE_TO_UNIX_DAYS' | 'UNIX_DAYS_TO_DATE' | 'TIMESTAMP_TO_UNIX_MICROSECONDS'
  | 'UNIX_MICROSECONDS_TO_TIMESTAMP' | 'COERCE_CONTRACT_ID'
  | 'FOLDL' | 'FOLDR' | 'EQUAL_LIST'
  | 'GENMAP_EMPTY' | 'GENMAP_INSERT' | 'GENMAP_LOOKUP' | 'GENMAP_DELETE' | 'GENMAP_KEYS'
  | 'GENMAP_VALUES' | 'GENMAP_SIZE'
  | 'TEXTMAP_EMPTY' | 'TEXTMAP_INSERT' | 'TEXTMAP_LOOKUP' | 'TEXTMAP_DELETE' | 'TEXTMAP_TO_LIST'
  | 'TEXTMAP_SIZE'
  | 'ANY_EXCEPTION_MESSAGE' | 'FAIL_WITH_STATUS'
  | 'KECCAK256_TEXT' | 'SECP256K1_BOOL' | 'HEX_TO_TEXT' | 'TEXT_TO_HEX' | 'SHA256_HEX'
  | 'SECP256K1_WITH_ECDSA_BOOL' | 'SECP256K1_VALIDATE_KEY'
  | 'SCALE_BIGNUMERIC' | 'PRECISION_BIGNUMERIC' | 'ADD_BIGNUMERIC' | 'SUB_BIGNUMERIC'
  | 'MUL_BIGNUMERIC' | 'DIV_BIGNUMERIC' | 'SHIFT_RIGHT_BIGNUMERIC' | 'BIGNUMERIC_TO_NUMERIC'
  | 'NUMERIC_TO_BIGNUMERIC' | 'BIGNUMERIC_TO_TEXT' | 'TYPE_REP_TYCON_NAME';

/** Why a builtin did not return a value. */
export type BuiltinFailure =
  /**
   * The spec's ArithmeticError: the evaluator throws it as a catchable Daml exception. An
   * intrinsic names the library definition whose body raises it: the running definition then, as
   * it would be had the body run.
   */
  | { readonly kind: 'arithmetic'; readonly message: string; readonly definition?: QualifiedName }
  /** `ERROR`: an unrecoverable user error (not catchable), as Daml's `error`. */
  | { readonly kind: 'error'; readonly message: string }
  /** `FAIL_WITH_STATUS`: an unrecoverable failure with a Canton error status. */
  | {
      readonly kind: 'failWithStatus';
      readonly errorId: string;
      readonly category: FailureCategory;
      readonly message: string;
      readonly meta: readonly (readonly [string, string])[];
    }
  /** An argument of the wrong kind: a bug in the package or the engine, never a user error. */
  | { readonly kind: 'crash'; readonly message: string };

export type BuiltinOutcome =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly failure: BuiltinFailure };

export interface FirstOrderBuiltin {
  /** Number of value arguments, scale witnesses included (types are erased). */
  readonly arity: number;
  apply(args: readonly Value[]): BuiltinOutcome;
  /** The bytes it builds from `args`, when it sizes itself (intrinsics); otherwise `builtinCost` sizes it by name. */
  readonly cost?: (args: readonly Value[]) => number;
}

/** Builtins the evaluator implements itself (they apply Daml functions or trace). */
export const EVALUATOR_BUILTINS: ReadonlySet<BuiltinName> = new Set<BuiltinName>([
  'TRACE', 'FOLDL', 'FOLDR', 'EQUAL_LIST', 'ANY_EXCEPTION_MESSAGE',
]);
