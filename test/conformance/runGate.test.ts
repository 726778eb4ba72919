import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { cliInProcess as cli } from './helpers/cliInProcess.js';
import { applyGate, ranLine } from '../../conformance/src/report/gate.js';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `cc-gate-${p}-`));
const readJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

// Against the in-process reference (profile reference, no auth): the version check runs, the
// missing-token check (MUST, needs a secured profile) skips. One of two selected checks ran: 50%.
const HALF = ['--only', 'ledger.version.shape,ledger.auth.missing-token-401', '--oracle', 'none', '--quiet', '--seed', '3', '--runs', '2'];
const ALL_RAN = ['--only', 'ledger.version.shape', '--oracle', 'none', '--quiet', '--seed', '3', '--runs', '2'];

describe('the gate on what ran (--min-ran, --fail-on-skip)', () => {
  it('every summary says how many of the selected checks ran, gate or not', async () => {
    const dir = tmp('plain');
    const r = await cli('run', ...HALF, '--report-dir', dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('ran 1 of 2 selected checks (50%)');
    const report = readJson(dir);
    expect(report.summary.ran).toBe(1);
    expect(report.gate).toBeUndefined();
    expect(validateReport(report)).toEqual([]);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('The run ran 1 of 2 selected checks (50%).');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/data-testid="ran">The run ran 1 of 2 selected checks \(50%\)/);
  }, 120_000);

  it('--min-ran fails a run where fewer ran (exit 1) and passes one where enough ran', async () => {
    const failing = tmp('min-fail');
    const f = await cli('run', ...HALF, '--min-ran', '90', '--report-dir', failing);
    expect(f.code).toBe(1);
    expect(f.out).toMatch(/GATE only 1 of 2 selected checks ran \(50%\), below --min-ran 90%/);
    const report = readJson(failing);
    expect(report.verdict).toBe('fail');
    expect(report.gate).toMatchObject({ minRanPercent: 90, ranPercent: 50 });
    expect(report.gate!.failures).toHaveLength(1);
    expect(validateReport(report)).toEqual([]);
    expect(readFileSync(join(failing, 'summary.md'), 'utf8')).toMatch(/❌ FAIL[\s\S]*The gate fails the run: only 1 of 2/);
    expect(readFileSync(join(failing, 'junit.xml'), 'utf8')).toMatch(/<testsuites name="canton-conformance" tests="3" failures="1"[\s\S]*<failure message="only 1 of 2 selected checks ran \(50%\), below --min-ran 90%" type="gate">/);

    const passing = tmp('min-pass');
    const p = await cli('run', ...HALF, '--min-ran', '50', '--report-dir', passing);
    expect(p.code).toBe(0);
    expect(readJson(passing)).toMatchObject({ verdict: 'pass', gate: { minRanPercent: 50, ranPercent: 50, failures: [] } });
    expect(readFileSync(join(passing, 'junit.xml'), 'utf8')).toMatch(/<testsuites name="canton-conformance" tests="3" failures="0"[\s\S]*<testcase classname="gate" name="enough of the selected checks ran" time="0.000"\/>/);
  }, 120_000);

  it('--fail-on-skip fails a run where a MUST check skipped (exit 1) and passes one where none did', async () => {
    const failing = tmp('skip-fail');
    const f = await cli('run', ...HALF, '--fail-on-skip', '--report-dir', failing);
    expect(f.code).toBe(1);
    expect(f.out).toMatch(/GATE 1 MUST check\(s\) skipped with --fail-on-skip: ledger\.auth\.missing-token-401/);
    expect(readJson(failing).gate).toMatchObject({ failOnSkip: true, skippedMust: ['ledger.auth.missing-token-401'] });

    const passing = tmp('skip-pass');
    const p = await cli('run', ...ALL_RAN, '--fail-on-skip', '--report-dir', passing);
    expect(p.code).toBe(0);
    expect(readJson(passing).gate).toMatchObject({ failOnSkip: true, skippedMust: [], failures: [] });
  }, 120_000);

  it("checks of rules the target's Canton line lacks are not skips the gate counts (the README's recipe on a 3.5 target)", async () => {
    // The reference reports Canton 3.5: Canton 3.6's rules (ledger.preview36.*, MUST among them) do not apply.
    const dir = tmp('line');
    const r = await cli('run', '--only', 'ledger.version.shape,ledger.preview36.*', '--oracle', 'none', '--quiet', '--seed', '3', '--runs', '2', '--min-ran', '90', '--fail-on-skip', '--report-dir', dir);
    expect(r.code, r.out + r.err).toBe(0);
    const report = readJson(dir);
    expect(validateReport(report)).toEqual([]);
    const absent = report.checks.filter((c) => c.id.startsWith('ledger.preview36.'));
    expect(absent.length).toBeGreaterThan(1);
    expect(absent.some((c) => c.level === 'MUST')).toBe(true);
    for (const c of absent) expect(c).toMatchObject({ status: 'skip', notOnLine: '3.5' });
    expect(report.summary).toMatchObject({ total: absent.length + 1, ran: 1, notOnLine: absent.length });
    expect(report.gate).toMatchObject({ ranPercent: 100, skippedMust: [], failures: [] });
    const line = `ran 1 of 1 selected check (100%); ${absent.length} more are not on the target's Canton line`;
    expect(r.out).toContain(line);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`The run ${line}.`);
    // A skip for any other reason still counts: the secured-profile check beside them fails the gate.
    const failing = tmp('line-fail');
    const f = await cli('run', '--only', 'ledger.auth.missing-token-401,ledger.preview36.*', '--oracle', 'none', '--quiet', '--seed', '3', '--fail-on-skip', '--report-dir', failing);
    expect(f.code).toBe(1);
    expect(readJson(failing).gate).toMatchObject({ skippedMust: ['ledger.auth.missing-token-401'] });
  }, 120_000);

  it("checks of a group the profile does not serve are not skips the gate counts (the README's release gate with a participant profile)", async () => {
    const reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: { error: () => undefined, warn: () => undefined, info: () => undefined } });
    try {
      // A participant: the ledger group only. The registry and Scan checks (MUST) do not apply to it.
      const profile = { ...loadProfile('reference'), name: 'ledger-only', groups: ['ledger' as const] };
      const only = ['ledger.version.shape', 'registry.metadata.instrument-lookup', 'scan.proxy.open-round-now', 'registry.cross-group.allocation-contexts-let-choices-succeed'];
      const { report } = await runSuite({ baseUrls: { ledger: reference.url, registry: reference.url, scan: reference.url }, target: reference.url, profile, only, seed: 3, toolVersion: 'gate', progress: 'quiet', oracle: 'none' });
      expect(report.checks.find((c) => c.id === 'ledger.version.shape')?.status).toBe('pass');
      for (const id of only.slice(1)) expect(report.checks.find((c) => c.id === id), id).toMatchObject({ status: 'skip', notServed: expect.stringMatching(/registry|scan/) });
      expect(report.summary).toMatchObject({ total: 4, ran: 1, skipped: 3, notServed: 3 });
      expect(ranLine(report)).toBe('ran 1 of 1 selected check (100%); 3 more need a group the profile does not serve');
      // Before, the three skipped MUST checks failed --fail-on-skip and left 25% for --min-ran.
      const gated = applyGate(report, { minRanPercent: 90, failOnSkip: true });
      expect(gated.failed).toBe(false);
      expect(gated.report.gate).toMatchObject({ ranPercent: 100, skippedMust: [] });
      expect(validateReport(gated.report)).toEqual([]);
    } finally {
      await reference.close();
    }
  }, 120_000);

  it('a percentage outside 0..100 is a usage error (exit 2)', async () => {
    expect((await cli('run', '--min-ran', '120')).code).toBe(2);
    expect((await cli('run', '--min-ran', 'most')).err).toMatch(/--min-ran takes a percentage from 0 to 100/);
  });
});
