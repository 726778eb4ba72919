import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const bin = new URL('../../bin/canton-conformance.js', import.meta.url).pathname;
const pkg = (await import('../../package.json', { with: { type: 'json' } })).default;

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe('canton-conformance CLI', () => {
  it('--version prints the package version', async () => {
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('--help lists the stable commands and exit codes', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    for (const c of ['serve', 'run', 'list', 'mock', 'report']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toContain('3 target unreachable');
  });

  it('an unknown command is a usage error (exit 2)', async () => {
    const r = await cli('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'\n");
  });

  it('a mistyped command gets the nearest one suggested', async () => {
    for (const [typed, meant] of [
      ['sreve', 'serve'],
      ['rnu', 'run'],
      ['mokc', 'mock'],
      ['reprot', 'report'],
    ]) {
      const r = await cli(typed!);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown command '${typed}' (did you mean '${meant}'?)`);
    }
  });

  it('the help says what each command does by default: `test` runs on the ledger core, not an in-memory ledger', async () => {
    const top = await cli('--help');
    expect(top.stdout).toMatch(/^ {2}test +run the Daml Script tests of a DAR on the reference server's ledger core/m);
    expect(top.stdout).not.toMatch(/in-memory ledger/);
    const test = await cli('test', '--help');
    expect(test.stdout).toMatch(/--ledger core +\(default\)/);
    expect(top.stdout).toContain('130/143 stopped by SIGINT/SIGTERM');
    const run = await cli('run', '--help');
    for (const flag of ['--write-baseline FILE', '--spec FILE|URL', '130 interrupted (SIGINT), 143 terminated']) expect(run.stdout).toContain(flag);
  });

  describe('outputs that cannot be written: exit 2 naming the path, before any work, never a stack trace', () => {
    const root = mkdtempSync(join(tmpdir(), 'cc-outputs-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    // A folder asked for under a plain file: no user, root included, can make it.
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a folder');
    const under = join(file, 'reports');
    const noTrace = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

    it('run --report-dir and --write-baseline: refused before a check runs', async () => {
      const reports = await cli('run', '--only', 'ledger.version.shape', '--report-dir', under);
      expect(reports).toMatchObject({ code: 2, stdout: '' });
      expect(reports.stderr).toContain(`canton-conformance run: cannot write the reports to ${under}: ENOTDIR`);
      noTrace(reports.stderr);
      // A baseline's folder must exist already (test/conformance/firstBaseline.test.ts): one under a file never does.
      const baseline = await cli('run', '--only', 'ledger.version.shape', '--report-dir', join(root, 'r1'), '--write-baseline', join(under, 'baseline.txt'));
      expect(baseline).toMatchObject({ code: 2, stdout: '' });
      expect(baseline.stderr).toContain(`--write-baseline ${join(under, 'baseline.txt')}: its directory does not exist`);
      noTrace(baseline.stderr);
    });

    it('run --write-baseline naming a folder: the run reports, then exit 2 naming the path', async () => {
      const folder = join(root, 'a-folder');
      mkdirSync(folder);
      const r = await cli('run', '--only', 'ledger.version.shape', '--report-dir', join(root, 'r2'), '--write-baseline', folder);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`canton-conformance run: EISDIR: .*${folder}`));
      noTrace(r.stderr);
      expect(readdirSync(join(root, 'r2')).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    });

    it('report merge --out, and --out given to report --diff', async () => {
      await cli('run', '--only', 'ledger.version.shape', '--report-dir', join(root, 'r3'));
      const report = join(root, 'r3', 'report.json');
      const merged = await cli('report', 'merge', report, '--out', under);
      expect(merged.code).toBe(2);
      expect(merged.stderr).toContain(`cannot write the merged report to ${under}: ENOTDIR`);
      noTrace(merged.stderr);
      expect(await cli('report', '--diff', report, report, '--out', join(root, 'diff'))).toMatchObject({
        code: 2, stderr: expect.stringContaining('--out is for report merge; report --diff prints to standard output'),
      });
    });
  });
});
