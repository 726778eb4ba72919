import { microsOfTimestamp } from '../ledger/rfc3339.js';

/**
 * Microseconds since the epoch of an RFC 3339 timestamp, exactly (Daml `Time` has microsecond
 * precision). The ledger's own strict parser, so the apps refuse exactly what the ledger refuses
 * (`2025-02-30`, year 0, `T24:00:00`). Undefined when malformed.
 */
export function timeMicros(t: string): bigint | undefined {
  const known = parsedTimes.get(t);
  if (known !== undefined || parsedTimes.has(t)) return known;
  const micros = microsOfTimestamp(t);
  if (parsedTimes.size >= TIMES_KEPT) parsedTimes.clear();
  if (typeof t === 'string') parsedTimes.set(t, micros);
  return micros;
}

/** Timestamps parsed so far: the apps read the same contract times (rounds, rules, preapprovals) on every request; emptied when full. */
const parsedTimes = new Map<string, bigint | undefined>();
const TIMES_KEPT = 4096;

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
