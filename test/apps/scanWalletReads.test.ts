import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMULET_RULES_TEMPLATE } from '../../reference-server/src/apps/index.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { expectError, getJson, postJson, startWorldServer, type AppServer } from './support/appServer.js';
import { exercise, mustSubmit } from './support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
});
afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

type Round = { contract: { contract_id: string; payload: { round: { number: string }; opensAt: string; targetClosesAt: string } } };
const ROUNDS = { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] };
const MINUTE = 60_000;

async function rounds(): Promise<{ open: Round[]; issuing: Round[] }> {
  const res = await postJson(server, '/v0/open-and-issuing-mining-rounds', ROUNDS);
  expect(res.status, res.text).toBe(200);
  return { open: Object.values(res.body.open_mining_rounds as Record<string, Round>), issuing: Object.values(res.body.issuing_mining_rounds as Record<string, Round>) };
}
const numbers = (rs: Round[]) => rs.map((r) => Number(r.contract.payload.round.number)).sort((a, b) => a - b);
const openNow = (rs: Round[]) => rs.filter((r) => Date.parse(r.contract.payload.opensAt) <= server.clock.now() && server.clock.now() < Date.parse(r.contract.payload.targetClosesAt));

describe('Scan reads wallets call, from the ledger', () => {
  it('GET /v0/dso names the DSO, its AmuletRules and DsoRules (also under /api/scan and as the scan proxy)', async () => {
    for (const path of ['/v0/dso', '/api/scan/v0/dso', '/v0/scan-proxy/dso']) {
      const res = await getJson(server, path);
      expect(res.body).toMatchObject({ dso_party_id: world.parties.dso, amulet_rules: { contract: { contract_id: world.rounds.amuletRules } }, dso_rules: { contract: { contract_id: world.amulet.dsoRules } } });
    }
    expect((await getJson(server, '/v0/scan-proxy/dso-party-id')).body).toEqual({ dso_party_id: world.parties.dso });
  });

  it("GET /v0/dso answers the voting threshold Splice computes from its DsoRules' SVs (one SV: one vote)", async () => {
    const body = (await getJson(server, '/v0/dso')).body;
    expect(Object.keys(body.dso_rules.contract.payload.svs)).toEqual([world.parties.dso]);
    expect(body.voting_threshold).toBe(1);
  });

  it('POST /v0/amulet-rules leaves the contract out for a caller holding the current one', async () => {
    const fresh = await postJson(server, '/v0/amulet-rules', {});
    expect(fresh.body.amulet_rules_update.contract).toMatchObject({ contract_id: world.rounds.amuletRules, payload: { dso: world.parties.dso, isDevNet: true } });
    const cached = await postJson(server, '/v0/amulet-rules', { cached_amulet_rules_contract_id: world.rounds.amuletRules });
    expect(cached.body.amulet_rules_update.contract).toBeUndefined();
    expect(cached.body.amulet_rules_update.domain_id).toEqual(expect.any(String));
    expect((await getJson(server, '/v0/scan-proxy/amulet-rules')).body.amulet_rules.contract.contract_id).toBe(world.rounds.amuletRules);
  });

  it('rounds move as time moves: a round is open now, and older ones go on to issuing and closed', async () => {
    const first = await rounds();
    expect(openNow(first.open)).toHaveLength(1);
    const opened = Number(openNow(first.open)[0]!.contract.payload.round.number);
    expect(opened).toBe(6); // the world's rounds 3-5 were opened a tick ahead of their seeding
    // Half an hour later the round opened now has passed its target close.
    server.clock.advance(30 * MINUTE);
    const later = await rounds();
    expect(numbers(openNow(later.open))).toEqual([7]);
    expect(numbers(later.open)).not.toContain(6);
    expect(numbers(later.issuing)).toContain(6);
    // Another half hour: the issuing rounds past their target close are closed.
    server.clock.advance(30 * MINUTE);
    const end = await rounds();
    expect(numbers(end.issuing)).not.toContain(6);
    expect(numbers(openNow(end.open))).toEqual([8]);
    // The proxy form lists them, oldest first.
    const proxy = await getJson(server, '/v0/scan-proxy/open-and-issuing-mining-rounds');
    expect(numbers(proxy.body.open_mining_rounds as Round[])).toEqual(numbers(end.open));
  });

  it('answers a cached round without its contract, and refuses a body without the cache lists', async () => {
    const { open } = await rounds();
    const id = open[0]!.contract.contract_id;
    const res = await postJson(server, '/v0/open-and-issuing-mining-rounds', { ...ROUNDS, cached_open_mining_round_contract_ids: [id] });
    expect(res.body.open_mining_rounds[id].contract).toBeUndefined();
    expect((await server.http.post('/v0/open-and-issuing-mining-rounds').send(Buffer.from('{}'))).status).toBe(400);
  });

  it("the POST bodies are open, as in Splice's scan.yaml: unknown members are ignored, known ones still checked", async () => {
    for (const prefix of ['', '/api/scan']) {
      const rules = await postJson(server, `${prefix}/v0/amulet-rules`, { cached_amulet_rules_contract_id: world.rounds.amuletRules, page_hint: 3, extra: { deep: true } });
      expect(rules.status, rules.text).toBe(200);
      expect(rules.body.amulet_rules_update.contract).toBeUndefined();
      const res = await postJson(server, `${prefix}/v0/open-and-issuing-mining-rounds`, { ...ROUNDS, client: 'wallet' });
      expect(res.status, res.text).toBe(200);
      expect(Object.keys(res.body.open_mining_rounds as object).length).toBeGreaterThan(0);
    }
    expectError(await postJson(server, '/v0/amulet-rules', { cached_amulet_rules_contract_id: 7, extra: 1 }), 400, /cached_amulet_rules_contract_id/);
    expectError(await postJson(server, '/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], extra: 1 }), 400, /cached_issuing_round_contract_ids/);
  });

  it('featured app rights: none, then the one the provider self-granted on DevNet; 400 for a malformed party', async () => {
    const alice = world.parties.alice;
    expect((await getJson(server, `/v0/featured-apps/${alice}`)).body).toEqual({});
    // As wallet-sdk does: the AmuletRules from Scan, disclosed with the command.
    const rules = (await postJson(server, '/v0/amulet-rules', {})).body.amulet_rules_update.contract as { template_id: string; contract_id: string; created_event_blob: string };
    await mustSubmit(server, [alice], [exercise(AMULET_RULES_TEMPLATE, world.rounds.amuletRules, 'AmuletRules_DevNet_FeatureApp', { provider: alice })], {
      disclosedContracts: [{ templateId: rules.template_id, contractId: rules.contract_id, createdEventBlob: rules.created_event_blob }],
    });
    const granted = await getJson(server, `/v0/scan-proxy/featured-apps/${alice}`);
    expect(granted.body.featured_app_right.payload).toEqual({ dso: world.parties.dso, provider: alice });
    expectError(await getJson(server, '/v0/featured-apps/alice'), 400, /Invalid party id 'alice'/);
  });

  it('traffic status: zero for a member of a known synchronizer; 404 unknown synchronizer; 400 malformed member', async () => {
    const sync = server.ledger.config.synchronizers[0].id;
    const member = `PAR::participant1::${world.parties.alice.split('::')[1]!}`;
    const ok = await getJson(server, `/v0/domains/${encodeURIComponent(sync)}/members/${encodeURIComponent(member)}/traffic-status`);
    expect(ok.body).toEqual({ traffic_status: { actual: { total_consumed: 0, total_limit: 0 }, target: { total_purchased: 0 } } });
    expectError(await getJson(server, `/v0/domains/nowhere/members/${encodeURIComponent(member)}/traffic-status`), 404, /Unknown synchronizer/);
    expectError(await getJson(server, `/v0/domains/${encodeURIComponent(sync)}/members/participant1/traffic-status`), 400, /Invalid member id/);
  });

  it('the scan-proxy preapproval lookup answers what Scan answers', async () => {
    const a = await getJson(server, `/v0/transfer-preapprovals/by-party/${world.parties.bob}`);
    const b = await getJson(server, `/v0/scan-proxy/transfer-preapprovals/by-party/${world.parties.bob}`);
    expect(b.body).toEqual(a.body);
  });
});
