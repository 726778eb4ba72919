import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { run } from '../../conformance/src/cli/run.js';
import { captured } from './helpers/cliInProcess.js';
import { coverageOf } from '../../conformance/src/report/coverage.js';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { renderMarkdown } from '../../conformance/src/report/writeMarkdown.js';
import { fakeServer, type FakeServer } from './helpers/fakeServer.js';
import { report, result } from './helpers/fakeReport.js';

/** What a CI job keeps and prints: reports even when nothing answered, replay lines that run as printed. */
const exec = promisify(execFile);
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `cc-ci-${p}-`));

let target: FakeServer | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

const quietRun = (argv: string[]) => captured(() => run(argv));

describe('an unreachable target (exit 3) still leaves a report', () => {
  it('writes report.json, junit.xml, summary.md and report.html saying the target was unreachable', async () => {
    const closed = await fakeServer(() => undefined);
    const url = closed.url;
    await closed.close();
    const dir = tmp('unreachable');
    const r = await quietRun(['--target', url, '--report-dir', dir, '--quiet', '--seed', '9']);
    expect(r.code).toBe(3);
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(validateReport(json)).toEqual([]);
    expect(json).toMatchObject({ verdict: 'fail', seed: 9, checks: [], unreachable: { url } });
    expect(json.unreachable!.reason).toMatch(/connection refused/);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md.split('\n')[0]).toBe('## canton-conformance: ❌ UNREACHABLE');
    expect(md).toContain(`\`${url}\``);
    expect(md).toMatch(/no check ran/);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="canton-conformance" tests="1" failures="0" errors="1"/);
    expect(junit).toMatch(/<error message="target unreachable: http:\/\/127\.0\.0\.1:\d+: [^"]*connection refused/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/data-testid="verdict">UNREACHABLE</);
    expect(r.err).toMatch(/target unreachable: .*connection refused/);
  });
});

describe('replay lines run as printed', () => {
  it('start with npx, name the auth by reference and never print the token; the printed line reruns the check with that token', async () => {
    const secret = 'secret-token-value-0123456789';
    // Every answer is an empty object: a version shape check fails, so the report carries a replay line.
    target = await fakeServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const dir = tmp('replay');
    const r = await quietRun(['--target', target.url, '--token', secret, '--only', 'ledger.version.shape', '--report-dir', dir, '--quiet', '--seed', '3', '--timeout', '4000']);
    expect(r.code).toBe(1);
    const files = ['report.json', 'junit.xml', 'summary.md', 'report.html'].map((f) => readFileSync(join(dir, f), 'utf8'));
    for (const text of files) expect(text).not.toContain(secret);
    const check = (JSON.parse(files[0]!) as Report).checks.find((c) => c.id === 'ledger.version.shape')!;
    expect(check.status).toBe('fail');
    expect(check.replay).toBe(`npx canton-conformance run --target ${target.url} --token "$TOKEN" --timeout 4000 --only ledger.version.shape --seed 3`);

    // Run the line through a shell, with `npx` resolving to this checkout's CLI as it does in a
    // project that installed the package (the README's install path).
    const bin = tmp('npx');
    mkdirSync(bin, { recursive: true });
    const cli = resolve('bin/canton-conformance.js');
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = canton-conformance ] || exit 127\nshift\nexec node ${JSON.stringify(cli)} "$@"\n`);
    chmodSync(join(bin, 'npx'), 0o755);
    const replayDir = tmp('replayed');
    const seen = target.requests.length;
    const replayed = await exec('/bin/sh', ['-c', `${check.replay!} --report-dir ${replayDir} --quiet`], {
      env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, TOKEN: secret },
    }).then(
      () => 0,
      (e: { code?: number }) => e.code ?? -1,
    );
    expect(replayed).toBe(1);
    const again = (JSON.parse(readFileSync(join(replayDir, 'report.json'), 'utf8')) as Report).checks;
    expect(again.map((c) => [c.id, c.status])).toEqual([['ledger.version.shape', 'fail']]);
    const versionCalls = target.requests.slice(seen).filter((q) => q.url === '/v2/version');
    expect(versionCalls.length).toBeGreaterThan(0);
    for (const q of versionCalls) expect(q.headers.authorization).toBe(`Bearer ${secret}`);
  }, 60_000);
});

describe('summary.md and the console line say what happened, in numbers that read right', () => {
  it('a narrow run lists the operations it did not check one a line, a few of them, with the count', () => {
    const checks = catalogue().map((c) => result(c.id, c.operationId === 'getV2Version' ? 'pass' : 'skip', { operationId: c.operationId, group: c.group }));
    const md = renderMarkdown({ ...report(checks), coverage: coverageOf(catalogue(), checks) });
    const notChecked = md.slice(md.indexOf('Not checked in this run'));
    const count = Number(/Not checked in this run \((\d+)\):/.exec(notChecked)![1]);
    expect(count).toBeGreaterThan(40);
    const bullets = notChecked.split('\n').filter((l) => l.startsWith('- `'));
    expect(bullets).toHaveLength(10);
    expect(notChecked).toContain(`…and ${count - 10} more`);
    for (const line of md.split('\n')) expect(line.length).toBeLessThan(600);
  });

  it('one check is "1 check"', () => {
    expect(renderMarkdown(report([result('ledger.version.shape', 'pass')]))).toMatch(/ · 1 check in /);
    expect(renderMarkdown(report([result('ledger.version.shape', 'pass'), result('ledger.version.other', 'pass')]))).toMatch(/ · 2 checks in /);
  });

  it('a run failed only by a stale baseline entry says so, in summary.md and on the console', async () => {
    const stale = report([result('ledger.version.shape', 'pass', { baseline: 'stale' })], { verdict: 'fail' });
    expect(renderMarkdown(stale)).toContain('1 stale baseline entry fails the run: it passes now; remove it from the baseline.');

    target = await fakeServer((req, res) => {
      if (req.url === '/v2/version') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '3.5.0', features: {} }));
      res.writeHead(404).end();
    });
    const dir = tmp('stale');
    const baseline = join(dir, 'baseline.txt');
    writeFileSync(baseline, 'ledger.version.shape\n');
    const r = await quietRun(['--target', target.url, '--only', 'ledger.version.shape', '--baseline', baseline, '--report-dir', dir, '--quiet', '--seed', '1']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^canton-conformance: FAIL \(1 stale baseline entry\): 1 passed, 0 failed/m);
  });
});
