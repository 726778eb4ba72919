import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { requestTopology } from './ledgerInteractive.js';
import { eventFormat, ledgerEnd, readParty } from './support/ledger.js';
import { bodyOf, expectCantonError, expectStatus, isBase64, isObject, objectBody, type Json } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import { cantonHash, decodeTopologyTransaction, multiHashOf, TOPOLOGY_TRANSACTION_PURPOSE } from './support/topologyHash.js';
import type { Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Wire details the published clients (wallet-sdk, core-ledger-client, core-acs-reader) rely on:
 * the multiHash they recompute over Canton's topology transactions before signing, and the
 * `verbose: false` they send beside a format.
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
