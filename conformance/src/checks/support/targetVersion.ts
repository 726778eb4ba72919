import { jsonOf } from '../../target/exchange.js';
import { CheckNotOnRelease } from '../outcomes.js';
import type { CheckContext } from '../types.js';

/** `3.5.4-SNAPSHOT` -> [3, 5, 4]; undefined when the version says nothing comparable. */
export function releaseOf(version: unknown): readonly [number, number, number] | undefined {
  const m = typeof version === 'string' ? /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

const before = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/**
 * Skips, saying why, when the target reports (GET /v2/version) a Canton release older than the one
 * that added `what`: a 3.5.4 participant is not failed for lacking what 3.5.7 added, and the gate
 * does not count the skip (`CheckNotOnRelease`). A target that reports nothing comparable is
 * judged as the newest.
 */
export async function needsCanton(ctx: CheckContext, since: string, what: string): Promise<void> {
  const body = jsonOf(await ctx.http.request('ledger', { method: 'GET', path: '/v2/version' }));
  const reported = body.ok && typeof body.value === 'object' && body.value !== null ? (body.value as { version?: unknown }).version : undefined;
  const target = releaseOf(reported);
  const required = releaseOf(since);
  if (target && required && before(target, required)) throw new CheckNotOnRelease(`the target reports Canton ${String(reported)}; ${what} came with Canton ${since}`);
}
