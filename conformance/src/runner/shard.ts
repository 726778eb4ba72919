import type { CheckDefinition } from '../checks/types.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

export class ShardError extends Error {
  override readonly name = 'ShardError';
}

/** Parses `K/N` (1 <= K <= N). */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new ShardError(`--shard takes K/N, e.g. 2/4 (got '${text}')`);
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || index < 1 || index > total) throw new ShardError(`--shard ${text}: K must be between 1 and N`);
  return { index, total };
}

/**
 * The checks of one shard. Checks are dealt by operation: every check of an operation, its schema
 * observer included, goes to the same shard, so shards are disjoint, together cover the
 * selection, and each observer judges the responses of its own operation's checks. Operations go
 * largest first to the shard with the fewest checks so far (ties: the lower shard), a stable
 * order whatever the catalogue order.
 */
export function shardChecks(checks: readonly CheckDefinition[], shard: Shard | undefined): CheckDefinition[] {
  if (shard === undefined || shard.total === 1) return [...checks];
  const byOperation = new Map<string, string[]>();
  for (const c of checks) byOperation.set(c.operationId, [...(byOperation.get(c.operationId) ?? []), c.id]);
  const operations = [...byOperation].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b));
  const load = Array.from({ length: shard.total }, () => 0);
  const mine = new Set<string>();
  for (const [, ids] of operations) {
    const k = load.indexOf(Math.min(...load));
    load[k]! += ids.length;
    if (k === shard.index - 1) ids.forEach((id) => mine.add(id));
  }
  return checks.filter((c) => mine.has(c.id));
}
