import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';

/**
 * `--concurrency N` runs checks at once, each replayed on the oracle in lockstep. Two false
 * failures came from it: a user one check had written on the target alone (it left the oracle)
 * was compared inside another check's list of users, and an instrument's supply, moved by the
 * taps and transfers of other checks between a lookup and the list, failed the lookup. The users'
 * and the registry's checks, eight at a time, must pass on any interleaving.
 */
async function concurrently(seed: number): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-concurrent-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const code = await run(['--only', 'ledger.users.*,registry.*,ledger.parties.*', '--concurrency', '8', '--report-dir', dir, '--seed', String(seed), '--quiet']);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
  } finally {
    log.mockRestore();
  }
}

describe('checks run at once (--concurrency 8) against the in-process reference, with the oracle', () => {
  it('pass, on three seeds', async () => {
    for (const seed of [21, 22, 23]) {
      const { code, report } = await concurrently(seed);
      expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message ?? ''}`)).toEqual([]);
      expect(code).toBe(0);
      expect(report.oracle?.compared ?? 0).toBeGreaterThan(0);
    }
  }, 300_000);
});
