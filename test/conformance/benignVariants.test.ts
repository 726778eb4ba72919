import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { loadProfile } from '../../conformance/src/runner/profile.js';
import { runSuite, type SuiteOptions } from '../../conformance/src/runner/runSuite.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { ES256_PUBLIC_PEM } from '../auth/support/tokens.js';
import { startMutant, type Fault } from '../mutants/mutantProxy.js';
import { allBenignVariants, BENIGN_VARIANTS, EARLY_PATCH_RELEASE, faultOf, MOVED_ROUND_PATH, SPLICE_064_RELEASE } from '../mutants/benign/benignVariants.js';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { preflight } from '../../conformance/src/preflight/preflight.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { networkVetting } from '../mutants/benign/networkVetting.js';
import { unsaidSpliceRelease } from '../mutants/benign/otherSpliceRelease.js';
import { retryAfterUnderLoad } from '../mutants/benign/retryAfterUnderLoad.js';
import { cantonLineOf } from '../../conformance/src/runner/cantonLine.js';
import { applyGate, ranLine } from '../../conformance/src/report/gate.js';
import { SPLICE_VERSION } from '../../conformance/src/schema/spliceVersions.js';
import { dedupReportedOtherwise } from '../mutants/benign/dedupReportedOtherwise.js';
import { emptyLastUserPage } from '../mutants/benign/emptyLastUserPage.js';
import { scanPayloadTimes } from '../mutants/benign/scanPayloadTimes.js';
import { registryExtraMembers } from '../mutants/benign/extraMembers.js';
import { ignoredInstrumentPageSize } from '../mutants/benign/ignoredInstrumentPageSize.js';
import { omittedDefaults } from '../mutants/benign/omittedDefaults.js';
import { permissionOnlyWithParty } from '../mutants/benign/permissionOnlyWithParty.js';
import { PATCH_VERSION } from '../mutants/benign/otherPatchVersion.js';
import { reorderedKeys } from '../mutants/benign/reorderedKeys.js';
import { onBody } from '../mutants/mutantKit.js';

/** The registry's info names its admin `vendor:<hint>::<namespace>`: a party id of Canton's with a colon in its hint. */
const colonInAdminHint: Fault = onBody(/^\/registry\/metadata\/v1\/info$/, (v) => ({ ...v, adminId: typeof v.adminId === 'string' ? `vendor:${v.adminId}` : v.adminId }));
import { unvalidatedFactoryArguments } from '../mutants/benign/unvalidatedFactoryArguments.js';
import { nullOptionalMembers } from '../mutants/benign/nullOptionalMembers.js';
import { ignoredUnknownMembers } from '../mutants/benign/ignoredUnknownMembers.js';
import { numericStrings } from '../mutants/benign/numericStrings.js';
import { negativeOffsetCode } from '../mutants/benign/negativeOffsetCode.js';
import { unknownTrafficMembers } from '../mutants/benign/unknownTrafficMembers.js';
import { trailingNonesDropped } from '../mutants/benign/trailingNonesDropped.js';
import { IAM_USER_IDS } from '../mutants/benign/iamUserIds.js';

/**
 * The converse of the mutant bed: benign variants (test/mutants/benign/) are the reference server
 * behind rewrites that keep it conformant, as another Canton 3.5 participant or Splice app may
 * answer (its own offsets, ids, page sizes and tokens, texts, optional members, list orders,
 * times, HTTP framing), but differ from the reference. The suite, as a vendor runs it (`run
 * --profile reference-secured`: ES256 tokens, the oracle, the judge, re-interpretation and the
 * history judge on), must not fail, warn or skip anything against them that it passes against
 * the reference behind a faultless proxy (the control). All variants run at once, in one proxy:
 * one run for all of them.
 */
const SEED = 20261201;
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };
/** Secured with ES256 JWTs, as the reference-secured profile expects: tokens in headers and WebSocket subprotocols cross the variants too. */
const auth = { mode: 'es256' as const, key: { kind: 'public-key-file' as const, path: ES256_PUBLIC_PEM } };

/**
 * The whole suite through the CLI (preflight and Canton line included, the auth checks too)
 * against a fresh secured reference behind `fault`.
 */
async function certify(fault: Fault): Promise<Report> {
  const reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth, log: quiet });
  const proxy = await startMutant(reference.url, fault);
  const dir = mkdtempSync(join(tmpdir(), 'cc-benign-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await run(['--target', proxy.url, '--profile', 'reference-secured', '--report-dir', dir, '--seed', String(SEED), '--quiet']);
    return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  } finally {
    log.mockRestore();
    await proxy.close();
    await reference.close();
  }
}

/** What a run says against the target beyond passing: failures, errors, warnings, skips, run warnings. */
function findings(r: Report): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of r.checks) if (c.status !== 'pass') out.set(c.id, `${c.status}: ${c.message ?? ''}`);
  for (const w of r.warnings ?? []) out.set(`warning ${typeof w === 'string' ? w : JSON.stringify(w)}`, 'run warning');
  return out;
}

/**
 * fetch, repeated as the retry-after-under-load variant asks (429/503 with Retry-After, at most
 * three times), as the suite repeats its own requests: the variant refuses some requests once.
 */
async function served(input: string, init?: RequestInit): Promise<Response> {
  for (let i = 0; ; i++) {
    const res = await fetch(input, init);
    if (i === 3 || (res.status !== 429 && res.status !== 503) || res.headers.get('retry-after') === null) return res;
    await res.arrayBuffer();
  }
}

describe('benign variants: a conformant target that differs from the reference fails nothing', () => {
  it('lists the variants, each with a name of its own', () => {
    expect(BENIGN_VARIANTS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(BENIGN_VARIANTS.map((v) => v.name)).size).toBe(BENIGN_VARIANTS.length);
  });

  it('the variants are in effect behind the composed proxy (gapped offsets, another version, gzip, other update ids and record times, command ids of commands submitted elsewhere)', async () => {
    const reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
    const proxy = await startMutant(reference.url, allBenignVariants());
    try {
      const end = await served(`${proxy.url}/v2/state/ledger-end`);
      expect(end.headers.get('content-encoding')).toBe('gzip');
      const { offset } = (await end.json()) as { offset: number };
      expect(offset).toBeGreaterThan(2 ** 32);
      expect((offset - 2 ** 32 - 7) % 3).toBe(0);
      expect(((await (await served(`${proxy.url}/v2/version`)).json()) as { version: string }).version).toBe(PATCH_VERSION);
      const completions = await served(`${proxy.url}/v2/commands/completions?limit=1`, {
        method: 'POST',
        body: JSON.stringify({ userId: 'participant_admin', parties: ['alice::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff'], beginExclusive: 0 }),
      });
      const text = await completions.text();
      // upd-<64 hex> (other-update-ids), then shortened to v:<base64url> (short-update-ids).
      expect(text).toMatch(/"updateId": "v:[A-Za-z0-9_-]{43}"/);
      // The world's record times are whole seconds: 250 ms later, as Instant.toString writes them.
      expect(text).toMatch(/"recordTime": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.250(Z|[+-]\d\d:\d\d)"/);
      // Command ids only for commands submitted through this participant: the seeded world's
      // (its completion above) were submitted elsewhere, the one submitted now keeps its own.
      const alice = `alice::1220${'c0ffee'.repeat(10)}c0ff`;
      const readAs = async (url: string, updateId: string) => (await served(`${url}/v2/updates/update-by-id`, {
        method: 'POST',
        body: JSON.stringify({ updateId, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } }),
      })).text();
      type Completions = { completionResponse: { Completion: { value: { updateId: string; commandId: string } } } }[];
      const seeded = (JSON.parse(text) as Completions)[0]!.completionResponse.Completion.value;
      const direct = await served(`${reference.url}/v2/commands/completions?limit=1`, { method: 'POST', body: JSON.stringify({ userId: 'participant_admin', parties: [alice], beginExclusive: 0 }) });
      const seededThere = ((await direct.json()) as Completions)[0]!.completionResponse.Completion.value;
      expect(seededThere.commandId).toBe(seeded.commandId);
      expect(await readAs(reference.url, seededThere.updateId)).toContain(`"commandId":"${seeded.commandId}"`);
      expect(await readAs(proxy.url, seeded.updateId)).not.toContain('"commandId"');
      const submitted = (await (await served(`${proxy.url}/v2/commands/submit-and-wait`, {
        method: 'POST',
        body: JSON.stringify({ commands: [{ CreateCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Asset', createArguments: { issuer: alice, owner: alice, amount: '1.0', observers: [] } } }], commandId: 'benign-1', userId: 'participant_admin', actAs: [alice] }),
      })).json()) as { updateId: string };
      expect(await readAs(proxy.url, submitted.updateId)).toContain('"commandId": "benign-1"');
      // node-id-gaps: a transfer (exercise 0, its create 1 at the reference) as Canton numbers it, a fetch after each node.
      type Event = { ExercisedEvent?: { nodeId: number; lastDescendantNodeId: number }; CreatedEvent?: { nodeId: number; contractId: string } };
      const eventsOf = async (updateId: string) => (JSON.parse(await readAs(proxy.url, updateId)) as { update: { Transaction: { value: { events: Event[] } } } }).update.Transaction.value.events;
      const asset = (await eventsOf(submitted.updateId))[0]?.CreatedEvent?.contractId;
      const transfer = (await (await served(`${proxy.url}/v2/commands/submit-and-wait`, {
        method: 'POST',
        body: JSON.stringify({ commands: [{ ExerciseCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Asset', contractId: asset, choice: 'Transfer', choiceArgument: { newOwner: alice } } }], commandId: 'benign-2', userId: 'participant_admin', actAs: [alice] }),
      })).json()) as { updateId: string };
      const nodes = (await eventsOf(transfer.updateId)).map((e) => (e.ExercisedEvent ? [e.ExercisedEvent.nodeId, e.ExercisedEvent.lastDescendantNodeId] : [e.CreatedEvent?.nodeId]));
      expect(nodes).toEqual([[0, 3], [2]]);
      // iam-user-ids: the participant's users named as an identity provider names its subjects.
      expect((await served(`${proxy.url}/v2/users/${encodeURIComponent(IAM_USER_IDS[0])}`)).status).toBe(200);
      // The fourteenth hunt's: a registry of 30 instruments, paged; Scan's traffic of unknown members a 404.
      const instruments = (await (await served(`${proxy.url}/registry/metadata/v1/instruments`)).json()) as { instruments: { id: string }[]; nextPageToken?: string };
      expect([instruments.instruments.length, instruments.instruments[0]?.id, typeof instruments.nextPageToken]).toEqual([25, 'Amulet', 'string']);
      const stranger = `PAR::stranger::1220${'ab'.repeat(32)}`;
      const global = `global-synchronizer::1220${'a1'.repeat(32)}`;
      expect((await served(`${proxy.url}/v0/domains/${encodeURIComponent(global)}/members/${encodeURIComponent(stranger)}/traffic-status`)).status).toBe(404);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });

  it('no check fails, warns or skips against all variants at once that passes against the control', async () => {
    const control = await certify({});
    const variant = await certify(allBenignVariants());
    // The control itself is clean but for the checks of other Canton lines, which skip.
    expect([...findings(control)].filter(([, f]) => !f.startsWith('skip')).map(([id, f]) => `${id}: ${f}`)).toEqual([]);
    const before = findings(control);
    const falseFindings = [...findings(variant)].filter(([id]) => !before.has(id)).map(([id, f]) => `${id}: ${f.slice(0, 600)}`);
    expect(falseFindings, `false findings against the benign variants (${BENIGN_VARIANTS.map((v) => v.name).join(', ')})`).toEqual([]);
    // The same checks ran, and the run's machinery judged the variant as much as the control.
    expect(variant.summary.passed).toBe(control.summary.passed);
    expect(variant.oracle?.compared ?? 0).toBeGreaterThan(0);
    expect(variant.judge?.answers ?? 0).toBeGreaterThan(500);
  }, 240_000);
});

describe('false failures the benign variants found, each on its own check', () => {
  /** One check against a fresh reference behind `fault`, with the oracle and the judge on. */
  /** The reference behind `fault`, for the length of `use`. */
  async function behindProxy<T>(fault: Fault, use: (url: string) => Promise<T>): Promise<T> {
    const reference = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, log: quiet });
    const proxy = await startMutant(reference.url, fault);
    try {
      return await use(proxy.url);
    } finally {
      await proxy.close();
      await reference.close();
    }
  }

  /** The suite's report on `only` against the reference behind `fault`. */
  const reportAgainst = (fault: Fault, only: readonly string[], options: Partial<SuiteOptions> = {}): Promise<Report> => behindProxy(fault, async (url) =>
    (await runSuite({ baseUrls: { registry: url, ledger: url, scan: url }, target: url, profile: loadProfile('reference'), only: [...only], seed: SEED, toolVersion: 'benign-variants', progress: 'quiet', ...options })).report);

  async function one(check: string, fault: Fault, seed = SEED) {
    return (await reportAgainst(fault, [check], { seed, oracle: 'reference' })).checks.find((c) => c.id === check);
  }

  // Each a check a variant once failed, passing against it alone. A fault made anew per case (`() =>`) keeps state.
  it.each([
    ['ledger.daml.own-package', 'reordered-keys (an interface view read by its members, not their order)', () => reorderedKeys],
    // The eighth hunt's: optional members left out (a list of rights, a stream's frames the oracle
    // compares), a permission asked of no party, a registry's open schema copied into the ledger's closed one.
    ['ledger.users.rights-unknown-party', 'omitted-defaults', () => omittedDefaults],
    ['ledger.completions.websocket', 'omitted-defaults', () => omittedDefaults],
    ['ledger.completions.websocket', 'dedup-reported-otherwise', () => dedupReportedOtherwise],
    ['ledger.synchronizers.connected', 'permission-only-with-party', () => permissionOnlyWithParty],
    ['registry.accept.context-usable', 'registry-extra-members', () => registryExtraMembers],
    // The ninth hunt's: a user list ending on an empty page without its list, Scan's own encoding of Daml Times.
    ['ledger.lists.complete-on-every-page', 'empty-last-user-page', () => emptyLastUserPage],
    ['scan.cross-group.preapproval-matches-ledger', 'scan-payload-times', () => scanPayloadTimes],
    // The tenth hunt's: Splice Scan's registry reads no pageSize (one instrument, never paged).
    ['registry.metadata.instrument-list', 'ignored-instrument-page-size', () => ignoredInstrumentPageSize],
    ['registry.accept.malformed-body-400', 'null-optional-members (a null optional member read as absent)', () => nullOptionalMembers],
    // A registry admin whose party hint has a single colon (Canton's identifiers allow it; only `::` separates).
    ['registry.metadata.info', 'colon-in-admin-hint (the info endpoint alone: the admin is in every blob)', () => colonInAdminHint],
    // The eleventh hunt's: Canton 3.5 decodes ledger requests leniently (circe, strictDecoding off).
    ['ledger.negative.unknown-field-400', 'ignored-unknown-members', () => ignoredUnknownMembers],
    // The oracle compared refusal codes: Canton's NEGATIVE_OFFSET against the reference's INVALID_ARGUMENT.
    ['ledger.negative.bad-offset-400', 'negative-offset-code', () => negativeOffsetCode],
    // Splice Scan's factories leave most choice arguments to the Daml choice (the benign hunt of session 37).
    ...['registry.transfer-factory.bad-input-400', 'registry.allocation-factory.bad-input-400', 'registry.allocation-factory.bad-input-400-v2', 'registry.settlement-factory.bad-input-400']
      .map((check) => [check, 'unread-factory-arguments', () => unvalidatedFactoryArguments()] as const),
    // The twelfth hunt's: every request refused once (before the fix each check judged the refusal,
    // expected 200, got 429), WebSocket upgrades too (before, the stream was judged on its refused upgrade).
    ...['ledger.version.shape', 'ledger.acs.active-at-offset', 'registry.metadata.instrument-lookup', 'scan.proxy.open-round-now', 'ledger.updates.websocket-matches-http']
      .map((check) => [check, 'retry-after-under-load (every request and upgrade shed once)', () => retryAfterUnderLoad(1)] as const),
    // The thirteenth hunt's: the vetted packages of a network (other participants first, pages the
    // server sized). Before the fix the suite read only the first page, and took the first entry of
    // a synchronizer for this participant's.
    ...['ledger.vetting.deprecated-list', 'ledger.packages.vetted-are-listed', 'ledger.writes.answer-reflects-write']
      .map((check) => [check, 'network-vetting', () => networkVetting] as const),
    // The fourteenth hunt's: Splice's Scan answers 404 for a member its sequencer does not know;
    // before the fix the check asked about PAR::participant::<the DSO's namespace>, a member only the reference has.
    ['scan.traffic-status.member-checked', 'unknown-traffic-members', () => unknownTrafficMembers()],
    // The fifteenth hunt's: Canton 3.5's JSON API leaves a record's trailing None fields out, Splice's
    // Scan writes them null (the AmuletRules' IssuanceConfig ends in optValidatorFaucetCap: None).
    ...['scan.cross-group.contracts-match-ledger', 'scan.cross-group.featured-app-right-found', 'scan.cross-group.preapproval-matches-ledger']
      .map((check) => [check, 'trailing-nones-dropped', () => trailingNonesDropped] as const),
  ] as const)('%s passes against %s', async (check, _variant, fault) => {
    const c = await one(check, fault());
    expect(c?.status, c?.message).toBe('pass');
  }, 120_000);

  it("re-interpretation takes a created argument without its trailing None fields (Canton 3.5's JSON API) for the engine's, which writes them null (trailing-nones-dropped)", async () => {
    // An Asset's observers (Optional, last) is None: before the fix judge.daml.payload failed every transaction creating one.
    const check = 'ledger.synchronizers.connected';
    const c = (await reportAgainst(trailingNonesDropped, [check], { oracle: 'reference', reinterpret: 'engine' })).checks.find((x) => x.id === check);
    expect(c?.status, c?.message).toBe('pass');
  }, 120_000);

  it('ledger.negative.bad-offset-400 passes against a participant that reads an offset written "0" as 0 (numeric-strings)', async () => {
    // A run seed whose property drew the string "0" before the fix (failed: expected 400, got 200).
    const c = await one('ledger.negative.bad-offset-400', numericStrings, 20261240);
    expect(c?.status, c?.message).toBe('pass');
  }, 120_000);

  // The twelfth hunt's: a participant of an earlier 3.5 patch.
  it("a 3.5.4 participant passes --fail-on-skip: the schemas of 3.5.7's operations skip as rules its release lacks (early-patch-release)", async () => {
    const ids = ['ledger.command-completions.by-party', 'ledger.acs-page-post.walk-equals-list', 'ledger.schema.post-v2-commands-command-completions', 'ledger.schema.post-v2-state-active-contracts-page'];
    const report = await reportAgainst(faultOf(EARLY_PATCH_RELEASE), ids, { canton: cantonLineOf('3.5.4') });
    for (const id of ids) expect(report.checks.find((c) => c.id === id), id).toMatchObject({ status: 'skip', notOnLine: '3.5' });
    // Before the fix the two schema observers skipped as unjudged MUST checks, and the gate failed the run.
    expect(applyGate(report, { minRanPercent: 90, failOnSkip: true }).failed).toBe(false);
  }, 120_000);

  it('a Scan without the pre-0.6.5 earliest-round path passes --fail-on-skip: its schema observer passes, the MAY check of that path skips (moved-round-path)', async () => {
    const ids = ['scan.earliest-round.shape', 'scan.earliest-round.legacy-path', 'scan.schema.get-reward-accounting-earliest-available-round-legacy'];
    const report = await reportAgainst(faultOf(MOVED_ROUND_PATH), ids);
    const by = (id: string) => report.checks.find((c) => c.id === id);
    // Before the fix the observer failed on the route-less 404 (text/plain) and the MAY check warned.
    expect(by('scan.schema.get-reward-accounting-earliest-available-round-legacy')?.status).toBe('pass');
    expect(by('scan.earliest-round.shape')?.status).toBe('pass');
    expect(by('scan.earliest-round.legacy-path')).toMatchObject({ status: 'skip', level: 'MAY' });
    expect(applyGate(report, { minRanPercent: 60, failOnSkip: true }).failed).toBe(false);
  }, 120_000);

  it('a Scan of Splice 0.6.4 passes every scan check with --fail-on-skip: its round is judged at the old path, the moved path skips as not on its release (splice-0.6.4)', async () => {
    const ids = catalogue().filter((c) => c.group === 'scan').map((c) => c.id);
    const report = await reportAgainst(faultOf(SPLICE_064_RELEASE), ids);
    const by = (id: string) => report.checks.find((c) => c.id === id);
    // Before the fix the shape and expected-value checks failed on the moved path's 404, and the MAY check warned.
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'error' || c.status === 'warn').map((c) => `${c.id}: ${c.status}: ${c.message ?? ''}`)).toEqual([]);
    for (const id of ['scan.earliest-round.shape', 'scan.earliest-round.expected-value', 'scan.schema.get-reward-accounting-earliest-available-round-legacy', 'scan.version.shape']) expect(by(id)?.status, id).toBe('pass');
    for (const id of ['scan.earliest-round.legacy-path', 'scan.schema.get-reward-accounting-earliest-available-round']) expect(by(id), id).toMatchObject({ status: 'skip', notOnLine: 'Splice 0.6.4' });
    expect(applyGate(report, { failOnSkip: true }).failed).toBe(false);
    expect(validateReport(report)).toEqual([]);
    // The summary names the release that lacks them (it said "not on the target's Canton line").
    expect(ranLine(report)).toMatch(/; 2 more are not in the target's Splice release \(Splice 0\.6\.4\)$/);
    expect(report.splice).toEqual({ release: '0.6.4', from: 'target' });
  }, 120_000);

  it('--splice-version judges a Scan by the release given, whatever it says: one saying 0.6.4 fails what 0.6.5 moved, the newest skips what 0.6.4 lacks', async () => {
    const ids = ['scan.earliest-round.shape', 'scan.earliest-round.legacy-path'];
    // Saying an older release does not excuse a Scan its certifier judges as the newest.
    const pinned = await reportAgainst(faultOf(SPLICE_064_RELEASE), ids, { spliceVersion: SPLICE_VERSION });
    expect(pinned.checks.find((c) => c.id === 'scan.earliest-round.shape')).toMatchObject({ status: 'fail' });
    expect(pinned.splice).toEqual({ release: SPLICE_VERSION, from: 'flag' });
    expect(validateReport(pinned)).toEqual([]);
    // The reference (the newest), judged as 0.6.4: the current path's check is a rule that release lacks.
    const older = await reportAgainst({}, ids, { spliceVersion: '0.6.4' });
    expect(older.checks.find((c) => c.id === 'scan.earliest-round.legacy-path')).toMatchObject({ status: 'skip', notOnLine: 'Splice 0.6.4' });
    expect(older.checks.find((c) => c.id === 'scan.earliest-round.shape')?.status).toBe('pass');
  }, 120_000);

  it('a Scan without GET /version (no route) passes every scan check with --fail-on-skip: it is judged as the newest release', async () => {
    const ids = catalogue().filter((c) => c.group === 'scan').map((c) => c.id);
    const report = await reportAgainst(unsaidSpliceRelease, ids);
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status}: ${c.message ?? ''}`)).toEqual([]);
    expect(applyGate(report, { failOnSkip: true }).failed).toBe(false);
  }, 120_000);

  it("the preflight knows a Scan of Splice 0.6.4 without the wallet reads by its earliest round at the older path (splice-0.6.4)", async () => {
    await behindProxy(faultOf(SPLICE_064_RELEASE), async (url) => {
      const base = loadProfile('reference');
      const profile = { ...base, groups: ['scan' as const], scan: { ...base.scan, walletReads: false } };
      const r = await preflight({ baseUrls: { scan: url }, profile, strict: true, checks: [], timeoutMs: 10_000 });
      // Before the fix it asked only under /v0/internal/, got the 404 of no route, and stopped the run.
      expect(r.problems).toEqual([]);
      expect(r.kinds).toMatchObject([{ group: 'scan', ok: true, request: `GET ${url}/v0/reward-accounting-process/rounds/earliest-available` }]);
    });
  }, 120_000);
});
