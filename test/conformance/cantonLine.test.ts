import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { CheckResult, Report } from '../../conformance/src/report/model.js';
import { mergeReports } from '../../conformance/src/report/mergeReports.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { absentOnLine, asSnapshotWarning, cantonLineOf, snapshotRule } from '../../conformance/src/runner/cantonLine.js';
import { ABSENT_OPERATIONS, type CantonVersion } from '../../conformance/src/schema/cantonVersions.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { createReferenceServer, type ReferenceServer } from '../../reference-server/src/server.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { seedAppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { report, result } from './helpers/fakeReport.js';

describe('the Canton line a run judges by', () => {
  it('follows the reported version, --canton-version overriding it', () => {
    expect(cantonLineOf('3.4.0')).toEqual({ line: '3.4', from: 'target', reported: '3.4.0' });
    expect(cantonLineOf('3.5.10')).toEqual({ line: '3.5', from: 'target', reported: '3.5.10' });
    expect(cantonLineOf('3.6.0-SNAPSHOT')).toEqual({ line: '3.6', from: 'target', reported: '3.6.0-SNAPSHOT' });
    expect(cantonLineOf('3.4.0', '3.6')).toEqual({ line: '3.6', from: 'flag', reported: '3.4.0' });
    expect(cantonLineOf(undefined, '3.4')).toEqual({ line: '3.4', from: 'flag' });
  });

  it('judges a newer release by the newest line, an unparsable or missing one by 3.5, each with a warning', () => {
    const newer = cantonLineOf('3.7.4');
    expect(newer.line).toBe('3.6');
    expect(newer.warning).toMatch(/3\.7\.4.*Canton 3\.6/);
    expect(cantonLineOf('4.0.0').line).toBe('3.6');
    const older = cantonLineOf('3.3.1');
    expect([older.line, older.warning]).toEqual(['3.4', expect.stringMatching(/3\.3\.1.*Canton 3\.4/)]);
    const odd = cantonLineOf('dev');
    expect([odd.line, odd.from, odd.warning]).toEqual(['3.5', 'default', expect.stringMatching(/'dev'.*Canton 3\.5/)]);
    expect(cantonLineOf(undefined)).toMatchObject({ line: '3.5', from: 'default', warning: expect.stringMatching(/no Canton version/) });
  });

  it('skips ledger checks of the operations the line lacks, and only those', () => {
    expect(absentOnLine({ group: 'ledger', operationId: 'postV2UpdatesFlats' }, '3.6')).toBe('Canton 3.6 has no postV2UpdatesFlats');
    expect(absentOnLine({ group: 'ledger', operationId: 'postV2UpdatesFlats' }, '3.5')).toBeUndefined();
    expect(absentOnLine({ group: 'ledger', operationId: 'postV2Package-vettingList' }, '3.4')).toBe('Canton 3.4 has no postV2Package-vettingList');
    expect(absentOnLine({ group: 'registry', operationId: 'postV2UpdatesFlats' }, '3.6')).toBeUndefined();
    // 3.6's operations, and 3.6's rules on operations every line has.
    expect(absentOnLine({ group: 'ledger', operationId: 'postV2UpdatesUpdate-by-hash' }, '3.5')).toBe('Canton 3.5 has no postV2UpdatesUpdate-by-hash');
    expect(absentOnLine({ group: 'ledger', operationId: 'getV2StateLedger-end', lines: ['3.6'] }, '3.4')).toBe("Canton 3.4's document has no such rule (only Canton 3.6)");
    expect(absentOnLine({ group: 'ledger', operationId: 'getV2StateLedger-end', lines: ['3.6'] }, '3.6')).toBeUndefined();
  });

  it("warns instead of failing on rules only 3.6's snapshot document has, judged as 3.6", () => {
    const failed: CheckResult = { ...result('ledger.x', 'fail'), message: 'broken' };
    expect(snapshotRule({ group: 'ledger', operationId: 'getV2JoseJwks' }, '3.6')).toBe(true);
    expect(snapshotRule({ group: 'ledger', operationId: 'getV2StateLedger-end', lines: ['3.6'] }, '3.6')).toBe(true);
    expect(snapshotRule({ group: 'ledger', operationId: 'getV2StateLedger-end' }, '3.6')).toBe(false);
    expect(snapshotRule({ group: 'ledger', operationId: 'getV2JoseJwks' }, '3.5')).toBe(false);
    expect(asSnapshotWarning(failed, '3.6')).toMatchObject({ status: 'warn', message: expect.stringMatching(/^Canton 3\.6's document is a snapshot of main.*: broken$/) });
    expect(asSnapshotWarning({ ...failed, status: 'error' }, '3.6').status).toBe('error');
  });
});

describe('merging shards judged by their lines', () => {
  it('keeps the line, and warns when the shards were judged by different ones', () => {
    const a = report([result('ledger.a', 'pass')], { canton: { line: '3.4', from: 'target', reported: '3.4.0' } });
    const b = report([result('ledger.b', 'pass')], { canton: { line: '3.4', from: 'target', reported: '3.4.0' } });
    expect(mergeReports([a, b])).toMatchObject({ canton: { line: '3.4' }, warnings: [] });
    const c = report([result('ledger.c', 'pass')], { canton: { line: '3.5', from: 'flag' } });
    expect(mergeReports([a, c]).warnings).toEqual([expect.stringMatching(/different Canton lines \(3\.4, 3\.5\)/)]);
  });
});

/** Checks of operations 3.4 or 3.6 lack (their example and schema checks), and one every line has. */
const ONLY = ['postV2UpdatesFlats', 'postV2UpdatesTrees', 'postV2Package-vettingList', 'postV2StateActive-contracts-page', 'ledger.version.shape'];
const absentFrom = (line: CantonVersion, r: Report) => r.checks.filter((c) => c.group === 'ledger' && ABSENT_OPERATIONS[line].includes(c.operationId));

async function runOn(url: string | undefined, extra: string[] = []): Promise<{ code: number; report: Report; summary: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-line-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await run([...(url === undefined ? [] : ['--target', url]), '--profile', 'reference', '--report-dir', dir, '--quiet', '--seed', '1', '--runs', '2', ...(extra.includes('--only') ? [] : ['--only', ONLY.join(',')]), ...extra]);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, summary: readFileSync(join(dir, 'summary.md'), 'utf8') };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

describe('run against the reference serving each line', () => {
  const servers = new Map<CantonVersion, ReferenceServer>();
  beforeAll(async () => {
    for (const v of ['3.4', '3.6'] as const) servers.set(v, await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, cantonVersion: v, log: silentLogger }));
  }, 60_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  for (const line of ['3.4', '3.6'] as const) {
    it(`judges a Canton ${line} target by ${line}: what it lacks skips with the reason, nothing fails`, async () => {
      const { code, report, summary } = await runOn(servers.get(line)!.url);
      expect(report.canton).toMatchObject({ line, from: 'target' });
      expect(validateReport(report)).toEqual([]);
      const lacking = absentFrom(line, report);
      expect(lacking.length).toBeGreaterThan(0);
      for (const c of lacking) expect([c.id, c.status, c.message]).toEqual([c.id, 'skip', `Canton ${line} has no ${c.operationId}`]);
      expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(report.checks.find((c) => c.id === 'ledger.version.shape')?.status).toBe('pass');
      expect(code).toBe(0);
      expect(summary).toContain(`judged as Canton ${line} (its version)`);
    }, 120_000);
  }

  it("on 3.4 the suite sets its checks up with 3.4's own operations (POST /v2/packages, the deprecated vetting forms) and leaves out the page walks 3.4 lacks", async () => {
    // Each of these needs, on the way, an operation 3.4 lacks: a DAR upload, a vetting change or list, a paged read.
    const ids = 'ledger.packages.list,ledger.writes.answer-reflects-write,ledger.preferred.highest-vetted-version,ledger.vetting.deprecated-update,ledger.lists.size-bounds,ledger.lists.complete-on-every-page';
    const { code, report } = await runOn(servers.get('3.4')!.url, ['--only', ids]);
    expect(report.checks.map((c) => `${c.id}: ${c.status}${c.status === 'pass' ? '' : ` (${c.message ?? ''})`}`).sort()).toEqual(ids.split(',').map((id) => `${id}: pass`).sort());
    expect(code).toBe(0);
    // Judged as 3.5, the same target fails them: the suite uses 3.5's operations, and their 404s are 3.5's to answer.
    const as35 = (await runOn(servers.get('3.4')!.url, ['--only', ids, '--canton-version', '3.5'])).report;
    expect(as35.checks.filter((c) => c.status === 'fail').map((c) => c.id).sort()).toEqual(ids.split(',').sort());
  }, 120_000);

  it('the in-process reference is judged as the 3.5 it reports, where every check runs', async () => {
    const { code, report, summary } = await runOn(undefined);
    expect(report.canton).toEqual({ line: '3.5', from: 'target', reported: '3.5.10' });
    expect(report.checks.filter((c) => c.message?.includes(' has no '))).toEqual([]);
    expect(summary).toContain('judged as Canton 3.5 (its version)');
    expect(code).toBe(0);
  }, 120_000);

  it('without --target, --canton-version is the line the in-process reference serves, so the target and the oracle\'s twin agree', async () => {
    const { code, report } = await runOn(undefined, ['--canton-version', '3.6']);
    expect(report.canton).toMatchObject({ line: '3.6', from: 'flag' });
    expect(report.canton?.reported).toMatch(/^3\.6\./);
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('--canton-version overrides the reported version: a 3.4 target judged as 3.5 meets its 404s', async () => {
    const { code, report } = await runOn(servers.get('3.4')!.url, ['--canton-version', '3.5']);
    expect(report.canton).toEqual({ line: '3.5', from: 'flag', reported: '3.4.0' });
    expect(validateReport(report)).toEqual([]);
    const lacking = absentFrom('3.4', report);
    expect(lacking.some((c) => c.status === 'fail')).toBe(true);
    expect(code).toBe(1);
    // And the other way: a 3.4 target judged as 3.6 skips what 3.6 lacks, and runs what 3.4 lacks.
    const as36 = (await runOn(servers.get('3.4')!.url, ['--canton-version', '3.6'])).report;
    expect(as36.canton).toMatchObject({ line: '3.6', from: 'flag' });
    expect(absentFrom('3.6', as36).every((c) => c.status === 'skip' && c.message === `Canton 3.6 has no ${c.operationId}`)).toBe(true);
    expect(absentFrom('3.4', as36).some((c) => c.status === 'fail')).toBe(true);
  }, 120_000);

  it('a target newer than any known line (3.7.4) is judged by the newest, 3.6, with a warning naming both; 3.6 checks run', async () => {
    const ledger = createLedger({ apiVersion: '3.7.4' });
    // The apps' world (Amulet, registry, Scan) the reference profile expects beside the ledger.
    expect(seedAppWorld(ledger).ok).toBe(true);
    const newer = await createReferenceServer({ ledger, cantonVersion: '3.6', port: 0, host: '127.0.0.1', log: silentLogger });
    try {
      const { code, report, summary } = await runOn(newer.url, ['--only', 'ledger.version.shape,ledger.preview36.ledger-end-synchronizer-times']);
      expect(report.canton, JSON.stringify(report.warnings)).toMatchObject({ line: '3.6', from: 'target', reported: '3.7.4', warning: expect.stringMatching(/3\.7\.4.*newer than any line.*Canton 3\.6/) });
      expect(validateReport(report)).toEqual([]);
      expect(report.checks.map((c) => [c.id, c.status])).toEqual([
        ['ledger.version.shape', 'pass'],
        ['ledger.preview36.ledger-end-synchronizer-times', 'pass'],
      ]);
      expect(summary).toContain('3.7.4');
      expect(code).toBe(0);
    } finally {
      await newer.close();
    }
  }, 120_000);

  it('rejects a line it does not know', async () => {
    await expect(run(['--canton-version', '3.7', '--quiet'])).rejects.toThrow(/--canton-version takes 3\.4, 3\.5, 3\.6 \(got '3\.7'\)/);
  });

  it('rejects a Splice release that is not x.y.z', async () => {
    await expect(run(['--splice-version', '0.6', '--quiet'])).rejects.toThrow(/--splice-version takes a Splice release such as 0\.6\.12 \(got '0\.6'\)/);
  });
});
