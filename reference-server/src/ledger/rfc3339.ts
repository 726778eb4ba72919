/**
 * Strict RFC 3339 timestamps (what the JSON Ledger API accepts for `google.protobuf.Timestamp`):
 * `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`, years 0001-9999. `Date.parse` is far more lenient
 * (it accepts `+275760-09-13T00:00:00Z`, dates without time, local times), so every timestamp a
 * client sends goes through here.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z in ms: the range a timestamp may take. */
export const MIN_TIMESTAMP_MS = -62135596800000;
export const MAX_TIMESTAMP_MS = 253402300799999;

/** Milliseconds since the epoch, or undefined when the text is not an RFC 3339 timestamp in range. */
export function parseRfc3339(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] === undefined ? '' : `.${m[7].slice(0, 3)}`}${m[8]!.toUpperCase()}`);
  // Date.parse rolls 2025-02-31 over to March: refuse days the month does not have.
  if (Number.isNaN(ms) || new Date(Date.UTC(Number(m[1]), month - 1, day)).getUTCDate() !== day) return undefined;
  return isTimestampInRange(ms) ? ms : undefined;
}

/** Milliseconds since the epoch of a Daml `Date` (RFC 3339 full-date `YYYY-MM-DD`, years 0001-9999, a day the month has). */
export function parseFullDate(text: unknown): number | undefined {
  return typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseRfc3339(`${text}T00:00:00Z`) : undefined;
}

/** Whether an instant (ms) can be written as an RFC 3339 timestamp. */
export function isTimestampInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS;
}

/** Microseconds since the epoch of an RFC 3339 timestamp, exactly (Daml `Time` has microsecond precision). */
export function microsOfTimestamp(text: string): bigint | undefined {
  const ms = parseRfc3339(text);
  if (ms === undefined) return undefined;
  const fraction = RFC3339.exec(text)?.[7] ?? '';
  return BigInt(ms) * 1000n + BigInt(fraction.padEnd(6, '0').slice(3, 6));
}

/** RFC 3339 with microseconds of a microsecond count; undefined outside years 0001-9999. */
export function timestampOfMicros(micros: bigint): string | undefined {
  const ms = Number((micros - (((micros % 1000n) + 1000n) % 1000n)) / 1000n);
  if (!isTimestampInRange(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  const frac = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${iso.slice(0, 19)}.${frac.toString().padStart(6, '0')}Z`;
}

/** Whether a microsecond count is an instant RFC 3339 can write. */
export const isMicrosInRange = (micros: bigint): boolean => micros >= BigInt(MIN_TIMESTAMP_MS) * 1000n && micros <= BigInt(MAX_TIMESTAMP_MS) * 1000n + 999n;
