import { jsonOf, type Exchange } from '../../target/exchange.js';
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
  if (releasePredates(reported, since)) throw new CheckNotOnRelease(`the target reports Canton ${String(reported)}; ${what} came with Canton ${since}`);
}

/**
 * The version the target reported on the last `GET /v2/version` a check of the run already made
 * (observers make no requests of their own); undefined when none did.
 */
export function reportedInRun(seen: readonly Exchange[]): string | undefined {
  for (let i = seen.length - 1; i >= 0; i--) {
    const e = seen[i]!;
    if (e.group !== 'ledger' || e.request.method !== 'GET' || e.path !== '/v2/version' || e.response?.status !== 200) continue;
    const body = jsonOf(e);
    const version = body.ok && typeof body.value === 'object' && body.value !== null ? (body.value as { version?: unknown }).version : undefined;
    if (typeof version === 'string') return version;
  }
  return undefined;
}

/** Does a target reporting `reported` predate the release `since`? False when either says nothing comparable. */
export function releasePredates(reported: unknown, since: string): boolean {
  const target = releaseOf(reported);
  const required = releaseOf(since);
  return target !== undefined && required !== undefined && before(target, required);
}
