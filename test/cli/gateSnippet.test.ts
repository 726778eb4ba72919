import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer } from '../conformance/helpers/fakeServer.js';

/**
 * The README's release gate, executed as written (the block after `<!-- gate-snippet -->`) under
 * POSIX `sh` and under `bash -eu` (GitHub Actions runs steps with `bash -e`), with and without
 * `$GITHUB_STEP_SUMMARY`: it ends with the run's exit code and never trips over the shell. The
 * target answers `{}` everywhere, so `ledger.version.shape` fails; `npx` is this checkout's CLI
 * (dist/, so `npm run build` first).
 */
let target: FakeServer;
let npxDir: string;
let snippet: string;

beforeAll(async () => {
  expect(existsSync(resolve('dist/conformance/src/cli/main.js')), 'dist/ is missing: run `npm run build`').toBe(true);
  target = await fakeServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  npxDir = mkdtempSync(join(tmpdir(), 'cc-gate-npx-'));
  writeFileSync(join(npxDir, 'npx'), `#!/bin/sh\n[ "$1" = canton-conformance ] || exit 127\nshift\nexec node ${JSON.stringify(resolve('bin/canton-conformance.js'))} "$@"\n`);
  chmodSync(join(npxDir, 'npx'), 0o755);
  const block = /<!-- gate-snippet[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))?.[1];
  expect(block, 'the README has a gate-snippet block').toBeDefined();
  // The same commands; the profile's ids and the secret's path are the user's, so the run is
  // narrowed to one read-only check with a token file of our own.
  expect(block).toContain('--profile participant');
  expect(block).toContain('--baseline conformance-baseline.txt');
  snippet = block!.replace('--profile participant', '').replace('--baseline conformance-baseline.txt', '--baseline conformance-baseline.txt --only ledger.version.shape --timeout 4000 --quiet');
});

afterAll(async () => {
  await target?.close();
});

interface Gate {
  readonly code: number | null;
  readonly stderr: string;
  readonly dir: string;
}

async function gate(shell: readonly string[], baseline: string | undefined, summary: 'unset' | 'set'): Promise<Gate & { summaryFile?: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-gate-'));
  const secrets = join(dir, 'ledger.jwt');
  writeFileSync(secrets, 'a-token\n');
  if (baseline !== undefined) writeFileSync(join(dir, 'conformance-baseline.txt'), baseline);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${npxDir}:${process.env['PATH'] ?? ''}`, PARTICIPANT_URL: target.url };
  delete env['GITHUB_STEP_SUMMARY'];
  const summaryFile = join(dir, 'step-summary.md');
  if (summary === 'set') env['GITHUB_STEP_SUMMARY'] = summaryFile;
  const child = spawn(shell[0]!, [...shell.slice(1), '-c', snippet.replaceAll('/run/secrets/ledger.jwt', secrets)], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  return { code, stderr, dir, ...(summary === 'set' ? { summaryFile } : {}) };
}

const SHELLS = [
  ['sh', ['/bin/sh']],
  ['bash -eu', ['bash', '-eu']],
] as const;

describe("the README's release gate", () => {
  for (const [name, shell] of SHELLS) {
    it(`${name}, outside GitHub: exit 1 on a new failure, 0 once the baseline expects it, no shell error`, async () => {
      const failing = await gate(shell, '# nothing accepted yet\n', 'unset');
      expect(failing.code, failing.stderr).toBe(1);
      expect(failing.stderr).toBe('');
      expect(readFileSync(join(failing.dir, 'reports', 'summary.md'), 'utf8')).toMatch(/^## canton-conformance: ❌ FAIL/);
      const accepted = await gate(shell, 'ledger.version.shape  # accepted\n', 'unset');
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stderr).toBe('');
    }, 60_000);

    it(`${name}, inside GitHub: the job summary gets summary.md; a missing baseline is exit 2 with the reports and the command to write it`, async () => {
      const missing = await gate(shell, undefined, 'set');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('does not exist. Write the first one from a run');
      expect(missing.stderr).toMatch(/npx canton-conformance run --target \S+ .*--write-baseline conformance-baseline\.txt/);
      expect(readFileSync(missing.summaryFile!, 'utf8')).toMatch(/^## canton-conformance: ❌ CONFIGURATION ERROR/);
    }, 60_000);
  }
});
