/**
 * Types of builtin functions for the typing rules (daml-lf-2.rst "Built-in functions"). Type
 * parameters are UNKNOWN (no `forall` instantiation yet: a `tyApp` of a builtin keeps this type),
 * and builtins whose signature depends on a Numeric scale witness or that are absent here are
 * UNKNOWN as a whole: they may miss an ill-typed use, never refuse a well-typed one.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import { b, BOOL, DATE, fn, INT64, list, optional, PARTY, TEXT, TIMESTAMP, type Ty, UNKNOWN, contractId } from './types.js';

const f = (...ts: Ty[]): Ty => {
  let r = ts[ts.length - 1]!;
  for (let i = ts.length - 2; i >= 0; i--) r = fn(ts[i]!, r);
  return r;
};
const NUM = b('NUMERIC', [UNKNOWN]);
const BIGNUM = b('BIGNUMERIC');

export const BUILTIN_TYPES: Partial<Record<BuiltinName, Ty>> = {
  TRACE: f(TEXT, UNKNOWN, UNKNOWN),
  ERROR: f(TEXT, UNKNOWN),
  EQUAL: f(UNKNOWN, UNKNOWN, BOOL), LESS_EQ: f(UNKNOWN, UNKNOWN, BOOL), LESS: f(UNKNOWN, UNKNOWN, BOOL),
  GREATER_EQ: f(UNKNOWN, UNKNOWN, BOOL), GREATER: f(UNKNOWN, UNKNOWN, BOOL),
  ADD_INT64: f(INT64, INT64, INT64), SUB_INT64: f(INT64, INT64, INT64), MUL_INT64: f(INT64, INT64, INT64),
  DIV_INT64: f(INT64, INT64, INT64), MOD_INT64: f(INT64, INT64, INT64), EXP_INT64: f(INT64, INT64, INT64),
  ADD_NUMERIC: f(NUM, NUM, NUM), SUB_NUMERIC: f(NUM, NUM, NUM),
  NUMERIC_TO_INT64: f(NUM, INT64), NUMERIC_TO_TEXT: f(NUM, TEXT),
  INT64_TO_TEXT: f(INT64, TEXT), TIMESTAMP_TO_TEXT: f(TIMESTAMP, TEXT), DATE_TO_TEXT: f(DATE, TEXT),
  PARTY_TO_TEXT: f(PARTY, TEXT), TEXT_TO_PARTY: f(TEXT, optional(PARTY)), TEXT_TO_INT64: f(TEXT, optional(INT64)),
  CONTRACT_ID_TO_TEXT: f(contractId(UNKNOWN), optional(TEXT)),
  SHA256_TEXT: f(TEXT, TEXT), EXPLODE_TEXT: f(TEXT, list(TEXT)), APPEND_TEXT: f(TEXT, TEXT, TEXT),
  IMPLODE_TEXT: f(list(TEXT), TEXT), CODE_POINTS_TO_TEXT: f(list(INT64), TEXT), TEXT_TO_CODE_POINTS: f(TEXT, list(INT64)),
  DATE_TO_UNIX_DAYS: f(DATE, INT64), UNIX_DAYS_TO_DATE: f(INT64, DATE),
  TIMESTAMP_TO_UNIX_MICROSECONDS: f(TIMESTAMP, INT64),
  // The spec's table says `→ Date`, a typo: Daml's type checker and every package use Timestamp.
  UNIX_MICROSECONDS_TO_TIMESTAMP: f(INT64, TIMESTAMP),
  COERCE_CONTRACT_ID: f(contractId(UNKNOWN), contractId(UNKNOWN)),
  FOLDL: f(f(UNKNOWN, UNKNOWN, UNKNOWN), UNKNOWN, list(UNKNOWN), UNKNOWN),
  FOLDR: f(f(UNKNOWN, UNKNOWN, UNKNOWN), UNKNOWN, list(UNKNOWN), UNKNOWN),
  EQUAL_LIST: f(f(UNKNOWN, UNKNOWN, BOOL), list(UNKNOWN), list(UNKNOWN), BOOL),
  TEXTMAP_SIZE: f(b('TEXTMAP', [UNKNOWN]), INT64), GENMAP_SIZE: f(b('GENMAP', [UNKNOWN, UNKNOWN]), INT64),
  ANY_EXCEPTION_MESSAGE: f(b('ANY_EXCEPTION'), TEXT),
  KECCAK256_TEXT: f(TEXT, TEXT), HEX_TO_TEXT: f(TEXT, TEXT), TEXT_TO_HEX: f(TEXT, TEXT),
  SECP256K1_BOOL: f(TEXT, TEXT, TEXT, BOOL),
  SCALE_BIGNUMERIC: f(BIGNUM, INT64), PRECISION_BIGNUMERIC: f(BIGNUM, INT64),
  ADD_BIGNUMERIC: f(BIGNUM, BIGNUM, BIGNUM), SUB_BIGNUMERIC: f(BIGNUM, BIGNUM, BIGNUM), MUL_BIGNUMERIC: f(BIGNUM, BIGNUM, BIGNUM),
  BIGNUMERIC_TO_TEXT: f(BIGNUM, TEXT),
};
