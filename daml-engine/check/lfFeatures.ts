/**
 * What each Daml-LF 2 minor version has (daml_lf2.proto's "Available in versions >= ..." notes):
 * builtins and builtin types newer than a package's version are refused.
 */
import type { BuiltinName } from '../builtins/Builtin.js';
import type { BuiltinTypeName } from '../ast/Type.js';

type Minor = '1' | '2' | '3' | 'dev';

const ORDER: readonly string[] = ['1', '2', '3', 'dev'];

const BUILTIN_SINCE: Partial<Record<BuiltinName, Minor>> = {
  SECP256K1_VALIDATE_KEY: '3',
  SCALE_BIGNUMERIC: 'dev', PRECISION_BIGNUMERIC: 'dev', ADD_BIGNUMERIC: 'dev', SUB_BIGNUMERIC: 'dev',
  MUL_BIGNUMERIC: 'dev', DIV_BIGNUMERIC: 'dev', SHIFT_RIGHT_BIGNUMERIC: 'dev', BIGNUMERIC_TO_NUMERIC: 'dev',
  NUMERIC_TO_BIGNUMERIC: 'dev', BIGNUMERIC_TO_TEXT: 'dev', TYPE_REP_TYCON_NAME: 'dev',
};

const BUILTIN_TYPE_SINCE: Partial<Record<BuiltinTypeName, Minor>> = {
  BIGNUMERIC: 'dev', ROUNDING_MODE: 'dev',
};

/** `lfVersion` as the engine writes it: `2.1`, `2.dev`. */
function atLeast(lfVersion: string, since: Minor): boolean {
  const minor = lfVersion.startsWith('2.') ? lfVersion.slice(2) : lfVersion;
  const have = ORDER.indexOf(minor);
  return have >= 0 && have >= ORDER.indexOf(since);
}

export function hasBuiltin(lfVersion: string, builtin: BuiltinName): boolean {
  const since = BUILTIN_SINCE[builtin];
  return since === undefined || atLeast(lfVersion, since);
}

export function hasBuiltinType(lfVersion: string, builtin: BuiltinTypeName): boolean {
  const since = BUILTIN_TYPE_SINCE[builtin];
  return since === undefined || atLeast(lfVersion, since);
}

/** Orders two LF 2 versions (`2.1` < `2.2` < `2.dev`): negative, zero or positive. */
export function compareLfVersions(a: string, b: string): number {
  const minor = (v: string) => ORDER.indexOf(v.startsWith('2.') ? v.slice(2) : v);
  return minor(a) - minor(b);
}
