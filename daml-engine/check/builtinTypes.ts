/**
 * Types of builtin functions for the typing rules (daml-lf-2.rst "Built-in functions"). Type
 * parameters and Numeric scales are UNKNOWN here (`instantiateBuiltin` below types a `tyApp` of
 * the polymorphic ones at its arguments): an imprecision may miss an ill-typed use, never refuse a
 * well-typed one. Every builtin has its heads here (a map where a map goes, a list out): a package that hands
 * a builtin the wrong kind of value is refused at upload, as Daml's checker refuses it, rather than
 * crash the engine when it runs (found by test/ledger/mutatedPackages.property.test.ts).
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import { b, BOOL, DATE, fn, INT64, list, optional, PARTY, TEXT, TIMESTAMP, type Ty, UNKNOWN, contractId } from './types.js';

const f = (...ts: Ty[]): Ty => {
  let r = ts[ts.length - 1]!;
  for (let i = ts.length - 2; i >= 0; i--) r = fn(ts[i]!, r);
  return r;
};
const NUM = b('NUMERIC', [UNKNOWN]);
const num = (scale: Ty): Ty => b('NUMERIC', [scale]);
const BIGNUM = b('BIGNUMERIC');
const GENMAP = b('GENMAP', [UNKNOWN, UNKNOWN]);
const TEXTMAP = b('TEXTMAP', [UNKNOWN]);

export const BUILTIN_TYPES: Readonly<Record<BuiltinName, Ty>> = {
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
  // Scale witnesses first, as daml-lf-2.rst has them (the scales themselves are not tracked).
  MUL_NUMERIC: f(NUM, NUM, NUM, NUM), DIV_NUMERIC: f(NUM, NUM, NUM, NUM),
  CAST_NUMERIC: f(NUM, NUM, NUM), SHIFT_NUMERIC: f(NUM, NUM, NUM), ROUND_NUMERIC: f(INT64, NUM, NUM),
  INT64_TO_NUMERIC: f(NUM, INT64, NUM), TEXT_TO_NUMERIC: f(NUM, TEXT, optional(NUM)),
  NUMERIC_TO_BIGNUMERIC: f(NUM, BIGNUM), BIGNUMERIC_TO_NUMERIC: f(NUM, BIGNUM, NUM),
  // The spec's line for DIV_BIGNUMERIC and Daml's own order of its scale and rounding mode disagree: both left open.
  DIV_BIGNUMERIC: f(UNKNOWN, UNKNOWN, BIGNUM, BIGNUM, BIGNUM), SHIFT_RIGHT_BIGNUMERIC: f(INT64, BIGNUM, BIGNUM),
  GENMAP_EMPTY: GENMAP, GENMAP_INSERT: f(UNKNOWN, UNKNOWN, GENMAP, GENMAP), GENMAP_LOOKUP: f(UNKNOWN, GENMAP, optional(UNKNOWN)),
  GENMAP_DELETE: f(UNKNOWN, GENMAP, GENMAP), GENMAP_KEYS: f(GENMAP, list(UNKNOWN)), GENMAP_VALUES: f(GENMAP, list(UNKNOWN)),
  TEXTMAP_EMPTY: TEXTMAP, TEXTMAP_INSERT: f(TEXT, UNKNOWN, TEXTMAP, TEXTMAP), TEXTMAP_LOOKUP: f(TEXT, TEXTMAP, optional(UNKNOWN)),
  TEXTMAP_DELETE: f(TEXT, TEXTMAP, TEXTMAP), TEXTMAP_TO_LIST: f(TEXTMAP, list(UNKNOWN)),
  FAIL_WITH_STATUS: f(TEXT, b('FAILURE_CATEGORY'), TEXT, b('TEXTMAP', [TEXT]), UNKNOWN),
  SHA256_HEX: f(TEXT, TEXT), SECP256K1_WITH_ECDSA_BOOL: f(TEXT, TEXT, TEXT, BOOL), SECP256K1_VALIDATE_KEY: f(TEXT, BOOL),
  TYPE_REP_TYCON_NAME: f(b('TYPE_REP'), optional(TEXT)),
};

const genMap = (k: Ty, v: Ty): Ty => b('GENMAP', [k, v]);
const textMap = (v: Ty): Ty => b('TEXTMAP', [v]);

/**
 * The polymorphic builtins' types at the type arguments a `tyApp` gives them (daml-lf-2.rst's
 * `∀` signatures), where the table above leaves their parameters UNKNOWN: `LESS @(Numeric 10)`
 * compares two Numerics, not a Numeric and a Party. A type argument the checker cannot convert
 * exactly is UNKNOWN, so this never refuses a well-typed use either.
 */
const SCHEMES: Partial<Record<BuiltinName, {
  readonly arity: number;
  /** The binders' kind, as `kindKey` writes it: `*` but for the scales of the Numeric builtins. */
  readonly binders?: 'n';
  readonly type: (ts: readonly Ty[]) => Ty;
}>> = {
  EQUAL: { arity: 1, type: ([a]) => f(a!, a!, BOOL) }, LESS_EQ: { arity: 1, type: ([a]) => f(a!, a!, BOOL) },
  LESS: { arity: 1, type: ([a]) => f(a!, a!, BOOL) }, GREATER_EQ: { arity: 1, type: ([a]) => f(a!, a!, BOOL) },
  GREATER: { arity: 1, type: ([a]) => f(a!, a!, BOOL) },
  ERROR: { arity: 1, type: ([a]) => f(TEXT, a!) }, TRACE: { arity: 1, type: ([a]) => f(TEXT, a!, a!) },
  COERCE_CONTRACT_ID: { arity: 2, type: ([a, c]) => f(contractId(a!), contractId(c!)) },
  CONTRACT_ID_TO_TEXT: { arity: 1, type: ([a]) => f(contractId(a!), optional(TEXT)) },
  FOLDL: { arity: 2, type: ([a, c]) => f(f(c!, a!, c!), c!, list(a!), c!) },
  FOLDR: { arity: 2, type: ([a, c]) => f(f(a!, c!, c!), c!, list(a!), c!) },
  EQUAL_LIST: { arity: 1, type: ([a]) => f(f(a!, a!, BOOL), list(a!), list(a!), BOOL) },
  GENMAP_EMPTY: { arity: 2, type: ([k, v]) => genMap(k!, v!) },
  GENMAP_INSERT: { arity: 2, type: ([k, v]) => f(k!, v!, genMap(k!, v!), genMap(k!, v!)) },
  GENMAP_LOOKUP: { arity: 2, type: ([k, v]) => f(k!, genMap(k!, v!), optional(v!)) },
  GENMAP_DELETE: { arity: 2, type: ([k, v]) => f(k!, genMap(k!, v!), genMap(k!, v!)) },
  GENMAP_KEYS: { arity: 2, type: ([k, v]) => f(genMap(k!, v!), list(k!)) },
  GENMAP_VALUES: { arity: 2, type: ([k, v]) => f(genMap(k!, v!), list(v!)) },
  GENMAP_SIZE: { arity: 2, type: ([k, v]) => f(genMap(k!, v!), INT64) },
  TEXTMAP_EMPTY: { arity: 1, type: ([v]) => textMap(v!) },
  TEXTMAP_INSERT: { arity: 1, type: ([v]) => f(TEXT, v!, textMap(v!), textMap(v!)) },
  TEXTMAP_LOOKUP: { arity: 1, type: ([v]) => f(TEXT, textMap(v!), optional(v!)) },
  TEXTMAP_DELETE: { arity: 1, type: ([v]) => f(TEXT, textMap(v!), textMap(v!)) },
  TEXTMAP_SIZE: { arity: 1, type: ([v]) => f(textMap(v!), INT64) },
  // Numeric builtins at their scales (`ADD_NUMERIC @10`), scale witnesses first.
  ADD_NUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), num(n!), num(n!)) },
  SUB_NUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), num(n!), num(n!)) },
  MUL_NUMERIC: { arity: 3, binders: 'n', type: ([n1, n2, n]) => f(num(n!), num(n1!), num(n2!), num(n!)) },
  DIV_NUMERIC: { arity: 3, binders: 'n', type: ([n1, n2, n]) => f(num(n!), num(n1!), num(n2!), num(n!)) },
  CAST_NUMERIC: { arity: 2, binders: 'n', type: ([n1, n2]) => f(num(n2!), num(n1!), num(n2!)) },
  SHIFT_NUMERIC: { arity: 2, binders: 'n', type: ([n1, n2]) => f(num(n2!), num(n1!), num(n2!)) },
  ROUND_NUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(INT64, num(n!), num(n!)) },
  NUMERIC_TO_INT64: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), INT64) },
  NUMERIC_TO_TEXT: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), TEXT) },
  INT64_TO_NUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), INT64, num(n!)) },
  TEXT_TO_NUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), TEXT, optional(num(n!))) },
  NUMERIC_TO_BIGNUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), BIGNUM) },
  BIGNUMERIC_TO_NUMERIC: { arity: 1, binders: 'n', type: ([n]) => f(num(n!), BIGNUM, num(n!)) },
};

/** The kinds (as `kindKey` writes them) of a polymorphic builtin's binders, for `count` type arguments; undefined where not known. */
export function builtinParamKinds(name: BuiltinName, count: number): readonly string[] | undefined {
  const scheme = SCHEMES[name];
  if (scheme === undefined || scheme.arity !== count) return undefined;
  return Array.from({ length: count }, () => scheme.binders ?? '*');
}

/** `name`'s type at `types`, or undefined where the table's own type stands (not polymorphic here, or another number of arguments). */
export function instantiateBuiltin(name: BuiltinName, types: readonly Ty[]): Ty | undefined {
  const scheme = SCHEMES[name];
  return scheme !== undefined && scheme.arity === types.length ? scheme.type(types) : undefined;
}
