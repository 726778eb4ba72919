import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../conformance/src/report/model.js';
import { loadProfile, type Profile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { staticToken } from '../../conformance/src/target/tokenProvider.js';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { localNetToken, loopbackUrls, startTestLocalNet } from '../localnet/support.js';

/**
 * The history judge on conformant targets: the reference server and `serve --localnet` move
 * holdings through the token-standard checks (tap, transfers v1 and v2, accept, allocations,
 * settlement), and the parsed history explains every one: no failure, no warning, and the judge
 * did judge (checks, transactions and holdings above zero).
 */
const TOKEN_CHECKS = [
  'registry.amulet.tap-reports-mint',
  'registry.transfer-factory.kind-matches-outcome',
  'registry.cross-group.transfer-context-lets-accept-succeed',
  'registry.factories.ids-work-on-ledger',
  'registry.cross-group.settlement-context-lets-settle-batch-succeed',
];

/** Failures and errors, and any warning of the history judge (a check's own SHOULD warnings, such as a profile naming no preapproved party, are not this judge's). */
const notClean = (r: Report) => r.checks.filter((c) => c.status === 'fail' || c.status === 'error' || (c.status === 'warn' && /history/.test(c.message ?? ''))).map((c) => `${c.id}: ${c.status} ${c.message}`);

function expectJudged(r: Report) {
  expect(notClean(r)).toEqual([]);
  expect(r.history).toMatchObject({ mode: 'parser', violations: 0, skipped: [] });
  expect(r.history!.checks).toBeGreaterThanOrEqual(3);
  expect(r.history!.transactions).toBeGreaterThanOrEqual(8);
  expect(r.history!.holdings).toBeGreaterThanOrEqual(10);
}

describe('history judge on the reference server', () => {
  let ref: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    ref = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
  }, 60_000);
  afterAll(() => ref?.close());

  it('explains every holding the token checks move, and is off with --history none', async () => {
    const options = { baseUrls: { registry: ref.url, ledger: ref.url, scan: ref.url }, target: ref.url, profile: loadProfile('reference'), only: TOKEN_CHECKS, seed: 7, runs: 4, timeoutMs: 10_000, concurrency: 1, progress: 'quiet' as const, toolVersion: 'history-test', oracle: 'none' as const };
    expectJudged((await runSuite(options)).report);
    const off = (await runSuite({ ...options, history: 'none' })).report;
    expect(notClean(off)).toEqual([]);
    expect(off.history).toMatchObject({ mode: 'none', checks: 0, transactions: 0 });
    // --judge none turns the history judge off too, unless --history says otherwise.
    expect((await runSuite({ ...options, judge: 'none' })).report.history?.mode).toBe('none');
  }, 300_000);
});

describe('history judge on serve --localnet', () => {
  let net: LocalNet;
  beforeAll(async () => {
    net = await startTestLocalNet();
  }, 60_000);
  afterAll(() => net?.close());

  it('explains every holding the token checks move through LocalNet\'s listeners', async () => {
    const urls = loopbackUrls(net);
    const reference = loadProfile('reference');
    // LocalNet's own ids differ from the reference world's: only what the token checks need, as the secured participant's admin.
    const profile: Profile = {
      ...reference,
      name: 'localnet-history',
      ledger: { ...reference.ledger!, userId: 'ledger-api-user' },
      registry: { apis: reference.registry!.apis!, devNetTap: true, transferSender: net.validatorParty, transferReceiver: net.validatorParty },
      scan: {},
      auth: { required: true },
    };
    const { report } = await runSuite({
      baseUrls: { registry: urls.tokenStandard, ledger: urls.ledger, scan: urls.scan }, target: urls.ledger, profile, tokens: staticToken(await localNetToken()),
      only: TOKEN_CHECKS, seed: 7, runs: 4, timeoutMs: 10_000, concurrency: 1, progress: 'quiet', toolVersion: 'history-test', oracle: 'none',
    });
    expectJudged(report);
  }, 300_000);
});
