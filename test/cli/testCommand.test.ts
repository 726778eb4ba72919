/** `canton-conformance test --dar`: Daml Script tests of a DAR, reports and exit codes. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

import { main } from '../../conformance/src/cli/main.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';

const DAR = join(DARS_DIR, 'history', 'splice-amulet-test-0.1.8.dar');
const root = mkdtempSync(join(tmpdir(), 'cc-test-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Runs the CLI in-process, capturing what it prints. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { out.push(a.join(' ')); });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => { err.push(a.join(' ')); });
  const code = await main(['test', ...args]);
  vi.restoreAllMocks();
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('canton-conformance test', () => {
  it('--help describes the command and its exit codes', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: canton-conformance test --dar FILE');
    expect(r.stdout).toContain('Exit codes: 0 every script passed, 1 a script failed');
  });

  it('without --dar, or with an unknown flag, is a usage error (exit 2)', async () => {
    expect(await cli()).toMatchObject({ code: 2, stderr: expect.stringContaining('--dar FILE is required') });
    expect(await cli('--dra', 'x')).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean --dar?') });
    expect(await cli('--dar', 'x', '--max-steps', 'lots')).toMatchObject({ code: 2, stderr: expect.stringContaining('--max-steps takes an integer') });
    expect(await cli('--dar', 'x', '--ledger', 'sandbox')).toMatchObject({ code: 2, stderr: expect.stringContaining("--ledger takes core or memory (got 'sandbox')") });
  });

  it('an unreadable or corrupt DAR is a usage error naming the file (exit 2)', async () => {
    const missing = join(root, 'missing.dar');
    expect(await cli('--dar', missing)).toMatchObject({ code: 2, stderr: expect.stringContaining(`cannot read the DAR ${missing}`) });
    const corrupt = join(root, 'corrupt.dar');
    writeFileSync(corrupt, 'PK\u0003\u0004 this is not a zip');
    expect(await cli('--dar', corrupt)).toMatchObject({ code: 2, stderr: expect.stringContaining(`${corrupt}: not a readable DAR: not a readable zip`) });
  });

  it.runIf(HAS_DARS)('an unknown --script is a usage error with the nearest script name (exit 2) (needs ../shared/upstream/daml/dars)', async () => {
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBrn', '--report-dir', join(root, 'unknown'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no script 'Splice.Scripts.TestAmuletBurn:testAmuletBrn'");
    expect(r.stderr).toContain('did you mean Splice.Scripts.TestAmuletBurn:testAmuletBurn?');
  });

  it.runIf(HAS_DARS)('runs the named scripts: one line each, junit.xml with debug output in system-out, summary.md (exit 0) (needs ../shared/upstream/daml/dars)', async () => {
    const dir = join(root, 'pass');
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBurn', '--script', 'Splice.Scripts.UnitTests.Fees:test_toRatePerDay', '--report-dir', dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS {2}Splice\.Scripts\.TestAmuletBurn:testAmuletBurn {2}\d+ ms$/m);
    expect(r.stdout).toMatch(/^PASS {2}Splice\.Scripts\.UnitTests\.Fees:test_toRatePerDay {2}\d+ ms$/m);
    expect(r.stdout).toContain('2 passed, 0 failed, 2 scripts');
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="daml-script splice-amulet-test-0.1.8" tests="2" failures="0"');
    expect(junit).toMatch(/<testcase classname="Splice\.Scripts\.TestAmuletBurn" name="testAmuletBurn" time="[\d.]+">\n {6}<system-out>TransferInputsSummary \{/);
    expect(junit).toMatch(/<testcase classname="Splice\.Scripts\.UnitTests\.Fees" name="test_toRatePerDay" time="[\d.]+"\/>/);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('# Daml Script tests: splice-amulet-test-0.1.8');
    expect(summary).toMatch(/\| Splice\.Scripts\.TestAmuletBurn:testAmuletBurn \| pass \| \d+ \| \d+ \| \d+ \| \d+ \|/);
  });

  it.runIf(HAS_DARS)('--ledger memory runs the scripts on the in-memory ledger, --ledger core (the default) on the participant (needs ../shared/upstream/daml/dars)', async () => {
    const script = ['--script', 'Splice.Scripts.Util:setupApp'];
    const memory = await cli('--dar', DAR, ...script, '--ledger', 'memory', '--report-dir', join(root, 'memory'));
    const core = await cli('--dar', DAR, ...script, '--report-dir', join(root, 'core'));
    expect(memory).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Splice\.Scripts\.Util:setupApp {2}\d+ ms$/m) });
    expect(memory.stdout).toMatch(/^1 passed, 0 failed, 1 script in [\d.]+ s on the in-memory ledger; reports in /m);
    expect(core).toMatchObject({ code: 0, stdout: expect.stringMatching(/^PASS {2}Splice\.Scripts\.Util:setupApp {2}\d+ ms$/m) });
    expect(core.stdout).toMatch(/^1 passed, 0 failed, 1 script in [\d.]+ s on the ledger core; reports in /m);
  });

  it.runIf(HAS_DARS)('a failing script is FAIL with its reason, a junit failure and exit 1 (needs ../shared/upstream/daml/dars)', async () => {
    const dir = join(root, 'fail');
    const r = await cli('--dar', DAR, '--script', 'Splice.Scripts.TestAmuletBurn:testAmuletBurn', '--max-steps', '1000', '--report-dir', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}Splice\.Scripts\.TestAmuletBurn:testAmuletBurn {2}\d+ ms\n {6}budgetExceeded: .*budget of 1000 steps/m);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('failures="1"');
    expect(junit).toMatch(/<failure message="[^"]*budget of 1000 steps[^"]*" type="budgetExceeded">/);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('## Failures');
  });
});
