import type { CheckContext } from '../types.js';

/** How long a check waits for a target to show what it acknowledged: max(10 s, the run's --timeout). */
export const patienceMs = (ctx: CheckContext): number => Math.max(10_000, ctx.timeoutMs);

/**
 * Calls `attempt` every `intervalMs` until it gives a value: a target may show a change a little
 * after acknowledging it (an asynchronous commit, a registry reading the ledger through an index).
 * Once the run's patience is spent `lastTry` is true, and the attempt judges what it sees (it
 * fails, or gives a value) instead of giving undefined.
 */
export async function poll<T>(ctx: CheckContext, intervalMs: number, attempt: (lastTry: boolean) => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + patienceMs(ctx);
  for (;;) {
    const lastTry = Date.now() > deadline;
    const got = await attempt(lastTry);
    if (got !== undefined) return got;
    if (lastTry) return ctx.fail(`nothing to judge after ${patienceMs(ctx) / 1000} s of polling`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
