import type { AuthMode, Exchange } from '../target/exchange.js';
import { claimsFor, mintToken } from '../target/mintToken.js';
import { choiceContext } from './registry.js';
import { preapprovalOf } from './scan.js';
import { activeContracts, eventFormat, ledgerEnd, type ActiveContract, type CreatedEventView } from './support/ledger.js';
import { poll } from './support/poll.js';
import { damlValueDifference } from './support/values.js';
import { allocate, exerciseResult, submitTx } from './tokenRegistry.js';
import { expectStatus, isObject, objectBody, qualifiedName, type Json } from './support/expect.js';
import type { CheckContext, CheckDefinition } from './types.js';

const SD = 'service description (groups A, B, C answer from one ledger; the registry and Scan are apps that read it)';

/** How to read the ledger as another party: as `auth.readerUser` when the target is secured and names one. */
export async function readerAuth(ctx: CheckContext): Promise<AuthMode | undefined> {
  const a = ctx.profile.auth;
  if (!a?.required || a.readerUser === undefined || a.signing === undefined) return undefined;
  return { token: await mintToken(a.signing, claimsFor(a.signing, a.readerUser)) };
}

const forbidden = (party: string) => `the run's user may not read as ${party} (403); name a user that may in auth.readerUser (with auth.signing), or grant it CanReadAs`;

function reader(ctx: CheckContext, preferred: string | undefined, what: string): string {
  return preferred ?? ctx.profile.ledger?.party ?? ctx.skip(`profile '${ctx.profile.name}' names no party that can read ${what} on the ledger`);
}

/** The DSO's contracts wallets take from Scan; AmuletRules first. */
const DSO_TEMPLATES = ['Splice.AmuletRules:AmuletRules', 'Splice.Round:OpenMiningRound', 'Splice.Round:IssuingMiningRound'] as const;

interface ServedContract {
  readonly what: string;
  readonly contract: Json;
  readonly domain: unknown;
  readonly e: Exchange;
}

/**
 * The DSO party and every AmuletRules and round contract Scan serves: its DSO info, AmuletRules
 * and rounds, and the scan proxy's forms where served.
 */
async function scanContracts(ctx: CheckContext): Promise<{ dso: string; contracts: ServedContract[] }> {
  const out: ServedContract[] = [];
  const add = (what: string, cws: unknown, e: Exchange) => {
    if (isObject(cws) && isObject(cws.contract)) out.push({ what, contract: cws.contract, domain: cws.domain_id, e });
  };
  const addRounds = (what: string, body: Json, e: Exchange) => {
    for (const key of ['open_mining_rounds', 'issuing_mining_rounds'] as const) {
      const rounds = body[key];
      for (const [k, r] of Array.isArray(rounds) ? rounds.entries() : Object.entries(isObject(rounds) ? rounds : {})) add(`${what} ${key}[${String(k)}]`, r, e);
    }
  };
  const get = async (method: 'GET' | 'POST', path: string, operationId: string, json?: unknown) => {
    const e = await ctx.http.request('scan', { method, path, operationId, ...(json === undefined ? {} : { json }) });
    expectStatus(ctx, e, 200, `${method} ${path}`);
    return { e, body: objectBody(ctx, e, path) };
  };
  const rounds = { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] };
  const info = await get('GET', '/v0/dso', 'getDsoInfo');
  const dso = typeof info.body.dso_party_id === 'string' ? info.body.dso_party_id : ctx.fail('GET /v0/dso names no dso_party_id', info.e);
  add('GET /v0/dso amulet_rules', info.body.amulet_rules, info.e);
  add('GET /v0/dso latest_mining_round', info.body.latest_mining_round, info.e);
  const rules = await get('POST', '/v0/amulet-rules', 'getAmuletRules', {});
  add('POST /v0/amulet-rules', rules.body.amulet_rules_update, rules.e);
  const r = await get('POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', rounds);
  addRounds('POST /v0/open-and-issuing-mining-rounds', r.body, r.e);
  if (ctx.profile.scan?.scanProxy === true) {
    const pRules = await get('GET', '/v0/scan-proxy/amulet-rules', 'getAmuletRulesProxy');
    add('GET /v0/scan-proxy/amulet-rules', pRules.body.amulet_rules, pRules.e);
    const pRounds = await get('GET', '/v0/scan-proxy/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRoundsProxy');
    addRounds('GET /v0/scan-proxy/open-and-issuing-mining-rounds', pRounds.body, pRounds.e);
  }
  return { dso, contracts: out };
}

/**
 * The created event of `cid` as `party` reads it (events-by-contract-id, with its blob). Scan may
 * read another participant of the DSO, ahead of this one: a contract not (yet) shown is waited
 * for, and fails once the run's patience is spent.
 */
function createdEventOf(ctx: CheckContext, party: string, cid: string, auth: AuthMode | undefined, served: Exchange): Promise<CreatedEventView> {
  return poll(ctx, 200, async (lastTry) => {
    const e = await ctx.http.request('ledger', {
      method: 'POST',
      path: '/v2/events/events-by-contract-id',
      json: { contractId: cid, eventFormat: eventFormat(party, { blob: true }) },
      ...(auth ? { auth } : {}),
    });
    if (e.response?.status === 404) return lastTry ? ctx.fail(`Scan serves ${cid} as the DSO's, but the ledger shows the DSO ${party} no such contract`, served) : undefined;
    expectStatus(ctx, e, 200, `events-by-contract-id of ${cid}`);
    const created = objectBody(ctx, e, 'events by contract id').created;
    const ev = isObject(created) && isObject(created.createdEvent) ? created.createdEvent : ctx.fail(`events-by-contract-id of ${cid} answers no created event`, e);
    return ev as unknown as CreatedEventView;
  });
}

/**
 * Fails unless a contract Scan served (a ContractWithState's `contract`) is the ledger's created
 * event `ev`: template, payload as a Daml value (Scan encodes payloads with its own codec: Numerics
 * and Times compare by value, None fields null or left out), blob and creation time.
 */
function expectLedgerContract(ctx: CheckContext, what: string, served: Json, ev: CreatedEventView, e: Exchange): void {
  const cid = String(served.contract_id);
  if (qualifiedName(String(served.template_id)) !== qualifiedName(ev.templateId)) ctx.fail(`${what}: template ${String(served.template_id)}, the ledger's ${cid} is a ${ev.templateId}`, e);
  const differs = damlValueDifference(served.payload, ev.createArgument);
  if (differs !== undefined) ctx.fail(`${what}: the payload of ${cid} differs from the ledger's createArgument at ${differs}`, e);
  if (served.created_event_blob !== ev.createdEventBlob) ctx.fail(`${what}: the created_event_blob of ${cid} is not the ledger's (a wallet disclosing it submits another contract, or one the ledger refuses)`, e);
  if (ev.createdAt !== undefined && served.created_at !== undefined && Date.parse(String(served.created_at)) !== Date.parse(ev.createdAt)) ctx.fail(`${what}: created_at of ${cid} is ${String(served.created_at)}, the ledger's ${ev.createdAt}`, e);
}

/** Scan's preapproval of `party` against the ledger's contract of that id, read as `party`. */
async function preapprovalMatchesLedger(ctx: CheckContext, party: string): Promise<void> {
  const { exchange, preapproval, contract } = await preapprovalOf(ctx, party, `preapproval lookup of ${party}`);
  const end = await ledgerEnd(ctx);
  const auth = await readerAuth(ctx);
  const acs = await activeContracts(ctx, party, end.offset, { blob: true, skipIfForbidden: forbidden(party), ...(auth ? { auth } : {}) });
  const onLedger = acs.contracts.find((c) => c.createdEvent.contractId === contract.contract_id);
  if (!onLedger) return ctx.fail(`Scan returned ${String(contract.contract_id)}, which is not active on the ledger for ${party} at ${end.offset}`, exchange);
  expectLedgerContract(ctx, `${party}'s preapproval`, contract, onLedger.createdEvent, exchange);
  if (preapproval.domain_id !== undefined && onLedger.synchronizerId !== undefined && preapproval.domain_id !== onLedger.synchronizerId) ctx.fail(`domain_id ${String(preapproval.domain_id)} differs from the ledger's synchronizer ${onLedger.synchronizerId}`, exchange);
}

export const crossGroupChecks: readonly CheckDefinition[] = [
  {
    id: 'registry.cross-group.disclosed-match-ledger',
    title: "The registry's disclosed contracts equal the ledger's view: id, template, blob, synchronizer",
    group: 'registry',
    operationId: 'getAllocationInstructionAcceptContext',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${SD}: createdEventBlob is forwarded unchanged as retrieved from the JSON ledger API`,
    requires: { groups: ['registry', 'ledger'] },
    async run(ctx) {
      const id = ctx.profile.registry?.allocationInstructionId ?? ctx.skip(`profile '${ctx.profile.name}' names no allocation instruction (registry.allocationInstructionId)`);
      const party = reader(ctx, ctx.profile.registry?.readerParty, 'the disclosed contracts (registry.readerParty)');
      const { exchange, disclosed } = await choiceContext(ctx, id, { excludeDebugFields: true }, 'accept context');
      if (disclosed.length === 0) ctx.skip('the context discloses no contract to compare');
      const end = await ledgerEnd(ctx);
      const auth = await readerAuth(ctx);
      const acs = await activeContracts(ctx, party, end.offset, { blob: true, skipIfForbidden: forbidden(party), ...(auth ? { auth } : {}) });
      const byId = new Map(acs.contracts.map((c) => [c.createdEvent.contractId, c]));
      for (const d of disclosed) {
        const onLedger = byId.get(d.contractId as string);
        if (!onLedger) return ctx.fail(`disclosed contract ${String(d.contractId)} is not active on the ledger for ${party} at ${end.offset}`, exchange);
        if (qualifiedName(String(d.templateId)) !== qualifiedName(onLedger.createdEvent.templateId)) ctx.fail(`template of ${String(d.contractId)}: registry says ${String(d.templateId)}, ledger says ${onLedger.createdEvent.templateId}`, exchange);
        if (d.createdEventBlob !== onLedger.createdEvent.createdEventBlob) ctx.fail(`createdEventBlob of ${String(d.contractId)} differs from the ledger's (it must be forwarded unchanged)`, exchange);
        if (onLedger.synchronizerId !== undefined && d.synchronizerId !== onLedger.synchronizerId) ctx.fail(`synchronizer of ${String(d.contractId)}: registry says ${String(d.synchronizerId)}, ledger says ${onLedger.synchronizerId}`, exchange);
      }
    },
  },
  {
    id: 'scan.cross-group.preapproval-matches-ledger',
    title: "Scan's preapproval equals the ledger's contract: id, template, payload, blob, creation time, synchronizer (of a party with a valid one, and of one whose preapproval expired)",
    group: 'scan',
    operationId: 'lookupTransferPreapprovalByParty',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${SD}: Scan derives its answers from the ledger`,
    requires: { groups: ['scan', 'ledger'] },
    async run(ctx) {
      const party = ctx.profile.scan?.preapprovalParty ?? ctx.skip(`profile '${ctx.profile.name}' names no party with a preapproval (scan.preapprovalParty)`);
      // One past its expiry too: Scan still returns it (its receiver renews or cancels it), and a
      // sender's wallet reads its expiresAt to tell whether it can send through it.
      for (const p of new Set([party, ctx.profile.scan?.expiredPreapprovalParty].filter((x): x is string => x !== undefined))) await preapprovalMatchesLedger(ctx, p);
    },
  },
  {
    id: 'scan.cross-group.domain-id-connected',
    title: "Scan's AmuletRules and mining rounds name as domain_id a synchronizer the participant is connected to (wallets submit there with them as disclosed contracts)",
    group: 'scan',
    operationId: 'getAmuletRules',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${SD}; Splice Scan: ContractWithState.domain_id (the synchronizer the contract is assigned to)`,
    requires: { groups: ['scan', 'ledger'] },
    async run(ctx) {
      if (ctx.profile.scan?.walletReads === false) ctx.skip(`profile '${ctx.profile.name}' says the target does not serve the wallet reads (scan.walletReads: false)`);
      const connected = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/connected-synchronizers' });
      expectStatus(ctx, connected, 200, 'GET /v2/state/connected-synchronizers');
      const list = objectBody(ctx, connected, 'connected synchronizers').connectedSynchronizers ?? [];
      if (!Array.isArray(list)) return ctx.fail('connected-synchronizers must answer {connectedSynchronizers: [...]} (a list)', connected);
      const ids = new Set(list.filter(isObject).map((x) => x.synchronizerId));
      if (ids.size === 0) ctx.skip('the participant reports no connected synchronizer');
      const rules = await ctx.http.request('scan', { method: 'POST', path: '/v0/amulet-rules', json: {}, operationId: 'getAmuletRules' });
      expectStatus(ctx, rules, 200, 'AmuletRules');
      const rounds = await ctx.http.request('scan', { method: 'POST', path: '/v0/open-and-issuing-mining-rounds', json: { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] }, operationId: 'getOpenAndIssuingMiningRounds' });
      expectStatus(ctx, rounds, 200, 'open and issuing rounds');
      const named: { what: string; domain: unknown; e: typeof rules }[] = [];
      const update = objectBody(ctx, rules, 'AmuletRules').amulet_rules_update;
      if (isObject(update)) named.push({ what: 'amulet_rules_update', domain: update.domain_id, e: rules });
      const r = objectBody(ctx, rounds, 'rounds');
      for (const key of ['open_mining_rounds', 'issuing_mining_rounds'] as const) {
        for (const [cid, round] of Object.entries(isObject(r[key]) ? r[key] : {})) if (isObject(round)) named.push({ what: `${key}/${cid}`, domain: round.domain_id, e: rounds });
      }
      for (const n of named) {
        if (n.domain === undefined) continue;
        if (!ids.has(n.domain)) ctx.fail(`${n.what} names domain_id ${JSON.stringify(n.domain)}, which is none of the participant's connected synchronizers (${[...ids].join(', ')})`, n.e);
      }
    },
  },
  {
    id: 'scan.cross-group.contracts-match-ledger',
    title: "Scan's AmuletRules and open and issuing rounds (as its DSO info and the scan proxy answer them too) are the DSO's contracts on the ledger: template, payload, blob, creation time, and the synchronizer an active one is on",
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRounds',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${SD}; Splice Scan: ContractWithState (the contract as created, domain_id the synchronizer it is assigned to); wallets disclose these blobs and compute fees and prices from these payloads`,
    requires: { groups: ['scan', 'ledger'] },
    async run(ctx) {
      if (ctx.profile.scan?.walletReads === false) ctx.skip(`profile '${ctx.profile.name}' says the target does not serve the wallet reads (scan.walletReads: false)`);
      const served = await scanContracts(ctx);
      const dso = served.dso;
      const end = await ledgerEnd(ctx);
      const auth = await readerAuth(ctx);
      const read = { blob: true, skipIfForbidden: forbidden(dso), ...(auth ? { auth } : {}) };
      const active = new Map<string, ActiveContract>();
      for (const t of DSO_TEMPLATES) for (const c of (await activeContracts(ctx, dso, end.offset, { ...read, templateId: `#splice-amulet:${t}` })).contracts) active.set(c.createdEvent.contractId, c);
      // Only a participant that hosts the DSO shows its contracts (an SV's): elsewhere there is nothing to compare with.
      if (![...active.values()].some((c) => qualifiedName(c.createdEvent.templateId) === DSO_TEMPLATES[0])) ctx.skip(`the ledger shows the DSO ${dso} no AmuletRules: the participant does not host the DSO, so Scan's contracts cannot be compared with its ledger`);
      for (const s of served.contracts) {
        const cid = String(s.contract.contract_id);
        const onLedger = active.get(cid);
        // A round Scan served may have been archived since (rounds turn as time moves): judged by its created event then.
        expectLedgerContract(ctx, s.what, s.contract, onLedger?.createdEvent ?? (await createdEventOf(ctx, dso, cid, auth, s.e)), s.e);
        if (onLedger?.synchronizerId !== undefined && s.domain !== undefined && s.domain !== onLedger.synchronizerId) ctx.fail(`${s.what}: domain_id of ${cid} is ${JSON.stringify(s.domain)}, but the ledger has it on ${onLedger.synchronizerId} (a wallet submits with it there)`, s.e);
      }
    },
  },
  {
    id: 'scan.cross-group.featured-app-right-found',
    title: "A featured app right the ledger just created (AmuletRules_DevNet_FeatureApp) is what Scan's featured-apps lookup (and the scan proxy's, where served) answers for its provider: the ledger's contract, template, payload and blob",
    group: 'scan',
    operationId: 'lookupFeaturedAppRight',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${SD}; Splice Scan: GET /v0/featured-apps/{provider_party_id} (the provider's FeaturedAppRight); validator scan-proxy.yaml: GET /v0/scan-proxy/featured-apps/{provider_party_id} (forwards Scan); AmuletRules_DevNet_FeatureApp`,
    requires: { groups: ['scan', 'ledger'], writes: true },
    async run(ctx) {
      if (ctx.profile.registry?.devNetTap !== true) ctx.skip(`profile '${ctx.profile.name}' does not allow DevNet choices (registry.devNetTap)`);
      const provider = await allocate(ctx, 'cc-featured');
      const rulesE = await ctx.http.request('scan', { method: 'POST', path: '/v0/amulet-rules', json: {}, operationId: 'getAmuletRules' });
      expectStatus(ctx, rulesE, 200, 'AmuletRules from Scan');
      const update = objectBody(ctx, rulesE, 'AmuletRules').amulet_rules_update;
      const rules = isObject(update) && isObject(update.contract) ? update.contract : ctx.fail('AmuletRules from Scan carries no contract', rulesE);
      const tx = await submitTx(ctx, provider, {
        ExerciseCommand: { templateId: '#splice-amulet:Splice.AmuletRules:AmuletRules', contractId: rules.contract_id, choice: 'AmuletRules_DevNet_FeatureApp', choiceArgument: { provider } },
      }, [{ templateId: rules.template_id, contractId: rules.contract_id, createdEventBlob: rules.created_event_blob }], `${provider} featuring itself (AmuletRules_DevNet_FeatureApp)`);
      const result = exerciseResult(tx);
      const cid = isObject(result) && typeof result.featuredAppRightCid === 'string' ? result.featuredAppRightCid : ctx.fail('AmuletRules_DevNet_FeatureApp answered no featuredAppRightCid');
      // Scan reads the ledger as it ingests it: the right appears after a while, never as another.
      // A validator's scan proxy forwards the same lookup (wallets read it there to mark featured
      // transfers): it answers the same right.
      const lookups = [{ path: `/v0/featured-apps/${encodeURIComponent(provider)}`, operationId: 'lookupFeaturedAppRight', who: 'Scan' }];
      if (ctx.profile.scan?.scanProxy === true) lookups.push({ path: `/v0/scan-proxy/featured-apps/${encodeURIComponent(provider)}`, operationId: 'lookupFeaturedAppRightProxy', who: 'the scan proxy' });
      const served: { who: string; right: Json; e: Exchange }[] = [];
      for (const { path, operationId, who } of lookups) {
        await poll(ctx, 200, async (lastTry) => {
          const e = await ctx.http.request('scan', { method: 'GET', path, operationId });
          expectStatus(ctx, e, 200, `the featured app right of ${provider} (${who})`);
          const right = objectBody(ctx, e, 'featured app right').featured_app_right;
          if (right === undefined || right === null) return lastTry ? ctx.fail(`${provider}'s featured app right ${cid}, created on the ledger, is not what ${who} answers: no right`, e) : undefined;
          if (!isObject(right) || right.contract_id !== cid || !isObject(right.payload) || right.payload.provider !== provider) {
            return ctx.fail(`${who} answers ${isObject(right) ? `${String(right.contract_id)} of provider ${String(isObject(right.payload) ? right.payload.provider : undefined)}` : JSON.stringify(right)} for ${provider}, whose right on the ledger is ${cid}`, e);
          }
          served.push({ who, right, e });
          return true;
        });
      }
      // A wallet marking its transfers as featured discloses the right Scan served: it must be the ledger's contract.
      const auth = await readerAuth(ctx);
      const acs = await activeContracts(ctx, provider, (await ledgerEnd(ctx)).offset, { blob: true, skipIfForbidden: forbidden(provider), ...(auth ? { auth } : {}) });
      const ev = acs.contracts.find((c) => c.createdEvent.contractId === cid)?.createdEvent;
      if (ev === undefined) return ctx.fail(`${provider}'s featured app right ${cid} is not active on the ledger for ${provider}`);
      for (const { who, right, e } of served) expectLedgerContract(ctx, `${who}'s featured app right`, right, ev, e);
    },
  },
];
