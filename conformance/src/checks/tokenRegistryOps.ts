import { expectErrorResponse, expectStatus, isObject, jsonEqual, objectBody } from './support/expect.js';
import { ownParticipantId } from './support/packages.js';
import { activeRound } from './tokenRegistry.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * One behaviour check for each remaining registry and Scan operation: a known contract's context
 * answers 200, an unknown one 404 with an ErrorResponse; the proxy forms answer what Scan answers.
 */
const TS = 'token standard';
const need = <T>(ctx: CheckContext, v: T | undefined, what: string): T => v ?? ctx.skip(`profile '${ctx.profile.name}' does not name ${what}`);
const serves = (ctx: CheckContext, api: string) => {
  if (!(ctx.profile.registry?.apis ?? ['allocation-instruction-v2']).includes(api as never)) ctx.skip(`profile '${ctx.profile.name}' does not list ${api} in registry.apis`);
};

function contextCheck(id: string, operationId: string, api: string, path: (cid: string) => string, known: (ctx: CheckContext) => string): CheckDefinition {
  return {
    id,
    title: `${operationId}: 200 for a known contract, 404 with an ErrorResponse for an unknown one`,
    group: 'registry',
    operationId,
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: ${api} ${operationId} (404 not found)`,
    async run(ctx) {
      serves(ctx, api);
      const ok = await ctx.http.request('registry', { method: 'POST', path: path(encodeURIComponent(known(ctx))), json: { excludeDebugFields: true }, operationId });
      expectStatus(ctx, ok, 200, 'context of the known contract');
      const b = objectBody(ctx, ok, 'context');
      if (!isObject(b.choiceContextData) || !Array.isArray(b.disclosedContracts)) ctx.fail('a ChoiceContext needs choiceContextData and disclosedContracts', ok);
      const unknown = await ctx.http.request('registry', { method: 'POST', path: path(`00${'1e'.repeat(32)}`), json: {}, operationId });
      expectStatus(ctx, unknown, 404, 'context of an unknown contract');
      expectErrorResponse(ctx, unknown, 'unknown contract');
    },
  };
}

const ti = (ctx: CheckContext) => need(ctx, ctx.profile.registry?.transferInstructionId, 'a pending transfer instruction (registry.transferInstructionId)');
const alloc = (ctx: CheckContext) => need(ctx, ctx.profile.registry?.allocationId, 'an allocation (registry.allocationId)');

const scanGet = (ctx: CheckContext, path: string, operationId: string) => ctx.http.request('scan', { method: 'GET', path, operationId });
const proxy = (ctx: CheckContext) => {
  if (ctx.profile.scan?.scanProxy !== true) ctx.skip(`profile '${ctx.profile.name}' does not say the target serves the scan proxy (scan.scanProxy: true, or --scan-proxy-url)`);
};

/**
 * A member the target's synchronizer registered, when the run also certifies its ledger: the
 * participant the ledger API names (GET /v2/parties/participant-id, a uid; members are PAR::<uid>).
 */
async function knownMember(ctx: CheckContext): Promise<string | undefined> {
  if (!ctx.profile.groups.includes('ledger')) return undefined;
  const id = await ownParticipantId(ctx);
  return id.startsWith('PAR::') ? id : `PAR::${id}`;
}

/** Splice's Amulet instrument (Scan's token metadata: id "Amulet", decimals 10, the places of a Daml Decimal). */
const AMULET_ID = 'Amulet';
const AMULET_DECIMALS = 10;

export const tokenRegistryOpChecks: readonly CheckDefinition[] = [
  ...(['v1', 'v2'] as const).flatMap((v) =>
    (['reject', 'withdraw'] as const).map((choice) =>
      contextCheck(
        `registry.transfer-instruction.${choice}-context-${v}`,
        `getTransferInstruction${choice[0]!.toUpperCase()}${choice.slice(1)}Context${v.toUpperCase()}`,
        `transfer-instruction-${v}`,
        (cid) => `/registry/transfer-instruction/${v}/${cid}/choice-contexts/${choice}`,
        ti,
      ),
    ),
  ),
  contextCheck('registry.allocation.execute-transfer-context-v1', 'getAllocationTransferContextV1', 'allocation-v1', (cid) => `/registry/allocations/v1/${cid}/choice-contexts/execute-transfer`, alloc),
  contextCheck('registry.allocation.cancel-context-v1', 'getAllocationCancelContextV1', 'allocation-v1', (cid) => `/registry/allocations/v1/${cid}/choice-contexts/cancel`, alloc),
  contextCheck('registry.allocation.cancel-context-v2', 'getAllocationCancelContextV2', 'allocation-v2', (cid) => `/registry/allocations/v2/${cid}/choice-contexts/cancel`, alloc),
  {
    id: 'registry.metadata.instrument-list',
    title: "The instrument list: id, name, symbol and decimals (0-10) per instrument, Amulet's 10 as Splice serves it, a totalSupply that is a non-negative decimal in those places; a pageSize of -1 gets 400, or is not read (the same list, as Splice Scan answers)",
    group: 'registry',
    operationId: 'listInstruments',
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: token-metadata-v1 ListInstrumentsResponse, Instrument.decimals; Splice Scan HttpTokenStandardMetadataHandler.amuletInstrument (id Amulet, decimals 10), listInstruments (pageSize not read)`,
    async run(ctx) {
      serves(ctx, 'metadata-v1');
      const e = await ctx.http.request('registry', { method: 'GET', path: '/registry/metadata/v1/instruments', operationId: 'listInstruments' });
      expectStatus(ctx, e, 200, 'instrument list');
      const list = objectBody(ctx, e, 'instrument list').instruments;
      if (!Array.isArray(list)) return ctx.fail('instruments must be a list', e);
      for (const i of list) {
        if (!isObject(i) || typeof i.id !== 'string' || typeof i.name !== 'string' || typeof i.symbol !== 'string' || !Number.isInteger(i.decimals) || (i.decimals as number) < 0 || (i.decimals as number) > 10) {
          ctx.fail(`instrument ${JSON.stringify(i).slice(0, 120)} lacks id, name, symbol or decimals between 0 and 10`, e);
        }
        // Splice's Amulet is served with 10 decimals, the places of the Decimal its holdings' amounts are.
        if (isObject(i) && i.id === AMULET_ID && i.decimals !== AMULET_DECIMALS) ctx.fail(`instrument ${AMULET_ID} answers decimals ${JSON.stringify(i.decimals)}; Splice's Amulet has ${AMULET_DECIMALS}`, e);
        // A supply is an amount of holdings: a decimal, never negative, in the instrument's places.
        if (isObject(i) && i.totalSupply !== undefined && i.totalSupply !== null) {
          const places = Number.isInteger(i.decimals) ? (i.decimals as number) : 10;
          const supply = typeof i.totalSupply === 'string' ? /^\d+(?:\.(\d+))?$/.exec(i.totalSupply) : null;
          if (supply === null || (supply[1] ?? '').replace(/0+$/, '').length > places) ctx.fail(`instrument ${String(i.id)} answers totalSupply ${JSON.stringify(i.totalSupply)}: not a non-negative decimal of at most ${places} places`, e);
        }
      }
      // pageSize has no minimum in the standard, and Splice Scan's registry reads no pageSize at
      // all (one instrument, never paged): -1 is refused with an ErrorResponse, or not read, and
      // then the answer is the list asked for without it.
      const bad = await ctx.http.request('registry', { method: 'GET', path: '/registry/metadata/v1/instruments?pageSize=-1', operationId: 'listInstruments', unreadInput: 'a pageSize of -1, which the standard does not bound and Splice Scan does not read' });
      if (expectStatus(ctx, bad, [400, 200], 'pageSize -1').status === 400) expectErrorResponse(ctx, bad, 'pageSize out of range');
      else {
        const ids = (l: unknown) => (Array.isArray(l) ? l.map((i) => (isObject(i) ? i.id : undefined)) : l);
        const unread = objectBody(ctx, bad, 'instrument list (pageSize -1)').instruments;
        if (!jsonEqual(ids(unread), ids(list))) ctx.fail(`pageSize -1, answered 200 (not read), lists ${JSON.stringify(ids(unread))}, not the instruments listed without it (${JSON.stringify(ids(list))})`, bad);
      }
    },
  },
  {
    id: 'scan.proxy.dso-party-id',
    title: "The scan proxy's DSO party is the one GET /v0/dso names",
    group: 'scan',
    operationId: 'getDsoPartyIdProxy',
    level: 'MUST',
    kind: 'example',
    specRef: 'Splice validator scan-proxy.yaml: getDsoPartyId',
    async run(ctx) {
      proxy(ctx);
      const a = await scanGet(ctx, '/v0/scan-proxy/dso-party-id', 'getDsoPartyIdProxy');
      expectStatus(ctx, a, 200, 'proxy DSO party');
      const b = await scanGet(ctx, '/v0/dso', 'getDsoInfo');
      expectStatus(ctx, b, 200, 'DSO info');
      if (objectBody(ctx, a, 'proxy').dso_party_id !== objectBody(ctx, b, 'dso').dso_party_id) ctx.fail('the proxy names another DSO party', a);
    },
  },
  {
    id: 'scan.proxy.dso',
    title: "The scan proxy's DSO info equals Scan's",
    group: 'scan',
    operationId: 'getDsoInfoProxy',
    level: 'MUST',
    kind: 'example',
    specRef: 'Splice validator scan-proxy.yaml: getDsoInfo',
    async run(ctx) {
      proxy(ctx);
      const a = await scanGet(ctx, '/v0/scan-proxy/dso', 'getDsoInfoProxy');
      expectStatus(ctx, a, 200, 'proxy DSO info');
      const b = await scanGet(ctx, '/v0/dso', 'getDsoInfo');
      expectStatus(ctx, b, 200, 'DSO info');
      const pa = objectBody(ctx, a, 'proxy');
      const pb = objectBody(ctx, b, 'dso');
      if (pa.dso_party_id !== pb.dso_party_id || !jsonEqual(pa.amulet_rules, pb.amulet_rules)) ctx.fail('the proxy answers another DSO or AmuletRules than Scan', a);
    },
  },
  {
    id: 'scan.proxy.open-round-now',
    title: 'The scan proxy lists an open round that is open now',
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRoundsProxy',
    level: 'MUST',
    kind: 'example',
    specRef: 'Splice validator scan-proxy.yaml: GetOpenAndIssuingMiningRoundsProxyResponse',
    async run(ctx) {
      proxy(ctx);
      const e = await scanGet(ctx, '/v0/scan-proxy/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRoundsProxy');
      expectStatus(ctx, e, 200, 'proxy rounds');
      const open = objectBody(ctx, e, 'proxy rounds').open_mining_rounds;
      if (!Array.isArray(open) || activeRound(Object.fromEntries(open.map((r, i) => [String(i), r]))) === undefined) ctx.fail('no open round is open now', e);
    },
  },
  {
    id: 'scan.proxy.featured-apps-party-checked',
    title: 'The scan proxy refuses a malformed provider party with 400',
    group: 'scan',
    operationId: 'lookupFeaturedAppRightProxy',
    level: 'MUST',
    kind: 'negative',
    specRef: 'Splice validator scan-proxy.yaml: lookupFeaturedAppRight',
    async run(ctx) {
      proxy(ctx);
      const e = await scanGet(ctx, '/v0/scan-proxy/featured-apps/not-a-party', 'lookupFeaturedAppRightProxy');
      expectStatus(ctx, e, 400, 'a malformed provider party');
      expectErrorResponse(ctx, e, 'malformed party');
    },
  },
  {
    id: 'scan.proxy.preapproval-same-as-scan',
    title: "The scan proxy's preapproval lookup answers what Scan answers: for a party with a valid preapproval, one past its expiry (Scan still returns it) and one whose preapproval was archived",
    group: 'scan',
    operationId: 'lookupTransferPreapprovalByPartyProxy',
    level: 'MUST',
    kind: 'example',
    specRef: 'Splice validator scan-proxy.yaml: lookupTransferPreapprovalByParty (forwards Scan; splice#6610: Scan returns expired, unarchived preapprovals, which a wallet renews or cancels)',
    async run(ctx) {
      proxy(ctx);
      const party = need(ctx, ctx.profile.scan?.preapprovalParty, 'a party with a preapproval (scan.preapprovalParty)');
      const parties = [party, ctx.profile.scan?.expiredPreapprovalParty, ctx.profile.scan?.archivedPreapprovalParty].filter((p): p is string => p !== undefined);
      for (const p of parties) {
        const a = await scanGet(ctx, `/v0/scan-proxy/transfer-preapprovals/by-party/${encodeURIComponent(p)}`, 'lookupTransferPreapprovalByPartyProxy');
        const b = await scanGet(ctx, `/v0/transfer-preapprovals/by-party/${encodeURIComponent(p)}`, 'lookupTransferPreapprovalByParty');
        if (p === party) {
          expectStatus(ctx, a, 200, 'proxy preapproval');
          expectStatus(ctx, b, 200, 'Scan preapproval');
        }
        const [sa, sb] = [a.response?.status, b.response?.status];
        if (sa !== sb) ctx.fail(`for ${p}, the proxy answers ${String(sa)} and Scan ${String(sb)}`, a);
        else if (sa === 200 && !jsonEqual(objectBody(ctx, a, 'proxy'), objectBody(ctx, b, 'scan'))) ctx.fail(`for ${p}, the proxy answers another preapproval than Scan`, a);
      }
    },
  },
  {
    id: 'scan.traffic-status.member-checked',
    title: "A member's traffic status on the AmuletRules' synchronizer: integer counters for the ledger's participant (any other member: those, or 404 when the sequencer does not know it); a malformed member id gets 400",
    group: 'scan',
    operationId: 'getMemberTrafficStatus',
    level: 'MUST',
    kind: 'example',
    specRef: "Splice Scan (scan.yaml): getMemberTrafficStatus; HttpScanHandler asks the sequencer's traffic control state, which answers registered members only (Canton BlockSequencer.trafficStatus), else NOT_FOUND",
    async run(ctx) {
      if (ctx.profile.scan?.walletReads === false) ctx.skip(`profile '${ctx.profile.name}' says the target does not serve the wallet reads`);
      const rules = await ctx.http.request('scan', { method: 'POST', path: '/v0/amulet-rules', json: {}, operationId: 'getAmuletRules' });
      expectStatus(ctx, rules, 200, 'AmuletRules');
      const update = objectBody(ctx, rules, 'AmuletRules').amulet_rules_update;
      const domain = isObject(update) && typeof update.domain_id === 'string' ? update.domain_id : ctx.skip('the AmuletRules name no synchronizer');
      const known = await knownMember(ctx);
      const dso = isObject(update) && isObject(update.contract) && isObject(update.contract.payload) ? String(update.contract.payload.dso) : '';
      const member = known ?? `PAR::participant::${dso.split('::')[1] ?? ''}`;
      const e = await scanGet(ctx, `/v0/domains/${encodeURIComponent(domain)}/members/${encodeURIComponent(member)}/traffic-status`, 'getMemberTrafficStatus');
      // Scan knows the traffic of the members its sequencer registered only (404 for any other):
      // without the ledger's participant, the member asked about is one the target never named.
      const what = known === undefined ? `traffic status of ${member} (a member the target may not know)` : `traffic status of the ledger's participant ${member}`;
      if (expectStatus(ctx, e, known === undefined ? [200, 404] : 200, what).status === 404) expectErrorResponse(ctx, e, 'a member without traffic state');
      else {
        const t = objectBody(ctx, e, 'traffic status').traffic_status;
        if (!isObject(t) || !isObject(t.actual) || !isObject(t.target) || !Number.isInteger(t.actual.total_consumed) || !Number.isInteger(t.actual.total_limit) || !Number.isInteger(t.target.total_purchased)) {
          ctx.fail('traffic_status needs integer actual.total_consumed, actual.total_limit and target.total_purchased', e);
        }
      }
      const bad = await scanGet(ctx, `/v0/domains/${encodeURIComponent(domain)}/members/participant1/traffic-status`, 'getMemberTrafficStatus');
      expectStatus(ctx, bad, 400, 'a malformed member id');
      expectErrorResponse(ctx, bad, 'malformed member id');
    },
  },
];
