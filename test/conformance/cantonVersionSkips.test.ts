import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { cantonLineOf } from '../../conformance/src/runner/cantonLine.js';
import { applyGate } from '../../conformance/src/report/gate.js';
import { releaseOf } from '../../conformance/src/checks/support/targetVersion.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';

/** Checks of what Canton 3.5.x added skip, naming the reported version, on an older participant; they run on 3.5.10. */
const IDS = ['ledger.command-completions.by-party', 'ledger.command-completions.refusals', 'ledger.command-completions.websocket', 'ledger.acs-page-post.walk-equals-list', 'ledger.acs-page.walk-equals-list'];

describe('checks of later 3.5 operations against the line a target reports', () => {
  const servers: ReferenceServer[] = [];
  beforeAll(async () => {
    servers.push(await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, cantonVersion: '3.4', log: silentLogger }));
    servers.push(await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: silentLogger }));
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  const run = (url: string) =>
    runSuite({ baseUrls: { registry: url, ledger: url, scan: url }, target: url, profile: loadProfile('reference'), only: IDS, seed: 1, runs: 2, timeoutMs: 5000, concurrency: 1, progress: 'quiet', toolVersion: 'test' });

  it('skips them on a 3.4 participant, saying why', async () => {
    const { report } = await run(servers[0]!.url);
    for (const id of IDS) {
      const c = report.checks.find((x) => x.id === id);
      expect(c?.status, `${id}: ${c?.message}`).toBe('skip');
      expect(c?.message).toMatch(/the target reports Canton 3\.4\.0; .* came with Canton 3\.5\.\d/);
    }
  }, 60_000);

  it("a participant without them is not failed by the gate for them: they are marked as rules the target's release lacks", async () => {
    // Judged as 3.5 (the flag) while it reports 3.4.0: the 3.5 document has the operations, so the
    // checks run, and the release check inside each stops them (CheckNotOnRelease).
    const { report } = await runSuite({
      baseUrls: { registry: servers[0]!.url, ledger: servers[0]!.url, scan: servers[0]!.url }, target: servers[0]!.url, profile: loadProfile('reference'),
      only: IDS, seed: 1, runs: 2, timeoutMs: 5000, concurrency: 1, progress: 'quiet', toolVersion: 'test', canton: cantonLineOf('3.4.0', '3.5'),
    });
    for (const id of IDS) expect(report.checks.find((x) => x.id === id), id).toMatchObject({ status: 'skip', notOnLine: '3.5' });
    expect(report.summary).toMatchObject({ total: IDS.length, ran: 0, notOnLine: IDS.length });
    const gated = applyGate(report, { minRanPercent: 90, failOnSkip: true });
    expect(gated.failed).toBe(false);
    expect(gated.report.gate).toMatchObject({ ranPercent: 100, skippedMust: [] });
  }, 60_000);

  it('runs and passes them on 3.5.10', async () => {
    const { report } = await run(servers[1]!.url);
    expect(report.checks.filter((c) => IDS.includes(c.id)).map((c) => `${c.id}: ${c.status}`).sort()).toEqual(IDS.map((id) => `${id}: pass`).sort());
  }, 60_000);

  it('reads release numbers from what participants report', () => {
    expect(releaseOf('3.5.4-SNAPSHOT')).toEqual([3, 5, 4]);
    expect(releaseOf('3.4')).toEqual([3, 4, 0]);
    expect(releaseOf('dev')).toBeUndefined();
  });
});
