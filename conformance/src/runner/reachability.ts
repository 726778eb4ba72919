import type { Group } from '../checks/types.js';
import { transportErrorOf } from '../target/transportError.js';

/**
 * Can the suite reach each base URL at all? Any HTTP answer counts (even 404 or 500); only a
 * refused connection or an unknown host makes a target unreachable (exit 3). A target that hangs
 * is reachable: its checks end as `error` within their timeouts.
 */
export interface Unreachable {
  readonly url: string;
  readonly reason: string;
}

export async function unreachable(baseUrls: Readonly<Partial<Record<Group, string>>>, timeoutMs: number): Promise<Unreachable | undefined> {
  const urls = [...new Set(Object.values(baseUrls))];
  for (const url of urls) {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, Math.min(timeoutMs, 5000));
    try {
      const res = await fetch(url, { method: 'GET', signal: controller.signal, redirect: 'manual' });
      await res.body?.cancel().catch(() => undefined);
    } catch (e) {
      const t = transportErrorOf(e, timedOut, timeoutMs);
      if (t.kind === 'refused' || t.kind === 'dns') return { url, reason: t.message };
      if (t.kind === 'other' && /invalid url|unsupported protocol|ERR_INVALID_URL|bad port/i.test(t.message)) return { url, reason: t.message };
    } finally {
      clearTimeout(timer);
    }
  }
  return undefined;
}
