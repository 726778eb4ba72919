/** Numeric 10 arithmetic on canonical strings, exact (BigInt scaled by 10^10). */
const SCALE = 10n ** 10n;

export function toScaled(n: string): bigint {
  const neg = n.startsWith('-');
  const [i = '0', f = ''] = (neg ? n.slice(1) : n).split('.');
  const v = BigInt(i) * SCALE + BigInt((f + '0000000000').slice(0, 10));
  return neg ? -v : v;
}

export function fromScaled(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  return `${neg ? '-' : ''}${a / SCALE}.${(a % SCALE).toString().padStart(10, '0')}`;
}
