import { err, ok, type Result } from '../../ledger/result.js';
import type { Problem } from './types.js';

const INT64_MAX = 2n ** 63n - 1n;

/**
 * A non-negative int64 query parameter (`limit`, `stream_idle_timeout_ms`, `pageSize`). Absent is
 * undefined; anything else that is not a plain decimal integer is the participant's 400 text/plain
 * "Invalid value for: query parameter ...".
 */
export function readCountQuery(query: URLSearchParams, name: string): Result<number | undefined, Problem> {
  const raw = query.get(name);
  if (raw === null) return ok(undefined);
  if (!/^\d{1,19}$/.test(raw) || BigInt(raw) > INT64_MAX) {
    return err({ kind: 'decode', message: `Invalid value for: query parameter ${name}` });
  }
  // Any count beyond 2^53 means "no bound" in practice; keep it a safe number.
  return ok(Math.min(Number(raw), Number.MAX_SAFE_INTEGER));
}

/** An optional string query parameter; an empty value counts as absent. */
export function readStringQuery(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  return raw === null || raw === '' ? undefined : raw;
}
