import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { coverageOf } from '../../conformance/src/report/coverage.js';
import { readReport } from '../../conformance/src/report/readReport.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { renderHtml } from '../../conformance/src/report/writeHtml.js';
import { renderJunit } from '../../conformance/src/report/writeJunit.js';
import { renderMarkdown } from '../../conformance/src/report/writeMarkdown.js';
import { writeReports } from '../../conformance/src/report/writeReports.js';
import type { Evidence } from '../../conformance/src/report/model.js';
import { report, result } from './helpers/fakeReport.js';

const hostile = '<script>alert("x")</script> & | `pipe` \u0001\u0007 ]]> \uD800 end';
const evidence: Evidence = {
  request: { method: 'POST', url: 'http://127.0.0.1:7575/v2/state/active-contracts', headers: { 'content-type': 'application/json', authorization: 'Bearer $TOKEN' }, body: '{"activeAtOffset":1}' },
  curl: `curl -sS -i -X POST 'http://127.0.0.1:7575/v2/state/active-contracts' -H "authorization: Bearer $TOKEN" --data-binary '{"activeAtOffset":1}'`,
  response: { status: 500, headers: { 'content-type': 'text/html' }, contentType: 'text/html', body: hostile, truncated: false },
  durationMs: 4.2,
};

const sample = report(
  [
    result('ledger.acs.offset-after-ledger-end', 'fail', { message: `expected HTTP 400, got 500: ${hostile}`, evidence, replay: 'canton-conformance run --only ledger.acs.offset-after-ledger-end --seed 42' }),
    result('registry.accept.unknown-id-404', 'fail', { kind: 'property', seed: 42, counterexample: { value: '"00abc"', path: '3:1', numRuns: 4, numShrinks: 2 }, evidence }),
    result('ledger.version.shape', 'pass'),
    result('scan.earliest-round.legacy-path', 'warn', { level: 'MAY' }),
    result('ledger.auth.expired-token-401', 'skip'),
    result('ledger.dedup.duplicate-409', 'error', { message: 'no complete response within 300 ms', evidence: { ...evidence, response: undefined, error: { kind: 'timeout', message: 'no complete response within 300 ms' } } as Evidence }),
    result('ledger.users.delete-then-404', 'fail', { baseline: 'expected' }),
    result('ledger.ledger-end.monotonic', 'pass', { baseline: 'stale' }),
  ],
  { warnings: ['90% of the responses were 401/403'], verdict: 'fail' },
);

/** Minimal XML well-formedness: balanced tags, escaped text, no forbidden characters. */
function wellFormed(xml: string): void {
  // eslint-disable-next-line no-control-regex
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  const stack: string[] = [];
  for (const m of xml.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([A-Za-z][\w-]*)([^>]*?)(\/?)>/g)) {
    if (m[1]) expect(stack.pop()).toBe(m[2]);
    else if (!m[4]) stack.push(m[2]!);
  }
  expect(stack).toEqual([]);
  expect(xml.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]/);
}

describe('report writers', () => {
  it('report.json is valid against specs/report.schema.json and reads back', async () => {
    expect(validateReport(sample)).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'cc-writers-'));
    const paths = await writeReports(sample, dir);
    expect(readReport(dir)).toEqual(JSON.parse(JSON.stringify(sample)));
    for (const p of Object.values(paths)) expect(readFileSync(p, 'utf8').length).toBeGreaterThan(100);
  });

  it('the schema rejects a report with a wrong status (the validation is real)', () => {
    const broken = { ...sample, checks: [{ ...sample.checks[0], status: 'broken' }] };
    expect(validateReport(broken).length).toBeGreaterThan(0);
  });

  it('junit.xml: one testcase per check, failures/errors/skipped as CI tools expect, well-formed despite hostile bodies', () => {
    const xml = renderJunit(sample);
    wellFormed(xml);
    expect(xml.match(/<testcase /g)).toHaveLength(sample.checks.length);
    expect(xml).toMatch(/<testsuites name="canton-conformance" tests="8" failures="3" errors="1" skipped="2"/);
    expect(xml).toMatch(/<testsuite name="ledger"/);
    expect(xml).toContain('expected failure (baseline)');
    expect(xml).toContain('stale baseline entry');
    expect(xml).toContain('&lt;script&gt;');
    expect(xml).not.toContain('<script>');
  });

  it('summary.md: the verdict first, counts per group, failures with why, pipes escaped', () => {
    const md = renderMarkdown(sample);
    expect(md.split('\n')[0]).toBe('## canton-conformance: ❌ FAIL');
    expect(md).toMatch(/\| ledger \| 2 \| 2 \| 1 \| 0 \| 1 \|/);
    expect(md).not.toContain('<script>');
    expect(md).toContain('`ledger.acs.offset-after-ledger-end` | MUST | fail |');
    expect(md).toContain('stale baseline entry');
    expect(md).toContain('### Expected failures (baseline) (1)');
    expect(md).toContain('90% of the responses were 401/403');
    const failures = md.slice(md.indexOf('### Failures'), md.indexOf('### Expected failures'));
    const rows = failures.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length).toBe(6);
  });

  it('report.html: self-contained, verdict visible, everything the target sent escaped', () => {
    const html = renderHtml(sample);
    expect(html).toMatch(/<span class="verdict" data-testid="verdict">FAIL<\/span>/);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).not.toMatch(/<(link|img|iframe)\b|src="http|href="http|@import|url\(http/);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html.match(/<details class="check"/g)).toHaveLength(sample.checks.length);
    expect(html).toContain('Shrunk counterexample');
    expect(html).toContain('canton-conformance run --only ledger.acs.offset-after-ledger-end --seed 42');
  });

  it('coverage: report.json carries it (valid), summary.md and report.html name what was not checked and the rules without a check', () => {
    const checks = catalogue().map((c) => result(c.id, c.operationId === 'getV2Version' ? 'skip' : 'pass', { operationId: c.operationId, group: c.group }));
    const withCoverage = { ...report(checks), coverage: coverageOf(catalogue(), checks) };
    expect(validateReport(withCoverage)).toEqual([]);
    const md = renderMarkdown(withCoverage);
    expect(md).toMatch(/### Coverage/);
    expect(md).toContain('Not checked in this run (1):\n\n- `getV2Version`');
    expect(md).toContain('- reads before the pruning offset are refused (PARTICIPANT_PRUNED_DATA_ACCESSED)');
    const html = renderHtml(withCoverage);
    expect(html).toMatch(/<section id="coverage">[\s\S]*Operations not checked in this run[\s\S]*GET \/v2\/version/);
    expect(html).toContain('Documented rules without a check');
  });

  it('writes 1,000 checks in well under the 2 s budget (20 s allowed: an order of magnitude, on a loaded machine)', async () => {
    const many = report(Array.from({ length: 1000 }, (_, i) => result(`ledger.bulk.check-${i}`, i % 7 === 0 ? 'fail' : 'pass', i % 7 === 0 ? { evidence } : {})));
    const dir = mkdtempSync(join(tmpdir(), 'cc-writers-bulk-'));
    const t = performance.now();
    await writeReports(many, dir);
    expect(performance.now() - t).toBeLessThan(20_000);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').length).toBeLessThan(100_000);
  });
});
