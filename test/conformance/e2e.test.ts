import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';

/**
 * The suite's self-test: `run` without --target starts the reference server in-process and
 * certifies it with the reference profile. It must exit 0 with every check passing; a MUST check
 * may only be skipped for a reason listed here (a part of the reference server still in progress).
 */
const PENDING_REASONS: RegExp[] = [
  // Interactive submission (issue 4): the reference profile turns it on once the server routes it.
  /offers no interactive submission/,
  /no response to this operation was seen in this run/,
  // The reference server runs unsecured by default; the mutant bed's secured control runs the auth checks.
  /declares no authentication/,
];

describe('end to end: the suite certifies the reference server', () => {
  it('exit 0, nothing fails, every MUST check passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-e2e-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const t = performance.now();
    const code = await run(['--report-dir', dir, '--seed', '20260701', '--quiet']);
    const seconds = (performance.now() - t) / 1000;
    const printed = log.mock.calls.map((c) => c.join(' ')).join('\n');
    log.mockRestore();
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(validateReport(report)).toEqual([]);
    const bad = report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message}`);
    expect(bad).toEqual([]);
    const mustNotPassing = report.checks.filter((c) => c.level === 'MUST' && c.status !== 'pass' && !((c.status === 'skip' || c.status === 'warn') && PENDING_REASONS.some((r) => r.test(c.message ?? ''))));
    expect(mustNotPassing.map((c) => `${c.id} (${c.status}): ${c.message}`)).toEqual([]);
    expect(code).toBe(0);
    expect(printed).toMatch(/^canton-conformance: PASS: \d+ passed, 0 failed, 0 errored/m);
    expect(report.target).toMatch(/in-process reference server/);
    expect(seconds).toBeLessThan(60);
  }, 120_000);
});
