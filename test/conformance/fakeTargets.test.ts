import { afterEach, describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import type { Profile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { fakeServer, json, type FakeServer } from './helpers/fakeServer.js';

/**
 * Checks against small hand-written targets, for behaviour the reference server's default world
 * does not show (a Scan node without complete rounds, a target without some endpoints).
 */
let target: FakeServer | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

const PARTY = `bob::1220${'c'.repeat(64)}`;

async function certify(profile: Profile, only: string[]) {
  const { report, exitCode } = await runSuite({
    baseUrls: { registry: target!.url, ledger: target!.url, scan: target!.url },
    target: target!.url,
    profile,
    only,
    seed: 3,
    runs: 5,
    timeoutMs: 2000,
    progress: 'quiet',
    toolVersion: 'test',
    checks: catalogue(),
  });
  return { exitCode, by: Object.fromEntries(report.checks.map((c) => [c.id, c])), report };
}

const scanProfile = (earliestRound: number | null): Profile => ({ name: 'fake-scan', groups: ['scan'], writes: false, scan: { preapprovalParty: PARTY, earliestRound } });

describe('a Scan node whose reward accounting has no complete round yet', () => {
  it('404 with {"error"} is what the profile expects: shape and value checks pass', async () => {
    target = await fakeServer((req, res) => {
      if (req.url!.includes('rounds/earliest-available')) return json(res, 404, { error: 'No reward accounting data available yet' });
      return json(res, 404, { error: `No TransferPreapproval found for party: ${decodeURIComponent(req.url!.split('/').pop()!)}` });
    });
    const { by } = await certify(scanProfile(null), ['scan.earliest-round.shape', 'scan.earliest-round.expected-value', 'scan.schema.get-reward-accounting-earliest-available-round']);
    expect(by['scan.earliest-round.shape']!.status).toBe('pass');
    expect(by['scan.earliest-round.expected-value']!.status).toBe('pass');
    expect(by['scan.schema.get-reward-accounting-earliest-available-round']!.status).toBe('pass');
  });

  it('a 404 with another body shape fails, pointing at the body', async () => {
    target = await fakeServer((_req, res) => json(res, 404, { message: 'nothing yet' }));
    const { by, exitCode } = await certify(scanProfile(null), ['scan.earliest-round.shape', 'scan.earliest-round.expected-value', 'scan.schema.get-reward-accounting-earliest-available-round']);
    expect(exitCode).toBe(1);
    expect(by['scan.earliest-round.expected-value']!.message).toMatch(/the error body must be \{"error": "<message>"\}/);
    expect(by['scan.schema.get-reward-accounting-earliest-available-round']!.message).toMatch(/error/);
  });

  it('a 200 where the profile expects 404 fails; a negative round fails the shape check', async () => {
    target = await fakeServer((_req, res) => json(res, 200, { earliest_round: -1 }));
    const { by } = await certify(scanProfile(null), ['scan.earliest-round.shape', 'scan.earliest-round.expected-value']);
    expect(by['scan.earliest-round.shape']!.message).toMatch(/non-negative integer/);
    expect(by['scan.earliest-round.expected-value']!.message).toMatch(/expected HTTP 404, got 200/);
  });
});

describe('a target without the endpoint answers 404 to everything', () => {
  it('the unknown-party property does not pass vacuously: the known party must answer 200 first', async () => {
    target = await fakeServer((_req, res) => json(res, 404, { error: 'no such endpoint' }));
    const { by } = await certify(scanProfile(1), ['scan.preapproval.unknown-party-404']);
    expect(by['scan.preapproval.unknown-party-404']!.status).toBe('fail');
    expect(by['scan.preapproval.unknown-party-404']!.message).toMatch(/control: the known party/);
  });

  it('without a known party in the profile it passes only with a warning saying so', async () => {
    target = await fakeServer((_req, res) => json(res, 404, { error: 'no such endpoint' }));
    const { by } = await certify({ name: 'bare', groups: ['scan'], writes: false }, ['scan.preapproval.unknown-party-404']);
    expect(by['scan.preapproval.unknown-party-404']!.status).toBe('warn');
    expect(by['scan.preapproval.unknown-party-404']!.message).toMatch(/a target without this endpoint would pass too/);
  });
});

describe('warnings that keep a pass honest', () => {
  it('most responses 401/403 on requests meant to succeed: the token is probably wrong', async () => {
    target = await fakeServer((_req, res) => json(res, 401, { code: 'UNAUTHENTICATED', cause: 'no', context: {}, errorCategory: 6 }));
    const { report } = await certify({ name: 'p', groups: ['ledger'], writes: false }, ['ledger']);
    expect(report.warnings.join('\n')).toMatch(/were 401\/403: the token .* is probably wrong/);
  });

  it('most responses 404: the profile ids or the base URLs are probably wrong', async () => {
    target = await fakeServer((_req, res) => json(res, 404, { error: 'not found' }));
    const { report } = await certify({ name: 'p', groups: ['ledger'], writes: false }, ['ledger']);
    expect(report.warnings.join('\n')).toMatch(/were 404: does the profile name ids that exist/);
  });
});
