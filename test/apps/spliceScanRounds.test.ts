/**
 * Scan's round history on Splice's own splice-amulet against the ports, tick by tick on the same
 * clock: the rounds Scan lists and the earliest round its reward accounting has complete, with
 * every difference explained; and Scan's traffic status from a purchase made with the real
 * AmuletRules_BuyMemberTraffic (the real MemberTraffic, read as the ports' are).
 *
 * - The ports' world is seeded with history (rounds 0-1 archived, 2 closed, 3-5 open), so their
 *   reward accounting answers round 1 from the start. The real world starts as a network does
 *   (`AmuletRules_Bootstrap_Rounds`: rounds 0-2, no history), so it answers 404 "No reward
 *   accounting data available yet" until round 1 has gone through the real lifecycle (advanced,
 *   started issuing, closed, its coupons expired and the closed round archived by
 *   `AmuletRules_MiningRound_Archive`), and then round 1 too: the same answer, reached the way
 *   Splice reaches it.
 * - Scan lists the open rounds each world holds: the real DSO keeps three and advances one a tick
 *   (`AmuletRules_AdvanceOpenMiningRounds`, the next opening a tick ahead), as Splice does; the
 *   ports open a round only when none is open now (their documented simplification), so they list
 *   one or their seeded four.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpliceAppWorld } from '../../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import type { SpliceAmulet } from '../../reference-server/src/apps/splice/SpliceAmulet.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { closeAppServer, getJson, HOUR, iso, postJson, startWorldServer, type AppServer, type RegistryFactory } from './support/appServer.js';
import { startSpliceWorldServer } from './support/spliceWorldServer.js';
import { mustSubmit } from './support/jsonApi.js';

const TICK_MS = 600_000;
const EARLIEST = '/v0/internal/reward-accounting-process/rounds/earliest-available';

describe.skipIf(!HAS_DARS)('Scan\'s round history: Splice\'s splice-amulet 0.1.22 against the ports (needs ../shared/upstream/daml/dars)', () => {
  let ports: AppServer;
  let real: AppServer;
  let splice: SpliceAmulet;
  let world: SpliceAppWorld;
  beforeAll(async () => {
    ports = (await startWorldServer()).server;
    ({ server: real, splice, world } = await startSpliceWorldServer(['splice/splice-amulet-0.1.22.dar']));
  }, 120_000);
  afterAll(async () => {
    await closeAppServer(ports);
    await closeAppServer(real);
  });

  /** One tick of both worlds: Scan's open rounds (Scan's read runs the DSO's automation) and its earliest complete round. */
  const observe = async (server: AppServer) => {
    const rounds = await postJson(server, '/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] });
    expect(rounds.status, rounds.text).toBe(200);
    const open = Object.values(rounds.body.open_mining_rounds as Record<string, { contract: { payload: { round: { number: string } } } }>).map((r) => Number(r.contract.payload.round.number)).sort((a, b) => a - b);
    const earliest = await getJson(server, EARLIEST);
    return { open, earliest: earliest.status === 200 ? (earliest.body as { earliest_round: number }).earliest_round : `${earliest.status} ${(earliest.body as { error: string }).error}` };
  };

  it('reaches the ports\' answer (earliest complete round 1) through the real lifecycle, tick by tick', async () => {
    const seen: { tick: number; ports: Awaited<ReturnType<typeof observe>>; real: Awaited<ReturnType<typeof observe>> }[] = [];
    for (let tick = 0; tick <= 6; tick++) {
      seen.push({ tick, ports: await observe(ports), real: await observe(real) });
      ports.clock.advance(TICK_MS);
      real.clock.advance(TICK_MS);
    }
    // The ports answer round 1 from their seeded history at every tick.
    expect(seen.map((s) => s.ports.earliest)).toEqual(seen.map(() => 1));
    // The real world has none until round 1 completes, then the same answer for good.
    const realEarliest = seen.map((s) => s.real.earliest);
    const first = realEarliest.findIndex((e) => e === 1);
    // Round 1 (bootstrapped open at tick 0) leaves the open set at tick 2, issues, reaches its
    // issuing target close at tick 5 and is closed, its coupons expired and the closed round archived then.
    expect(first, JSON.stringify(seen)).toBe(5);
    expect(realEarliest.slice(0, first)).toEqual(realEarliest.slice(0, first).map(() => '404 No reward accounting data available yet'));
    expect(realEarliest.slice(first)).toEqual(realEarliest.slice(first).map(() => 1));
    // The real DSO keeps three open rounds and advances one a tick, as Splice does; the ports open a
    // round only when none is open now (here 3-6 seeded, then 7 and 8 on demand): Scan lists what each holds.
    expect(seen.map((s) => s.real.open)).toEqual(seen.map((s) => [s.tick, s.tick + 1, s.tick + 2]));
    expect(seen.map((s) => s.ports.open)).toEqual([[3, 4, 5, 6], [3, 4, 5, 6], [3, 4, 5, 6], [7], [7], [8], [8]]);
    // Every closed round of the real world went on to be archived: none is left closed.
    const closed = real.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.closedMiningRound });
    expect(closed).toEqual([]);
  });

  it('reads traffic from the real MemberTraffic: alice buys 1,000,000 bytes for the participant with the real AmuletRules_BuyMemberTraffic', async () => {
    const { alice, dso } = world.parties;
    const synchronizer = real.ledger.config.synchronizers[0].id;
    const member = `PAR::${real.ledger.config.participantId}`;
    const status = async (server: AppServer) => (await getJson(server, `/v0/domains/${encodeURIComponent(synchronizer)}/members/${encodeURIComponent(member)}/traffic-status`)).body as { traffic_status: { target: { total_purchased: number } } };
    const before = await status(real);
    // The AmuletRules and the open round, as the registry discloses them.
    const f = await postJson(real, '/registry/transfer-instruction/v1/transfer-factory', { excludeDebugFields: true, choiceArguments: { expectedAdmin: dso, transfer: { sender: alice, receiver: alice, amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: iso(real.clock.now() - 60_000), executeBefore: iso(real.clock.now() + HOUR), inputHoldingCids: [], meta: { values: {} } }, extraArgs: { context: { values: {} }, meta: { values: {} } } } });
    expect(f.status, f.text).toBe(200);
    const ctx = (f.body as RegistryFactory).choiceContext;
    const cid = (key: string) => (ctx.choiceContextData.values[key] as { value: string }).value;
    const holding = real.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.amulet }).find((c) => c.argument.owner === alice)!;
    await mustSubmit(real, [alice], [{ ExerciseCommand: { templateId: splice.ids.amuletRules, contractId: cid('amulet-rules'), choice: 'AmuletRules_BuyMemberTraffic', choiceArgument: {
      inputs: [{ tag: 'InputAmulet', value: holding.contractId }],
      context: { openMiningRound: cid('open-round'), issuingMiningRounds: [], validatorRights: [], featuredAppRight: null },
      provider: alice, memberId: member, synchronizerId: synchronizer, migrationId: '0', trafficAmount: '1000000', expectedDso: dso,
    } } }], { disclosedContracts: ctx.disclosedContracts });
    const after = await status(real);
    expect(after.traffic_status.target.total_purchased - before.traffic_status.target.total_purchased).toBe(1_000_000);
    const traffic = real.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.memberTraffic });
    expect(traffic.map((c) => [c.argument.memberId, c.argument.totalPurchased])).toEqual([[member, '1000000']]);
  });
});
