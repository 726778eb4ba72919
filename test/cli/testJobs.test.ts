/**
 * `canton-conformance test --jobs N`: scripts on worker threads give what one thread gives (lines,
 * order, exit code, reports, coverage), only faster. Worker threads run the built modules, so
 * these tests run the built CLI (`bin/`, `dist/`), as a user does.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

import type { Expr } from '../../daml-engine/index.js';
import { builtScriptDar } from '../daml/helpers/scriptLibraryPackages.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';

const bin = new URL('../../bin/canton-conformance.js', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'cc-test-jobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, 'test', ...args], { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** The per-script lines without their durations, and the tally without its time. */
const lines = (stdout: string): string[] => stdout.split('\n').filter((l) => l.trim() !== '').map((l) => l.replace(/ {2}\d+ ms$/, '').replace(/ in [\d.]+ s on /, ' on ').replace(/ \(\d+ threads\)/, '').replace(/; reports in .*$/, ''));
/** A JUnit report without its times. */
const junit = (dir: string): string => readFileSync(join(dir, 'junit.xml'), 'utf8').replace(/(time|timestamp)="[^"]*"/g, '');

/** Seven scripts: six allocate parties (each a fresh ledger's), the fourth fails with `error`. */
const dar = join(root, 'jobs.dar');
writeFileSync(dar, builtScriptDar('3.5', (e) => {
  const allocate = (hint: string) => e.question('PartyManagement', 'AllocateParty', { requestedName: e.text(hint), idHint: e.text(''), participants: e.nil });
  const parties = () => e.script(e.ask('AllocateParty', 2n, allocate('alice'), 'a', e.ask('AllocateParty', 2n, allocate('bob'), 'b',
    e.ask('ListKnownParties', 1n, e.question('PartyManagement', 'ListKnownParties', { participant: e.none }), 'ps', e.pure(e.v('ps'))))));
  const boom: Expr = { kind: 'app', fun: { kind: 'tyApp', expr: { kind: 'builtin', builtin: 'ERROR' }, types: [e.any] }, args: [e.text('boom in script four')] };
  return { one: parties(), two: parties(), three: parties(), four: e.script(boom), five: parties(), six: parties(), seven: parties() };
}));

describe('canton-conformance test --jobs', () => {
  it('bad values, and --jobs with --ledger-url, are usage errors (exit 2)', async () => {
    for (const bad of ['0', 'x', '1.5', '257']) {
      expect(await cli('--dar', dar, '--jobs', bad)).toMatchObject({ code: 2, stderr: expect.stringContaining(`--jobs takes an integer from 1 to 256 (got '${bad}')`) });
    }
    expect(await cli('--dar', dar, '--jobs', '2', '--ledger-url', 'http://127.0.0.1:1')).toMatchObject({ code: 2, stderr: expect.stringContaining('--jobs goes with the built-in ledgers') });
  }, 60_000);

  for (const ledger of ['core', 'memory']) {
    it(`--ledger ${ledger}: three threads print, report and exit as one thread does, in the scripts' order`, async () => {
      const one = await cli('--dar', dar, '--ledger', ledger, '--jobs', '1', '--report-dir', join(root, `${ledger}-1`));
      const three = await cli('--dar', dar, '--ledger', ledger, '--jobs', '3', '--report-dir', join(root, `${ledger}-3`));
      expect(one.code).toBe(1);
      expect(three.code).toBe(1);
      expect(three.stdout).toContain('(3 threads)');
      expect(one.stdout).not.toContain('threads)');
      expect(lines(three.stdout)).toEqual(lines(one.stdout));
      // The order `--list` gives (the DAR's, by name), whichever thread finished first.
      const listed = (await cli('--dar', dar, '--list')).stdout.trim().split('\n');
      expect(listed).toHaveLength(7);
      expect(lines(one.stdout).filter((l) => /^(PASS|FAIL) /.test(l))).toEqual(listed.map((n) => `${n === 'Main:four' ? 'FAIL' : 'PASS'}  ${n}`));
      expect(three.stdout).toContain('boom in script four');
      expect(junit(join(root, `${ledger}-3`))).toEqual(junit(join(root, `${ledger}-1`)));
    }, 120_000);
  }

  it('a DAR the participant refuses is exit 2 with the participant\'s reason, on threads as on one', async () => {
    const refused = join(root, 'refused.dar');
    // A "script" whose body is a Text: it decodes (the runner lists it), and the upload's type check refuses it.
    writeFileSync(refused, builtScriptDar('3.5', (e) => ({ good: e.script(e.pure(e.text('ok'))), bad: { ...e.script(e.pure(e.text('ok'))), expr: e.text('not a script') } })));
    const one = await cli('--dar', refused, '--jobs', '1', '--report-dir', join(root, 'refused-1'));
    const two = await cli('--dar', refused, '--jobs', '2', '--report-dir', join(root, 'refused-2'));
    expect(one).toMatchObject({ code: 2, stderr: expect.stringContaining(`${refused}: the participant refuses the DAR: `) });
    expect(two).toEqual(one);
  }, 60_000);

  it('more threads than scripts start one a script', async () => {
    const r = await cli('--dar', dar, '--ledger', 'memory', '--script', 'Main:one', '--script', 'Main:four', '--jobs', '8', '--report-dir', join(root, 'few'));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('(2 threads)');
    expect(lines(r.stdout).filter((l) => /^(PASS|FAIL) /.test(l))).toEqual(['PASS  Main:one', 'FAIL  Main:four']);
  }, 60_000);

  it.runIf(HAS_DARS)('Splice\'s amulet tests on two threads: the same results, reports and coverage as on one (needs ../shared/upstream/daml/dars)', async () => {
    const splice = join(DARS_DIR, 'history', 'splice-amulet-test-0.1.8.dar');
    const pick = ['--test-pattern', 'TestAmuletRulesTransfer:|TestTap:|TestComputeFees:', '--show-coverage'];
    const one = await cli('--dar', splice, ...pick, '--jobs', '1', '--report-dir', join(root, 'splice-1'));
    const two = await cli('--dar', splice, ...pick, '--jobs', '2', '--report-dir', join(root, 'splice-2'));
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(lines(one.stdout).filter((l) => l.startsWith('PASS')).length).toBeGreaterThan(5);
    expect(lines(two.stdout)).toEqual(lines(one.stdout));
    expect(readFileSync(join(root, 'splice-2', 'coverage.json'), 'utf8')).toEqual(readFileSync(join(root, 'splice-1', 'coverage.json'), 'utf8'));
    expect(JSON.parse(readFileSync(join(root, 'splice-1', 'coverage.json'), 'utf8')).dependencies.templatesCreated.used).toBeGreaterThan(0);
    expect(junit(join(root, 'splice-2'))).toEqual(junit(join(root, 'splice-1')));
  }, 180_000);
});
