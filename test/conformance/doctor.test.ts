import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreflightResult } from '../../conformance/src/preflight/preflight.js';
import { claimsFor, mintToken } from '../../conformance/src/target/mintToken.js';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { cliInProcess as cli } from './helpers/cliInProcess.js';
import { fakeServer, type FakeServer } from './helpers/fakeServer.js';

const exec = promisify(execFile);
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `cc-doctor-${p}-`));
const SECRET = 'doctor-test-secret-0123456789';
const SIGNING = { alg: 'HS256' as const, secret: SECRET };
const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

/** A profile file of our own: a vendor's participant that the suite may write to, secured with HS256. */
function vendorProfile(extra: { signing?: boolean; user?: string; party?: string; readerUser?: string } = {}): string {
  const file = join(tmp('profile'), 'vendor.yaml');
  const user = extra.user ?? 'vendor';
  writeFileSync(
    file,
    [
      'name: vendor',
      'groups: [ledger]',
      'writes: true',
      'ledger:',
      `  userId: ${user}`,
      extra.party === undefined ? '  allocateParties: true' : `  party: "${extra.party}"`,
      `  template: { templateId: "${ASSET}", createArguments: { issuer: "{{party}}", owner: "{{party}}", amount: "{{amount}}", observers: null }, archiveChoice: Archive }`,
      'auth:',
      '  required: true',
      ...(extra.signing === false ? [] : [`  signing: { alg: HS256, secret: ${SECRET}, userId: ${user} }`]),
      ...(extra.readerUser === undefined ? [] : [`  readerUser: ${extra.readerUser}`]),
    ].join('\n'),
  );
  return file;
}

/** A read-only profile that says the target serves the ledger. */
function ledgerReadOnlyProfile(): string {
  const file = join(tmp('profile'), 'ledger-ro.yaml');
  writeFileSync(file, 'name: ledger-read-only\ngroups: [ledger]\nwrites: false\n');
  return file;
}

let open: ReferenceServer;
let secured: ReferenceServer;
let registryOnly: FakeServer;
let adminToken: string;
let version: string;

beforeAll(async () => {
  open = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
  secured = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth: { mode: 'hs256', key: { kind: 'secret', secret: SECRET } }, log: quiet });
  adminToken = await mintToken(SIGNING, claimsFor(SIGNING, 'participant_admin'));
  // The vendor's own user, holding no rights yet.
  const created = await fetch(`${secured.url}/v2/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user: { id: 'vendor', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [] }),
  });
  expect(created.status).toBe(200);
  version = ((await (await fetch(`${open.url}/v2/version`)).json()) as { version: string }).version;
  // A token registry and nothing else: the reference's /registry/ paths, 404 for every other one.
  registryOnly = await fakeServer(async (req, res) => {
    if (!req.url?.startsWith('/registry/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    const upstream = await fetch(`${open.url}${req.url}`, { method: req.method ?? 'GET', headers: { 'content-type': 'application/json' }, ...(req.method === 'POST' ? { body: req.body } : {}) });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(await upstream.text());
  });
}, 60_000);

afterAll(async () => {
  await registryOnly?.close();
  await secured?.close();
  await open?.close();
});

describe('doctor against the reference, unsecured', () => {
  it('is ready (exit 0): the kinds answer, the Canton version is printed, the auth checks skip for the reason the profile gives', async () => {
    const r = await cli('doctor', '--target', open.url, '--profile', 'reference');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^canton-conformance doctor: READY \(exit 0\)/);
    expect(r.out).toContain(`Canton version: ${version}`);
    expect(r.out).toMatch(/yes\s+ledger\s+GET .*\/v2\/version: answers as a JSON Ledger API v2/);
    expect(r.out).toMatch(/yes\s+registry\s+GET .*\/registry\/metadata\/v1\/info/);
    expect(r.out).toMatch(/yes\s+scan\s+GET .*\/v0\/dso/);
    expect(r.out).toContain('Token: the ledger asks for no token');
    expect(r.out).toMatch(/\s+\d+\s+profile 'reference' declares no authentication \(auth\.required\): ledger\.auth\./);
  });

  it('--json gives the typed result: the version a judgement by version reads, the skips grouped by reason', async () => {
    const r = await cli('doctor', '--target', open.url, '--profile', 'reference', '--json', '--only', 'ledger');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out) as PreflightResult;
    expect(result).toMatchObject({ status: 'ready', exitCode: 0, cantonVersion: version, auth: { secured: false, token: 'not-needed' }, problems: [] });
    expect(result.skips).toEqual([{ reason: "profile 'reference' declares no authentication (auth.required)", checks: expect.arrayContaining(['ledger.auth.missing-token-401']) as string[] }]);
    // The reference is a Canton 3.5 participant: 3.6's rules do not apply to it, and are neither skips nor checks that can run.
    expect(result.notOnLine).toBeGreaterThan(0);
    expect(result.skips.flatMap((g) => g.checks).some((id) => id.startsWith('ledger.preview36.'))).toBe(false);
    expect(result.willRun).toBe(result.selected - result.skips[0]!.checks.length);
  });

  it("--json's selected is the text's: the checks that apply, those not on the target's Canton line counted apart", async () => {
    const only = ['--only', 'ledger.version.shape,ledger.auth.missing-token-401,ledger.preview36.*'];
    const json = JSON.parse((await cli('doctor', '--target', open.url, '--profile', 'reference', '--json', ...only)).out) as PreflightResult;
    const text = (await cli('doctor', '--target', open.url, '--profile', 'reference', ...only)).out;
    expect(json.notOnLine).toBeGreaterThan(0);
    expect(json).toMatchObject({ selected: 2, willRun: 1 });
    expect(text).toContain(`Checks: 2 selected, 1 can run, 1 will skip (${json.notOnLine} more not on the target's Canton line):`);
  });

  it("says how many selected checks are of rules the target's Canton line lacks, and does not count them as skips", async () => {
    const r = await cli('doctor', '--target', open.url, '--profile', 'reference', '--only', 'ledger.version.shape,ledger.preview36.*');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Checks: 1 selected, 1 can run, 0 will skip \(\d+ more not on the target's Canton line\)/);
  });
});

describe('doctor against the reference secured with HS256, as a vendor user', () => {
  it('names the right the vendor user lacks and how to grant it (exit 2); the printed call grants it, and then it is ready', async () => {
    const profile = vendorProfile();
    const r = await cli('doctor', '--target', secured.url, '--profile', profile, '--only', 'ledger');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^canton-conformance doctor: CANNOT BE CERTIFIED AS CONFIGURED \(exit 2\)/);
    expect(r.out).toContain("Token: the token works: user 'vendor'");
    expect(r.out).toContain("Rights of user 'vendor': none");
    expect(r.out).toMatch(/MISSING ParticipantAdmin: \d+ selected check\(s\) need it/);
    expect(r.out).toMatch(/user 'vendor' lacks ParticipantAdmin/);
    const grant = r.out.split('\n').find((l) => l.trim().startsWith('curl -X POST'))!.trim();
    expect(grant).toContain(`${secured.url}/v2/users/vendor/rights`);
    const json = JSON.parse((await cli('doctor', '--target', secured.url, '--profile', profile, '--only', 'ledger', '--json')).out) as PreflightResult;
    expect(json.rights.missing.map((m) => m.right)).toEqual([{ kind: 'ParticipantAdmin' }]);
    expect(json.cantonVersion).toBe(version);

    // An admin runs the printed line as printed; the next preflight finds the right.
    await exec('/bin/sh', ['-c', grant], { env: { ...process.env, ADMIN_TOKEN: adminToken } });
    const after = await cli('doctor', '--target', secured.url, '--profile', profile, '--only', 'ledger');
    expect(after.out).toMatch(/has\s+ParticipantAdmin/);
    expect(after.code).toBe(0);
  }, 60_000);

  it('with a party of its own and no admin right: names the operations to leave out instead, and without them it is ready', async () => {
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const allocated = await fetch(`${secured.url}/v2/parties`, { method: 'POST', headers: admin, body: JSON.stringify({ partyIdHint: 'vendor-desk', identityProviderId: '' }) });
    const party = ((await allocated.json()) as { partyDetails: { party: string } }).partyDetails.party;
    const user = await fetch(`${secured.url}/v2/users`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ user: { id: 'desk', primaryParty: party, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAs: { value: { party } } } }] }),
    });
    expect(user.status).toBe(200);
    const profile = vendorProfile({ user: 'desk', party });
    const r = await cli('doctor', '--target', secured.url, '--profile', profile, '--only', 'ledger');
    expect(r.code).toBe(2);
    expect(r.out).toContain(`has     CanActAs ${party}`);
    // What the profile leaves out that checks ask for while they run: named, as the run's skips then say.
    expect(r.out).toMatch(/some skip while they run for what profile 'vendor' leaves out:\n\s+- ledger\.allocateParties: .*\n\s+- ledger\.template\.interfaceId: .*\n\s+- ledger\.template\.exercise: .*\n\s+- ledger\.secondTemplate: /);
    expect(r.out).toMatch(/MISSING ParticipantAdmin: \d+ selected check\(s\) need it \(party and user management/);
    const skip = /^\s+--skip '([^']+)'$/m.exec(r.out)?.[1];
    expect(skip, 'doctor suggests what to leave out').toBeDefined();
    expect(skip!.split(',')).toEqual(expect.arrayContaining(['getV2Parties', 'postV2Users', 'getV2Idps']));
    const without = await cli('doctor', '--target', secured.url, '--profile', profile, '--only', 'ledger', '--skip', skip!);
    expect(without.out).not.toContain('MISSING');
    expect(without.code).toBe(0);
    // And the run the doctor said is ready fails nothing: checks that need the admin right only on
    // their way (onboarding an external party, listing parties) skip, naming it.
    const dir = tmp('desk-run');
    const ran = await cli('run', '--target', secured.url, '--profile', profile, '--only', 'ledger', '--skip', skip!, '--report-dir', dir, '--quiet', '--seed', '1');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(ran.code).toBe(0);
    expect(report.preflight).toMatchObject({ status: 'ready', lacksRights: ['ParticipantAdmin'] });
    const skippedFor = (field: string) => report.checks.filter((c) => c.status === 'skip' && (c.message ?? '').includes(`(${field})`)).length;
    expect(skippedFor('ledger.allocateParties'), 'the gap doctor named is what the run skips for').toBeGreaterThan(0);
    expect(skippedFor('ledger.template.interfaceId')).toBeGreaterThan(0);
    const onboarding = report.checks.find((c) => c.id === 'ledger.interactive.round-trip');
    expect(onboarding?.message).toMatch(/^the run's user lacks ParticipantAdmin .*postV2PartiesExternalGenerate-topology answered 403/);
    expect(validateReport(report)).toEqual([]);
    // Canton 3.6's rules (some create users) do not apply to this 3.5 participant: the rights they would need are not asked for.
    const line = await cli('doctor', '--target', secured.url, '--profile', profile, '--only', 'ledger.version.shape,ledger.preview36.*');
    expect(line.out).not.toContain('MISSING');
    expect(line.out).toMatch(/more not on the target's Canton line/);
    expect(line.code).toBe(0);
  });

  it("names a reader (auth.readerUser) without CanReadAsAnyParty, and one that does not exist (exit 2), with the call that grants the right", async () => {
    const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    // An admin, which reading as any party does not come with.
    const made = await fetch(`${secured.url}/v2/users`, { method: 'POST', headers, body: JSON.stringify({ user: { id: 'admin-reader', primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { ParticipantAdmin: { value: {} } } }] }) });
    expect(made.status).toBe(200);
    const r = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ user: 'participant_admin', readerUser: 'admin-reader' }), '--only', 'ledger.filters.*');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/auth\.readerUser 'admin-reader' lacks CanReadAsAnyParty, so the checks that read for any party as it would meet 403; grant it: curl -X POST .*\/v2\/users\/admin-reader\/rights/);
    const missing = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ user: 'participant_admin', readerUser: 'nobody-here' }), '--only', 'ledger.filters.*');
    expect(missing.code).toBe(2);
    expect(missing.out).toContain("auth.readerUser 'nobody-here' does not exist on the participant");
    // Granted, the profile is ready.
    const granted = await fetch(`${secured.url}/v2/users/admin-reader/rights`, { method: 'POST', headers, body: JSON.stringify({ userId: 'admin-reader', rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }], identityProviderId: '' }) });
    expect(granted.status).toBe(200);
    expect((await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ user: 'participant_admin', readerUser: 'admin-reader' }), '--only', 'ledger.filters.*')).code).toBe(0);
  });

  it('a token the ledger refuses, and no token at all, are exit 2 saying which', async () => {
    const refused = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ signing: false }), '--token', 'not-a-jwt');
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/the ledger refused the token \(401\): it is not a JWT \(three base64url parts/);
    // What the token shows without its key is said: expired, or 'Bearer ' pasted in.
    const old = await mintToken(SIGNING, { ...claimsFor(SIGNING, 'participant_admin'), iat: 1_700_000_000, exp: 1_700_000_060 });
    const expired = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ signing: false }), '--token', old);
    expect(expired.code).toBe(2);
    expect(expired.out).toContain('the ledger refused the token (401): it expired at 2023-11-14T22:14:20.000Z (its exp): mint a fresh one');
    const bearer = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ signing: false }), '--token', `Bearer ${old}`);
    expect(bearer.out).toContain("it starts with 'Bearer ': give the token alone");
    const foreign = await mintToken(SIGNING, claimsFor(SIGNING, 'participant_admin'), true);
    expect((await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ signing: false }), '--token', foreign)).out)
      .toContain('the ledger refused the token (401): it is expired, not yet valid, wrongly signed, or for another audience or scope');
    const missing = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ signing: false }));
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/requires a token \(401 without one\): give --token/);
    const ghost = await mintToken(SIGNING, claimsFor(SIGNING, 'nobody-here'));
    const unknown = await cli('doctor', '--target', secured.url, '--profile', vendorProfile({ signing: false }), '--token', ghost);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/does not exist on the participant or is deactivated/);
  });
});

describe('doctor: wrong or missing targets', () => {
  it('an unreachable URL is exit 3', async () => {
    const closed = await fakeServer(() => undefined);
    await closed.close();
    const r = await cli('doctor', '--target', closed.url, '--profile', 'reference');
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/UNREACHABLE \(exit 3\)[\s\S]*connection refused/);
    // A port fetch will not connect to answers no probe either.
    const blocked = await cli('doctor', '--target', 'http://127.0.0.1:1', '--profile', 'reference');
    expect(blocked.code).toBe(3);
    expect(blocked.out).toMatch(/UNREACHABLE \(exit 3\)[\s\S]*bad port/);
    const blockedDir = tmp('run-blocked');
    expect((await cli('run', '--target', 'http://127.0.0.1:1', '--profile', 'reference', '--report-dir', blockedDir, '--quiet')).code).toBe(3);
    expect(JSON.parse(readFileSync(join(blockedDir, 'report.json'), 'utf8'))).toMatchObject({ checks: [], unreachable: { url: 'http://127.0.0.1:1' }, preflight: { status: 'unreachable' } });
    const dir = tmp('run-unreachable');
    expect((await cli('run', '--target', closed.url, '--profile', 'reference', '--report-dir', dir, '--quiet')).code).toBe(3);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.preflight).toMatchObject({ status: 'unreachable', problems: [expect.stringMatching(/connection refused/) as string] });
    expect(validateReport(report)).toEqual([]);
  });

  it('a URL that answers but is no Canton API: ready under the default profile (it claims nothing), saying no group answers as its API; a target that hangs is exit 3', async () => {
    const web = await fakeServer((_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    try {
      const r = await cli('doctor', '--target', web.url);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^canton-conformance doctor: READY \(exit 0\), but no group answers as its API: is this the JSON Ledger API, registry or Scan URL\? \(see the notes\)/);
    } finally {
      await web.close();
    }
    // The reference, for contrast: its groups answer, the headline is plain.
    expect((await cli('doctor', '--target', open.url)).out).toMatch(/^canton-conformance doctor: READY \(exit 0\)\n/);
    const hangs = await fakeServer(() => undefined);
    try {
      const r = await cli('doctor', '--target', hangs.url, '--timeout', '300');
      expect(r.code).toBe(3);
      expect(r.out).toMatch(/UNREACHABLE \(exit 3\)[\s\S]*sent no HTTP answer/);
    } finally {
      await hangs.close();
    }
  });

  it('a URL that ends with the start of the API\'s paths (.../registry, .../v2) is exit 2, naming the base URL to give', async () => {
    process.env['CC_ALLOCATION_INSTRUCTION_ID'] = '00b1cf648fa1d69ec40a8ab003b392798cdb9d35c1c28a89a718a87c8f1de5a710';
    try {
      const r = await cli('doctor', '--registry-url', `${registryOnly.url}/registry`, '--profile', 'registry');
      expect(r.code).toBe(2);
      expect(r.out).toContain(`GET ${registryOnly.url}/registry/registry/metadata/v1/info answered 404`);
      expect(r.out).toContain(`(the URL ends with the start of the API's own paths: give the base URL, ${registryOnly.url})`);
    } finally {
      delete process.env['CC_ALLOCATION_INSTRUCTION_ID'];
    }
    const v2 = await cli('doctor', '--ledger-url', `${open.url}/v2`, '--profile', ledgerReadOnlyProfile());
    expect(v2.code).toBe(2);
    expect(v2.out).toContain(`give the base URL, ${open.url})`);
  });

  it('a registry URL given as a ledger is exit 2, naming what answered; the same URL as a registry is ready', async () => {
    const asLedger = await cli('doctor', '--ledger-url', registryOnly.url, '--profile', ledgerReadOnlyProfile());
    expect(asLedger.code).toBe(2);
    expect(asLedger.out).toMatch(/NO\s+ledger\s+GET .*\/v2\/version: answered 404/);
    expect(asLedger.out).toMatch(/this is not a JSON Ledger API v2 \(a version string\), yet profile 'ledger-read-only' says the target serves the ledger group/);
    expect(asLedger.out).toContain('Canton version: not reported');

    process.env['CC_ALLOCATION_INSTRUCTION_ID'] = '00b1cf648fa1d69ec40a8ab003b392798cdb9d35c1c28a89a718a87c8f1de5a710';
    try {
      const asRegistry = await cli('doctor', '--registry-url', registryOnly.url, '--profile', 'registry');
      expect(asRegistry.out).toMatch(/yes\s+registry/);
      expect(asRegistry.code).toBe(0);
    } finally {
      delete process.env['CC_ALLOCATION_INSTRUCTION_ID'];
    }
  });
});

describe('run performs the preflight first', () => {
  it('records a ready verdict with the Canton version in report.json', async () => {
    const dir = tmp('run-ready');
    const r = await cli('run', '--target', open.url, '--profile', 'reference', '--only', 'ledger.version.shape', '--oracle', 'none', '--seed', '1', '--report-dir', dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`preflight: ready · Canton ${version.replace(/\./g, '\\.')} · no auth · 1 of 1 selected checks can run`));
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.preflight).toEqual({ status: 'ready', cantonVersion: version, problems: [] });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(` · Canton ${version} · `);
    expect(validateReport(report)).toEqual([]);
  }, 60_000);

  it('does not start when the preflight says the target cannot be certified (exit 2), and still writes the reports', async () => {
    const dir = tmp('run-stopped');
    const r = await cli('run', '--target', secured.url, '--profile', vendorProfile({ signing: false }), '--token', 'not-a-jwt', '--report-dir', dir, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/preflight: cannot be certified as configured[\s\S]*the ledger refused the token \(401\)/);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    expect(report).toMatchObject({ verdict: 'fail', checks: [], preflight: { status: 'misconfigured' } });
    expect(validateReport(report)).toEqual([]);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^## canton-conformance: ❌ NOT STARTED[\s\S]*refused the token/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<failure message="the target cannot be certified as configured: /);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/data-testid="verdict">NOT STARTED</);
  });
});
