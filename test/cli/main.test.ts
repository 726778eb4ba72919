import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

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
});
