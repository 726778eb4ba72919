import type { Profile } from '../../conformance/src/runner/profile.js';
import { INTERACTIVE_MUTANTS } from './interactiveMutants.js';
import { CLIENT_WIRE_MUTANTS } from './clientWireMutants.js';
import { DEDUP_MUTANTS } from './dedupMutants.js';
import { TIME_AND_REPLAY_MUTANTS } from './timeAndReplayMutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { PACKAGE_MUTANTS } from './packageMutants.js';
import { REINTERPRET_MUTANTS } from './reinterpretMutants.js';
import { READ_MUTANTS } from './readMutants.js';
import { GET_COMPLETIONS_MUTANTS } from './getCompletionsMutants.js';
import { PREVIEW36_MUTANTS } from './preview36Mutants.js';
import type { CantonVersion } from '../../conformance/src/schema/cantonVersions.js';
import { STREAM_MUTANTS } from './streamMutants.js';
import { SUITE_DEPTH_MUTANTS } from './suiteDepthMutants.js';
import type { HttpConfig } from '../../reference-server/src/http/api/config.js';
import { TOKEN_MUTANTS } from './tokenMutants.js';
import { TOKEN_V2_MUTANTS } from './tokenV2Mutants.js';
import type { AuthFlaw } from './authFront.js';
import { AUTH_MUTANTS } from './authMutants.js';
import { LEDGER_COVERAGE_MUTANTS } from './ledgerCoverageMutants.js';
import { REGISTRY_COVERAGE_MUTANTS } from './registryCoverageMutants.js';
import { SCAN_COVERAGE_MUTANTS } from './scanCoverageMutants.js';
import { ROUTING_MUTANTS } from './routingMutants.js';
import { SCAN_OPEN_BODIES_MUTANTS } from './scanOpenBodiesMutants.js';
import { schemaMutants } from './schemaMutants.js';
import { MEANING_MUTANTS } from './meaningMutants.js';
import { FORMER_ORACLE_MUTANTS, HASHING_SCHEME_MUTANT, ORACLE_MUTANTS } from './oracleMutants.js';
import { JUDGE_MUTANTS } from './judgeMutants.js';
import { STREAM_JUDGE_MUTANTS } from './streamJudgeMutants.js';
import { HISTORY_MUTANTS } from './historyMutants.js';
import type { JudgeHistoryId } from '../../conformance/src/history/historyIds.js';
import { RULE_MUTANTS } from './ruleMutants.js';
import { HUNT_MUTANTS } from './huntMutants.js';
import { HUNT2_MUTANTS } from './hunt2Mutants.js';
import { HUNT3_MUTANTS } from './hunt3Mutants.js';
import { HUNT4_MUTANTS } from './hunt4Mutants.js';
import { HUNT5_MUTANTS } from './hunt5Mutants.js';
import { HUNT6_MUTANTS } from './hunt6Mutants.js';
import { HUNT7_MUTANTS } from './hunt7Mutants.js';
import { HUNT8_MUTANTS } from './hunt8Mutants.js';
import { HUNT9_MUTANTS } from './hunt9Mutants.js';
import { HUNT10_MUTANTS } from './hunt10Mutants.js';
import { HUNT11_MUTANTS } from './hunt11Mutants.js';
import { HUNT12_MUTANTS } from './hunt12Mutants.js';
import { BENIGN12_MUTANTS } from './benign12Mutants.js';
import { HUNT13_MUTANTS } from './hunt13Mutants.js';
import { BENIGN13_MUTANTS } from './benign13Mutants.js';
import { HUNT14_MUTANTS } from './hunt14Mutants.js';
import { SPLICE_RELEASE_MUTANTS } from './spliceReleaseMutants.js';
import { HUNT15_MUTANTS } from './hunt15Mutants.js';
import { HUNT16_MUTANTS } from './hunt16Mutants.js';
import { HUNT17_MUTANTS } from './hunt17Mutants.js';
import { HUNT18_MUTANTS } from './hunt18Mutants.js';
import { IDENTITY_PROVIDER_MUTANTS } from './identityProviderMutants.js';
import { PRIVACY_MUTANTS } from './privacyMutants.js';
import { VIEW_MUTANTS } from './viewMutants.js';
import type { InvariantId } from '../../conformance/src/judge/invariants.js';

/** A broken variant of the reference server: one fault, and the check that must catch it. */
export interface Mutant {
  readonly name: string;
  /** The fault, as a real implementation might have it. */
  readonly description: string;
  /** The check id that must fail against this mutant. */
  readonly caughtBy: string;
  /**
   * Checks selected with `caughtBy`, earlier in the catalogue, for the state it needs (a contract of
   * the run's party): with the bed's concurrency of 2, naming two makes `caughtBy` start after one
   * of them has finished.
   */
  readonly after?: readonly string[];
  /** The model-based run must diverge too, reporting a shrunk command sequence with this command in it. */
  readonly modelDiverges?: string;
  /** The fault; a function when it depends on the profile's known ids. */
  readonly fault: Fault | ((profile: Profile) => Fault);
  /** Run with the JWT front instead of unsecured: correct, or with one flaw in its token check. */
  readonly secured?: 'correct' | AuthFlaw;
  /** Needs parts of the reference server that may not exist yet (group A or C data). */
  readonly needs?: 'registry' | 'scan';
  /**
   * The fault is the reference server's own, with these HTTP settings: it runs secured with the
   * bed's HS256 secret (real users and rights, not the JWT front), only `caughtBy` selected, beside
   * a control started with the defaults.
   */
  readonly server?: { readonly http: Partial<HttpConfig> };
  /**
   * Only the oracle catches it: `caughtBy` passes with `--oracle none` (no dedicated check looks at
   * what the fault changes) and fails with `--oracle reference`. `category` names the rule family.
   */
  readonly oracle?: { readonly category: string };
  /**
   * Only re-interpretation catches it, naming this `judge.daml.*` id: `caughtBy` passes with
   * `--reinterpret none` (no hand-written expectation looks at what the fault changes).
   */
  readonly reinterpret?: string;
  /**
   * Only the judge catches it: `caughtBy` passes with `--judge none` and fails with the judge on,
   * naming this invariant.
   */
  readonly judge?: { readonly invariant: InvariantId };
  /**
   * The line whose reference the mutant runs in front of, judged as that line, when not the
   * default: 3.6's own rules (preview36.test.ts runs these; this bed leaves them out).
   */
  readonly line?: CantonVersion;
  /**
   * Only the history judge catches it (the token-standard history parsed by core-tx-parser):
   * `caughtBy` passes with `--history none` and fails with it on, naming this id.
   */
  readonly history?: JudgeHistoryId;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPost = (req: ProxyRequest, path: string) => req.method === 'POST' && pathOf(req.url) === path;
const withJson = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: JSON.stringify(f(v)) };
};
const isTransaction = (x: unknown) => isObject(x) && isObject(x.update) && 'Transaction' in x.update;

async function ledgerEndOf(upstream: { send(r: ProxyRequest): Promise<ProxyResponse> }): Promise<number> {
  const r = await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: {}, body: '' });
  const v = parse(r.body);
  return isObject(v) && typeof v.offset === 'number' ? v.offset : 0;
}

function stuckLedgerEnd(): Fault {
  let first: string | undefined;
  return {
    response(req, res) {
      if (req.method !== 'GET' || pathOf(req.url) !== '/v2/state/ledger-end' || res.status !== 200) return res;
      first ??= res.body;
      return { ...res, body: first };
    },
  };
}

const PREAPPROVAL_PATH = '/v0/transfer-preapprovals/by-party/';

/** A plausible lookup answer for `party`, as a lookup that does not filter properly would give. */
const fakePreapproval = (party: string) =>
  jsonResponse(200, {
    transfer_preapproval: {
      contract: {
        template_id: 'a1b2c3:Splice.AmuletRules:TransferPreapproval',
        contract_id: `00${'ab'.repeat(32)}`,
        payload: { dso: party, receiver: party, provider: party, validFrom: '2026-01-01T00:00:00Z', lastRenewedAt: '2026-01-01T00:00:00Z', expiresAt: '2027-01-01T00:00:00Z' },
        created_event_blob: 'CgMyLjES',
        created_at: '2026-01-01T00:00:00Z',
      },
      domain_id: 'global-domain::1220abcd',
    },
  });

/** snake_case member names turned camelCase, as a Scan built on a camelCase JSON codec answers (payloads kept). */
const camelCased = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(camelCased) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), k === 'payload' ? x : camelCased(x)])) : v;

const partyOf = (req: ProxyRequest) => decodeURIComponent(pathOf(req.url).slice(PREAPPROVAL_PATH.length));

const HAND_WRITTEN: readonly Mutant[] = [
  {
    name: 'wrong-error-body-shape',
    description: 'ledger errors answer {"error": "..."} instead of a JsCantonError',
    caughtBy: 'ledger.acs.offset-after-ledger-end',
    fault: { response: (_req, res) => (res.status >= 400 ? withJson(res, (v) => (isObject(v) && typeof v.cause === 'string' ? { error: v.cause } : v)) : res) },
  },
  {
    name: 'ledger-end-does-not-advance',
    description: 'GET /v2/state/ledger-end keeps answering the first offset it ever answered',
    caughtBy: 'ledger.ledger-end.advances-on-commit',
    modelDiverges: 'LedgerEnd',
    fault: stuckLedgerEnd(),
  },
  {
    name: 'acs-ignores-active-at-offset',
    description: 'active contracts are always those at the ledger end, whatever activeAtOffset says',
    caughtBy: 'ledger.acs.active-at-offset',
    modelDiverges: 'ActiveAt',
    fault: {
      async request(req, upstream) {
        const body = parse(req.body);
        if (!isPost(req, '/v2/state/active-contracts') || !isObject(body) || typeof body.activeAtOffset !== 'number' || body.activeAtOffset <= 0) return req;
        return { ...req, body: JSON.stringify({ ...body, activeAtOffset: await ledgerEndOf(upstream) }) };
      },
    },
  },
  {
    name: 'no-deduplication',
    description: 'a resubmitted change id is executed again (the command id is not remembered)',
    caughtBy: 'ledger.dedup.duplicate-409',
    modelDiverges: 'DedupRetry',
    fault: {
      request(req) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/commands/') || !isObject(body)) return req;
        const fresh = (c: Json) => ({ ...c, commandId: `${String(c.commandId)}-${Math.random().toString(36).slice(2)}` });
        if (isObject(body.commands) && typeof body.commands.commandId === 'string') return { ...req, body: JSON.stringify({ ...body, commands: fresh(body.commands) }) };
        return typeof body.commandId === 'string' ? { ...req, body: JSON.stringify(fresh(body)) } : req;
      },
    },
  },
  {
    name: 'omits-created-event-blob',
    description: 'active contracts never carry createdEventBlob, even when the filter asks for it',
    caughtBy: 'ledger.acs.created-event-blob',
    fault: {
      response: (req, res) =>
        isPost(req, '/v2/state/active-contracts') && res.status === 200
          ? withJson(res, (v) => (Array.isArray(v) ? v.map((x) => JSON.parse(JSON.stringify(x), (k, val: unknown) => (k === 'createdEventBlob' ? undefined : val)) as unknown) : v))
          : res,
    },
  },
  {
    name: 'wrong-content-type',
    description: 'GET /v2/version answers its JSON as text/plain',
    caughtBy: 'ledger.schema.get-v2-version',
    fault: { response: (req, res) => (pathOf(req.url) === '/v2/version' ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } } : res) },
  },
  {
    name: '500-on-malformed-json',
    description: 'a body that is not JSON crashes the handler: 500 instead of 400',
    caughtBy: 'ledger.negative.malformed-json-400',
    fault: {
      request: (req) =>
        req.method === 'POST' && req.body !== '' && parse(req.body) === undefined ? jsonResponse(500, { code: 'INTERNAL_ERROR', cause: 'Unexpected token', context: {}, errorCategory: 4 }) : req,
    },
  },
  {
    name: 'drops-an-update',
    description: 'the HTTP update list loses its first transaction',
    caughtBy: 'ledger.updates.websocket-matches-http',
    fault: {
      response: (req, res) => {
        if (!isPost(req, '/v2/updates') || res.status !== 200) return res;
        return withJson(res, (v) => {
          if (!Array.isArray(v)) return v;
          const i = v.findIndex(isTransaction);
          return i < 0 ? v : [...v.slice(0, i), ...v.slice(i + 1)];
        });
      },
    },
  },
  {
    name: 'websocket-selects-no-subprotocol',
    description: 'the WebSocket handshake on /v2/updates answers 101 without Sec-WebSocket-Protocol, whatever the client offered',
    caughtBy: 'ledger.updates.websocket-subprotocol',
    fault: { upgradeResponse: (head) => head.split('\r\n').filter((line) => !/^sec-websocket-protocol:/i.test(line)).join('\r\n') },
  },
  {
    name: 'updates-out-of-order',
    description: 'the HTTP update list comes newest first',
    caughtBy: 'ledger.updates.ordered',
    fault: { response: (req, res) => (isPost(req, '/v2/updates') && res.status === 200 ? withJson(res, (v) => (Array.isArray(v) ? [...v].reverse() : v)) : res) },
  },
  {
    name: 'delete-user-always-ok',
    description: 'DELETE /v2/users/{id} answers 200 {} even for users that do not exist',
    caughtBy: 'ledger.users.delete-then-404',
    fault: { request: (req) => (req.method === 'DELETE' && pathOf(req.url).startsWith('/v2/users/') ? jsonResponse(200, {}) : req) },
  },
  {
    name: 'completions-lost',
    description: 'the completions list never reports a completion',
    caughtBy: 'ledger.async.submit-then-completion',
    fault: {
      response: (req, res) =>
        isPost(req, '/v2/commands/completions') && res.status === 200
          ? withJson(res, (v) => (Array.isArray(v) ? v.filter((x) => !(isObject(x) && isObject(x.completionResponse) && 'Completion' in x.completionResponse)) : v))
          : res,
    },
  },
  // Ignoring an unknown member is what Canton 3.5 does (circe at strictDecoding = false); a crash on it, or an answer it changes, is not.
  {
    name: 'unknown-field-500',
    description: 'an unknown request member crashes the active-contracts read: 500',
    caughtBy: 'ledger.negative.unknown-field-400',
    fault: {
      request(req) {
        const body = parse(req.body);
        if (!isPost(req, '/v2/state/active-contracts') || !isObject(body) || !('ccUnexpectedField' in body)) return req;
        return { status: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'INTERNAL_ERROR', cause: 'unexpected member', context: {}, resources: [], errorCategory: 4 }) };
      },
    },
  },
  {
    name: 'unknown-field-changes-answer',
    description: 'an unknown request member is accepted, and the active contracts answered without any contract',
    caughtBy: 'ledger.negative.unknown-field-400',
    fault: {
      request(req) {
        const body = parse(req.body);
        if (!isPost(req, '/v2/state/active-contracts') || !isObject(body) || !('ccUnexpectedField' in body)) return req;
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' };
      },
    },
  },
  {
    name: 'acs-beyond-ledger-end-ok',
    description: 'active contracts past the ledger end answer 200 [] instead of OFFSET_AFTER_LEDGER_END',
    caughtBy: 'ledger.acs.offset-after-ledger-end',
    fault: {
      async request(req, upstream) {
        const body = parse(req.body);
        if (!isPost(req, '/v2/state/active-contracts') || !isObject(body) || typeof body.activeAtOffset !== 'number') return req;
        return body.activeAtOffset > (await ledgerEndOf(upstream)) ? jsonResponse(200, []) : req;
      },
    },
  },
  {
    name: 'accepts-expired-token',
    description: 'the JWT check verifies the signature and scope but not the expiry',
    caughtBy: 'ledger.auth.expired-token-401',
    fault: {},
    secured: 'ignores-expiry',
  },

  {
    name: 'ignores-exclude-debug-fields',
    description: 'the registry always includes the debug* fields, whatever excludeDebugFields says',
    caughtBy: 'registry.accept.exclude-debug-true',
    needs: 'registry',
    fault: {
      request(req) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !pathOf(req.url).startsWith('/registry/') || !isObject(body)) return req;
        const { excludeDebugFields: _ignored, ...rest } = body;
        return { ...req, body: JSON.stringify(rest) };
      },
    },
  },
  {
    name: 'unknown-preapproval-200',
    description: 'Scan answers 200 with some preapproval for a party that has none',
    caughtBy: 'scan.preapproval.unknown-party-404',
    needs: 'scan',
    fault: { response: (req, res) => (pathOf(req.url).startsWith(PREAPPROVAL_PATH) && res.status === 404 ? fakePreapproval(partyOf(req)) : res) },
  },
  {
    name: 'returns-archived-preapproval',
    description: 'Scan does not drop archived preapprovals: the archived one is still returned',
    caughtBy: 'scan.preapproval.archived-404',
    needs: 'scan',
    fault: (profile) => ({
      response: (req, res) => (pathOf(req.url).startsWith(PREAPPROVAL_PATH) && res.status === 404 && partyOf(req) === profile.scan?.archivedPreapprovalParty ? fakePreapproval(partyOf(req)) : res),
    }),
  },
  {
    name: 'in-flight-not-409',
    description: 'the registry serves a context while a contract to disclose is being reassigned (no 409)',
    caughtBy: 'registry.accept.in-flight-409',
    needs: 'registry',
    fault: (profile) => ({
      response: (req, res) =>
        res.status === 409 && pathOf(req.url).includes(encodeURIComponent(profile.registry?.inFlightAllocationInstructionId ?? '\u0000'))
          ? jsonResponse(200, { choiceContextData: { values: {} }, disclosedContracts: [] })
          : res,
    }),
  },
  {
    name: 'registry-error-body-shape',
    description: 'registry errors answer {"message": "..."} instead of {"error": "..."}',
    caughtBy: 'registry.accept.unknown-id-404',
    needs: 'registry',
    fault: { response: (req, res) => (pathOf(req.url).startsWith('/registry/') && res.status >= 400 ? withJson(res, (v) => (isObject(v) && typeof v.error === 'string' ? { message: v.error } : v)) : res) },
  },
  {
    name: 'earliest-round-off-by-one',
    description: 'Scan reports the first ingested round (possibly partial) instead of the first complete one',
    caughtBy: 'scan.earliest-round.expected-value',
    needs: 'scan',
    fault: {
      response: (req, res) =>
        pathOf(req.url).endsWith('/rounds/earliest-available') && res.status === 200 ? withJson(res, (v) => (isObject(v) && typeof v.earliest_round === 'number' ? { earliest_round: v.earliest_round - 1 } : v)) : res,
    },
  },
  {
    name: 'signatures-not-verified',
    description: 'interactive execution commits whatever the signature: a foreign key is accepted',
    caughtBy: 'ledger.interactive.wrong-key-rejected',
    fault: {
      response: (req, res) =>
        isPost(req, '/v2/interactive-submission/executeAndWait') && res.status >= 400 ? jsonResponse(200, { updateId: `1220${'ab'.repeat(32)}`, completionOffset: 1 }) : res,
    },
  },
  {
    name: 'version-without-features',
    description: 'GET /v2/version answers only {"version"}: the features descriptor is left out',
    caughtBy: 'ledger.version.shape',
    fault: { response: (req, res) => (pathOf(req.url) === '/v2/version' && res.status === 200 ? withJson(res, (v) => (isObject(v) ? { version: v.version } : v)) : res) },
  },
  {
    name: 'delete-user-204',
    description: 'DELETE /v2/users/{id} answers 204 with no body instead of 200 {}',
    caughtBy: 'ledger.users.delete-then-404',
    fault: { response: (req, res) => (req.method === 'DELETE' && res.status === 200 ? { status: 204, headers: {}, body: '' } : res) },
  },
  {
    name: 'html-404',
    description: 'every 404 is the web server HTML page instead of the error body of the API',
    caughtBy: 'ledger.users.delete-unknown-404',
    fault: { response: (_req, res) => (res.status === 404 ? { status: 404, headers: { 'content-type': 'text/html' }, body: '<html><body>Not Found</body></html>' } : res) },
  },
  {
    name: 'scan-camel-case',
    description: 'Scan answers camelCase members (transferPreapproval, earliestRound) instead of snake_case',
    caughtBy: 'scan.preapproval.known-party',
    needs: 'scan',
    fault: { response: (req, res) => (pathOf(req.url).startsWith('/v0/') && res.status === 200 ? withJson(res, camelCased) : res) },
  },
  {
    name: 'debug-fields-on-some-contracts',
    description: 'excludeDebugFields: true strips the debug* fields from every disclosed contract but the last',
    caughtBy: 'registry.accept.exclude-debug-true',
    needs: 'registry',
    fault: {
      response(req, res) {
        const body = parse(req.body);
        if (!pathOf(req.url).startsWith('/registry/') || res.status !== 200 || !isObject(body) || body.excludeDebugFields !== true) return res;
        return withJson(res, (v) => {
          if (!isObject(v) || !Array.isArray(v.disclosedContracts)) return v;
          const last = v.disclosedContracts.length - 1;
          const debug = { debugPackageName: 'splice-amulet', debugPayload: {}, debugCreatedAt: '2026-01-01T00:00:00Z' };
          return { ...v, disclosedContracts: v.disclosedContracts.map((c: unknown, i) => (i === last && isObject(c) ? { ...c, ...debug } : c)) };
        });
      },
    },
  },
  // The point reads, pages and legacy forms.
  ...READ_MUTANTS,
  ...GET_COMPLETIONS_MUTANTS,
  ...PREVIEW36_MUTANTS,
  ...SUITE_DEPTH_MUTANTS,
  ...STREAM_MUTANTS,
  // Interactive submission's encodings and execute-time validation (issues 10 and 14).
  ...INTERACTIVE_MUTANTS,
  // Packages, vetting and administration: their own file.
  ...PACKAGE_MUTANTS,
  ...REINTERPRET_MUTANTS,
  // The token-standard registry and Scan's wallet reads (tokenMutants.ts).
  ...TOKEN_MUTANTS,
  // The token standard v2: settlement factory and v2 allocation factory (tokenV2Mutants.ts).
  ...TOKEN_V2_MUTANTS,
  // Wire details the published clients rely on.
  ...CLIENT_WIRE_MUTANTS,
  ...DEDUP_MUTANTS,
  // Ledger time bounds, replayed signatures, strict registry timestamps (timeAndReplayMutants.ts).
  ...TIME_AND_REPLAY_MUTANTS,
  // One per check that had none(every check proven able to fail; test/mutants/coverage.test.ts).
  ...REGISTRY_COVERAGE_MUTANTS,
  ...SCAN_COVERAGE_MUTANTS,
  ...SCAN_OPEN_BODIES_MUTANTS,
  ...LEDGER_COVERAGE_MUTANTS,
  ...AUTH_MUTANTS,
  ...MEANING_MUTANTS,
  ...ROUTING_MUTANTS,
  // Faults only the oracle catches (oracleMutants.ts): each check passes without it, fails with it.
  ...ORACLE_MUTANTS,
  // Faults only the judge catches (judgeMutants.ts): each check passes with --judge none, fails with it.
  ...JUDGE_MUTANTS,
  // Faults only the judge's reading of the update stream and completions catches (streamJudgeMutants.ts).
  ...STREAM_JUDGE_MUTANTS,
  // Faults only the history judge catches (historyMutants.ts): each check passes with --history none, fails with it.
  ...HISTORY_MUTANTS,
  ...FORMER_ORACLE_MUTANTS,
  // Former oracle faults held to a rule by their dedicated check (ruleMutants.ts).
  ...RULE_MUTANTS,
  HASHING_SCHEME_MUTANT,
  // Faults a hunt for unbroken client rules found (huntMutants.ts).
  ...HUNT_MUTANTS,
  // Faults of a second hunt (hunt2Mutants.ts): allocation contexts, Scan caches, deduplication, streams, auth.
  ...HUNT2_MUTANTS,
  ...HUNT3_MUTANTS,
  ...HUNT4_MUTANTS,
  ...HUNT5_MUTANTS,
  ...HUNT6_MUTANTS,
  // The two faults hunt6 left uncaught (hunt7Mutants.ts).
  ...HUNT7_MUTANTS,
  // What hunt8 found: filters with several entries, pruning, reassignment ids, relative ledger time, package names on prepare, Scan payloads against their blobs, rejected completions' offsets (hunt8Mutants.ts).
  ...HUNT8_MUTANTS,
  // hunt9's that the suite now catches: Scan's latest round, its lookup by receiver and timestamps, the proxy's expired preapprovals, instrument pages that loop (hunt9Mutants.ts).
  ...HUNT9_MUTANTS,
  // hunt10's: the target judged by its own ledger (its history and others' transactions re-run, both shapes, the WebSocket reads) (hunt10Mutants.ts).
  ...HUNT10_MUTANTS,
  // hunt11's: external parties and interactive submission as wallets use them (hunt11Mutants.ts).
  ...HUNT11_MUTANTS,
  // hunt12's: a participant that executes Daml wrongly (ensure, controllers, exceptions, archived contracts, the refusals' codes) (hunt12Mutants.ts).
  ...HUNT12_MUTANTS,
  // benign hunt 12's guard: a target that sheds a request forever is judged on its refusal (benign12Mutants.ts).
  ...BENIGN12_MUTANTS,
  // hunt13's: a ledger whose own history contradicts itself (contracts used after their archive or before their create, snapshots the stream contradicts) (hunt13Mutants.ts).
  ...HUNT13_MUTANTS,
  // benign hunt 13's guards: the vetted packages walked page by page, this participant's entry by its id, the pre-0.6.5 path's route (benign13Mutants.ts).
  ...BENIGN13_MUTANTS,
  // hunt14's: the active contract set against the history window, inputs archived before their use, snapshots ahead of their offset (hunt14Mutants.ts).
  ...HUNT14_MUTANTS,
  // A Scan judged by the Splice release it says (GET /version): the round where that release serves it, /version's own shape (spliceReleaseMutants.ts).
  ...SPLICE_RELEASE_MUTANTS,
  ...HUNT15_MUTANTS,
  ...HUNT16_MUTANTS,
  ...HUNT17_MUTANTS,
  ...HUNT18_MUTANTS,
  ...IDENTITY_PROVIDER_MUTANTS,
  ...PRIVACY_MUTANTS,
  ...VIEW_MUTANTS,
];

/** The bed: the hand-written mutants, then a generated one per schema observer they leave unproven (schemaMutants.ts). */
export const MUTANTS: readonly Mutant[] = [...HAND_WRITTEN, ...schemaMutants(HAND_WRITTEN)];
