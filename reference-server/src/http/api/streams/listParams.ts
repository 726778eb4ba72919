import { err, ok, type Result } from '../../../ledger/result.js';
import { readCountQuery } from '../readQuery.js';
import type { HttpConfig } from '../config.js';
import type { Problem } from '../types.js';

export interface ListParams {
  readonly limit: number | undefined;
  readonly idleTimeoutMs: number;
}

/** The query parameters every list endpoint takes: `limit` and `stream_idle_timeout_ms`. */
export function readListParams(query: URLSearchParams, config: HttpConfig): Result<ListParams, Problem> {
  const limit = readCountQuery(query, 'limit');
  if (!limit.ok) return err(limit.error);
  const idle = readCountQuery(query, 'stream_idle_timeout_ms');
  if (!idle.ok) return err(idle.error);
  return ok({
    limit: limit.value,
    idleTimeoutMs: Math.min(idle.value ?? config.defaultStreamIdleTimeoutMs, config.maxStreamIdleTimeoutMs),
  });
}
