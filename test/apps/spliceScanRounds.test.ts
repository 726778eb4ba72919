/**
 * Scan's round history on Splice's own splice-amulet against the ports, tick by tick on the same
 * clock: the rounds Scan lists and the earliest round its reward accounting has complete, with
 * every difference explained; and Scan's traffic status from a purchase made with the real
 * AmuletRules_BuyMemberTraffic (the real MemberTraffic, read as the ports' are).
 *
 * - Both worlds are seeded with history, so both answer round 1 from the start. The ports write
 *   theirs (rounds 0-1 archived, 2 closed, 3-5 open); the real world makes its own at seeding the
 *   way Splice's DSO does (`AmuletRules_Bootstrap_Rounds`, then the seeding clock steps five ticks
 *   and the DSO's automation runs the real lifecycle: advanced, started issuing, closed, coupons
 *   expired, the closed round archived by `AmuletRules_MiningRound_Archive`), which leaves rounds
 *   0-1 archived, 2-4 issuing and 5-7 open: the same answer, reached the way Splice reaches it.
 * - Scan lists the open rounds each world holds: the real DSO keeps three and advances one a tick
 *   (`AmuletRules_AdvanceOpenMiningRounds`, the next opening a tick ahead), as Splice does; the
 *   ports open a round only when none is open now (their documented simplification), so they list
 *   one or their seeded four.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpliceAppWorld } from '../../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import type { SpliceAmulet } from '../../reference-server/src/apps/splice/SpliceAmulet.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { closeAppServer, getJson, HOUR, iso, postJson, startWorldServer, WORLD_TIME, type AppServer, type RegistryFactory } from './support/appServer.js';
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

  it('answers the ports\' earliest complete round (1) from the start, tick by tick', async () => {
    const seen: { tick: number; ports: Awaited<ReturnType<typeof observe>>; real: Awaited<ReturnType<typeof observe>> }[] = [];
    for (let tick = 0; tick <= 6; tick++) {
      seen.push({ tick, ports: await observe(ports), real: await observe(real) });
      ports.clock.advance(TICK_MS);
      real.clock.advance(TICK_MS);
    }
    // Both answer round 1 from their seeded history at every tick (the real world's was 404 before it had one).
    expect(seen.map((s) => s.ports.earliest)).toEqual(seen.map(() => 1));
    expect(seen.map((s) => s.real.earliest), JSON.stringify(seen)).toEqual(seen.map(() => 1));
    expect(world.rounds.earliestRound).toBe(1);
    // The real DSO keeps three open rounds and advances one a tick, as Splice does (the history left
    // 5-7 open); the ports open a round only when none is open now (here 3-6 seeded, then one a tick
    // on demand: each opens a tick back, as a scheduled round would have, and so closes a tick
    // on): Scan lists what each holds.
    expect(seen.map((s) => s.real.open)).toEqual(seen.map((s) => [s.tick + 5, s.tick + 6, s.tick + 7]));
    expect(seen.map((s) => s.ports.open)).toEqual([[3, 4, 5, 6], [3, 4, 5, 6], [3, 4, 5, 6], [7], [8], [9], [10]]);
    // Every closed round of the real world went on to be archived: none is left closed.
    const closed = real.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.closedMiningRound });
    expect(closed).toEqual([]);
  });

  it('the real world\'s history was made by the DSO\'s real choices on the seeding clock, not written', async () => {
    // The DSO's transactions before the first read above: the seeding's (command ids app-world-N and the automation's).
    const res = await real.http.post('/v2/updates').send(Buffer.from(JSON.stringify({
      beginExclusive: 0,
      updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [world.parties.dso]: { cumulative: [] } }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
    })));
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    type Ev = { ExercisedEvent?: { templateId: string; choice: string }; CreatedEvent?: { templateId: string; createArgument: { round?: { number: string } } } };
    const seeding = (res.body as { update: { Transaction?: { value: { commandId: string; effectiveAt: string; events: Ev[] } } } }[])
      .flatMap((u) => (u.update.Transaction === undefined ? [] : [u.update.Transaction.value]))
      .filter((t) => Date.parse(t.effectiveAt) <= WORLD_TIME + 5 * TICK_MS);
    const choices = seeding.flatMap((t) => t.events.flatMap((e) => (e.ExercisedEvent?.templateId === splice.ids.amuletRules ? [e.ExercisedEvent.choice] : [])));
    const count = (choice: string) => choices.filter((c) => c === choice).length;
    // Five advances (rounds 3-7 opened), rounds 0-4 started issuing, 0-1 closed and archived.
    expect([count('AmuletRules_AdvanceOpenMiningRounds'), count('AmuletRules_MiningRound_StartIssuing'), count('AmuletRules_MiningRound_Close'), count('AmuletRules_MiningRound_Archive')]).toEqual([5, 5, 2, 2]);
    // No round was created other than by AmuletRules' choices: every OpenMiningRound comes from the bootstrap or an advance.
    const opened = seeding.flatMap((t) => t.events.flatMap((e) => (e.CreatedEvent?.templateId === splice.ids.openMiningRound ? [Number(e.CreatedEvent.createArgument.round!.number)] : [])));
    expect(opened).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The seeding clock moved on by the five ticks the lifecycle needs, no more.
    expect(Math.max(...seeding.map((t) => Date.parse(t.effectiveAt)))).toBe(WORLD_TIME + 5 * TICK_MS);
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
