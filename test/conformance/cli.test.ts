import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { cliInProcess } from './helpers/cliInProcess.js';
import type { Report } from '../../conformance/src/report/model.js';

const cli = cliInProcess;

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `cc-cli-${p}-`));
const readJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
const QUICK = ['--only', 'ledger.version.*,ledger.ledger-end.*,ledger.acs.*,ledger.schema.get-v2-version,ledger.schema.get-v2-state-ledger-end', '--quiet', '--seed', '5', '--runs', '5'];

describe('canton-conformance list', () => {
  it('prints every check with id, level, group, kind and title', async () => {
    const r = await cli('list');
    expect(r.code).toBe(0);
    for (const c of catalogue()) expect(r.out).toMatch(new RegExp(`^${c.id.replace(/\./g, '\\.')}\\s+${c.level}\\s+${c.group}\\s+${c.kind}\\s+`, 'm'));
    expect(r.out).toContain(`${catalogue().length} checks`);
  });

  it('--json gives the operation and the rule, and --only previews a selection', async () => {
    const r = await cli('list', '--json', '--only', 'scan');
    const list = JSON.parse(r.out) as { id: string; operationId: string; specRef: string }[];
    expect(list.length).toBeGreaterThan(3);
    expect(list.every((c) => c.id.startsWith('scan.') && c.operationId && c.specRef)).toBe(true);
  });

  it('--coverage maps every operation of specs/ to its checks and lists the rules without one', async () => {
    const r = await cli('list', '--coverage');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^GET \/v2\/parties\s+ledger\.parties\.list-includes-known/m);
    expect(r.out).toMatch(/^POST \/registry\/allocation-instruction\/v2\/\{allocationInstructionId\}\/choice-contexts\/withdraw\s+registry\.withdraw\./m);
    expect(r.out).not.toContain('NO BEHAVIOUR CHECK');
    expect(r.out).toMatch(/(\d+) of \1 operations have a behaviour check/);
    expect(r.out).toMatch(/NO CHECK \(needs a target that has pruned/);
    const json = JSON.parse((await cli('list', '--coverage', '--json')).out) as { uncovered: string[]; operations: unknown[] };
    expect(json.uncovered).toEqual([]);
    expect(json.operations.length).toBeGreaterThanOrEqual(40);
  });

  it('a selector that matches nothing is a usage error (exit 2)', async () => {
    const r = await cli('list', '--only', 'ledger.acs.offset-zero-emtpy');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/did you mean 'ledger\.acs\.offset-zero-empty'/);
  });
});

describe('canton-conformance run: usage and configuration errors are exit 2', () => {
  it.each([
    [['--token', 'a', '--token-file', 'b'], /either --token or --token-file/],
    [['--shard', '3/2'], /K must be between 1 and N/],
    [['--shard', 'half'], /--shard takes K\/N/],
    [['--target', 'not a url'], /--target is not a URL/],
    [['--target', 'ftp://x'], /http\(s\) URL/],
    [['--target', '127.0.0.1:7575'], /--target is not a URL: '127\.0\.0\.1:7575' \(did you mean 'http:\/\/127\.0\.0\.1:7575'\?\)/],
    [['--target', 'localhost:7575'], /must be an http\(s\) URL \(got 'localhost:7575'\) \(did you mean 'http:\/\/localhost:7575'\?\)/],
    [['--scan-url', 'scan.example.com:443/api/scan'], /did you mean 'http:\/\/scan\.example\.com:443\/api\/scan'\?/],
    [['--seed', '-1'], /Option '--seed|integer >= 0/],
    [['--runs', '0'], /--runs takes an integer >= 1/],
    [['--only', 'registy'], /did you mean 'registry'/],
    [['--profile', 'no-such-profile'], /no built-in profile 'no-such-profile'; the built-in profiles are participant, reference, reference-secured, registry, scan-readonly/],
    [['--profile', 'reference-secure'], /did you mean 'reference-secured'\?/],
    [['--profile', './nowhere/p.yaml'], /cannot read profile .*p\.yaml: no such file/],
    [['--targt', 'http://127.0.0.1:1'], /unknown option '--targt' \(did you mean --target\?\)/],
    [['--only', 'ledger.acs'], /did you mean 'ledger\.acs\.\*'/],
    [['--spec', '/nonexistent.yaml'], /cannot read/],
    [['--frobnicate'], /unknown option '--frobnicate'/],
    [['--ledger-url', 'http://127.0.0.1:1'], /no URL for the registry, scan group/],
  ])('run %j', async (args, message) => {
    const r = await cli('run', ...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it('a baseline with an unknown check id is exit 2, with a suggestion', async () => {
    const dir = tmp('baseline');
    writeFileSync(join(dir, 'b.txt'), 'ledger.version.shap\n');
    const r = await cli('run', '--baseline', join(dir, 'b.txt'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/b\.txt:1: 'ledger\.version\.shap' is not a check id \(did you mean 'ledger\.version\.shape'\?\)/);
  });

  it('a profile with a typo is exit 2 naming the field', async () => {
    const dir = tmp('profile');
    writeFileSync(join(dir, 'p.yaml'), 'name: x\ngroups: [ledger]\nwrites: false\nledgr: {}\n');
    const r = await cli('run', '--target', 'http://127.0.0.1:1', '--profile', join(dir, 'p.yaml'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is invalid:\n\s+\/ must NOT have additional properties 'ledgr'/);
  });

  it('--help prints the stable flags', async () => {
    const r = await cli('run', '--help');
    expect(r.code).toBe(0);
    for (const flag of ['--target', '--ledger-url', '--registry-url', '--scan-url', '--profile', '--token', '--token-file', '--only', '--skip', '--seed', '--runs', '--report-dir', '--baseline', '--spec', '--shard', '--timeout', '--concurrency']) expect(r.out).toContain(flag);
  });
});

describe('sharded campaign, merge, diff and baseline through the CLI', () => {
  it('two shards (each starting its own server) are disjoint and merge into the unsharded run; diff shows no change; a stale baseline entry fails', async () => {
    const whole = tmp('whole');
    const s1 = tmp('s1');
    const s2 = tmp('s2');
    const merged = tmp('merged');
    expect((await cli('run', ...QUICK, '--report-dir', whole)).code).toBe(0);
    expect((await cli('run', ...QUICK, '--shard', '1/2', '--report-dir', s1)).code).toBe(0);
    expect((await cli('run', ...QUICK, '--shard', '2/2', '--report-dir', s2)).code).toBe(0);
    const a = readJson(s1);
    const b = readJson(s2);
    expect(a.shard).toEqual({ index: 1, total: 2 });
    const inA = new Set(a.checks.map((c) => c.id));
    expect(b.checks.filter((c) => inA.has(c.id)).map((c) => c.id)).toEqual([]);
    expect(a.checks.length + b.checks.length).toBe(readJson(whole).checks.length);
    const m = await cli('report', 'merge', s1, s2, '--out', merged);
    expect(m.code).toBe(0);
    expect(m.out).toMatch(/merged 2 report\(s\): PASS/);
    const full = readJson(whole);
    const combined = readJson(merged);
    expect(combined.checks.map((c) => `${c.id}:${c.status}`).sort()).toEqual(full.checks.map((c) => `${c.id}:${c.status}`).sort());
    expect(combined.mergedFrom).toBe(2);
    for (const f of ['junit.xml', 'summary.md', 'report.html']) expect(readFileSync(join(merged, f), 'utf8').length).toBeGreaterThan(100);

    const d = await cli('report', '--diff', whole, merged);
    expect(d.code).toBe(0);
    expect(d.out).toContain('0 regressed · 0 fixed · 0 changed · 0 added · 0 removed');

    const baselineDir = tmp('stale');
    writeFileSync(join(baselineDir, 'baseline.txt'), 'ledger.version.shape  # pretend it used to fail\n');
    const stale = await cli('run', ...QUICK, '--report-dir', baselineDir, '--baseline', join(baselineDir, 'baseline.txt'));
    expect(stale.code).toBe(1);
    expect(stale.out).toMatch(/STALE ledger\.version\.shape: passes now; remove it from the baseline/);
    expect(readJson(baselineDir).checks.find((c) => c.id === 'ledger.version.shape')!.baseline).toBe('stale');
  }, 120_000);

  it('report --diff fails (exit 1) when B did not complete: an unreachable target or a run stopped by its configuration is no evidence that nothing regressed', async () => {
    const good = tmp('good');
    expect((await cli('run', ...QUICK, '--report-dir', good)).code).toBe(0);
    const down = tmp('down');
    expect((await cli('run', '--target', 'http://127.0.0.1:9/', '--report-dir', down, '--quiet')).code).toBe(3);
    const stopped = tmp('stopped');
    expect((await cli('run', ...QUICK, '--only', 'no.such.check', '--report-dir', stopped)).code).toBe(2);
    for (const b of [down, stopped]) {
      const d = await cli('report', '--diff', good, b);
      expect(d.code, d.out).toBe(1);
      expect(d.out).toMatch(/\*\*B is not a complete run\*\*: (the target was unreachable|the run did not start)/);
    }
    // An incomplete A is said, but B's own checks decide (nothing to regress from).
    const back = await cli('report', '--diff', down, good);
    expect(back.code).toBe(0);
    expect(back.out).toContain('**A is not a complete run**');
    expect(JSON.parse((await cli('report', '--diff', good, down, '--json')).out).incomplete.b).toMatch(/unreachable/);
  }, 120_000);

  it('report merge and --diff refuse what is not a report (exit 2)', async () => {
    const dir = tmp('bad');
    writeFileSync(join(dir, 'report.json'), '{"tool": {}}');
    expect((await cli('report', 'merge', dir, '--out', tmp('o'))).code).toBe(2);
    expect((await cli('report', '--diff', dir)).code).toBe(2);
    expect((await cli('report', 'merge', dir)).code).toBe(2);
    expect((await cli('report', 'frob')).code).toBe(2);
  });
});
