import { expectStatus, objectBody } from './support/expect.js';
import type { CheckDefinition } from './types.js';

/**
 * Splice's scan.yaml leaves Scan's POST request bodies open, and Scan's generated decoders ignore
 * members they do not know: a client that sends one more member (a newer client, a cache hint)
 * still gets its answer. A Scan that refuses them breaks such clients.
 */
const PROBE = { canton_conformance_probe: true };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const scanOpenBodiesChecks: readonly CheckDefinition[] = [
  {
    id: 'scan.post-bodies.unknown-members-ignored',
    title: 'POST /v0/amulet-rules and /v0/open-and-issuing-mining-rounds answer a body with a member they do not know',
    group: 'scan',
    operationId: 'getOpenAndIssuingMiningRounds',
    level: 'SHOULD',
    kind: 'negative',
    specRef: 'Splice Scan (scan.yaml): GetAmuletRulesRequest and GetOpenAndIssuingMiningRoundsRequest are open objects',
    async run(ctx) {
      if (ctx.profile.scan?.walletReads === false) ctx.skip(`profile '${ctx.profile.name}' says the target does not serve the wallet reads (scan.walletReads: false)`);
      const rounds = await ctx.http.request('scan', {
        method: 'POST',
        path: '/v0/open-and-issuing-mining-rounds',
        operationId: 'getOpenAndIssuingMiningRounds',
        json: { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [], ...PROBE },
      });
      expectStatus(ctx, rounds, 200, 'open and issuing rounds with an extra request member');
      // The answer must be the answer, not any 200: the rounds as maps by contract id.
      const r = objectBody(ctx, rounds, 'open and issuing rounds');
      if (!isObject(r.open_mining_rounds) || !isObject(r.issuing_mining_rounds)) ctx.fail('open_mining_rounds and issuing_mining_rounds must be maps by contract id', rounds);
      const rules = await ctx.http.request('scan', { method: 'POST', path: '/v0/amulet-rules', operationId: 'getAmuletRules', json: PROBE });
      expectStatus(ctx, rules, 200, 'AmuletRules with an extra request member');
      if (!isObject(objectBody(ctx, rules, 'AmuletRules').amulet_rules_update)) ctx.fail('the answer holds no amulet_rules_update', rules);
    },
  },
];
