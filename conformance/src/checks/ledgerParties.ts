import { freshParty, readParty } from './support/ledger.js';
import { expectStatus, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { Exchange } from '../target/exchange.js';
import { pageWalk } from './support/pageWalk.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

/**
 * GET /v2/parties page by page, up to 200 pages of 1,000 (a participant may answer fewer a page).
 * `complete` is false when a next page was still offered: a participant hosting that many parties
 * is not at fault, so callers judge only what the pages read show (a token that loops shows as
 * parties listed again).
 */
export async function listAllParties(ctx: CheckContext): Promise<{ parties: Json[]; last: Exchange; complete: boolean }> {
  const walk = await pageWalk(
    ctx,
    (token) => ctx.http.request('ledger', { method: 'GET', path: '/v2/parties', query: { pageSize: 1000, ...(token ? { pageToken: token } : {}) } }),
    (b, e) => (Array.isArray(b.partyDetails) ? b.partyDetails.filter(isObject) : ctx.fail('GET /v2/parties must answer {partyDetails: [...]}', e)),
    { what: 'GET /v2/parties', followEmpty: true },
  );
  return { parties: walk.items as Json[], last: walk.last, complete: walk.complete };
}

/**
 * Judges that the pages list `party` exactly once; a walk that stopped before the end (a
 * participant with more parties than it reads) judges only a repeat, and skips when the party
 * was not among the pages read.
 */
export function expectListedOnce(ctx: CheckContext, walk: { parties: readonly Json[]; last: Exchange; complete: boolean }, party: string, what: string): void {
  const hits = walk.parties.filter((p) => p.party === party).length;
  if (hits > 1 || (walk.complete && hits === 0)) ctx.fail(`the pages of GET /v2/parties list ${what} ${party} ${hits} time(s), expected once (${walk.parties.length} parties in all)`, walk.last);
  if (hits === 0) ctx.skip(`GET /v2/parties offered more pages after ${walk.parties.length} parties (200 pages), and ${party} was not among them: not judged`);
}

async function partyDetails(ctx: CheckContext, party: string): Promise<{ e: Exchange; details: Json[] }> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/parties/${encodeURIComponent(party)}` });
  expectStatus(ctx, e, 200, `GET /v2/parties/${party}`);
  const list = objectBody(ctx, e, 'party details').partyDetails;
  if (!Array.isArray(list)) return ctx.fail('GET /v2/parties/{party} must answer {partyDetails: [...]}', e);
  return { e, details: list.filter(isObject) };
}

export const ledgerPartyChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.parties.allocate-round-trip',
    title: 'An allocated party is <hint>::<namespace>, local, and GET /v2/parties/{party} answers its details alone, the annotations it was allocated with included',
    operationId: LedgerOp.allocateParty,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: PartyManagementService AllocateParty (party id = hint::namespace, local_metadata), GetParties`,
    requires: { writes: true },
    async run(ctx) {
      const annotations = { 'cc-check': 'allocate-round-trip', 'cc-seed': String(ctx.seed) };
      const party = await freshParty(ctx, 'cc-round', annotations);
      const hint = party.split('::')[0]!;
      if (!/^cc-round/.test(hint) || !/::1220[0-9a-f]{64}$/.test(party)) ctx.fail(`the allocated party '${party}' is not <hint>::1220<64 hex> with the requested hint`);
      const { e, details } = await partyDetails(ctx, party);
      const d = details.find((x) => x.party === party);
      if (!d) return ctx.fail(`GET /v2/parties/${party} does not list the party just allocated`, e);
      // Asked for one party, the answer is that party's alone: core-ledger-client's checkIfPartyExists reads partyDetails[0] as it.
      const others = details.filter((x) => x.party !== party).map((x) => String(x.party));
      if (others.length > 0) ctx.fail(`GET /v2/parties/${party} also answers ${others.join(', ')}, which it was not asked for: a client reading partyDetails[0] as the party finds ${String(details[0]!.party)}`, e);
      if (d.isLocal !== true) ctx.fail(`the party just allocated on this participant has isLocal ${JSON.stringify(d.isLocal)}`, e);
      // As wallet-sdk looks a party up before allocating it: the default identity provider named by an empty id, the party also in ?parties=.
      const asSdk = `/v2/parties/${encodeURIComponent(party)}?identity-provider-id=&parties=${encodeURIComponent(party)}`;
      const sdk = await ctx.http.request('ledger', { method: 'GET', path: asSdk, operationId: LedgerOp.getParty });
      expectStatus(ctx, sdk, 200, `GET ${asSdk}`);
      const sdkDetails = objectBody(ctx, sdk, 'party details').partyDetails;
      if (!Array.isArray(sdkDetails) || !sdkDetails.some((x) => isObject(x) && x.party === party)) ctx.fail(`GET ${asSdk} does not list the party just allocated`, sdk);
      // Applications keep their own data on a party in its annotations (ObjectMeta), set at allocation.
      const got = isObject(d.localMetadata) && isObject(d.localMetadata.annotations) ? d.localMetadata.annotations : {};
      if (!jsonEqual(got, annotations)) ctx.fail(`the party was allocated with localMetadata annotations ${JSON.stringify(annotations)}; GET /v2/parties/${party} answers ${JSON.stringify(got)}`, e);
    },
  }),
  check({
    id: 'ledger.parties.list-includes-known',
    title: "GET /v2/parties, page by page, lists the suite's party exactly once",
    operationId: LedgerOp.listParties,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: ListKnownParties (pageSize, pageToken, nextPageToken)`,
    async run(ctx) {
      const party = (await readParty(ctx)) ?? ctx.skip(`profile '${ctx.profile.name}' names no party to look for (ledger.party)`);
      expectListedOnce(ctx, await listAllParties(ctx), party, "the suite's party");
    },
  }),
  check({
    id: 'ledger.parties.get-unknown-empty',
    title: 'GET /v2/parties/{party} of a well-formed party nobody allocated answers an empty partyDetails list; asked with known parties too (?parties=), it answers each known one and no other',
    operationId: LedgerOp.getParty,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: GetParties (the details of the given parties: the path's and those of ?parties=; unknown parties are left out of party_details)`,
    async run(ctx) {
      const unknown = `cc-nobody-${ctx.seed.toString(36)}::1220${'0f'.repeat(32)}`;
      const { e, details } = await partyDetails(ctx, unknown);
      if (details.some((d) => d.party === unknown)) ctx.fail(`a party nobody allocated (${unknown}) is reported as known`, e);
      // Two parties the target itself lists, asked in one lookup with the unknown one between them.
      const first = await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties', query: { pageSize: 2 } });
      if (first.response?.status !== 200) return; // listing may need rights the run's user lacks: ledger.parties.list-includes-known judges it
      const listed = objectBody(ctx, first, 'list parties').partyDetails;
      const known = Array.isArray(listed) ? listed.filter(isObject).map((d) => d.party).filter((p): p is string => typeof p === 'string').slice(0, 2) : [];
      if (known.length < 2) return;
      const path = `/v2/parties/${encodeURIComponent(known[0]!)}?parties=${encodeURIComponent(unknown)}&parties=${encodeURIComponent(known[1]!)}`;
      const both = await ctx.http.request('ledger', { method: 'GET', path, operationId: LedgerOp.getParty });
      expectStatus(ctx, both, 200, `GET ${path}`);
      const answered = objectBody(ctx, both, 'party details').partyDetails;
      const got = Array.isArray(answered) ? answered.filter(isObject).map((d) => d.party) : [];
      const missing = known.filter((p) => !got.includes(p));
      if (missing.length > 0) ctx.fail(`asked for ${known[0]} (the path), ${unknown} and ${known[1]} (?parties=), the lookup leaves out the known ${missing.join(' and ')}`, both);
      if (got.includes(unknown)) ctx.fail(`asked together with known parties, a party nobody allocated (${unknown}) is reported as known`, both);
      const unasked = got.filter((p) => p !== known[0] && p !== known[1] && p !== unknown);
      if (unasked.length > 0) ctx.fail(`asked for ${known[0]}, ${unknown} and ${known[1]}, the lookup also answers ${unasked.map(String).join(', ')}: GetParties answers the parties asked for`, both);
    },
  }),
  check({
    id: 'ledger.parties.participant-id',
    title: "GET /v2/parties/participant-id answers the participant's id, the same on every call, in the namespace of its local parties",
    operationId: LedgerOp.participantId,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GetParticipantId; ${SD_B}: parties hint::<participant namespace>`,
    async run(ctx) {
      const ids: string[] = [];
      let last: Exchange | undefined;
      for (let i = 0; i < 2; i++) {
        last = await ctx.http.request('ledger', { method: 'GET', path: '/v2/parties/participant-id' });
        expectStatus(ctx, last, 200, 'GET /v2/parties/participant-id');
        const id = objectBody(ctx, last, 'participant id').participantId;
        // The participant's unique identifier; some renderings prefix it with its kind (PAR::).
        if (typeof id !== 'string' || !/^(PAR::)?(?:[^:]|:(?!:))+::[0-9a-f]+$/.test(id)) return ctx.fail(`participantId must be <name>::<namespace>, got ${JSON.stringify(id)}`, last);
        ids.push(id);
      }
      if (ids[0] !== ids[1]) ctx.fail(`two calls answered different participant ids: ${ids.join(', ')}`, last);
      if (!ctx.profile.writes || !ctx.profile.ledger?.allocateParties) return;
      const party = await freshParty(ctx, 'cc-ns');
      const ns = ids[0]!.split('::').at(-1);
      if (party.split('::')[1] !== ns) ctx.fail(`a party allocated here (${party}) is not in the participant's namespace ${ns}`, last);
    },
  }),
];
