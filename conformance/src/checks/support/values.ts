import { firstDifference, isObject } from './expect.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** `10.0` and `10.0000000000` are one Numeric: trailing zeros of the fraction are not significant. */
function canonicalDecimal(s: string): string {
  if (!s.includes('.')) return s;
  return s.replace(/0+$/, '').replace(/\.$/, '');
}

const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d{1,9})?Z$/;

/** `2099-01-01T00:00:00Z` and `2099-01-01T00:00:00.000000Z` are one Daml Time: trailing zeros of the fraction are not significant. */
function canonicalTimestamp(s: string): string | undefined {
  const m = TIMESTAMP.exec(s);
  if (!m) return undefined;
  const fraction = (m[2] ?? '').replace(/0+$/, '').replace(/\.$/, '');
  return `${m[1]}${fraction}Z`;
}

/** One text of a Daml-LF JSON value as any encoder may write it: Numerics and Times canonical, other texts as they are. */
function canonicalText(s: string): string {
  return DECIMAL.test(s) ? canonicalDecimal(s) : canonicalTimestamp(s) ?? s;
}

/**
 * A Daml-LF JSON value in one canonical form, for values written by different encoders (a Scan's
 * payload, the ledger's createArgument: "a single Daml-LF value can correspond to multiple JSON
 * encodings"): Numerics without trailing zeros, Times without a zero fraction, and a record's None
 * fields left out: Canton 3.5's JSON API drops a record's trailing Nones (transcode's JsonCodec,
 * removeTrailingNonesInRecords), Splice's Scan writes every None as null (ApiCodecCompressed).
 * A list's or a nested Optional's null stays (`[null]`, `[]` are other values).
 */
export function canonicalDamlJson(v: unknown): unknown {
  if (typeof v === 'string') return canonicalText(v);
  if (Array.isArray(v)) return v.map(canonicalDamlJson);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null || x === undefined ? [] : [[k, canonicalDamlJson(x)]])));
  return v;
}

/** Where two Daml-LF JSON values of different encoders differ as values (a JSON pointer), or undefined when they are one value. */
export function damlValueDifference(a: unknown, b: unknown): string | undefined {
  return firstDifference(canonicalDamlJson(a), canonicalDamlJson(b));
}

/**
 * Equality of Daml-LF JSON values as clients compare them: records by field name (key order and
 * absent Optional fields aside), Numerics and Times by value. Everything else exactly.
 */
export function sameDamlValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b || canonicalText(a) === canonicalText(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameDamlValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => {
      const [x, y] = [a[k], b[k]];
      if ((x === undefined || x === null) && (y === undefined || y === null)) return true;
      return sameDamlValue(x, y);
    });
  }
  return a === b;
}
