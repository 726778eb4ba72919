const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Microseconds since the epoch of an RFC 3339 timestamp, exactly (Daml `Time` has microsecond
 * precision, and `Date.parse` drops everything below the millisecond). Undefined when malformed.
 */
export function timeMicros(t: string): bigint | undefined {
  const m = RFC3339.exec(t);
  if (!m) return undefined;
  const seconds = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(seconds)) return undefined;
  const fraction = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return BigInt(seconds) * 1000n + BigInt(fraction);
}

/** Ledger time (ms, as choice bodies see it) in microseconds. */
export const msToMicros = (ms: number): bigint => BigInt(ms) * 1000n;

/** Compares two timestamps; malformed ones sort first. */
export function compareTimes(a: string, b: string): number {
  const x = timeMicros(a) ?? -1n;
  const y = timeMicros(b) ?? -1n;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** RFC 3339 with microseconds of a microsecond count (the form the ledger prints). */
export function microsToTimestamp(micros: bigint): string {
  const ms = Number(micros / 1000n);
  const iso = new Date(ms).toISOString();
  const frac = (micros % 1_000_000n + 1_000_000n) % 1_000_000n;
  return `${iso.slice(0, 19)}.${frac.toString().padStart(6, '0')}Z`;
}
