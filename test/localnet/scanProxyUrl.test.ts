import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as doctor } from '../../conformance/src/cli/doctor.js';
import { run } from '../../conformance/src/cli/run.js';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';
import { targetArgsOf, withScanProxy } from '../../conformance/src/cli/targetFlags.js';
import { preflight } from '../../conformance/src/preflight/preflight.js';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { selectChecks } from '../../conformance/src/runner/select.js';
import { DEFAULT_PROFILE, parseProfile, type Profile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { staticToken } from '../../conformance/src/target/tokenProvider.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import type { Report } from '../../conformance/src/report/model.js';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { jsonResponse, pathOf, startMutant, type Fault } from '../mutants/mutantProxy.js';
import { ok200, isObject } from '../mutants/mutantKit.js';
import { localNetToken, loopbackUrls, startTestLocalNet } from './support.js';

/**
 * `--scan-proxy-url`: a validator operator certifies the scan proxy their validator serves
 * (LocalNet's at :2000/api/validator) against the network's Scan at another URL.
 */
describe('run --scan-url S --scan-proxy-url V: the scan proxy at the validator', () => {
  let net: LocalNet;
  let urls: ReturnType<typeof loopbackUrls>;
  let token: string;
  const SCAN_ONLY: Profile = { name: 'scan-with-proxy', groups: ['scan'], writes: false };
  const ONLY = ['scan.proxy.*'];

  beforeAll(async () => {
    net = await startTestLocalNet();
    urls = loopbackUrls(net);
    token = await localNetToken();
  });
  afterAll(() => net.close());

  async function certify(proxyUrl: string, withToken = true): Promise<Report> {
    const { report } = await runSuite({
      baseUrls: { registry: urls.tokenStandard, ledger: urls.ledger, scan: urls.scan },
      target: urls.scan,
      profile: withScanProxy(SCAN_ONLY, targetArgsOf({ 'scan-url': urls.scan, 'scan-proxy-url': proxyUrl }), false),
      ...(withToken ? { tokens: staticToken(token) } : {}),
      only: ONLY,
      seed: 1,
      runs: 4,
      timeoutMs: 5000,
      progress: 'quiet',
      toolVersion: 'scan-proxy-url',
    });
    return report;
  }
  const byId = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.id, `${c.status}${c.message ? `: ${c.message}` : ''}`]));
  const PASSING = ['scan.proxy.same-as-scan', 'scan.proxy.dso-party-id', 'scan.proxy.dso', 'scan.proxy.open-round-now', 'scan.proxy.featured-apps-party-checked', 'scan.proxy.answers-in-full'];

  it('Scan serves no proxy forms itself: the checks can pass only by asking the validator', async () => {
    expect((await fetch(`${urls.scan}/v0/scan-proxy/dso-party-id`)).status).toBe(404);
  });

  it('passes the proxy checks against the validator, with the run\'s token', async () => {
    const checks = byId(await certify(urls.validator));
    for (const id of PASSING) expect(checks[id], id).toBe('pass');
    expect(Object.values(checks).filter((s) => /^(fail|error)/.test(s))).toEqual([]);
  }, 120_000);

  it('sends the run\'s token to the proxy: without one the validator refuses (401) and the checks fail', async () => {
    const checks = byId(await certify(urls.validator, false));
    expect(checks['scan.proxy.dso-party-id']).toMatch(/^fail.*401/);
  }, 120_000);

  /** Faults of a validator's proxy, in front of its listener; each must fail the check named. */
  const faults: { name: string; caughtBy: string; message: RegExp; fault: Fault }[] = [
    {
      name: 'the proxy names another DSO party than Scan',
      caughtBy: 'scan.proxy.same-as-scan',
      message: /^fail: the proxy names another DSO party than Scan/,
      fault: {
        response: (req, res) =>
          pathOf(req.url).endsWith('/v0/scan-proxy/dso-party-id')
            ? ok200(res, (v) => (isObject(v) ? { ...v, dso_party_id: `DSO::1220${'ab'.repeat(32)}` } : v))
            : res,
      },
    },
    {
      name: 'the proxy serves an AmuletRules other than Scan\'s (another contract id)',
      caughtBy: 'scan.proxy.answers-in-full',
      message: /^fail: AmuletRules \(GET \/v0\/scan-proxy\/amulet-rules\) differs from Scan's answer at \/contract\/contract_id/,
      fault: {
        response: (req, res) =>
          pathOf(req.url).endsWith('/v0/scan-proxy/amulet-rules')
            ? ok200(res, (v) => {
                if (!isObject(v) || !isObject(v.amulet_rules) || !isObject(v.amulet_rules.contract)) return v;
                return { ...v, amulet_rules: { ...v.amulet_rules, contract: { ...v.amulet_rules.contract, contract_id: `00${'cd'.repeat(34)}` } } };
              })
            : res,
      },
    },
    {
      name: 'the proxy answers the open rounds with none open',
      caughtBy: 'scan.proxy.open-round-now',
      message: /^fail: no open round is open now/,
      fault: {
        request: (req, upstream) =>
          pathOf(req.url).endsWith('/v0/scan-proxy/open-and-issuing-mining-rounds')
            ? jsonResponse(200, { open_mining_rounds: [], issuing_mining_rounds: [] })
            : upstream.send(req),
      },
    },
  ];

  for (const f of faults) {
    it(`fails ${f.caughtBy} when ${f.name}`, async () => {
      const validator = new URL(urls.validator);
      const mutant = await startMutant(validator.origin, f.fault);
      try {
        const checks = byId(await certify(`${mutant.url}${validator.pathname}`));
        expect(checks[f.caughtBy], f.caughtBy).toMatch(f.message);
        // The proxy's other reads still pass: the fault, not the routing, fails the check.
        expect(checks['scan.proxy.dso']).toBe('pass');
      } finally {
        await mutant.close();
      }
    }, 120_000);
  }

  it('the CLI: doctor and run --scan-url S --scan-proxy-url V --profile scan-readonly --token T pass', async () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const flags = ['--scan-url', urls.scan, '--scan-proxy-url', urls.validator, '--profile', 'scan-readonly', '--token', token, '--only', 'scan.proxy.*'];
      expect(await doctor(flags)).toBe(0);
      const dir = mkdtempSync(join(tmpdir(), 'scan-proxy-url-'));
      expect(await run([...flags, '--report-dir', dir, '--quiet'])).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
      expect(byId(report)['scan.proxy.same-as-scan']).toBe('pass');
      // The report names the proxy among the run's targets, and stays valid.
      expect(report.targets.scanProxy).toBe(urls.validator.replace(/\/+$/, ''));
      expect(validateReport(report)).toEqual([]);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }, 120_000);

  it('doctor asks the proxy at its own URL for the DSO party, with the run\'s token', async () => {
    const profile = withScanProxy(SCAN_ONLY, targetArgsOf({ 'scan-proxy-url': urls.validator }), false);
    const checks = selectChecks(catalogue(), ONLY, []);
    const ok = await preflight({ baseUrls: { scan: urls.scan }, profile, strict: true, tokens: staticToken(token), checks, timeoutMs: 5000 });
    expect(ok.kinds).toContainEqual(expect.objectContaining({ group: 'scan', request: `GET ${urls.validator}/v0/scan-proxy/dso-party-id`, ok: true, status: 200 }));
    expect(ok.problems).toEqual([]);
    const refused = await preflight({ baseUrls: { scan: urls.scan }, profile, strict: true, checks, timeoutMs: 5000 });
    expect(refused.exitCode).toBe(2);
    expect(refused.problems.join('\n')).toMatch(/scan-proxy\/dso-party-id answered 401: the scan proxy refuses the run's missing token/);
    const scanAsProxy = await preflight({ baseUrls: { scan: urls.scan }, profile: withScanProxy(SCAN_ONLY, targetArgsOf({ 'scan-proxy-url': urls.scan }), false), strict: true, checks, timeoutMs: 5000 });
    expect(scanAsProxy.problems.join('\n')).toMatch(/not a validator's scan proxy/);
    const down = await preflight({ baseUrls: { scan: urls.scan }, profile: withScanProxy(SCAN_ONLY, targetArgsOf({ 'scan-proxy-url': 'http://127.0.0.1:1/api/validator' }), false), strict: true, checks, timeoutMs: 5000 });
    expect(down.exitCode).toBe(3);
  });
});

describe('--scan-proxy-url and scan.scanProxyUrl', () => {
  const noProxy: Profile = { name: 'p', groups: ['scan'], writes: false };
  it('say the target serves the proxy there; the flag wins over the profile; without either nothing changes', () => {
    const viaFlag = withScanProxy(noProxy, targetArgsOf({ 'scan-url': 'http://scan', 'scan-proxy-url': 'http://v/api/validator/' }), false);
    expect(viaFlag.scan).toEqual({ scanProxy: true, scanProxyUrl: 'http://v/api/validator' });
    const profiled = parseProfile({ name: 'q', groups: ['scan'], writes: false, scan: { scanProxyUrl: 'https://v.example/api/validator' } }, 'q.yaml');
    expect(withScanProxy(profiled, targetArgsOf({ 'scan-url': 'http://scan' }), false).scan).toEqual({ scanProxy: true, scanProxyUrl: 'https://v.example/api/validator' });
    expect(withScanProxy(profiled, targetArgsOf({ 'scan-url': 'http://scan', 'scan-proxy-url': 'http://w' }), false).scan?.scanProxyUrl).toBe('http://w');
    expect(withScanProxy(noProxy, targetArgsOf({ 'scan-url': 'http://scan' }), false)).toBe(noProxy);
  });
  it('refuses what cannot be certified: no Scan to judge the proxy by, or not a URL', () => {
    expect(() => withScanProxy(noProxy, targetArgsOf({ 'scan-proxy-url': 'http://v' }), true)).toThrow(/give --scan-url/);
    expect(() => withScanProxy({ ...DEFAULT_PROFILE, groups: ['ledger'] }, targetArgsOf({ target: 'http://l', 'scan-proxy-url': 'http://v' }), false)).toThrow(/does not serve the scan group/);
    expect(() => targetArgsOf({ 'scan-proxy-url': 'localhost:2000' })).toThrow(UsageError);
    expect(() => parseProfile({ name: 'q', groups: ['scan'], writes: false, scan: { scanProxyUrl: 'validator:2000' } }, 'q.yaml')).toThrow(/scanProxyUrl/);
  });
});
