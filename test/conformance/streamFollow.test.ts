import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';

let reference: { url: string; close(): Promise<void> };
beforeAll(async () => {
  reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
}, 60_000);
afterAll(() => reference?.close());

describe('the judge follows the update stream of a conformant target', () => {
  it('reads the updates and completions of the run, judges every write, and finds nothing', async () => {
    const { report, exitCode } = await runSuite({
      baseUrls: { registry: reference.url, ledger: reference.url, scan: reference.url },
      target: reference.url,
      profile: loadProfile('reference'),
      only: ['ledger.submit.in-updates', 'ledger.submit.visible-in-acs', 'ledger.async.submit-then-completion', 'ledger.updates.ordered', 'ledger.dedup.duplicate-409', 'ledger.dedup.reuse-after-period'],
      seed: 1,
      runs: 4,
      progress: 'quiet',
      toolVersion: 'test',
    });
    console.log(JSON.stringify(report.judge), report.checks.map((c) => `${c.id} ${c.status} ${c.message ?? ''}`));
    expect(exitCode).toBe(0);
    expect(report.judge?.stream?.writes).toBeGreaterThan(0);
  }, 120_000);
});
