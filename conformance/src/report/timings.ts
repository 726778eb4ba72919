import type { Exchange } from '../target/exchange.js';
import type { OperationTiming } from './model.js';

const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

/** p50/p95/max response time per operation over every exchange that got a response. */
export function timingsOf(exchanges: readonly Exchange[]): OperationTiming[] {
  const by = new Map<string, { group: Exchange['group']; operationId: string; d: number[] }>();
  for (const e of exchanges) {
    if (!e.response) continue;
    const operationId = e.operationId ?? `${e.request.method} (unmatched path)`;
    const key = `${e.group} ${operationId}`;
    let entry = by.get(key);
    if (!entry) by.set(key, (entry = { group: e.group, operationId, d: [] }));
    entry.d.push(e.durationMs);
  }
  return [...by.values()]
    .map(({ group, operationId, d }) => {
      const s = d.sort((a, b) => a - b);
      return { group, operationId, requests: s.length, p50Ms: r1(pct(s, 50)), p95Ms: r1(pct(s, 95)), maxMs: r1(s.at(-1)!) };
    })
    .sort((a, b) => a.group.localeCompare(b.group) || a.operationId.localeCompare(b.operationId));
}
