import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';

/**
 * A vendor runs the suite against the same participant again and again (every CI build). The
 * suite must pass every time and leave the target no bigger than its small fixtures: the stall
 * check's 10,000 contracts are archived after it, and any-party reads, which on a busy participant
 * pass http-list-max-elements-limit, are judged through the WebSocket the 413 points to; reads
 * whose size is not the point ask for one element (`limit`).
 */
const CHECKS = 'ledger.filters.active-contracts,ledger.streams.large-read-does-not-stall';
let server: ReferenceServer;

beforeAll(async () => {
  // A list limit of 20: the default world alone already passes it for any-party reads.
  server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, listMaxElements: 20 });
}, 60_000);
afterAll(() => server?.close());

async function once(seed: number, only: string[] = ['--only', CHECKS]): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-repeat-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const code = await run(['--target', server.url, '--profile', 'reference', ...only, '--report-dir', dir, '--seed', String(seed), '--quiet']);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
  } finally {
    log.mockRestore();
  }
}

/** Active contracts for any party, counted over the WebSocket (HTTP answers 413 past the limit). */
async function activeContractCount(): Promise<number> {
  const end = ((await (await fetch(`${server.url}/v2/state/ledger-end`)).json()) as { offset: number }).offset;
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v2/state/active-contracts`, ['daml.ws.auth']);
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ activeAtOffset: end, eventFormat: { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } })));
    ws.on('message', () => void count++);
    ws.on('close', () => resolve());
    ws.on('error', reject);
  });
  return count;
}

describe('repeated runs against one target', () => {
  it('pass each time (any-party reads past the list limit go through the WebSocket) and archive the large read set', async () => {
    const before = await activeContractCount();
    expect(before).toBeGreaterThan(20);
    for (const seed of [1, 2]) {
      const { code, report } = await once(seed);
      expect(report.checks.map((c) => `${c.id}: ${c.status}${c.message ? ` ${c.message}` : ''}`).filter((c) => !c.includes(': pass'))).toEqual([]);
      expect(code).toBe(0);
    }
    // Two runs added only the filter check's few contracts (three per run), not 2 x 10,000.
    expect((await activeContractCount()) - before).toBeLessThanOrEqual(10);
  }, 120_000);

  it('the whole suite passes, with the oracle, twice in a row against a participant whose lists pass http-list-max-elements-limit (reads past it answer 413, as documented)', async () => {
    // The target keeps every earlier run's parties, contracts and updates; the oracle's reference
    // ledger starts fresh each run with the default list limit: neither may make a difference.
    for (const seed of [3, 4]) {
      const { code, report } = await once(seed, ['--oracle', 'reference']);
      expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(code).toBe(0);
      expect(report.oracle?.compared).toBeGreaterThan(500);
    }
  }, 600_000);
});
