/** Daml decimals as the JSON API writes them ("1.0000000000", "-2.5"), compared and added exactly. */
const SCALE = 38;

export function toScaled(s: string): bigint | undefined {
  const m = /^(-)?(\d+)(?:\.(\d*))?$/.exec(s.trim());
  if (!m) return undefined;
  const frac = (m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE);
  const v = BigInt(m[2]! + frac);
  return m[1] ? -v : v;
}

export function sameDecimal(a: string, b: string): boolean {
  const x = toScaled(a);
  return x !== undefined && x === toScaled(b);
}

/** The sum of decimals, written back in the shortest form; undefined when one is not a decimal. */
export function sumDecimals(xs: readonly string[]): string | undefined {
  let total = 0n;
  for (const x of xs) {
    const v = toScaled(x);
    if (v === undefined) return undefined;
    total += v;
  }
  const neg = total < 0n;
  const digits = (neg ? -total : total).toString().padStart(SCALE + 1, '0');
  const int = digits.slice(0, -SCALE);
  const frac = digits.slice(-SCALE).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}
