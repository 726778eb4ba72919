/**
 * Text as Daml sees it: a sequence of Unicode code points, ordered by code point (the order of
 * its UTF-8 bytes). JS strings are UTF-16, whose unit order differs from code point order for
 * characters above U+E000 against surrogate pairs, so comparisons remap those units.
 */

/** Code point order of two strings: negative, zero or positive. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return orderUnit(x) - orderUnit(y);
  }
  return a.length - b.length;
}

/** Surrogates (U+D800..U+DFFF) encode code points above U+FFFF: move them past U+E000..U+FFFF. */
function orderUnit(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** The code points of a string (TEXT_TO_CODE_POINTS). */
export function codePoints(text: string): number[] {
  const points: number[] = [];
  for (const ch of text) points.push(ch.codePointAt(0)!);
  return points;
}

/** A valid Unicode scalar value: what CODE_POINTS_TO_TEXT accepts. */
export function isScalarValue(point: bigint): boolean {
  return (point >= 0n && point <= 0xd7ffn) || (point >= 0xe000n && point <= 0x10ffffn);
}
