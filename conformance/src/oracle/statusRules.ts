import type { Exchange } from '../target/exchange.js';

/**
 * Status differences two correct ledgers may show, each with the reason. Declared once here.
 *
 * - 413 on one side, 2xx on the other: size limits (`http-list-max-elements-limit`, the request
 *   body limit) are each participant's configuration; a list past the target's limit is judged by
 *   the checks that go to the WebSocket the 413 points to.
 */
export function legitimateStatusDifference(target: Exchange, reference: Exchange): boolean {
  const t = target.response?.status ?? 0;
  const r = reference.response?.status ?? 0;
  const ok = (s: number) => s >= 200 && s < 300;
  return (t === 413 && ok(r)) || (r === 413 && ok(t));
}
