import { describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { parseBaseline } from '../../conformance/src/report/baseline.js';
import { mergeReports } from '../../conformance/src/report/mergeReports.js';
import type { Report } from '../../conformance/src/report/model.js';
import { stoppedReport, type StoppedRun } from '../../conformance/src/report/stoppedReport.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { rebaseline, renderBaseline } from '../../conformance/src/report/writeBaseline.js';
import { renderHtml } from '../../conformance/src/report/writeHtml.js';
import { renderJunit } from '../../conformance/src/report/writeJunit.js';
import { renderMarkdown } from '../../conformance/src/report/writeMarkdown.js';
import { report, result } from './helpers/fakeReport.js';

const run: Omit<StoppedRun, 'checks' | 'stopped'> = {
  target: 'http://127.0.0.1:7575',
  targets: { registry: 'http://127.0.0.1:7575', ledger: 'http://127.0.0.1:7575', scan: 'http://127.0.0.1:7575' },
  profile: 'participant',
  seed: 4,
  runs: 25,
  startedAt: new Date('2026-07-01T09:30:00Z'),
  durationMs: 800,
  wallTimeMs: 2100,
  toolVersion: '0.1.0',
};

describe('reports of a run that did not finish', () => {
  it('a configuration error: valid report.json with no check, every file says the run did not start', () => {
    const r = stoppedReport({ ...run, checks: [], stopped: { reason: 'configuration-error', message: 'baseline b.txt does not exist' } });
    expect(validateReport(r)).toEqual([]);
    expect(r).toMatchObject({ verdict: 'fail', checks: [], summary: { total: 0 }, wallTimeMs: 2100 });
    const md = renderMarkdown(r);
    expect(md.split('\n')[0]).toBe('## canton-conformance: ❌ CONFIGURATION ERROR');
    expect(md).toContain('The run did not start: baseline b.txt does not exist');
    expect(md).toContain('(2.1 s in all)');
    expect(renderJunit(r)).toMatch(/tests="1" failures="0" errors="1"[\s\S]*type="configuration-error">baseline b\.txt does not exist</);
    expect(renderHtml(r)).toMatch(/data-testid="verdict">CONFIGURATION ERROR</);
  });

  it('an interrupted run: the checks that finished, never a pass even when they all passed; a merge keeps the mark', () => {
    const checks = [result('ledger.version.shape', 'pass'), result('ledger.ledger-end.shape', 'pass')];
    const r = stoppedReport({ ...run, checks, stopped: { reason: 'interrupted', signal: 'SIGINT', message: 'interrupted (SIGINT)' } });
    expect(validateReport(r)).toEqual([]);
    expect(r).toMatchObject({ verdict: 'fail', summary: { total: 2, passed: 2 } });
    expect(renderMarkdown(r)).toMatch(/^## canton-conformance: ⏹ INTERRUPTED\n[\s\S]*interrupted \(SIGINT\): below is what ran until then/);
    expect(renderJunit(r)).toMatch(/<testsuites name="canton-conformance" tests="3" failures="0" errors="1"/);
    const merged = mergeReports([r, report([result('scan.a.b', 'pass')], { shard: { index: 2, total: 2 } })]);
    expect(merged.stopped).toEqual(r.stopped);
    expect(merged.verdict).toBe('fail');
    expect(merged.wallTimeMs).toBeUndefined();
    expect(validateReport(merged)).toEqual([]);
  });

  it('a report.json with an unknown stop reason is not valid', () => {
    const bad = { ...report([]), stopped: { reason: 'crashed', message: 'x' } } as unknown as Report;
    expect(validateReport(bad)).not.toEqual([]);
  });
});

describe('--write-baseline', () => {
  it('writes the failed and errored checks with their first message line; --baseline reads it back; the run judged by it passes', () => {
    const r = report([
      result('ledger.version.shape', 'fail', { message: 'missing field # version\nsecond line' }),
      result('ledger.ledger-end.shape', 'error', { message: 'timeout' }),
      result('ledger.acs.one', 'warn'),
      result('ledger.acs.two', 'pass', { baseline: 'stale' }),
    ]);
    const { text, baseline } = renderBaseline(r, 'b.txt');
    expect(text).toContain('ledger.version.shape  # missing field # version\n');
    expect(text).not.toContain('second line');
    const read = parseBaseline(text, 'b.txt', [...catalogue().map((c) => c.id), 'ledger.acs.one', 'ledger.acs.two']);
    expect([...read.entries]).toEqual([...baseline.entries]);
    expect([...read.entries.keys()]).toEqual(['ledger.version.shape', 'ledger.ledger-end.shape']);
    const judged = rebaseline(r, read);
    expect(judged.outcome.exitCode).toBe(0);
    expect(judged.report.verdict).toBe('pass');
    expect(judged.report.checks.map((c) => c.baseline)).toEqual(['expected', 'expected', undefined, undefined]);
  });
});
