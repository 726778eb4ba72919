import { malformedPartyArb, partyIdArb } from '../generators/identifiers.js';
import type { Exchange } from '../target/exchange.js';
import { expectErrorResponse, expectStatus, firstDifference, isBase64, isObject, jsonEqual, objectBody, snippet, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { CheckNotOnRelease } from './outcomes.js';
import { needsSplice, releaseOf, SCAN_VERSION_PATH, spliceLacks, spliceRelease } from './support/targetVersion.js';
import type { CheckContext, CheckDefinition } from './types.js';

const LOOKUP = 'lookupTransferPreapprovalByParty';
const ROUND = 'getRewardAccountingEarliestAvailableRound';
const ROUND_LEGACY = 'getRewardAccountingEarliestAvailableRoundLegacy';
const SD = 'service description, group C';
export const ROUND_PATH = '/v0/internal/reward-accounting-process/rounds/earliest-available';
const ROUND_LEGACY_PATH = '/v0/reward-accounting-process/rounds/earliest-available';
const VERSION = 'getVersion';
/** `commit_ts`'s form (OpenAPI's date-time: RFC 3339). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Where the Scan serves the earliest round, by the Splice release it says: under /v0/internal/
 * since 0.6.5, at the old path on 0.6.0-0.6.4 (their clients call it there); none before 0.6.0.
 */
async function roundOperation(ctx: CheckContext): Promise<{ path: string; operationId: string }> {
  if (spliceLacks(await spliceRelease(ctx), ROUND) === undefined) return { path: ROUND_PATH, operationId: ROUND };
  await needsSplice(ctx, ROUND_LEGACY, 'no release before it serves the earliest round');
  return { path: ROUND_LEGACY_PATH, operationId: ROUND_LEGACY };
}

export const preapprovalPath = (party: string, encode = true) => `/v0/transfer-preapprovals/by-party/${encode ? encodeURIComponent(party) : party}`;

export function lookupPreapproval(ctx: CheckContext, party: string, encode = true): Promise<Exchange> {
  return ctx.http.request('scan', { method: 'GET', path: preapprovalPath(party, encode), operationId: LOOKUP });
}

/** The 200 lookup answer, checked for the required shape; returns `transfer_preapproval`. */
export async function preapprovalOf(ctx: CheckContext, party: string, what: string): Promise<{ exchange: Exchange; preapproval: Json; contract: Json }> {
  const exchange = await lookupPreapproval(ctx, party);
  expectStatus(ctx, exchange, 200, what);
  const body = objectBody(ctx, exchange, what);
  const p = body.transfer_preapproval;
  if (!isObject(p) || !isObject(p.contract)) return ctx.fail(`${what}: transfer_preapproval.contract is missing`, exchange);
  const c = p.contract;
  for (const k of ['template_id', 'contract_id', 'created_at']) if (typeof c[k] !== 'string' || c[k] === '') ctx.fail(`${what}: transfer_preapproval.contract.${k} must be a non-empty string`, exchange);
  if (!isObject(c.payload)) ctx.fail(`${what}: transfer_preapproval.contract.payload must be an object`, exchange);
  if (!isBase64(c.created_event_blob)) ctx.fail(`${what}: transfer_preapproval.contract.created_event_blob must be a non-empty base64 string`, exchange);
  if (p.domain_id !== undefined && typeof p.domain_id !== 'string') ctx.fail(`${what}: transfer_preapproval.domain_id must be a string when present`, exchange);
  return { exchange, preapproval: p, contract: c };
}

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'scan', ...c });
const need = <T>(ctx: CheckContext, v: T | undefined, what: string): T => v ?? ctx.skip(`profile '${ctx.profile.name}' does not name ${what}`);

export const scanChecks: readonly CheckDefinition[] = [
  check({
    id: 'scan.preapproval.known-party',
    title: "A party's transfer preapproval: the contract with blob, payload for that receiver; its provider's lookup answers no other receiver's",
    operationId: LOOKUP,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: GET /v0/transfer-preapprovals/by-party/{party}, 200`,
    async run(ctx) {
      const party = need(ctx, ctx.profile.scan?.preapprovalParty, 'a party with a preapproval (scan.preapprovalParty)');
      const { exchange, contract } = await preapprovalOf(ctx, party, 'preapproval lookup');
      const payload = contract.payload as Json;
      if (payload.receiver !== undefined && payload.receiver !== party) ctx.fail(`the preapproval returned is for receiver ${String(payload.receiver)}, not ${party}`, exchange);
      // The lookup is by receiver ("Lookup a TransferPreapproval by the receiver party"): asked for
      // the preapproval's provider, Scan answers the provider's own preapproval or 404, never this one.
      const provider = payload.provider;
      if (typeof provider === 'string' && provider !== party) {
        const e = await lookupPreapproval(ctx, provider);
        const r = expectStatus(ctx, e, [200, 404], `preapproval lookup of the provider ${provider}`);
        const got = r.status === 200 ? objectBody(ctx, e, 'preapproval lookup of the provider').transfer_preapproval : undefined;
        const receiver = isObject(got) && isObject(got.contract) && isObject(got.contract.payload) ? got.contract.payload.receiver : undefined;
        if (r.status === 200 && receiver !== provider) ctx.fail(`asked for the preapproval of ${provider} (the provider of ${party}'s), Scan answered one whose receiver is ${String(receiver)}: the lookup is by receiver`, e);
      }
      const expected = ctx.profile.scan?.preapprovalContractId;
      if (expected !== undefined && contract.contract_id !== expected) {
        ctx.fail(`expected preapproval ${expected} (the newest validFrom for this receiver), got ${String(contract.contract_id)}`, exchange);
      }
    },
  }),
  check({
    id: 'scan.preapproval.unknown-party-404',
    title: 'Random parties without a preapproval get 404 with an ErrorResponse (property)',
    operationId: LOOKUP,
    level: 'MUST',
    kind: 'property',
    specRef: `${SD}: 404 ErrorResponse (no preapproval found)`,
    async run(ctx) {
      const known = new Set(Object.values(ctx.profile.scan ?? {}).filter((v) => typeof v === 'string'));
      // A missing endpoint answers 404 too: with a known party, the endpoint must first answer 200.
      const control = ctx.profile.scan?.preapprovalParty;
      if (control === undefined) ctx.warn('the profile names no party with a preapproval, so a target without this endpoint would pass too');
      else expectStatus(ctx, await lookupPreapproval(ctx, control), 200, `control: the known party ${control}`);
      await forAll(ctx, partyIdArb().filter((p) => !known.has(p)), async (party) => {
        const e = await lookupPreapproval(ctx, party);
        expectStatus(ctx, e, 404, `preapproval of unknown party ${party}`);
        expectErrorResponse(ctx, e, 'unknown party');
      });
    },
  }),
  check({
    id: 'scan.preapproval.percent-encoded-party',
    title: 'A percent-encoded party id gets the same answer as the raw one',
    operationId: LOOKUP,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: path parameter party (clients encode '::' as %3A%3A)`,
    async run(ctx) {
      const party = need(ctx, ctx.profile.scan?.preapprovalParty, 'a party with a preapproval (scan.preapprovalParty)');
      const encoded = await lookupPreapproval(ctx, party, true);
      const raw = await lookupPreapproval(ctx, party, false);
      expectStatus(ctx, encoded, 200, 'lookup with the party percent-encoded');
      expectStatus(ctx, raw, 200, 'lookup with the party as is');
      const a = objectBody(ctx, encoded, 'encoded');
      const b = objectBody(ctx, raw, 'raw');
      if (!jsonEqual(a, b)) ctx.fail(`the answers differ at ${firstDifference(a, b)}`, raw);
    },
  }),
  check({
    id: 'scan.preapproval.expired-still-returned',
    title: 'An expired but unarchived preapproval is still returned',
    operationId: LOOKUP,
    level: 'SHOULD',
    kind: 'example',
    specRef: 'Splice Scan lookup semantics (expired, unarchived preapprovals are returned; splice#6610)',
    async run(ctx) {
      const party = need(ctx, ctx.profile.scan?.expiredPreapprovalParty, 'a party whose preapproval expired (scan.expiredPreapprovalParty)');
      await preapprovalOf(ctx, party, 'preapproval lookup of an expired preapproval');
    },
  }),
  check({
    id: 'scan.preapproval.archived-404',
    title: 'A party whose preapproval was archived gets 404',
    operationId: LOOKUP,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: 404 when no (active) preapproval is found`,
    async run(ctx) {
      const party = need(ctx, ctx.profile.scan?.archivedPreapprovalParty, 'a party whose preapproval was archived (scan.archivedPreapprovalParty)');
      const e = await lookupPreapproval(ctx, party);
      expectStatus(ctx, e, 404, 'preapproval lookup after archival');
      expectErrorResponse(ctx, e, 'archived preapproval');
    },
  }),
  check({
    id: 'scan.preapproval.malformed-party-400',
    title: 'A string that is not a party id is refused with 400 and an ErrorResponse (property)',
    operationId: LOOKUP,
    level: 'SHOULD',
    kind: 'negative',
    specRef: 'Splice Scan: invalid party ids are an IllegalArgumentException, answered 400 {error}',
    async run(ctx) {
      await forAll(ctx, malformedPartyArb(), async (party) => {
        const e = await lookupPreapproval(ctx, party);
        expectStatus(ctx, e, 400, `preapproval lookup of '${party}'`);
        expectErrorResponse(ctx, e, 'malformed party');
      }, Math.min(ctx.runs, 10));
    },
  }),
  check({
    id: 'scan.earliest-round.shape',
    title: 'Earliest complete round: {earliest_round} as a non-negative integer, or 404 with an ErrorResponse',
    operationId: ROUND,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: GET /v0/internal/reward-accounting-process/rounds/earliest-available (Splice 0.6.0-0.6.4: /v0/reward-accounting-process/...)`,
    async run(ctx) {
      const round = await roundOperation(ctx);
      const e = await ctx.http.request('scan', { method: 'GET', ...round });
      const r = expectStatus(ctx, e, [200, 404], 'earliest round');
      if (r.status === 404) {
        expectErrorResponse(ctx, e, 'earliest round 404');
        return;
      }
      const body = objectBody(ctx, e, 'earliest round');
      if (!Number.isInteger(body.earliest_round) || (body.earliest_round as number) < 0) ctx.fail(`earliest_round must be a non-negative integer, got ${snippet(e)}`, e);
    },
  }),
  check({
    id: 'scan.earliest-round.expected-value',
    title: "Earliest complete round matches the profile's expectation (a round number, or 404)",
    operationId: ROUND,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD}: earliest round = first ingested round + 1, once archived; 404 before`,
    async run(ctx) {
      const expected = ctx.profile.scan?.earliestRound;
      if (expected === undefined) ctx.skip(`profile '${ctx.profile.name}' states no expected earliest round (scan.earliestRound)`);
      const e = await ctx.http.request('scan', { method: 'GET', ...(await roundOperation(ctx)) });
      if (expected === null) {
        expectStatus(ctx, e, 404, 'earliest round while no round is complete');
        expectErrorResponse(ctx, e, 'no complete round');
        return;
      }
      expectStatus(ctx, e, 200, 'earliest round');
      const body = objectBody(ctx, e, 'earliest round');
      if (body.earliest_round !== expected) ctx.fail(`expected earliest_round ${expected}, got ${JSON.stringify(body.earliest_round)}`, e);
    },
  }),
  check({
    id: 'scan.earliest-round.legacy-path',
    title: 'The pre-0.6.5 path of the earliest round answers like the current one',
    operationId: ROUND_LEGACY,
    level: 'MAY',
    kind: 'example',
    specRef: `${SD}: Versioning 4 (moved under /v0/internal/ in 0.6.5)`,
    async run(ctx) {
      // A release before the move has the one path, judged by scan.earliest-round.shape.
      await needsSplice(ctx, ROUND, `before it the earliest round has only the path ${ROUND_LEGACY_PATH}`);
      const now = await ctx.http.request('scan', { method: 'GET', path: ROUND_PATH, operationId: ROUND });
      const old = await ctx.http.request('scan', { method: 'GET', path: ROUND_LEGACY_PATH, operationId: ROUND_LEGACY });
      const a = expectStatus(ctx, now, [200, 404], 'current path');
      const b = expectStatus(ctx, old, [200, 404], 'legacy path');
      // No route there (a 404 without Scan's JSON ErrorResponse): the Scan is of a release that
      // moved it, as Splice's own since 0.6.5, whose scan.yaml serves the round only under /v0/internal/.
      if (b.status === 404 && !/json/.test(b.contentType)) {
        const why = `this Scan has no route at the pre-0.6.5 path ${ROUND_LEGACY_PATH} (HTTP 404, ${b.contentType || 'no content type'}): Splice serves it only under /v0/internal/ since 0.6.5`;
        const reported = await spliceRelease(ctx);
        if (spliceLacks(reported, ROUND_LEGACY) !== undefined) throw new CheckNotOnRelease(why, `Splice ${reported!}`);
        ctx.skip(why);
      }
      if (a.status !== b.status) ctx.fail(`current path answers ${a.status}, legacy path ${b.status}`, old);
      if (a.status === 200 && !jsonEqual(objectBody(ctx, now, 'current'), objectBody(ctx, old, 'legacy'))) ctx.fail('the two paths give different rounds', old);
    },
  }),
  check({
    id: 'scan.version.shape',
    title: "The Scan's release (GET /version): version naming the Splice release and commit_ts a time, or no route at all",
    operationId: VERSION,
    level: 'MUST',
    kind: 'example',
    specRef: "Splice common-external.yaml: GET /version, Version (version and commit_ts required, commit_ts a date-time)",
    async run(ctx) {
      const e = await ctx.http.request('scan', { method: 'GET', path: SCAN_VERSION_PATH, operationId: VERSION });
      // A Scan that does not say its release is judged as the newest: no rule to break.
      if (expectStatus(ctx, e, [200, 404], 'GET /version').status === 404) return;
      const body = objectBody(ctx, e, 'the Scan version');
      if (typeof body.version !== 'string' || body.version === '') ctx.fail(`version must be a non-empty string (the Splice release), got ${snippet(e)}`, e);
      if (typeof body.commit_ts !== 'string' || !RFC3339.test(body.commit_ts) || Number.isNaN(Date.parse(body.commit_ts))) ctx.fail(`commit_ts must be an RFC 3339 date-time (the release commit's time), got ${snippet(e)}`, e);
      // Splice's schema types it only as a string: a version naming no release is judged as the newest.
      if (releaseOf(body.version) === undefined) ctx.warn(`version '${body.version as string}' names no Splice release (major.minor.patch): the suite judges this Scan as the newest release`);
    },
  }),
];

