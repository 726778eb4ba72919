import type { DamlRecord, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok } from '../../ledger/index.js';
import { partyIdProblem } from '../partyIdProblem.js';
import { timeMicros } from '../time.js';
import { isContractIdSyntax } from './isContractIdSyntax.js';

/** Upper bound of a Metadata map (keys and values, UTF-8 bytes) the registry accepts. */
export const MAX_METADATA_BYTES = 8192;
const NUMERIC_10 = /^-?\d{1,28}(?:\.\d{1,10})?$/;

export interface FactoryRequest {
  readonly choiceArguments: DamlRecord;
  readonly excludeDebugFields: boolean;
}

const invalid = (what: string) => fail('INVALID_ARGUMENT', `Invalid request body: ${what}`);
const isObject = (v: unknown): v is DamlRecord => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: unknown) => (JSON.stringify(v) ?? 'undefined').slice(0, 80);

/** A GetFactoryRequest: `choiceArguments` (an object, required) and an optional boolean `excludeDebugFields`. */
export function parseFactoryRequest(body: unknown): Result<FactoryRequest, LedgerError> {
  if (!isObject(body)) return invalid('expected a JSON object');
  const { choiceArguments, excludeDebugFields } = body;
  if (!isObject(choiceArguments)) return invalid('choiceArguments must be an object with the arguments of the factory choice');
  if (excludeDebugFields !== undefined && excludeDebugFields !== null && typeof excludeDebugFields !== 'boolean') {
    return invalid(`excludeDebugFields must be a boolean, got ${shown(excludeDebugFields)}`);
  }
  return ok({ choiceArguments, excludeDebugFields: excludeDebugFields === true });
}

/** Field readers that answer 400 with the JSON path of what is wrong. */
export const field = {
  object(v: unknown, path: string): Result<DamlRecord, LedgerError> {
    return isObject(v) ? ok(v) : invalid(`${path} must be an object`);
  },
  party(v: unknown, path: string): Result<string, LedgerError> {
    if (typeof v !== 'string') return invalid(`${path} must be a party id`);
    const problem = partyIdProblem(v);
    return problem === undefined ? ok(v) : invalid(`${path}: ${problem}`);
  },
  text(v: unknown, path: string): Result<string, LedgerError> {
    return typeof v === 'string' ? ok(v) : invalid(`${path} must be a string`);
  },
  /** A Daml Numeric 10 amount, strictly positive. */
  amount(v: unknown, path: string): Result<string, LedgerError> {
    if (typeof v !== 'string' || !NUMERIC_10.test(v)) return invalid(`${path} must be a decimal string with at most 10 fractional digits (Daml Numeric 10), got ${shown(v)}`);
    if (!/[1-9]/.test(v) || v.startsWith('-')) return invalid(`${path} must be positive, got ${v}`);
    return ok(v);
  },
  time(v: unknown, path: string): Result<string, LedgerError> {
    return typeof v === 'string' && timeMicros(v) !== undefined ? ok(v) : invalid(`${path} must be an RFC 3339 timestamp, got ${shown(v)}`);
  },
  contractIds(v: unknown, path: string): Result<string[], LedgerError> {
    if (v === undefined || v === null) return ok([]);
    if (!Array.isArray(v)) return invalid(`${path} must be a list of contract ids`);
    for (const [i, c] of v.entries()) if (typeof c !== 'string' || !isContractIdSyntax(c)) return invalid(`${path}[${i}] is not a contract id`);
    return ok(v as string[]);
  },
  /** A Metadata record `{values: {k: v}}` (absent means empty), at most MAX_METADATA_BYTES. */
  meta(v: unknown, path: string): Result<void, LedgerError> {
    if (v === undefined || v === null) return ok(undefined);
    if (!isObject(v) || (v.values !== undefined && !isObject(v.values))) return invalid(`${path} must be {values: {key: text}}`);
    let size = 0;
    for (const [k, x] of Object.entries(isObject(v.values) ? v.values : {})) {
      if (typeof x !== 'string') return invalid(`${path}.values.${k.slice(0, 40)} must be a string`);
      size += Buffer.byteLength(k) + Buffer.byteLength(x);
    }
    return size > MAX_METADATA_BYTES ? invalid(`${path} is ${size} bytes; metadata is limited to ${MAX_METADATA_BYTES} bytes of keys and values`) : ok(undefined);
  },
};
