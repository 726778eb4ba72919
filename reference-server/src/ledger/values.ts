import { isValidPartyId } from './parties.js';
import { parseFullDate, parseRfc3339 } from './rfc3339.js';
import type { FieldType, RecordType } from './templates/types.js';
import type { DamlRecord, DamlValue } from './wire.js';

/** Why a value does not fit its type, with the path into the value. */
export interface ValueProblem {
  readonly path: string;
  readonly message: string;
}

export type Normalized = { ok: true; value: DamlValue } | { ok: false; problem: ValueProblem };

const INT64 = /^[+-]?\d{1,19}$/;
const NUMERIC = /^([+-]?)(\d+)(?:\.(\d+))?$/;
const CONTRACT_ID = /^[0-9a-f]{2,512}$/;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);
/** Default Numeric scale (Daml `Decimal` = Numeric 10). */
const SCALE = 10;
const MAX_INTEGER_DIGITS = 38 - SCALE;

const problem = (path: string, message: string): Normalized => ({ ok: false, problem: { path, message } });
const good = (value: DamlValue): Normalized => ({ ok: true, value });

/**
 * Any request value as short text for an error message. Safe for hostile JSON such as
 * `{"toString": {}}`, which makes String() and template literals throw.
 */
export function show(v: unknown, max = 80): string {
  let s: string;
  try {
    s = typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v);
  } catch {
    s = typeof v;
  }
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a Daml-LF JSON value against its type and returns it in canonical form: Int64 and
 * Numeric as strings (Numeric with 10 decimals, as a participant prints them), missing optional
 * fields as null, records with their fields in declaration order. Party strings pass through
 * `intern` so a million contracts share one copy of each party id.
 */
export function normalizeValue(type: FieldType, value: unknown, path: string, intern: (party: string) => string): Normalized {
  if (typeof type === 'string') {
    switch (type) {
      case 'Any':
        return value === undefined ? problem(path, 'missing value') : good(value as DamlValue);
      case 'Party':
        if (typeof value !== 'string') return problem(path, 'expected a party id string');
        if (!isValidPartyId(value)) return problem(path, `invalid party id '${truncate(value)}'`);
        return good(intern(value));
      case 'Text':
        return typeof value === 'string' ? good(value) : problem(path, 'expected a text string');
      case 'Int64': {
        const s = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
        if (typeof s !== 'string' || !INT64.test(s)) return problem(path, 'expected an Int64 (a string of digits)');
        const n = BigInt(s);
        if (n > MAX_INT64 || n < MIN_INT64) return problem(path, 'Int64 out of range');
        return good(n.toString());
      }
      case 'Numeric':
        return normalizeNumeric(value, path);
      case 'Bool':
        return typeof value === 'boolean' ? good(value) : problem(path, 'expected a boolean');
      case 'Time':
        return typeof value === 'string' && parseRfc3339(value) !== undefined ? good(value) : problem(path, 'expected an RFC 3339 timestamp (years 0001-9999)');
      case 'Date':
        if (typeof value !== 'string' || parseFullDate(value) === undefined) return problem(path, 'expected a date YYYY-MM-DD (years 0001-9999)');
        return good(value);
      case 'ContractId':
        return typeof value === 'string' && CONTRACT_ID.test(value) ? good(value) : problem(path, 'expected a contract id (hex string)');
      case 'Unit':
        return isPlainObject(value) && Object.keys(value).length === 0 ? good({}) : problem(path, 'expected Unit ({})');
    }
  }
  if ('list' in type) {
    if (!Array.isArray(value)) return problem(path, 'expected a list');
    const out: DamlValue[] = [];
    for (let i = 0; i < value.length; i++) {
      const r = normalizeValue(type.list, value[i], `${path}[${i}]`, intern);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return good(out);
  }
  if ('optional' in type) {
    if (value === null || value === undefined) return good(null);
    return normalizeValue(type.optional, value, path, intern);
  }
  if ('textMap' in type) {
    if (!isPlainObject(value)) return problem(path, 'expected a text map (object)');
    const out: DamlRecord = {};
    for (const [k, v] of Object.entries(value)) {
      const r = normalizeValue(type.textMap, v, `${path}.${k}`, intern);
      if (!r.ok) return r;
      out[k] = r.value;
    }
    return good(out);
  }
  if ('record' in type) return normalizeRecord(type.record, value, path, intern);
  if ('variant' in type) {
    if (!isPlainObject(value) || typeof value.tag !== 'string') return problem(path, 'expected a variant {tag, value}');
    // Own constructors only: a tag such as 'constructor' or '__proto__' is not one.
    const ct = Object.hasOwn(type.variant, value.tag) ? type.variant[value.tag] : undefined;
    if (ct === undefined) return problem(path, `unknown variant constructor '${truncate(value.tag)}'`);
    const r = normalizeValue(ct, value.value, `${path}.value`, intern);
    return r.ok ? good({ tag: value.tag, value: r.value }) : r;
  }
  if (typeof value !== 'string' || !type.enum.includes(value)) return problem(path, `expected one of ${type.enum.join(', ')}`);
  return good(value);
}

export function normalizeRecord(fields: RecordType, value: unknown, path: string, intern: (party: string) => string): Normalized {
  if (!isPlainObject(value)) return problem(path, 'expected a record (JSON object)');
  const out: DamlRecord = {};
  for (const [name, ft] of Object.entries(fields)) {
    const v = Object.hasOwn(value, name) ? value[name] : undefined;
    if (v === undefined && !(typeof ft === 'object' && 'optional' in ft)) {
      return problem(path ? `${path}.${name}` : name, `missing non-optional field '${name}'`);
    }
    const r = normalizeValue(ft, v, path ? `${path}.${name}` : name, intern);
    if (!r.ok) return r;
    out[name] = r.value;
  }
  // Own fields only: `__proto__`, `constructor`, `toString`, ... are unknown fields like any other.
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(fields, name)) return problem(path ? `${path}.${name}` : name, `unexpected field '${truncate(name)}'`);
  }
  return good(out);
}

function normalizeNumeric(value: unknown, path: string): Normalized {
  const s = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof s !== 'string') return problem(path, 'expected a Numeric (a decimal string)');
  const m = NUMERIC.exec(s);
  if (!m) return problem(path, `invalid Numeric '${truncate(s)}'`);
  const sign = m[1] === '-' ? '-' : '';
  const int = (m[2] as string).replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (int.length > MAX_INTEGER_DIGITS) return problem(path, `Numeric '${truncate(s)}' does not fit Numeric 10`);
  if (frac.length > SCALE) return problem(path, `Numeric '${truncate(s)}' has more than ${SCALE} decimal places`);
  const canonical = `${int}.${frac.padEnd(SCALE, '0')}`;
  return good(sign && /[1-9]/.test(canonical) ? `-${canonical}` : canonical);
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** A canonical string of a value, for key indexes. */
export function canonicalJson(value: DamlValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as DamlRecord)[k] as DamlValue)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
