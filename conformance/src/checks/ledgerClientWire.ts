import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { requestTopology } from './ledgerInteractive.js';
import { archiveContract, createContract, eventFormat, ledgerEnd, readParty, suiteParty } from './support/ledger.js';
import { bodyOf, expectCantonError, expectStatus, firstDifference, isBase64, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import { cantonHash, decodeTopologyTransaction, multiHashOf, TOPOLOGY_TRANSACTION_PURPOSE } from './support/topologyHash.js';
import { releasePredates } from './support/targetVersion.js';
import { jsonOf, type Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Wire details the published clients (wallet-sdk, core-ledger-client, core-acs-reader) rely on:
 * the multiHash they recompute over Canton's topology transactions before signing, the
 * `verbose: false` they send beside a format, and the legacy filter form some still send.
 */
const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });

/**
 * Why an answer may be reused by an HTTP cache (RFC 9111 §4.2: explicit freshness), or undefined.
 * A browser wallet's fetch (and any caching proxy) would then answer later reads of moving state
 * from the cache; no-store/no-cache forbid reuse without revalidation whatever else is said.
 */
function reusableBecause(e: Exchange): string | undefined {
  const h = e.response?.headers ?? {};
  const cc = (h['cache-control'] ?? '').toLowerCase().split(',').map((d) => d.trim());
  if (cc.includes('no-store') || cc.includes('no-cache')) return undefined;
  const fresh = cc.map((d) => /^(?:s-maxage|max-age)\s*=\s*"?(\d+)"?$/.exec(d)).find((m) => m !== null && Number(m[1]) > 0);
  if (fresh) return `Cache-Control: ${h['cache-control']}`;
  if (cc.includes('immutable')) return `Cache-Control: ${h['cache-control']}`;
  // Expires counts only without a max-age, and only dated after the answer's own Date.
  const expires = Date.parse(h.expires ?? '');
  const date = Date.parse(h.date ?? '');
  if (!cc.some((d) => d.startsWith('max-age') || d.startsWith('s-maxage')) && Number.isFinite(expires) && Number.isFinite(date) && expires > date) return `Expires: ${h.expires} (Date: ${h.date})`;
  return undefined;
}

/** GET reads of state that moves with every commit or admin write. */
const MOVING_STATE: readonly string[] = ['/v2/state/ledger-end', '/v2/state/latest-pruned-offsets', '/v2/state/connected-synchronizers', '/v2/parties', '/v2/users'];

interface GeneratedTopology {
  readonly synchronizer: string;
  readonly generated: Exchange;
  readonly t: Json & { readonly partyId: string; readonly publicKeyFingerprint: string; readonly multiHash: string };
  readonly txs: readonly string[];
  readonly privateKey: KeyObject;
}

/** generate-topology for a fresh Ed25519 key on the first connected synchronizer, its answer checked for shape and mappings. */
async function generateTopology(ctx: CheckContext): Promise<GeneratedTopology> {
  const { synchronizerId: synchronizer, exchange: generated, privateKey } = await requestTopology(ctx, 'cc-topo');
  const t = objectBody(ctx, generated, 'generate-topology');
  const txs = t.topologyTransactions;
  if (typeof t.partyId !== 'string' || typeof t.publicKeyFingerprint !== 'string' || typeof t.multiHash !== 'string' || !Array.isArray(txs) || txs.length === 0 || !txs.every(isBase64)) {
    return ctx.fail('generate-topology must answer {partyId, publicKeyFingerprint, topologyTransactions: non-empty base64[], multiHash}', generated);
  }
  const mappings: string[] = [];
  for (const [i, tx] of txs.entries()) {
    const decoded = decodeTopologyTransaction(Buffer.from(tx, 'base64'));
    if (typeof decoded === 'string') return ctx.fail(`topologyTransactions[${i}] is not a Canton topology transaction: ${decoded}`, generated);
    if (decoded.mapping === 'partyToParticipant' && decoded.party !== t.partyId) ctx.fail(`topologyTransactions[${i}] maps party ${decoded.party}, not ${t.partyId}`, generated);
    mappings.push(decoded.mapping);
  }
  if (!mappings.includes('partyToParticipant')) ctx.fail(`none of the topology transactions is a party-to-participant mapping (found: ${mappings.join(', ')})`, generated);
  return { synchronizer, generated, t: t as GeneratedTopology['t'], txs, privateKey };
}

/** An AllocateExternalPartyRequest for generated transactions with one signature over the multiHash, said to be by the party's key. */
const allocateBody = (g: Pick<GeneratedTopology, 'synchronizer' | 'txs' | 't'>, signature: Buffer): Json => ({
  synchronizer: g.synchronizer,
  onboardingTransactions: g.txs.map((transaction) => ({ transaction })),
  multiHashSignatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature: signature.toString('base64'), signedBy: g.t.publicKeyFingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }],
  identityProviderId: '',
});

/**
 * Skips when a Canton 3.6 or later participant refused the legacy form as deprecated (its
 * DEPRECATED_API_DISABLED, unless features.deprecated is set); a 3.4 or 3.5 participant serves it.
 */
async function legacyDisabledOnNewerRelease(ctx: CheckContext, e: Exchange): Promise<void> {
  const b = jsonOf(e);
  if (e.response?.status !== 400 || !b.ok || !isObject(b.value) || b.value.code !== 'DEPRECATED_API_DISABLED') return;
  const v = jsonOf(await ctx.http.request('ledger', { method: 'GET', path: '/v2/version' }));
  const reported = v.ok && isObject(v.value) ? v.value.version : undefined;
  if (!releasePredates(reported, '3.6.0')) ctx.skip(`the target reports Canton ${String(reported)}, which disables the legacy filter/verbose form (DEPRECATED_API_DISABLED)`);
}

/** The Transaction values of an update list, in its order. */
const transactionsIn = (items: unknown): unknown[] =>
  (Array.isArray(items) ? items : []).flatMap((i) => (isObject(i) && isObject(i.update) && isObject(i.update.Transaction) ? [i.update.Transaction.value] : []));

/** The entries of an active contract list by contract id. */
const byContractId = (items: unknown): unknown[] => {
  const idOf = (i: unknown) => (isObject(i) && isObject(i.contractEntry) && isObject(i.contractEntry.JsActiveContract) && isObject(i.contractEntry.JsActiveContract.createdEvent) ? String(i.contractEntry.JsActiveContract.createdEvent.contractId) : '');
  return (Array.isArray(items) ? [...items] : []).sort((a, b) => idOf(a).localeCompare(idOf(b)));
};

export const ledgerClientWireChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.wire.state-reads-not-cacheable',
    title: 'GET reads of moving state (ledger end, pruned offsets, connected synchronizers, parties, users) are not declared fresh for an HTTP cache',
    operationId: LedgerOp.ledgerEnd,
    level: 'SHOULD',
    kind: 'example',
    specRef: `RFC 9111 §4.2 (a response with max-age, s-maxage, immutable or a later Expires is reused without asking the origin); ${SD_B}: the ledger end is the latest offset, so a reused answer is a stale one`,
    readsTargetState: 'it judges the caching headers of whole-list reads (parties, users), whose elements on a target include what the reference never saw; the bodies are not what it judges',
    async run(ctx) {
      for (const path of MOVING_STATE) {
        const e = await ctx.http.request('ledger', { method: 'GET', path });
        // Every user may read the ledger end: a target that does not answer it has nothing judged here.
        if (path === '/v2/state/ledger-end') {
          expectStatus(ctx, e, 200, `GET ${path}`);
          objectBody(ctx, e, 'the ledger end');
        }
        // A read the token may not make (403) or a line without it says nothing about caching.
        if (e.response?.status !== 200) continue;
        const why = reusableBecause(e);
        if (why !== undefined) ctx.fail(`GET ${path} answers ${why}: a browser or proxy cache serves this state stale instead of asking the participant`, e);
      }
    },
  }),
  check({
    id: 'ledger.external-party.topology-multihash',
    title: "generate-topology answers Canton's versioned v30 topology transactions and the multiHash a wallet recomputes over them; a signature over the recomputed hash onboards the party",
    operationId: LedgerOp.generateTopology,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GenerateExternalPartyTopologyResponse (topology_transactions, multi_hash); Canton MultiTransactionSignature combined hash (purposes 11 and 55)`,
    requires: { writes: true },
    async run(ctx) {
      if (ctx.profile.ledger?.interactiveSubmission === false) ctx.skip(`profile '${ctx.profile.name}' says the target offers no interactive submission (ledger.interactiveSubmission: false)`);
      const { synchronizer, generated, t, txs, privateKey } = await generateTopology(ctx);
      const hashes = txs.map((tx) => cantonHash(TOPOLOGY_TRANSACTION_PURPOSE, Buffer.from(tx, 'base64')));
      const expected = multiHashOf(hashes).toString('base64');
      if (t.multiHash !== expected) ctx.fail(`multiHash ${t.multiHash} is not the hash a wallet recomputes over the transactions (${expected}: SHA-256 purpose 55 over the count and the sorted, length-prefixed purpose-11 hashes)`, generated);
      const allocated = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties/external/allocate', json: allocateBody({ synchronizer, txs, t }, sign(null, Buffer.from(expected, 'base64'), privateKey)) });
      expectStatus(ctx, allocated, 200, 'allocate with a signature over the recomputed multiHash');
      const party = objectBody(ctx, allocated, 'allocate').partyId;
      if (party !== t.partyId) ctx.fail(`allocate answered partyId ${String(party)}, generate-topology said ${t.partyId}`, allocated);
    },
  }),
  check({
    id: 'ledger.external-party.allocate-needs-the-key',
    title: "allocate refuses onboarding transactions whose signature is not the party key's (another key signed the multiHash) and allocates nothing",
    operationId: LedgerOp.allocateExternal,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: AllocateExternalPartyRequest (multi_hash_signatures: the party's key proves its ownership); Canton topology authorization`,
    requires: { writes: true },
    async run(ctx) {
      if (ctx.profile.ledger?.interactiveSubmission === false) ctx.skip(`profile '${ctx.profile.name}' says the target offers no interactive submission (ledger.interactiveSubmission: false)`);
      const g = await generateTopology(ctx);
      // Anyone could otherwise take the party id of a key they do not hold.
      const intruder = generateKeyPairSync('ed25519').privateKey;
      const refused = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties/external/allocate', json: allocateBody(g, sign(null, Buffer.from(g.t.multiHash, 'base64'), intruder)) });
      const r = expectStatus(ctx, refused, [400, 403], `allocate with the multiHash signed by another key than ${g.t.publicKeyFingerprint}`);
      if (r.status >= 400) expectCantonError(ctx, refused, 'allocate with another key\'s signature');
      const lookup = await ctx.http.request('ledger', { method: 'GET', path: `/v2/parties/${encodeURIComponent(g.t.partyId)}`, operationId: LedgerOp.getParty });
      expectStatus(ctx, lookup, 200, `GET /v2/parties/${g.t.partyId}`);
      const details = objectBody(ctx, lookup, 'party details').partyDetails;
      if (Array.isArray(details) && details.some((d) => isObject(d) && d.party === g.t.partyId)) ctx.fail(`the refused onboarding left ${g.t.partyId} allocated`, lookup);
    },
  }),
  check({
    id: 'ledger.wire.legacy-filter-form',
    title: "The legacy request form (filter and verbose, no format) of the update list, the update WebSocket and the active contract set answers what its documented equivalent format does (core-acs-reader and the wallet SDK's update stream still send it)",
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GetUpdatesRequest.filter/verbose (update_format unset: transactions of filter.filters_by_party in TRANSACTION_SHAPE_ACS_DELTA, with the same verbose), GetActiveContractsRequest.filter/verbose (event_format unset: the same filter and verbose); deprecated, served by Canton 3.4 and 3.5`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const begin = (await ledgerEnd(ctx)).offset;
      await createContract(ctx, party);
      // An archive too: the legacy form's shape is the ACS delta (an archived event, not the exercise).
      await archiveContract(ctx, party, await createContract(ctx, party));
      const end = (await ledgerEnd(ctx)).offset;
      const filter = { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } } };
      const format = { ...filter, verbose: false };
      const updates = (json: Json) => ctx.http.request('ledger', { method: 'POST', path: '/v2/updates', query: { stream_idle_timeout_ms: 1000 }, json: { beginExclusive: begin, endInclusive: end, ...json } });
      const legacy = await updates({ filter, verbose: false });
      await legacyDisabledOnNewerRelease(ctx, legacy);
      expectStatus(ctx, legacy, 200, 'POST /v2/updates with the legacy filter and verbose');
      const current = await updates({ updateFormat: { includeTransactions: { eventFormat: format, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } });
      expectStatus(ctx, current, 200, 'POST /v2/updates with the equivalent updateFormat');
      const got = transactionsIn(bodyOf(ctx, legacy, 'updates (legacy form)'));
      const want = transactionsIn(bodyOf(ctx, current, 'updates (updateFormat)'));
      if (want.length === 0) ctx.fail(`the update stream shows no transaction of ${party} in (${begin}, ${end}]`, current);
      if (!jsonEqual(got, want)) ctx.fail(`the legacy form's transactions differ from the ACS delta of the same filter and verbose at ${firstDifference(got, want) ?? '?'}`, legacy);
      // The wallet SDK's update stream (core-asyncapi-client) sends the legacy form on the WebSocket.
      if (ctx.profile.ledger?.websocket !== false) {
        const offsetOf = (t: unknown) => (isObject(t) && typeof t.offset === 'number' ? t.offset : 0);
        const ws = await ctx.http.stream('ledger', '/v2/updates', {
          request: { beginExclusive: begin, endInclusive: end, filter, verbose: false }, operationId: LedgerOp.updates, idleMs: 1500,
          until: (m) => transactionsIn(m).some((t) => offsetOf(t) >= end),
        });
        if (ws.rejectedStatus !== undefined) return ctx.fail(`the WebSocket upgrade of /v2/updates was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
        const streamed = transactionsIn(ws.messages).filter((t) => offsetOf(t) <= end);
        if (!jsonEqual(streamed, want)) ctx.fail(`on the WebSocket, the legacy form's transactions differ from the ACS delta of the same filter and verbose at ${firstDifference(streamed, want) ?? '?'}`, ws.exchange);
      }
      const acs = (json: Json) => ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', operationId: LedgerOp.activeContracts, json: { activeAtOffset: end, ...json } });
      const legacyAcs = await acs({ filter, verbose: false });
      await legacyDisabledOnNewerRelease(ctx, legacyAcs);
      const currentAcs = await acs({ eventFormat: format });
      // More contracts than the list answers at once (a long-lived suite party): the sets are compared no further.
      if (legacyAcs.response?.status === 413 && currentAcs.response?.status === 413) return;
      expectStatus(ctx, legacyAcs, 200, 'POST /v2/state/active-contracts with the legacy filter and verbose');
      expectStatus(ctx, currentAcs, 200, 'POST /v2/state/active-contracts with the equivalent eventFormat');
      const gotAcs = byContractId(bodyOf(ctx, legacyAcs, 'active contracts (legacy form)'));
      const wantAcs = byContractId(bodyOf(ctx, currentAcs, 'active contracts (eventFormat)'));
      if (!jsonEqual(gotAcs, wantAcs)) ctx.fail(`the legacy form's active contracts differ from those of the same filter and verbose as an eventFormat at ${firstDifference(gotAcs, wantAcs) ?? '?'}`, legacyAcs);
    },
  }),
  check({
    id: 'ledger.acs.verbose-false-with-format',
    title: '`verbose: false` beside eventFormat (active contracts) and updateFormat (updates) is accepted, as the wallet SDK sends it; only `verbose: true` conflicts with a format',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: GetActiveContractsRequest / GetUpdatesRequest; ${UPSTREAM_B}: verbose is a proto3 bool, so false equals absent`,
    async run(ctx) {
      const party = await readParty(ctx);
      const end = await ledgerEnd(ctx);
      const format = eventFormat(party);
      const acs = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', query: { limit: 1 }, json: { activeAtOffset: end.offset, eventFormat: format, verbose: false } });
      if (acs.response?.status === 403 && party === undefined) ctx.skip('reading as any party is forbidden to the run user (give ledger.party, or allow writes)');
      expectStatus(ctx, acs, 200, 'active contracts with eventFormat and verbose: false');
      if (!Array.isArray(bodyOf(ctx, acs, 'active contracts'))) ctx.fail('POST /v2/state/active-contracts must answer a JSON array', acs);
      const updates = await ctx.http.request('ledger', {
        method: 'POST',
        path: '/v2/updates',
        query: { stream_idle_timeout_ms: 1000, limit: 50 },
        json: { beginExclusive: Math.max(0, end.offset - 1), endInclusive: end.offset, verbose: false, updateFormat: { includeTransactions: { eventFormat: format, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
      });
      expectStatus(ctx, updates, 200, 'updates with updateFormat and verbose: false');
    },
  }),
];
