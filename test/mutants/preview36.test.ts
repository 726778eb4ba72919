import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import type { Report } from '../../conformance/src/report/model.js';
import { cantonLineOf } from '../../conformance/src/runner/cantonLine.js';
import { loadProfile, type Profile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { staticToken } from '../../conformance/src/target/tokenProvider.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { MUTANTS, type Mutant } from './mutants.js';
import { startMutant, type Fault } from './mutantProxy.js';

/**
 * The mutant bed of Canton 3.6's rules: the reference serving 3.6, judged as 3.6. Its document is
 * a snapshot of main, so a caught fault ends its check as `warn` naming why (exit 0), where the
 * faultless control passes; judged as 3.5, the same checks skip.
 */
const SECRET = 'preview36-bed-hs256-secret-with-enough-entropy';
const SEED = 20261129;
const PREVIEW = MUTANTS.filter((m) => m.line === '3.6');
const profile: Profile = loadProfile('reference');
const referenceSecured: Profile = (() => {
  const p = loadProfile('reference-secured');
  return { ...p, auth: { ...p.auth!, signing: { alg: 'HS256', secret: SECRET, userId: 'participant_admin' } } };
})();
const adminToken = () => new SignJWT({ sub: 'participant_admin', scope: 'daml_ledger_api' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));

/** The check ids a mutant's run selects: an observer judges what its operation's checks saw. */
function selectionFor(m: Mutant): string[] {
  const c = catalogue().find((x) => x.id === m.caughtBy);
  return c?.observer ? [c.operationId] : [m.caughtBy];
}

let open: { url: string; close(): Promise<void> };
let secured: { url: string; close(): Promise<void> };
beforeAll(async () => {
  open = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, cantonVersion: '3.6' });
  secured = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, cantonVersion: '3.6', auth: { mode: 'hs256', key: { kind: 'secret', secret: SECRET } } });
}, 60_000);
afterAll(async () => {
  await open?.close();
  await secured?.close();
});

async function certify(fault: Fault, only: string[], m?: Pick<Mutant, 'server'>, line = '3.6.0'): Promise<{ exitCode: number; report: Report }> {
  const mode = m?.server ? 'secured' : 'open';
  const server = await startMutant((mode === 'secured' ? secured : open).url, fault);
  try {
    return await runSuite({
      baseUrls: { registry: server.url, ledger: server.url, scan: server.url },
      target: server.url,
      profile: mode === 'secured' ? referenceSecured : profile,
      ...(mode === 'secured' ? { tokens: staticToken(await adminToken()) } : {}),
      only,
      canton: cantonLineOf(line),
      seed: SEED,
      runs: 4,
      timeoutMs: 5000,
      concurrency: 2,
      progress: 'quiet',
      toolVersion: 'mutant-bed',
    });
  } finally {
    await server.close();
  }
}

const PREVIEW_CHECKS = catalogue().filter((c) => c.id.startsWith('ledger.preview36.'));

describe('mutant bed of Canton 3.6 (a snapshot: caught faults warn)', () => {
  it('has a mutant for every 3.6 check and for the schema of every operation only 3.6 has', () => {
    expect(PREVIEW_CHECKS.length).toBe(6);
    const caught = new Set(PREVIEW.map((m) => m.caughtBy));
    expect(PREVIEW_CHECKS.filter((c) => !caught.has(c.id)).map((c) => c.id)).toEqual([]);
    expect(PREVIEW.filter((m) => m.name.startsWith('schema-')).map((m) => m.caughtBy).sort()).toEqual(['ledger.schema.get-v2-jose-jwks', 'ledger.schema.post-v2-commands-completion-by-hash', 'ledger.schema.post-v2-updates-update-by-hash'].sort());
  });

  it('the faultless 3.6 reference passes every 3.6 check (open and secured)', async () => {
    const openIds = PREVIEW_CHECKS.filter((c) => c.requires?.auth === undefined).map((c) => c.id);
    const { exitCode, report } = await certify({}, openIds);
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([]);
    expect(exitCode).toBe(0);
    const securedIds = PREVIEW_CHECKS.filter((c) => c.requires?.auth !== undefined).map((c) => c.id);
    const s = await certify({}, securedIds, { server: { http: {} } });
    expect(s.report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([]);
  }, 180_000);

  it('judged as 3.5, the 3.6 checks skip, naming the line', async () => {
    const { exitCode, report } = await certify({}, PREVIEW_CHECKS.filter((c) => c.requires?.auth === undefined).map((c) => c.id), undefined, '3.5.10');
    expect(exitCode).toBe(0);
    expect(report.checks.map((c) => c.status)).toEqual(report.checks.map(() => 'skip'));
    expect(report.checks.map((c) => c.message).join('\n')).toMatch(/Canton 3\.5/);
  }, 120_000);

  for (const m of PREVIEW) {
    it(`${m.name}: ${m.description} -> ${m.caughtBy} warns`, async () => {
      const fault = typeof m.fault === 'function' ? m.fault(profile) : m.fault;
      const { exitCode, report } = await certify(fault, selectionFor(m), m);
      const check = report.checks.find((c) => c.id === m.caughtBy);
      expect(check?.status, `${m.caughtBy}: ${check?.message}`).toBe('warn');
      expect(check?.message).toMatch(/^Canton 3\.6's document is a snapshot of main, not a release line, so this rule warns instead of failing: /);
      expect(check?.evidence?.curl).toBeTruthy();
      expect(exitCode).toBe(0);
    }, 120_000);
  }
});
