import { err, ok, type Result } from '../../ledger/result.js';
import type { Problem } from './types.js';

const RANGES = { int32: [-(2n ** 31n), 2n ** 31n - 1n], int64: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/**
 * An integer as the participant's HTTP layer decodes `Int` and `Long` parameters (tapir's codecs,
 * Java's Integer.parseInt / Long.parseLong): an optional sign and decimal digits, within the
 * type's range. `2147483648` is no Int; `+5` and `-1` are.
 */
export function parseJavaInteger(raw: string, type: keyof typeof RANGES): bigint | undefined {
  if (!/^[+-]?\d{1,40}$/.test(raw)) return undefined;
  const v = BigInt(raw);
  const [min, max] = RANGES[type];
  return v < min || v > max ? undefined : v;
}

const undecodable = (name: string): Problem => ({ kind: 'decode', message: `Invalid value for: query parameter ${name}` });

/**
 * A count query parameter of type int64 (`limit`, `stream_idle_timeout_ms`). Absent is
 * undefined; what is not a Long is the participant's 400 text/plain "Invalid value for: query
 * parameter ...". A negative count, which the participant decodes, is refused the same way here.
 */
export function readCountQuery(query: URLSearchParams, name: string): Result<number | undefined, Problem> {
  const raw = query.get(name);
  if (raw === null) return ok(undefined);
  const v = parseJavaInteger(raw, 'int64');
  if (v === undefined || v < 0n) return err(undecodable(name));
  // Any count beyond 2^53 means "no bound" in practice; keep it a safe number.
  return ok(Number(v > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : v));
}

/**
 * An int32 query parameter (`pageSize` of the user and party lists): what is not an Int is the
 * participant's 400 text/plain decode error; a negative value decodes, and the service refuses it.
 */
export function readInt32Query(query: URLSearchParams, name: string): Result<number | undefined, Problem> {
  const raw = query.get(name);
  if (raw === null) return ok(undefined);
  const v = parseJavaInteger(raw, 'int32');
  return v === undefined ? err(undecodable(name)) : ok(Number(v));
}

/** An optional string query parameter; an empty value counts as absent. */
export function readStringQuery(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  return raw === null || raw === '' ? undefined : raw;
}
