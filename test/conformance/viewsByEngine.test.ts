import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../conformance/src/cli/main.js';
import type { Report } from '../../conformance/src/report/model.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { startMutant, type MutantServer } from '../mutants/mutantProxy.js';
import { VIEW_MUTANTS } from '../mutants/viewMutants.js';

/**
 * The filter checks recompute every interface view they read with the engine, from the target's
 * own package: a vendor's profile that says nothing of the view (no `interfaceView`) still fails a
 * server whose views are not each contract's own.
 */
const PROFILE = readFileSync(new URL('../../fixtures/profiles/reference.yaml', import.meta.url), 'utf8')
  .replace(/^\s*interfaceView:.*\n/m, '')
  .replace(/^name: reference$/m, 'name: reference-without-view');

async function run(target: string, ...extra: string[]): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-views-'));
  const profile = join(dir, 'profile.yaml');
  writeFileSync(profile, PROFILE);
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await main(['run', '--target', target, '--profile', profile, '--only', 'ledger.filters.active-contracts', '--seed', '3', '--report-dir', dir, '--quiet', ...extra]);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

let reference: ReferenceServer;
let cached: MutantServer;
beforeAll(async () => {
  reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
  const mutant = VIEW_MUTANTS.find((m) => m.name === 'views-once-per-template')!;
  cached = await startMutant(reference.url, typeof mutant.fault === 'function' ? mutant.fault({} as never) : mutant.fault);
}, 60_000);
afterAll(async () => {
  await cached?.close();
  await reference?.close();
});

describe('interface views judged by the engine, not by the profile', () => {
  it('the profile names no view: the reference passes, its views recomputed', async () => {
    expect(PROFILE).not.toMatch(/interfaceView/);
    const r = await run(reference.url);
    expect(r.report.checks.map((c) => `${c.id}: ${c.status} ${c.message ?? ''}`)).toEqual(['ledger.filters.active-contracts: pass ']);
    expect(r.code).toBe(0);
  }, 120_000);

  it("a server handing one contract's view to the others fails with judge.daml.view; --reinterpret none does not look", async () => {
    const r = await run(cached.url);
    const check = r.report.checks.find((c) => c.id === 'ledger.filters.active-contracts');
    expect(check?.status).toBe('fail');
    expect(check?.message).toMatch(/judge\.daml\.view/);
    expect((await run(cached.url, '--reinterpret', 'none')).code).toBe(0);
  }, 120_000);
});
