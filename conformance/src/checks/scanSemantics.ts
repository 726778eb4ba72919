import type { Exchange } from '../target/exchange.js';
import { expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Scan answers judged by meaning: the validator's scan proxy forwards Scan's answers whole, and
 * the cache lifetime Scan advertises for its rounds is short enough that a client learns of a new
 * round before it opens. Both read only, so they run against read-only profiles too.
 */
const SCAN = 'Splice Scan (scan.yaml)';
const PROXY = 'Splice validator scan-proxy.yaml';
const ROUNDS_BODY = { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] };

const scan = (ctx: CheckContext, method: 'GET' | 'POST', path: string, operationId: string, json?: unknown): Promise<Exchange> =>
  ctx.http.request('scan', { method, path, operationId, ...(json === undefined ? {} : { json }) });

async function read(ctx: CheckContext, method: 'GET' | 'POST', path: string, operationId: string, json?: unknown): Promise<{ e: Exchange; body: Json }> {
  const e = await scan(ctx, method, path, operationId, json);
  expectStatus(ctx, e, 200, `${method} ${path}`);
  return { e, body: objectBody(ctx, e, path) };
}

/** Rounds as a list ordered by contract id, whether Scan's map or the proxy's list holds them. */
const roundList = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? Object.values(v) : []).slice().sort((a, b) => idOf(a).localeCompare(idOf(b)));
const idOf = (r: unknown) => (isObject(r) && isObject(r.contract) ? String(r.contract.contract_id) : '');

interface Pair {
  readonly what: string;
  /** Scan's answer, normalised to the proxy's form. */
  scan(): Promise<unknown>;
  proxy(): Promise<{ e: Exchange; value: unknown }>;
}

function pairs(ctx: CheckContext): Pair[] {
  const list: Pair[] = [
    {
      what: 'DSO info (GET /v0/scan-proxy/dso)',
      scan: async () => (await read(ctx, 'GET', '/v0/dso', 'getDsoInfo')).body,
      proxy: async () => {
        const { e, body } = await read(ctx, 'GET', '/v0/scan-proxy/dso', 'getDsoInfoProxy');
        return { e, value: body };
      },
    },
    {
      what: 'AmuletRules (GET /v0/scan-proxy/amulet-rules)',
      scan: async () => (await read(ctx, 'POST', '/v0/amulet-rules', 'getAmuletRules', {})).body.amulet_rules_update,
      proxy: async () => {
        const { e, body } = await read(ctx, 'GET', '/v0/scan-proxy/amulet-rules', 'getAmuletRulesProxy');
        return { e, value: body.amulet_rules };
      },
    },
    {
      what: 'open and issuing rounds (GET /v0/scan-proxy/open-and-issuing-mining-rounds)',
      scan: async () => {
        const { body } = await read(ctx, 'POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', ROUNDS_BODY);
        return { open_mining_rounds: roundList(body.open_mining_rounds), issuing_mining_rounds: roundList(body.issuing_mining_rounds) };
      },
      proxy: async () => {
        const { e, body } = await read(ctx, 'GET', '/v0/scan-proxy/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRoundsProxy');
        return { e, value: { open_mining_rounds: roundList(body.open_mining_rounds), issuing_mining_rounds: roundList(body.issuing_mining_rounds) } };
      },
    },
  ];
  for (const party of new Set([ctx.profile.scan?.preapprovalParty, ctx.profile.registry?.readerParty].filter((p): p is string => p !== undefined))) {
    const p = encodeURIComponent(party);
    list.push({
      what: `the featured app right of ${party} (GET /v0/scan-proxy/featured-apps/{party})`,
      scan: async () => (await read(ctx, 'GET', `/v0/featured-apps/${p}`, 'lookupFeaturedAppRight')).body,
      proxy: async () => {
        const { e, body } = await read(ctx, 'GET', `/v0/scan-proxy/featured-apps/${p}`, 'lookupFeaturedAppRightProxy');
        return { e, value: body };
      },
    });
  }
  return list;
}

/** Microseconds of a Daml RelTime ({microseconds: "..."}), or undefined. */
const micros = (v: unknown): number | undefined => (isObject(v) && (typeof v.microseconds === 'string' || typeof v.microseconds === 'number') ? Number(v.microseconds) : undefined);

export const scanSemanticChecks: readonly CheckDefinition[] = [
  {
    id: 'scan.proxy.answers-in-full',
    title: "The scan proxy answers what Scan answers, whole: DSO info, AmuletRules with its synchronizer, every open and issuing round, featured app rights",
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRoundsProxy',
    level: 'MUST',
    kind: 'example',
    specRef: `${PROXY}: the proxy forwards the validator's Scan reads (getDsoInfo, getAmuletRules, getOpenAndIssuingMiningRounds, lookupFeaturedAppRight) unchanged`,
    async run(ctx) {
      if (ctx.profile.scan?.scanProxy !== true) ctx.skip(`profile '${ctx.profile.name}' does not say the target serves the scan proxy (scan.scanProxy: true, or --scan-proxy-url)`);
      for (const pair of pairs(ctx)) {
        // Scan, proxy, Scan: on a live network a round may turn between two reads; the proxy must
        // then match one of the two Scan answers around it.
        const before = await pair.scan();
        const { e, value } = await pair.proxy();
        if (jsonEqual(value, before)) continue;
        const after = await pair.scan();
        if (!jsonEqual(value, after)) ctx.fail(`${pair.what} differs from Scan's answer at ${firstDifference(value, after) ?? '?'}`, e);
      }
    },
  },
  {
    id: 'scan.rounds.cache-ttl-fits-tick',
    title: "The rounds' time_to_live_in_microseconds is positive and no longer than the tick of any open round, so a client caching them sees a new round before it opens",
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRounds',
    level: 'MUST',
    kind: 'example',
    specRef: `${SCAN}: GetOpenAndIssuingMiningRoundsResponse.time_to_live_in_microseconds (Scan answers the smallest tickDuration of the rounds not yet closed: a round opens at least one tick after it is created)`,
    async run(ctx) {
      if (ctx.profile.scan?.walletReads === false) ctx.skip(`profile '${ctx.profile.name}' says the target does not serve the wallet reads (scan.walletReads: false)`);
      const { e, body } = await read(ctx, 'POST', '/v0/open-and-issuing-mining-rounds', 'getOpenAndIssuingMiningRounds', ROUNDS_BODY);
      const ttl = body.time_to_live_in_microseconds;
      if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0) return ctx.fail(`time_to_live_in_microseconds must be a positive integer, got ${JSON.stringify(ttl)}`, e);
      const ticks = roundList(body.open_mining_rounds)
        .map((r) => (isObject(r) && isObject(r.contract) && isObject(r.contract.payload) ? micros(r.contract.payload.tickDuration) : undefined))
        .filter((t): t is number => t !== undefined && Number.isFinite(t));
      if (ticks.length === 0) return ctx.skip('no open round reports its tickDuration: the cadence is unknown');
      const tick = Math.min(...ticks);
      if (ttl > tick) ctx.fail(`time_to_live_in_microseconds is ${ttl} (${ttl / 1e6} s), longer than the ${tick / 1e6} s tick of the open rounds: a client caching the rounds that long misses a round that opens meanwhile`, e);
    },
  },
];
