/**
 * Numeric arithmetic with the exact semantics of daml-lf-2.rst "Numeric functions": scale 0..37,
 * at most 38 significant digits, banker's rounding (half to even) where the result is rounded.
 *
 * A numeric is an unscaled bigint with its scale. Operations return `undefined` where the spec
 * says the builtin throws an ArithmeticError, so the caller decides how to report it.
 */
import type { NumericValue } from './Value.js';

export const MAX_PRECISION = 38;
/** 10^38: the unscaled value of a numeric must be strictly below it in absolute value. */
const PRECISION_BOUND = 10n ** 38n;

const POWERS: bigint[] = [];
/** 10^n for n >= 0 (cached: the engine divides by powers of ten constantly). */
export function pow10(n: number): bigint {
  if (n < 80) {
    let p = POWERS[n];
    if (p === undefined) POWERS[n] = p = 10n ** BigInt(n);
    return p;
  }
  return 10n ** BigInt(n);
}

export function numeric(scale: number, unscaled: bigint): NumericValue {
  return { kind: 'numeric', scale, unscaled };
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** The value if it has at most 38 digits, else undefined (an overflow). */
function checked(scale: number, unscaled: bigint): NumericValue | undefined {
  return abs(unscaled) < PRECISION_BOUND ? numeric(scale, unscaled) : undefined;
}

/** n / d rounded half to even (d != 0). */
export function divideHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) { n = -n; d = -d; }
  let q = n / d;
  const r = n - q * d;
  if (r === 0n) return q;
  const twice = 2n * abs(r);
  const up = twice > d || (twice === d && (q & 1n) !== 0n);
  if (up) q += n < 0n ? -1n : 1n;
  return q;
}

/** The unscaled value of `x` re-expressed at `scale`, rounding half to even when it shrinks. */
function rescaleHalfEven(unscaled: bigint, from: number, to: number): bigint {
  return to >= from ? unscaled * pow10(to - from) : divideHalfEven(unscaled, pow10(from - to));
}

export function addNumeric(x: NumericValue, y: NumericValue): NumericValue | undefined {
  return checked(x.scale, x.unscaled + alignTo(y, x.scale));
}

export function subNumeric(x: NumericValue, y: NumericValue): NumericValue | undefined {
  return checked(x.scale, x.unscaled - alignTo(y, x.scale));
}

/** Both operands of ADD/SUB have the same type; this only guards against a mis-typed caller. */
function alignTo(y: NumericValue, scale: number): bigint {
  return y.scale === scale ? y.unscaled : rescaleHalfEven(y.unscaled, y.scale, scale);
}

export function mulNumeric(scale: number, x: NumericValue, y: NumericValue): NumericValue | undefined {
  return checked(scale, rescaleHalfEven(x.unscaled * y.unscaled, x.scale + y.scale, scale));
}

export function divNumeric(scale: number, x: NumericValue, y: NumericValue): NumericValue | undefined {
  if (y.unscaled === 0n) return undefined;
  // x / y at `scale`: (ux * 10^-sx) / (uy * 10^-sy) * 10^scale = ux * 10^(scale - sx + sy) / uy
  const shift = scale - x.scale + y.scale;
  const q = shift >= 0
    ? divideHalfEven(x.unscaled * pow10(shift), y.unscaled)
    : divideHalfEven(x.unscaled, y.unscaled * pow10(-shift));
  return checked(scale, q);
}

/**
 * ROUND_NUMERIC: round to the closest multiple of 10^-target (target may be negative), keeping
 * the input's scale. Like Daml, a target outside (scale - 38, scale] is an error.
 */
export function roundNumeric(target: bigint, x: NumericValue): NumericValue | undefined {
  if (!(target <= BigInt(x.scale) && BigInt(x.scale - MAX_PRECISION) < target)) return undefined;
  const drop = x.scale - Number(target);
  const factor = pow10(drop);
  return checked(x.scale, divideHalfEven(x.unscaled, factor) * factor);
}

/** CAST_NUMERIC (and the checks of INT64_TO_NUMERIC): same value at another scale, no precision lost. */
export function castNumeric(scale: number, x: NumericValue): NumericValue | undefined {
  if (scale >= x.scale) return checked(scale, x.unscaled * pow10(scale - x.scale));
  const factor = pow10(x.scale - scale);
  if (x.unscaled % factor !== 0n) return undefined;
  return checked(scale, x.unscaled / factor);
}

/** SHIFT_NUMERIC: multiply by 10^(input scale - output scale): the unscaled value is unchanged. */
export function shiftNumeric(scale: number, x: NumericValue): NumericValue {
  return numeric(scale, x.unscaled);
}

export function int64ToNumeric(scale: number, x: bigint): NumericValue | undefined {
  return checked(scale, x * pow10(scale));
}

/** The integral part (rounded towards zero); undefined when it does not fit an Int64. */
export function numericToInt64(x: NumericValue): bigint | undefined {
  const i = x.unscaled / pow10(x.scale);
  return i >= -(2n ** 63n) && i < 2n ** 63n ? i : undefined;
}

/**
 * NUMERIC_TO_TEXT (and how Daml prints a numeric in messages): the shortest plain form, trailing
 * zeros dropped, and ".0" when nothing is left after the point ("1.5", "100.0", "-0.25", "0.0").
 */
export function numericToText(x: { readonly scale: number; readonly unscaled: bigint }): string {
  const negative = x.unscaled < 0n;
  let digits = abs(x.unscaled).toString();
  let scale = x.scale;
  while (scale > 0 && digits.endsWith('0') && digits.length > 1) { digits = digits.slice(0, -1); scale--; }
  if (digits === '0') return '0.0';
  if (scale <= 0) return `${negative ? '-' : ''}${digits}${'0'.repeat(-scale)}.0`;
  const padded = digits.padStart(scale + 1, '0');
  const text = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  return negative ? `-${text}` : text;
}

/** The scaled form: exactly `scale` digits after the point ("1.5000000000" at scale 10). */
export function numericToScaledText(x: NumericValue): string {
  const negative = x.unscaled < 0n;
  const digits = abs(x.unscaled).toString().padStart(x.scale + 1, '0');
  const int = digits.slice(0, digits.length - x.scale);
  const text = x.scale === 0 ? `${int}.` : `${int}.${digits.slice(digits.length - x.scale)}`;
  return negative ? `-${text}` : text;
}

const TEXT_TO_NUMERIC = /^([+-]?)0*(\d+)(\.(\d*[1-9]|0)0*)?$/;

/**
 * TEXT_TO_NUMERIC: as Daml reads it, leading and trailing zeros are tolerated; None (undefined)
 * unless the number fits the scale without losing digits.
 */
export function textToNumeric(scale: number, text: string): NumericValue | undefined {
  const match = TEXT_TO_NUMERIC.exec(text);
  if (match === null) return undefined;
  const sign = match[1]!;
  const intPart = match[2]!;
  const decimals = match[4] === undefined || match[4] === '0' ? '' : match[4];
  const intDigits = intPart === '0' ? 0 : intPart.length;
  if (intDigits > MAX_PRECISION - scale || decimals.length > scale) return undefined;
  const unscaled = BigInt(intPart + decimals.padEnd(scale, '0'));
  return numeric(scale, sign === '-' ? -unscaled : unscaled);
}

/** Numeric ordering by value (operands normally share a scale). */
export function compareNumeric(x: { readonly scale: number; readonly unscaled: bigint }, y: { readonly scale: number; readonly unscaled: bigint }): number {
  let a = x.unscaled;
  let b = y.unscaled;
  if (x.scale > y.scale) b *= pow10(x.scale - y.scale);
  else if (y.scale > x.scale) a *= pow10(y.scale - x.scale);
  return a < b ? -1 : a > b ? 1 : 0;
}
