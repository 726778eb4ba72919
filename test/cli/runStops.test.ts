import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';

/**
 * A run stopped from outside still leaves its reports: Ctrl-C (SIGINT), a CI job cancelled
 * (SIGTERM), and npm or npx ending above it. The real CLI from dist/ (`npm run build` first),
 * signalled once it has said how far it is; every wait is on an event (a line, an exit).
 */
const bin = resolve('bin/canton-conformance.js');
const PROGRESS = /^canton-conformance: \[(\d+)\/(\d+)\]/m;

interface Seen {
  readonly done: number;
  readonly total: number;
}

/** Resolves once the run printed a progress line (in CI logs: a group done, or every 5 s). */
function progressOf(child: ChildProcess): Promise<Seen> {
  let err = '';
  return new Promise<Seen>((done, fail) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = PROGRESS.exec(err);
      if (m) done({ done: Number(m[1]), total: Number(m[2]) });
    });
    child.on('exit', (code) => fail(new Error(`exited ${code} before a progress line: ${err}`)));
  });
}

function startRun(dir: string): ChildProcess {
  expect(existsSync(resolve('dist/conformance/src/cli/main.js')), 'dist/ is missing: run `npm run build`').toBe(true);
  // The in-process reference server, every check: far longer than the wait for the first line.
  return spawn(process.execPath, [bin, 'run', '--report-dir', dir, '--seed', '11'], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function expectInterrupted(dir: string, signal: 'SIGINT' | 'SIGTERM', seen: Seen): Report {
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  expect(validateReport(report)).toEqual([]);
  expect(report.verdict).toBe('fail');
  expect(report.stopped).toMatchObject({ reason: 'interrupted', signal });
  // What ran so far: at least what the line counted, not the whole selection.
  expect(report.checks.length).toBeGreaterThanOrEqual(seen.done);
  expect(report.checks.length).toBeLessThan(seen.total);
  expect(report.summary.total).toBe(report.checks.length);
  // The wall time counts the process's start-up and the in-process server's too.
  expect(report.wallTimeMs).toBeGreaterThan(report.durationMs);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toBe('## canton-conformance: ⏹ INTERRUPTED');
  expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="run" name="run completed"[^>]*>\s*<error message="[^"]+" type="interrupted">/);
  expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/data-testid="verdict">INTERRUPTED</);
  return report;
}

describe('run stopped from outside writes the reports of what ran', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code}, report.json marked interrupted with the checks that finished`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `cc-stop-${signal}-`));
      const child = startRun(dir);
      const exited = new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
      const seen = await progressOf(child);
      child.kill(signal);
      expect(await exited).toBe(code);
      const report = expectInterrupted(dir, signal, seen);
      expect(report.stopped!.message).toContain(signal);
    }, 120_000);
  }

  it('SIGTERM to `npx canton-conformance run` (a project that installed the package) ends the run with its reports', async () => {
    // The package as a project's dependency (linked, not packed: packedInstall.test.ts covers the tarball).
    const project = mkdtempSync(join(tmpdir(), 'cc-stop-npx-'));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'your-project', private: true }));
    symlinkSync(resolve('.'), join(project, 'node_modules', 'canton-conformance'));
    symlinkSync('../canton-conformance/bin/canton-conformance.js', join(project, 'node_modules', '.bin', 'canton-conformance'));
    const dir = join(project, 'reports');
    const npx = spawn('npx', ['canton-conformance', 'run', '--report-dir', dir, '--seed', '11'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    // npx, npm's shell and the run share these pipes: `close` comes once the last of them exited.
    const closed = new Promise<void>((done) => npx.on('close', () => done()));
    const seen = await progressOf(npx);
    npx.kill('SIGTERM');
    await closed;
    expectInterrupted(dir, 'SIGTERM', seen);
  }, 120_000);

  it('started by npm or npx: when the process above it ends, the run writes its reports and ends too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-stop-parent-'));
    // npm runs a bin through `sh -c` and passes SIGTERM to that shell only, which ends without
    // passing it on; a shell waiting on the run in the background is the same situation.
    const sh = spawn('/bin/sh', ['-c', `"${process.execPath}" "${bin}" run --report-dir "${dir}" --seed 11 & wait`], {
      env: { ...process.env, npm_lifecycle_event: 'npx' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The run shares the shell's stdout and stderr: `close` comes once the run itself has exited.
    const closed = new Promise<void>((done) => sh.on('close', () => done()));
    const seen = await progressOf(sh);
    sh.kill('SIGTERM');
    await closed;
    const report = expectInterrupted(dir, 'SIGTERM', seen);
    expect(report.stopped!.message).toMatch(/the process that started the run \(npm, npx\) ended/);
  }, 120_000);
});
