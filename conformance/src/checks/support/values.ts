import { isObject } from './expect.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** `10.0` and `10.0000000000` are one Numeric: trailing zeros of the fraction are not significant. */
function canonicalDecimal(s: string): string {
  if (!s.includes('.')) return s;
  return s.replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * Equality of Daml-LF JSON values as clients compare them: records by field name (key order and
 * absent Optional fields aside), Numerics by value. Everything else exactly.
 */
export function sameDamlValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b || (DECIMAL.test(a) && DECIMAL.test(b) && canonicalDecimal(a) === canonicalDecimal(b));
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
