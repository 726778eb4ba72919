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
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });
});
