import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { run } from '../../conformance/src/cli/run.js';
import { captured } from './helpers/cliInProcess.js';
import { loadBaseline } from '../../conformance/src/report/baseline.js';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { fakeServer, type FakeServer } from './helpers/fakeServer.js';

/** The release gate from nothing: a missing baseline says how to write one, and that command writes it. */
const exec = promisify(execFile);
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `cc-gate-${p}-`));
const readJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
const ONLY = 'ledger.version.shape,ledger.version.*';

let target: FakeServer | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

const quietRun = (argv: string[]) => captured(() => run(argv).catch((e: Error) => (console.error(e.message), -2)));

/** `npx` resolving to this checkout's CLI, as it does in a project that installed the package. */
function npxShim(): string {
  const bin = tmp('npx');
  writeFileSync(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = canton-conformance ] || exit 127\nshift\nexec node ${JSON.stringify(resolve('bin/canton-conformance.js'))} "$@"\n`);
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}

describe('the first baseline', () => {
  it('a missing --baseline file is exit 2 with reports and the exact command that writes it; that command writes a baseline the gate then passes with', async () => {
    // Every answer is an empty object: the version checks fail, so the baseline has entries.
    target = await fakeServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    const work = tmp('work');
    const file = join(work, 'conformance-baseline.txt');
    const dir = join(work, 'reports');
    const gate = ['--target', target.url, '--only', ONLY, '--seed', '7', '--timeout', '4000', '--report-dir', dir, '--baseline', file, '--quiet'];

    const missing = await quietRun(gate);
    expect(missing.code).toBe(-2); // a UsageError: main answers exit 2
    const command = /^ {2}(npx canton-conformance run .*)$/m.exec(missing.err)?.[1];
    expect(missing.err).toContain(`baseline ${file} does not exist`);
    expect(command).toBe(`npx canton-conformance run --target ${target.url} --timeout 4000 --only '${ONLY}' --seed 7 --report-dir ${dir} --write-baseline ${file}`);
    const stopped = readJson(dir);
    expect(validateReport(stopped)).toEqual([]);
    expect(stopped).toMatchObject({ verdict: 'fail', checks: [], stopped: { reason: 'configuration-error' } });
    expect(stopped.stopped!.message).toContain('--write-baseline');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toBe('## canton-conformance: ❌ CONFIGURATION ERROR');

    // The printed command, as printed, from a shell.
    const written = await exec('/bin/sh', ['-c', `${command!} --quiet`], { env: { ...process.env, PATH: `${npxShim()}:${process.env['PATH'] ?? ''}` } }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code?: number; stdout: string }) => ({ code: e.code ?? -1, out: e.stdout }),
    );
    expect(written.code, written.out).toBe(0);
    expect(written.out).toMatch(new RegExp(`baseline: wrote ${file.replaceAll('/', '\\/')} \\(\\d+ accepted failures?\\)`));
    // A cold CLI: the summary line and the report give the checks' time and the command's wall time apart.
    const first = readJson(dir);
    expect(first.wallTimeMs).toBeGreaterThan(first.durationMs);
    expect(written.out).toContain(`(seed 7, checks ${(first.durationMs / 1000).toFixed(1)} s, wall ${(first.wallTimeMs! / 1000).toFixed(1)} s)`);
    const failing = first.checks.filter((c) => c.status === 'fail' || c.status === 'error');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((c) => c.baseline === 'expected')).toBe(true);
    const baseline = loadBaseline(file, catalogue().map((c) => c.id));
    expect([...baseline.entries.keys()].sort()).toEqual(failing.map((c) => c.id).sort());
    expect(baseline.entries.get('ledger.version.shape')).toBe(failing.find((c) => c.id === 'ledger.version.shape')!.message!.split('\n')[0]);

    // The gate that asked for it now opens.
    const gated = await quietRun(gate);
    expect(gated.code, gated.err).toBe(0);
    expect(readJson(dir).verdict).toBe('pass');
  }, 120_000);

  it('--write-baseline into a directory that does not exist is a configuration error before anything runs', async () => {
    const dir = tmp('nodir');
    const r = await quietRun(['--only', 'ledger.version.shape', '--report-dir', dir, '--write-baseline', join(dir, 'no', 'such', 'b.txt'), '--quiet']);
    expect(r.code).toBe(-2);
    expect(r.err).toMatch(/--write-baseline .*: its directory does not exist/);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  });
});
