import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { startMutant, type MutantServer } from '../mutants/mutantProxy.js';
import { isObject, onBody, withJson } from '../mutants/mutantKit.js';

/** `run --oracle`: chosen per profile, refused for read-only ones, and its findings in a valid report. */
async function cli(...argv: string[]): Promise<{ code: number; err: string; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-oracle-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await main([...argv, '--report-dir', dir, '--quiet']);
    let report: Report | undefined;
    try {
      report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    } catch {
      report = undefined;
    }
    return { code, err: error.mock.calls.map((c) => c.join(' ')).join('\n'), ...(report ? { report } : {}) };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

let reference: ReferenceServer;
let faulty: MutantServer;
let genericCodes: MutantServer;
const ONLY = ['--only', 'ledger.parties.allocate-round-trip,ledger.parties.list-includes-known', '--seed', '7', '--runs', '3'];

beforeAll(async () => {
  reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
  // A fault in a field these checks do not look at: the participant says every party is hosted elsewhere.
  faulty = await startMutant(reference.url, onBody(/^\/v2\/parties$/, (v) => (Array.isArray(v.partyDetails) ? { ...v, partyDetails: v.partyDetails.map((d: Record<string, unknown>) => ({ ...d, identityProviderId: 'elsewhere' })) } : v)));
  // What the request alone decides, wrong: every validation refusal names the generic code.
  genericCodes = await startMutant(reference.url, {
    response: (_req, res) => (res.status === 400 ? withJson(res, (v) => (isObject(v) && v.errorCategory === 8 && v.code !== 'INVALID_ARGUMENT' ? { ...v, code: 'INVALID_ARGUMENT' } : v)) : res),
  });
}, 60_000);
afterAll(async () => {
  await faulty?.close();
  await genericCodes?.close();
  await reference?.close();
});

describe('run --oracle', () => {
  it('is a usage error with a read-only profile, or with a mode it does not know', async () => {
    const ro = await cli('run', '--target', reference.url, '--profile', 'scan-readonly', '--oracle', 'reference');
    expect(ro.code).toBe(2);
    expect(ro.err).toMatch(/read-only/);
    expect((await cli('run', '--target', reference.url, '--oracle', 'maybe')).code).toBe(2);
    expect((await cli('run', '--target', reference.url, '--judge', 'maybe')).code).toBe(2);
  });

  it('is on by default for a profile that writes: the faultless reference passes, every answer compared', async () => {
    const r = await cli('run', '--target', reference.url, '--profile', 'reference', ...ONLY);
    expect(r.report?.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.report?.oracle?.compared).toBeGreaterThan(0);
    expect(r.report?.checks.every((c) => (c.oracle?.compared ?? 0) > 0)).toBe(true);
    // The whole scenario replayed: the party the round trip allocates is the same id on both
    // (the same world, the same namespace), and it still translates in the reads that follow.
    expect(r.report?.checks.filter((c) => c.oracle?.notReplayed !== undefined).map((c) => `${c.id}: ${c.oracle?.notReplayed}`)).toEqual([]);
    expect(validateReport(r.report)).toEqual([]);
  }, 120_000);

  it('fails the check whose request showed a difference in what the request alone decides, with the path, both values and both exchanges; --oracle none does not', async () => {
    const only = ['--only', 'ledger.packages.corrupt-dar-400', '--seed', '7'];
    const off = await cli('run', '--target', genericCodes.url, '--profile', 'reference', ...only, '--oracle', 'none');
    expect(off.code).toBe(0);
    expect(off.report?.oracle).toBeUndefined();
    const on = await cli('run', '--target', genericCodes.url, '--profile', 'reference', ...only);
    expect(on.code).toBe(1);
    const failed = on.report!.checks.find((c) => c.status === 'fail')!;
    expect(failed.message).toMatch(/differs from the reference ledger's \(the oracle\) at \$\.code of POST \/v2\/dars: target "INVALID_ARGUMENT", reference "INVALID_DAR"/);
    const d = failed.oracle!.difference!;
    expect(d).toMatchObject({ target: 'INVALID_ARGUMENT', reference: 'INVALID_DAR' });
    expect(d.targetExchange.request.url).toContain(genericCodes.url);
    expect(d.referenceExchange.request.url).not.toContain(genericCodes.url);
    expect(validateReport(on.report)).toEqual([]);
  }, 120_000);

  it('leaves values to the judge: a list that misses what the run wrote fails by judge.writes.visible-after, not by the oracle; --judge none passes', async () => {
    const off = await cli('run', '--target', faulty.url, '--profile', 'reference', ...ONLY, '--judge', 'none');
    expect(off.code).toBe(0);
    const on = await cli('run', '--target', faulty.url, '--profile', 'reference', ...ONLY);
    expect(on.code).toBe(1);
    const failed = on.report!.checks.find((c) => c.status === 'fail')!;
    expect(failed.oracle?.difference).toBeUndefined();
    expect(failed.judge).toMatchObject({ invariant: 'judge.writes.visible-after', first: { where: 'POST /v2/parties' }, second: { where: 'GET /v2/parties' } });
    expect(failed.message).toMatch(/^judge\.writes\.visible-after .*identityProviderId is "elsewhere" here, "" as written/);
    expect(validateReport(on.report)).toEqual([]);
  }, 120_000);
});
