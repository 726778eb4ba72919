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
 * The checks of one shard: the selected checks sorted by id and dealt round-robin, so every shard
 * of the same selection gets a disjoint, stable part and together they cover it. Observers judge
 * what their shard saw, so every shard runs them (`report merge` keeps the worst result).
 */
export function shardChecks(checks: readonly CheckDefinition[], shard: Shard | undefined): CheckDefinition[] {
  if (shard === undefined || shard.total === 1) return [...checks];
  const dealt = new Set(
    checks
      .filter((c) => !c.observer)
      .map((c) => c.id)
      .sort()
      .filter((_, i) => i % shard.total === shard.index - 1),
  );
  return checks.filter((c) => c.observer || dealt.has(c.id));
}
