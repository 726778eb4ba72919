import { malformedPartyArb } from '../generators/identifiers.js';
import { expectErrorResponse, expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { activeRound } from './tokenRegistry.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** The Scan reads wallets call (wallet-sdk's ScanClient and ScanProxyClient), checked for what wallets rely on. */
const SCAN = 'Splice Scan (scan.yaml)';
const ROUNDS_BODY = { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] };

const scan = (ctx: CheckContext, method: 'GET' | 'POST', path: string, operationId: string, json?: unknown) =>
  ctx.http.request('scan', { method, path, operationId, ...(json === undefined ? {} : { json }) });

function walletReads(ctx: CheckContext): void {
  if (ctx.profile.scan?.walletReads === false) ctx.skip(`profile '${ctx.profile.name}' says the target does not serve the wallet reads (scan.walletReads: false)`);
}

/** Splice's Thresholds.requiredNumVotes for n SVs (as per DsoRules' summarizeDso): ceil((n + f + 1) / 2), f = floor((n - 1) / 3). */
const requiredNumVotes = (n: number): number => Math.ceil((n + Math.floor((n - 1) / 3) + 1) / 2);

export const scanWalletChecks: readonly CheckDefinition[] = [
  {
    id: 'scan.dso.consistent',
    title: "GET /v0/dso names the DSO party that signs the AmuletRules it reports, an SV of its DsoRules as the Scan's operator, the voting threshold those SVs require, and the highest OpenMiningRound as the latest round",
    group: 'scan',
    operationId: 'getDsoInfo',
    level: 'MUST',
    kind: 'example',
    specRef: `${SCAN}: GET /v0/dso, GetDsoInfoResponse (latest_mining_round: the OpenMiningRound with the highest round number); Splice SvUtil Thresholds.requiredNumVotes (voting_threshold from dso_rules.svs)`,
    async run(ctx) {
      walletReads(ctx);
      // The open rounds first: rounds only open later, so the DSO info read after names one at least as new.
      const before = await scan(ctx, 'POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', ROUNDS_BODY);
      const e = await scan(ctx, 'GET', '/v0/dso', 'getDsoInfo');
      expectStatus(ctx, e, 200, 'DSO info');
      const b = objectBody(ctx, e, 'DSO info');
      // latest_mining_round is "the OpenMiningRound with the highest round number" (Scan's common-internal.yaml):
      // a wallet dates its transfers by it, so an issuing round, or an older open one, sends it to a closed round.
      const latest = isObject(b.latest_mining_round) && isObject(b.latest_mining_round.contract) ? b.latest_mining_round.contract : undefined;
      if (latest !== undefined) {
        const template = String(latest.template_id ?? '');
        if (!template.endsWith(':OpenMiningRound')) ctx.fail(`latest_mining_round is a ${template.split(':').pop() ?? 'contract'}, not an OpenMiningRound`, e);
        const numberOf = (c: unknown) => (isObject(c) && isObject(c.payload) && isObject(c.payload.round) ? Number(c.payload.round.number) : undefined);
        const open = before.response?.status === 200 ? objectBody(ctx, before, 'open and issuing rounds').open_mining_rounds : undefined;
        const highest = Math.max(...(isObject(open) ? Object.values(open) : []).map((r) => (isObject(r) ? numberOf(r.contract) ?? -1 : -1)), -1);
        const n = numberOf(latest);
        if (n === undefined || n < highest) ctx.fail(`latest_mining_round is round ${String(n)}, yet Scan reported round ${highest} open before it`, e);
      }
      const rules = isObject(b.amulet_rules) && isObject(b.amulet_rules.contract) ? b.amulet_rules.contract : undefined;
      if (typeof b.dso_party_id !== 'string' || rules === undefined) return ctx.fail('dso_party_id and amulet_rules.contract are required', e);
      if (!isObject(rules.payload) || rules.payload.dso !== b.dso_party_id) ctx.fail(`amulet_rules belongs to ${JSON.stringify(isObject(rules.payload) ? rules.payload.dso : undefined)}, not the DSO ${b.dso_party_id}`, e);
      // The threshold follows from the SVs of the DsoRules the same answer reports, as Splice computes it.
      const dsoRules = isObject(b.dso_rules) && isObject(b.dso_rules.contract) && isObject(b.dso_rules.contract.payload) ? b.dso_rules.contract.payload : undefined;
      const svs = dsoRules?.svs;
      const n = Array.isArray(svs) ? svs.length : isObject(svs) ? Object.keys(svs).length : undefined;
      if (n === undefined) return ctx.fail('dso_rules.contract.payload.svs (the SVs of the DSO) is required', e);
      if (n === 0) return ctx.fail('dso_rules names no SV: a DSO has at least one', e);
      // The SV that operates this Scan (sv_party_id) is one of the DSO's SVs (svs: a Daml Map, party to SvInfo).
      const svParties = Array.isArray(svs) ? svs.map((pair) => (Array.isArray(pair) ? pair[0] : undefined)) : Object.keys(svs as Json);
      if (typeof b.sv_party_id !== 'string' || !svParties.includes(b.sv_party_id)) ctx.fail(`sv_party_id ${JSON.stringify(b.sv_party_id)} is not one of the ${n} SV(s) of dso_rules`, e);
      const want = requiredNumVotes(n);
      if (b.voting_threshold !== want) ctx.fail(`voting_threshold is ${JSON.stringify(b.voting_threshold)}; with the ${n} SV(s) of dso_rules Splice requires ${want} votes (ceil((n + f + 1) / 2), f = floor((n - 1) / 3))`, e);
    },
  },
  {
    id: 'scan.amulet-rules.cached-id',
    title: 'POST /v0/amulet-rules leaves the contract out when the caller already holds the current one, and sends it when the cached id is stale',
    group: 'scan',
    operationId: 'getAmuletRules',
    level: 'MUST',
    kind: 'example',
    specRef: `${SCAN}: GetAmuletRulesResponse (contract absent if, and only if, its id matches cached_amulet_rules_contract_id)`,
    async run(ctx) {
      walletReads(ctx);
      const fresh = await scan(ctx, 'POST', '/v0/amulet-rules', 'getAmuletRules', {});
      expectStatus(ctx, fresh, 200, 'AmuletRules');
      const update = objectBody(ctx, fresh, 'AmuletRules').amulet_rules_update;
      const contract = isObject(update) && isObject(update.contract) ? update.contract : undefined;
      if (contract === undefined || typeof contract.contract_id !== 'string') return ctx.fail('amulet_rules_update.contract with a contract_id is required without a cache', fresh);
      const cached = await scan(ctx, 'POST', '/v0/amulet-rules', 'getAmuletRules', { cached_amulet_rules_contract_id: contract.contract_id });
      expectStatus(ctx, cached, 200, 'AmuletRules with the cached id');
      const again = objectBody(ctx, cached, 'AmuletRules').amulet_rules_update;
      if (!isObject(again) || again.contract !== undefined) ctx.fail('the caller named the current contract id, yet the contract was sent again', cached);
      // A wallet whose cached AmuletRules was archived must get the current one.
      const staleId = `00${'5a'.repeat(32)}`;
      const stale = await scan(ctx, 'POST', '/v0/amulet-rules', 'getAmuletRules', { cached_amulet_rules_contract_id: staleId });
      expectStatus(ctx, stale, 200, 'AmuletRules with a stale cached id');
      const fresher = objectBody(ctx, stale, 'AmuletRules').amulet_rules_update;
      if (!isObject(fresher) || !isObject(fresher.contract) || fresher.contract.contract_id !== contract.contract_id) {
        ctx.fail(`the caller named a stale contract id (${staleId}), yet the current AmuletRules ${String(contract.contract_id)} was not sent`, stale);
      }
    },
  },
  {
    id: 'scan.rounds.cached-ids',
    title: 'POST /v0/open-and-issuing-mining-rounds sends the contract of every round the caller did not name as cached (a stale cache gets the current rounds)',
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRounds',
    level: 'MUST',
    kind: 'example',
    specRef: `${SCAN}: GetOpenAndIssuingMiningRoundsRequest cached_*_contract_ids, MaybeCachedContractWithState (contract absent only for cached ids)`,
    async run(ctx) {
      walletReads(ctx);
      const first = await scan(ctx, 'POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', ROUNDS_BODY);
      expectStatus(ctx, first, 200, 'open and issuing rounds');
      const firstBody = objectBody(ctx, first, 'open and issuing rounds');
      // A wallet keeps its cache by these keys: a key that is not its entry's contract id makes it use another round.
      for (const name of ['open_mining_rounds', 'issuing_mining_rounds'] as const) {
        const map = firstBody[name];
        const wrong = isObject(map) ? Object.entries(map).find(([cid, r]) => isObject(r) && isObject(r.contract) && r.contract.contract_id !== cid) : undefined;
        if (wrong !== undefined) ctx.fail(`${name} key ${wrong[0]} holds contract ${String(((wrong[1] as Json).contract as Json).contract_id)}: the map is by contract id`, first);
      }
      const open = firstBody.open_mining_rounds;
      if (!isObject(open) || Object.keys(open).length === 0) return ctx.skip('the target lists no open round to cache');
      const ids = Object.keys(open);
      // A wallet that cached one round the DSO has since archived, and one that holds them all.
      const staleId = `00${'5b'.repeat(32)}`;
      for (const cached of [[staleId], [...ids, staleId]]) {
        const e = await scan(ctx, 'POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', { cached_open_mining_round_contract_ids: cached, cached_issuing_round_contract_ids: [staleId] });
        expectStatus(ctx, e, 200, `rounds with cached ids ${cached.join(', ')}`);
        const b = objectBody(ctx, e, 'open and issuing rounds');
        for (const [name, map] of [['open_mining_rounds', b.open_mining_rounds], ['issuing_mining_rounds', b.issuing_mining_rounds]] as const) {
          if (!isObject(map)) return ctx.fail(`${name} must be a map by contract id`, e);
          const sentWithout = Object.entries(map).filter(([cid, r]) => !cached.includes(cid) && !(isObject(r) && isObject(r.contract))).map(([cid]) => cid);
          if (sentWithout.length > 0) ctx.fail(`${name}: ${sentWithout.join(', ')} came without its contract, though the caller did not name it as cached (it named ${cached.join(', ')})`, e);
        }
      }
    },
  },
  {
    id: 'scan.rounds.open-round-now',
    title: 'POST /v0/open-and-issuing-mining-rounds reports an open round that is open now (wallets tap and transfer against it)',
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRounds',
    level: 'MUST',
    kind: 'example',
    specRef: `${SCAN}: GetOpenAndIssuingMiningRoundsResponse; rounds advance as time moves`,
    async run(ctx) {
      walletReads(ctx);
      const e = await scan(ctx, 'POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', ROUNDS_BODY);
      expectStatus(ctx, e, 200, 'open and issuing rounds');
      const b = objectBody(ctx, e, 'open and issuing rounds');
      if (!isObject(b.open_mining_rounds) || !isObject(b.issuing_mining_rounds)) return ctx.fail('open_mining_rounds and issuing_mining_rounds must be maps by contract id', e);
      for (const [cid, r] of Object.entries(b.open_mining_rounds)) {
        if (isObject(r) && isObject(r.contract) && r.contract.contract_id !== cid) ctx.fail(`open_mining_rounds key ${cid} holds contract ${String(r.contract.contract_id)}`, e);
      }
      if (activeRound(b.open_mining_rounds) === undefined) ctx.fail('no open round has opensAt <= now < targetClosesAt: a wallet finds no round to tap or transfer against', e);
    },
  },
  {
    id: 'scan.featured-apps.party-checked',
    title: 'GET /v0/featured-apps/{party}: 200 (a right or an empty object) for a party, 400 for a malformed party (property)',
    group: 'scan',
    operationId: 'lookupFeaturedAppRight',
    level: 'MUST',
    kind: 'property',
    specRef: `${SCAN}: lookupFeaturedAppRight`,
    async run(ctx) {
      walletReads(ctx);
      const party = ctx.profile.scan?.preapprovalParty ?? ctx.skip(`profile '${ctx.profile.name}' names no party (scan.preapprovalParty)`);
      const ok = await scan(ctx, 'GET', `/v0/featured-apps/${encodeURIComponent(party)}`, 'lookupFeaturedAppRight');
      expectStatus(ctx, ok, 200, 'featured app right of a party');
      const right = objectBody(ctx, ok, 'featured app right').featured_app_right;
      if (right !== undefined && (!isObject(right) || !isObject(right.payload) || right.payload.provider !== party)) ctx.fail(`featured_app_right is not ${party}'s`, ok);
      await forAll(ctx, malformedPartyArb(), async (bad) => {
        const e = await scan(ctx, 'GET', `/v0/featured-apps/${encodeURIComponent(bad)}`, 'lookupFeaturedAppRight');
        expectStatus(ctx, e, 400, `featured app right of malformed party ${JSON.stringify(bad)}`);
        expectErrorResponse(ctx, e, 'malformed party');
      });
    },
  },
  {
    id: 'scan.proxy.same-as-scan',
    title: "The validator's scan-proxy reads answer what Scan answers (DSO party, AmuletRules, open rounds)",
    group: 'scan',
    operationId: 'getAmuletRulesProxy',
    level: 'MUST',
    kind: 'example',
    specRef: 'Splice validator scan-proxy.yaml: the proxy forwards Scan',
    async run(ctx) {
      if (ctx.profile.scan?.scanProxy !== true) ctx.skip(`profile '${ctx.profile.name}' does not say the target serves the scan proxy (scan.scanProxy: true, or --scan-proxy-url)`);
      const dso = await scan(ctx, 'GET', '/v0/dso', 'getDsoInfo');
      expectStatus(ctx, dso, 200, 'DSO info');
      const dsoBody = objectBody(ctx, dso, 'DSO info');
      const proxyParty = await scan(ctx, 'GET', '/v0/scan-proxy/dso-party-id', 'getDsoPartyIdProxy');
      expectStatus(ctx, proxyParty, 200, 'scan-proxy DSO party');
      if (objectBody(ctx, proxyParty, 'DSO party').dso_party_id !== dsoBody.dso_party_id) ctx.fail('the proxy names another DSO party than Scan', proxyParty);
      const proxyRules = await scan(ctx, 'GET', '/v0/scan-proxy/amulet-rules', 'getAmuletRulesProxy');
      expectStatus(ctx, proxyRules, 200, 'scan-proxy AmuletRules');
      const a = (objectBody(ctx, proxyRules, 'AmuletRules').amulet_rules as Json | undefined)?.contract;
      const b = (dsoBody.amulet_rules as Json | undefined)?.contract;
      if (!jsonEqual(a, b)) ctx.fail(`the proxy's AmuletRules differ from Scan's, first at ${firstDifference(a, b)}`, proxyRules);
      const rounds = await scan(ctx, 'GET', '/v0/scan-proxy/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRoundsProxy');
      expectStatus(ctx, rounds, 200, 'scan-proxy rounds');
      const open = objectBody(ctx, rounds, 'rounds').open_mining_rounds;
      if (!Array.isArray(open) || activeRound(Object.fromEntries(open.map((r, i) => [String(i), r]))) === undefined) ctx.fail('the proxy reports no open round open now', rounds);
    },
  },
];
