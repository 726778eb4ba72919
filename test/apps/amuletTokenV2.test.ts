import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOCATION_FACTORY_V2_INTERFACE,
  ALLOCATION_REQUEST_V2_INTERFACE,
  ALLOCATION_V2_INTERFACE,
  AMULET_TEMPLATE,
  HOLDING_V2_INTERFACE,
  SETTLEMENT_FACTORY_V2_INTERFACE,
  TRANSFER_FACTORY_V2_INTERFACE,
  TRANSFER_INSTRUCTION_V2_INTERFACE,
} from '../../reference-server/src/apps/index.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import type { DamlRecord } from '../../reference-server/src/ledger/index.js';
import { expectError, postJson, startWorldServer, type AppServer, HOUR, type RegistryContext, type RegistryFactory, closeAppServer, iso } from './support/appServer.js';
import { activeContract, allocateParty, create, exercise, mustSubmit, submit, type Submitted } from './support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
let dso: string;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
  dso = world.parties.dso;
});
afterAll(() => closeAppServer(server));

const account = (owner: string) => ({ owner, provider: null, id: '' });
const noExtra = { context: { values: {} }, meta: { values: {} } };
const withContext = (ctx: RegistryContext) => ({ context: ctx.choiceContextData, meta: { values: {} } });
const ledgerEnd = async () => (await server.http.get('/v2/state/ledger-end')).body.offset as number;

async function mint(owner: string, amount: string): Promise<string> {
  const r = await mustSubmit(server, [dso, owner], [create(AMULET_TEMPLATE, { dso, owner, amount: { initialAmount: amount, createdAt: { number: '3' }, ratePerRound: { rate: '0.0' } } })]);
  return r.created[0]!.contractId;
}

async function factory(path: string, args: unknown): Promise<RegistryFactory> {
  const res = await postJson(server, path, { choiceArguments: args, excludeDebugFields: true });
  expect(res.status, res.text).toBe(200);
  return res.body as RegistryFactory;
}

/** A party's active contracts through a v2 interface filter, with the interface views. */
async function viewsOf(party: string, interfaceId: string): Promise<{ contractId: string; view: DamlRecord }[]> {
  const res = await server.http.post('/v2/state/active-contracts').send(
    Buffer.from(
      JSON.stringify({
        activeAtOffset: await ledgerEnd(),
        eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true } } } }] } } },
      }),
    ),
  );
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  type Ev = { contractId: string; interfaceViews: { viewValue: DamlRecord }[] };
  return (res.body as { contractEntry: { JsActiveContract: { createdEvent: Ev } } }[]).map((e) => ({
    contractId: e.contractEntry.JsActiveContract.createdEvent.contractId,
    view: e.contractEntry.JsActiveContract.createdEvent.interfaceViews[0]!.viewValue,
  }));
}

/** Unlocked Amulet of `party` by contract id -> amount, read through HoldingV2. */
async function unlocked(party: string): Promise<Map<string, string>> {
  const vs = await viewsOf(party, HOLDING_V2_INTERFACE);
  return new Map(vs.filter((v) => (v.view.account as DamlRecord).owner === party && v.view.lock === null).map((v) => [v.contractId, v.view.amount as string]));
}

function transferArgsV2(sender: string, receiver: string, amount: string, inputs: string[], actors = [sender]) {
  const now = server.clock.now();
  return {
    transfer: {
      sender: account(sender),
      receiver: account(receiver),
      amount,
      instrumentId: { admin: dso, id: 'Amulet' },
      requestedAt: iso(now - 60_000),
      executeBefore: iso(now + HOUR),
      inputHoldingCids: inputs,
      meta: { values: {} },
    },
    actors,
    extraArgs: noExtra,
  };
}

describe('HoldingV2', () => {
  it("shows alice's amulet and locked amulet with her basic account through the v2 interface filter", async () => {
    const vs = await viewsOf(world.parties.alice, HOLDING_V2_INTERFACE);
    const mine = vs.find((v) => v.contractId === world.amulet.holdings.alice[0])!;
    expect(mine.view).toEqual({ account: account(world.parties.alice), instrumentId: { admin: dso, id: 'Amulet' }, amount: '1000.0000000000', lock: null, meta: { values: {} } });
    const locked = vs.find((v) => v.contractId === world.amulet.lockedForCarol)!;
    expect(locked.view.lock).toMatchObject({ holders: [dso] });
  });
});

describe('the v2 interfaces in interface filters', () => {
  it('are known under their package names; the factories show their admin through the view', async () => {
    for (const id of [TRANSFER_FACTORY_V2_INTERFACE, ALLOCATION_FACTORY_V2_INTERFACE, SETTLEMENT_FACTORY_V2_INTERFACE]) {
      expect((await viewsOf(dso, id)).map((v) => v.view), id).toEqual([{ admin: dso, meta: { values: {} } }]);
    }
    expect(await viewsOf(world.parties.alice, ALLOCATION_REQUEST_V2_INTERFACE)).toEqual([]);
  });
});

describe('transfers v2', () => {
  it('completes at once to bob (preapproval) through TransferFactory v2, with the same context as v1', async () => {
    const { alice, bob } = world.parties;
    const input = await mint(alice, '50.0');
    const args = transferArgsV2(alice, bob, '20.0', [input]);
    const f = await factory('/registry/transfer-instruction/v2/transfer-factory', args);
    expect(f.transferKind).toBe('direct');
    const v1Args = { expectedAdmin: dso, transfer: { ...args.transfer, sender: alice, receiver: bob }, extraArgs: noExtra };
    expect(await factory('/registry/transfer-instruction/v1/transfer-factory', v1Args)).toEqual(f);
    const bobBefore = await unlocked(bob);
    const r = await submit(server, [alice], [exercise(TRANSFER_FACTORY_V2_INTERFACE, f.factoryId, 'TransferFactory_Transfer', { ...args, extraArgs: withContext(f.choiceContext) })], {
      disclosedContracts: f.choiceContext.disclosedContracts,
    });
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
    const fresh = [...(await unlocked(bob))].filter(([cid]) => !bobBefore.has(cid)).map(([, a]) => a);
    expect(fresh).toEqual(['20.0000000000']);
  });

  it('leaves a v2 TransferInstruction to erin that she accepts as the actor; others are refused', async () => {
    const { alice, erin, bob } = world.parties;
    const input = await mint(alice, '8.0');
    const args = transferArgsV2(alice, erin, '8.0', [input]);
    const f = await factory('/registry/transfer-instruction/v2/transfer-factory', args);
    expect(f.transferKind).toBe('offer');
    const r = await mustSubmit(server, [alice], [exercise(TRANSFER_FACTORY_V2_INTERFACE, f.factoryId, 'TransferFactory_Transfer', { ...args, extraArgs: withContext(f.choiceContext) })], {
      disclosedContracts: f.choiceContext.disclosedContracts,
    });
    const instruction = r.created.at(-1)!.contractId;
    const view = (await viewsOf(erin, TRANSFER_INSTRUCTION_V2_INTERFACE)).find((v) => v.contractId === instruction)!.view;
    expect(view.transfer).toMatchObject({ sender: account(alice), receiver: account(erin), amount: '8.0000000000' });
    expect(view.availableActions).toEqual([
      [[erin], [{ tag: 'TIA_Accept', value: {} }, { tag: 'TIA_Reject', value: {} }]],
      [[alice], [{ tag: 'TIA_Withdraw', value: {} }]],
    ]);
    const ctx = (await postJson(server, `/registry/transfer-instruction/v2/${instruction}/choice-contexts/accept`, { excludeDebugFields: true })).body as RegistryContext;
    // The v1 context, shared: the v2 choice runs the v1 accept.
    expect((await postJson(server, `/registry/transfer-instruction/v1/${instruction}/choice-contexts/accept`, { excludeDebugFields: true })).body).toEqual(ctx);
    const wrong = await submit(server, [bob], [exercise(TRANSFER_INSTRUCTION_V2_INTERFACE, instruction, 'TransferInstruction_Accept', { actors: [bob], extraArgs: withContext(ctx) })], {
      disclosedContracts: ctx.disclosedContracts,
    });
    expect(wrong.status).not.toBe(200);
    const erinBefore = await unlocked(erin);
    const accepted = await submit(server, [erin], [exercise(TRANSFER_INSTRUCTION_V2_INTERFACE, instruction, 'TransferInstruction_Accept', { actors: [erin], extraArgs: withContext(ctx) })], {
      disclosedContracts: ctx.disclosedContracts,
    });
    expect(accepted.status, JSON.stringify(accepted.body).slice(0, 400)).toBe(200);
    expect(accepted.archived).toContain(instruction);
    expect([...(await unlocked(erin))].filter(([cid]) => !erinBefore.has(cid)).map(([, a]) => a)).toEqual(['8.0000000000']);
  });

  it('refuses actors other than the sender and answers 400 for v1-shaped arguments', async () => {
    const { alice, bob } = world.parties;
    const input = await mint(alice, '3.0');
    const args = transferArgsV2(alice, bob, '1.0', [input], [bob]);
    const f = await factory('/registry/transfer-instruction/v2/transfer-factory', args);
    const r = await submit(server, [bob], [exercise(TRANSFER_FACTORY_V2_INTERFACE, f.factoryId, 'TransferFactory_Transfer', { ...args, extraArgs: withContext(f.choiceContext) })], {
      disclosedContracts: f.choiceContext.disclosedContracts,
    });
    expect(String(r.body.cause)).toMatch(/actors \[.*\] are not the sender/);
    const v1 = { expectedAdmin: dso, transfer: { ...args.transfer, sender: alice }, extraArgs: noExtra };
    expectError(await postJson(server, '/registry/transfer-instruction/v2/transfer-factory', { choiceArguments: v1 }), 400, /choiceArguments.transfer.sender must be an object/);
    expectError(await postJson(server, '/registry/transfer-instruction/v2/transfer-factory', { choiceArguments: { ...args, actors: [] } }), 400, /choiceArguments.actors must not be empty/);
  });
});

/** A two-leg swap in trade `id`: alice sends `a` to bob, bob sends `b` to alice, the venue settles. */
function trade(id: string, a: string, b: string, deadlineIn = HOUR) {
  const { alice, bob } = world.parties;
  const venue = world.parties['trading-venue'];
  const settlement = { executors: [venue], id, cid: null, meta: { values: {} } };
  const legs = [
    { transferLegId: 'leg-1', sender: account(alice), receiver: account(bob), amount: a, instrumentId: 'Amulet', meta: { values: {} } },
    { transferLegId: 'leg-2', sender: account(bob), receiver: account(alice), amount: b, instrumentId: 'Amulet', meta: { values: {} } },
  ];
  const sidesOf = (party: string) =>
    legs.flatMap((l) => {
      const common = { transferLegId: l.transferLegId, amount: l.amount, instrumentId: l.instrumentId, meta: l.meta };
      return [
        ...(l.sender.owner === party ? [{ ...common, side: 'SenderSide', otherside: l.receiver }] : []),
        ...(l.receiver.owner === party ? [{ ...common, side: 'ReceiverSide', otherside: l.sender }] : []),
      ];
    });
  const allocateArgs = (party: string, inputs: string[], over: DamlRecord = {}) => ({
    settlement,
    allocation: {
      admin: dso,
      authorizer: account(party),
      transferLegSides: sidesOf(party),
      settlementDeadline: iso(server.clock.now() + deadlineIn),
      nextIterationFunding: null,
      committed: false,
      meta: { values: {} },
      ...over,
    },
    requestedAt: iso(server.clock.now() - 60_000),
    inputHoldingCids: inputs,
    extraArgs: noExtra,
    actors: [party],
  });
  const settleArgs = (allocations: string[], actors = [venue]) => ({
    settlement,
    transferLegs: legs,
    allocations: allocations.map((allocationCid) => ({ allocationCid, extraTransferLegSides: [], nextIterationFunding: null })),
    actors,
    extraArgs: noExtra,
  });
  return { venue, allocateArgs, settleArgs };
}

async function allocate(party: string, args: unknown): Promise<Submitted> {
  const f = await factory('/registry/allocation-instruction/v2/allocation-factory', args);
  return submit(server, [party], [exercise(ALLOCATION_FACTORY_V2_INTERFACE, f.factoryId, 'AllocationFactory_Allocate', { ...(args as DamlRecord), extraArgs: withContext(f.choiceContext) })], {
    disclosedContracts: f.choiceContext.disclosedContracts,
  });
}

const allocationOf = (r: Submitted) => r.created.find((c) => c.templateId.endsWith(':Splice.AmuletAllocationV2:AmuletAllocationV2'))!.contractId;

async function settle(executor: string, args: DamlRecord): Promise<Submitted & { context: RegistryFactory }> {
  const f = await factory('/registry/allocation/v2/settlement-factory', args);
  const r = await submit(server, [executor], [exercise(SETTLEMENT_FACTORY_V2_INTERFACE, f.factoryId, 'SettlementFactory_SettleBatch', { ...args, extraArgs: withContext(f.choiceContext) })], {
    disclosedContracts: f.choiceContext.disclosedContracts,
  });
  return { ...r, context: f };
}

describe('DvP settlement through SettlementFactory_SettleBatch', () => {
  it('alice and bob allocate with the v2 factory, the venue settles both legs atomically and the amulet moves', async () => {
    const { alice, bob } = world.parties;
    const t = trade('dvp-1', '10.0', '3.0');
    const aliceIn = await mint(alice, '15.0');
    const a = await allocate(alice, t.allocateArgs(alice, [aliceIn]));
    expect(a.status, JSON.stringify(a.body).slice(0, 500)).toBe(200);
    // alice nets -7: 7 locked, 8 back as change; bob nets +3 and locks nothing.
    const aView = (await viewsOf(alice, ALLOCATION_V2_INTERFACE)).find((v) => v.contractId === allocationOf(a))!.view;
    expect(aView.holdingCids).toHaveLength(1);
    // AllocationView as splice-api-token-allocation-v2 1.0.0 has it: the settlement beside the specification.
    expect(aView.settlement).toEqual({ executors: [t.venue], id: 'dvp-1', cid: null, meta: { values: {} } });
    expect(Object.keys(aView.allocation as DamlRecord).sort()).toEqual(['admin', 'authorizer', 'committed', 'meta', 'nextIterationFunding', 'settlementDeadline', 'transferLegSides']);
    expect((await unlocked(alice)).get(a.created.find((c) => c.templateId.endsWith(':Splice.Amulet:Amulet'))!.contractId)).toBe('8.0000000000');
    const b = await allocate(bob, t.allocateArgs(bob, []));
    expect(b.status, JSON.stringify(b.body).slice(0, 500)).toBe(200);
    expect(b.created.some((c) => c.templateId.endsWith(':Splice.Amulet:LockedAmulet'))).toBe(false);

    const aliceBefore = await unlocked(alice);
    const bobBefore = await unlocked(bob);
    const s = await settle(t.venue, t.settleArgs([allocationOf(a), allocationOf(b)]));
    expect(s.status, JSON.stringify(s.body).slice(0, 600)).toBe(200);
    // The context disclosed alice's locked amulet besides the factory, the rules and the round.
    expect(s.context.choiceContext.disclosedContracts.map((d) => d.templateId.split(':').slice(1).join(':')).sort()).toEqual(
      ['Splice.Amulet:LockedAmulet', 'Splice.AmuletRules:AmuletRules', 'Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules', 'Splice.Round:OpenMiningRound'].sort(),
    );
    expect(s.archived).toEqual(expect.arrayContaining([allocationOf(a), allocationOf(b)]));
    const aliceNew = [...(await unlocked(alice))].filter(([cid]) => !aliceBefore.has(cid));
    const bobNew = [...(await unlocked(bob))].filter(([cid]) => !bobBefore.has(cid)).map(([, v]) => v);
    expect(aliceNew).toEqual([]); // 7 locked - 10 sent + 3 received = 0
    expect(bobNew).toEqual(['7.0000000000']); // +10 - 3
  });

  it('a failing batch leaves nothing half-applied: missing allocation, wrong actors, expired deadline, mismatched settlement', async () => {
    const { alice, bob, erin } = world.parties;
    const t = trade('dvp-2', '4.0', '1.0', 5 * 60_000);
    const a = await allocate(alice, t.allocateArgs(alice, [await mint(alice, '3.0')]));
    const b = await allocate(bob, t.allocateArgs(bob, []));
    expect([a.status, b.status]).toEqual([200, 200]);
    const ids = [allocationOf(a), allocationOf(b)];
    const end = await ledgerEnd();
    const missing = await settle(t.venue, t.settleArgs([ids[0]!]));
    expect(String(missing.body.cause)).toMatch(/do not authorize exactly the transfer legs: 2 missing/);
    const actors = await settle(erin, t.settleArgs(ids, [erin]));
    expect(String(actors.body.cause)).toMatch(/actors \[.*\] are not the settlement executors/);
    expect(await ledgerEnd()).toBe(end);
    const other = trade('dvp-other', '4.0', '1.0');
    const mismatched = await settle(t.venue, { ...other.settleArgs(ids) });
    expect(String(mismatched.body.cause)).toMatch(/was made for another settlement/);
    const twice = await settle(t.venue, t.settleArgs([...ids, ids[0]!]));
    expect(String(twice.body.cause)).toMatch(/not unique/);
    expect(await ledgerEnd()).toBe(end);
    // Another admin's settlement factory (erin plays a registry) refuses allocations of the DSO.
    const foreign = (await mustSubmit(server, [erin], [create('#splice-amulet:Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules', { dso: erin })])).created[0]!.contractId;
    const blob = await activeContract(server, erin, foreign);
    const wrongAdmin = await submit(server, [t.venue], [exercise(SETTLEMENT_FACTORY_V2_INTERFACE, foreign, 'SettlementFactory_SettleBatch', t.settleArgs(ids))], {
      disclosedContracts: [{ templateId: blob.createdEvent.templateId, contractId: foreign, createdEventBlob: blob.createdEvent.createdEventBlob, synchronizerId: blob.synchronizerId }],
    });
    expect(String(wrongAdmin.body.cause)).toMatch(/allocation.admin .* is not the admin .* of this factory/);
    const endAfterFactory = await ledgerEnd();

    server.clock.advance(10 * 60_000);
    const late = await settle(t.venue, t.settleArgs(ids));
    // splice-amulet 0.1.22's Allocation_Settle: assertWithinDeadline "allocation.settlement.settlementDeadline".
    expect(String(late.body.cause)).toMatch(/Ledger time is at or past deadline 'allocation\.settlement\.settlementDeadline' at /);
    expect(await ledgerEnd()).toBe(endAfterFactory);
    // Both allocations are still there, alice's lock with them.
    expect((await viewsOf(alice, ALLOCATION_V2_INTERFACE)).map((v) => v.contractId)).toContain(ids[0]);
    expect((await viewsOf(bob, ALLOCATION_V2_INTERFACE)).map((v) => v.contractId)).toContain(ids[1]);
  });

  it("refuses to allocate once the allocation's settlementDeadline has passed, in splice-amulet 0.1.22's words, and leaves the ledger as it was", async () => {
    const { alice } = world.parties;
    const t = trade('dvp-late', '1.0', '1.0', -60_000);
    const input = await mint(alice, '1.0');
    const end = await ledgerEnd();
    const late = await allocate(alice, t.allocateArgs(alice, [input]));
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('DAML_FAILURE');
    // AllocationFactory_Allocate (amulet_allocationFactoryV2_allocateImplCore): assertWithinDeadline "Allocation.settlementDeadline".
    expect(String(late.body.cause)).toMatch(/Ledger time is at or past deadline 'Allocation\.settlementDeadline' at /);
    expect(await ledgerEnd()).toBe(end);
    const onTime = await allocate(alice, trade('dvp-on-time', '1.0', '1.0').allocateArgs(alice, [input]));
    expect(onTime.status, JSON.stringify(onTime.body).slice(0, 300)).toBe(200);
  });

  it('refuses an allocation for another admin, and settlement by anyone but the admin and the executors', async () => {
    const { alice, bob } = world.parties;
    const t = trade('dvp-3', '2.0', '1.0');
    expectError(await postJson(server, '/registry/allocation-instruction/v2/allocation-factory', { choiceArguments: t.allocateArgs(alice, [], { admin: bob }) }), 400, /admin .* is not the admin of this registry/);
    const a = await allocate(alice, t.allocateArgs(alice, [await mint(alice, '1.0')]));
    expect(a.status).toBe(200);
    const ctx = (await postJson(server, `/registry/allocations/v2/${allocationOf(a)}/choice-contexts/cancel`, { excludeDebugFields: true })).body as RegistryContext;
    const direct = await submit(server, [t.venue], [exercise(ALLOCATION_V2_INTERFACE, allocationOf(a), 'Allocation_Settle', { actors: [t.venue], extraTransferLegSides: [], nextIterationFunding: null, extraArgs: withContext(ctx) })], {
      disclosedContracts: ctx.disclosedContracts,
    });
    expect(String(direct.body.cause)).toMatch(/are not the admin and executors/);
  });
});

describe("upstream's minimum batch", () => {
  it('settles 25 legs between 50 parties (50 allocations) in one SettleBatch', async () => {
    const venue = world.parties['trading-venue'];
    const now = server.clock.now();
    const settlement = { executors: [venue], id: 'batch-25', cid: null, meta: { values: {} } };
    const pairs = await Promise.all(Array.from({ length: 25 }, async (_, i) => [await allocateParty(server, `s${i}`), await allocateParty(server, `r${i}`)] as const));
    const legs = pairs.map(([from, to], i) => ({ transferLegId: `leg-${i}`, sender: account(from), receiver: account(to), amount: `${i + 1}.0`, instrumentId: 'Amulet', meta: { values: {} } }));
    const args = (party: string, side: 'SenderSide' | 'ReceiverSide', leg: (typeof legs)[number], inputs: string[]) => ({
      settlement,
      allocation: {
        admin: dso,
        authorizer: account(party),
        transferLegSides: [{ transferLegId: leg.transferLegId, side, otherside: side === 'SenderSide' ? leg.receiver : leg.sender, amount: leg.amount, instrumentId: 'Amulet', meta: { values: {} } }],
        settlementDeadline: iso(now + HOUR),
        nextIterationFunding: null,
        committed: false,
        meta: { values: {} },
      },
      requestedAt: iso(now - 60_000),
      inputHoldingCids: inputs,
      extraArgs: noExtra,
      actors: [party],
    });
    const f = await factory('/registry/allocation-instruction/v2/allocation-factory', args(pairs[0]![0], 'SenderSide', legs[0]!, []));
    const allocations: string[] = [];
    for (const [i, [from, to]] of pairs.entries()) {
      const leg = legs[i]!;
      for (const [party, side, inputs] of [[from, 'SenderSide', [await mint(from, leg.amount)]], [to, 'ReceiverSide', []]] as const) {
        const r = await mustSubmit(server, [party], [exercise(ALLOCATION_FACTORY_V2_INTERFACE, f.factoryId, 'AllocationFactory_Allocate', { ...args(party, side, leg, [...inputs]), extraArgs: withContext(f.choiceContext) })], {
          disclosedContracts: f.choiceContext.disclosedContracts,
        });
        allocations.push(allocationOf(r));
      }
    }
    const started = performance.now();
    const s = await settle(venue, { settlement, transferLegs: legs, allocations: allocations.map((allocationCid) => ({ allocationCid, extraTransferLegSides: [], nextIterationFunding: null })), actors: [venue], extraArgs: noExtra });
    const ms = performance.now() - started;
    expect(s.status, JSON.stringify(s.body).slice(0, 400)).toBe(200);
    expect(s.archived).toEqual(expect.arrayContaining(allocations));
    expect([...(await unlocked(pairs[24]![1])).values()]).toEqual(['25.0000000000']);
    // The factory request and the settlement together: well under a second on a quiet machine; the
    // bound catches a blow-up (per-leg scans of the ledger), not a busy machine.
    expect(ms).toBeLessThan(20_000);
  });
});

describe('iterated settlement', () => {
  it('settles an iteration from funding reserved at allocation and keeps the next iteration funded', async () => {
    const { alice, bob } = world.parties;
    const venue = world.parties['trading-venue'];
    const now = server.clock.now();
    const settlement = { executors: [venue], id: 'iterated-1', cid: null, meta: { values: {} } };
    const iterated = (party: string, funding: Record<string, string>, inputs: string[]) => ({
      settlement,
      allocation: { admin: dso, authorizer: account(party), transferLegSides: [], settlementDeadline: iso(now + HOUR), nextIterationFunding: funding, committed: false, meta: { values: {} } },
      requestedAt: iso(now - 60_000),
      inputHoldingCids: inputs,
      extraArgs: noExtra,
      actors: [party],
    });
    const a = await allocate(alice, iterated(alice, { Amulet: '5.0' }, [await mint(alice, '5.0')]));
    expect(a.status, JSON.stringify(a.body).slice(0, 400)).toBe(200);
    const b = await allocate(bob, iterated(bob, {}, []));
    expect(b.status, JSON.stringify(b.body).slice(0, 400)).toBe(200);
    const leg = { transferLegId: 'it-1', sender: account(alice), receiver: account(bob), amount: '2.0', instrumentId: 'Amulet', meta: { values: {} } };
    const side = (s: 'SenderSide' | 'ReceiverSide') => ({ transferLegId: 'it-1', side: s, otherside: s === 'SenderSide' ? account(bob) : account(alice), amount: '2.0', instrumentId: 'Amulet', meta: { values: {} } });
    const bobBefore = await unlocked(bob);
    const s1 = await settle(venue, {
      settlement,
      transferLegs: [leg],
      allocations: [
        { allocationCid: allocationOf(a), extraTransferLegSides: [side('SenderSide')], nextIterationFunding: { Amulet: '3.0' } },
        { allocationCid: allocationOf(b), extraTransferLegSides: [side('ReceiverSide')], nextIterationFunding: {} },
      ],
      actors: [venue],
      extraArgs: noExtra,
    });
    expect(s1.status, JSON.stringify(s1.body).slice(0, 500)).toBe(200);
    expect([...(await unlocked(bob))].filter(([cid]) => !bobBefore.has(cid)).map(([, v]) => v)).toEqual(['2.0000000000']);
    const next = (await viewsOf(alice, ALLOCATION_V2_INTERFACE)).find((v) => v.view.numIterations === '1' && (v.view.settlement as DamlRecord).id === 'iterated-1')!;
    expect((next.view.allocation as DamlRecord).nextIterationFunding).toEqual({ Amulet: '3.0000000000' });
    const lock = (await viewsOf(alice, HOLDING_V2_INTERFACE)).find((h) => h.contractId === (next.view.holdingCids as string[])[0])!;
    expect([lock.view.amount, (lock.view.lock as DamlRecord).holders]).toEqual(['3.0000000000', [alice, dso]]);
    // Asking the next iteration for more than the funding and the credit cover is refused.
    const s2 = await settle(venue, {
      settlement,
      transferLegs: [{ ...leg, transferLegId: 'it-2', amount: '1.0' }],
      allocations: [
        { allocationCid: next.contractId, extraTransferLegSides: [{ ...side('SenderSide'), transferLegId: 'it-2', amount: '1.0' }], nextIterationFunding: { Amulet: '2.5' } },
        {
          allocationCid: (await viewsOf(bob, ALLOCATION_V2_INTERFACE)).find((v) => v.view.numIterations === '1' && (v.view.settlement as DamlRecord).id === 'iterated-1')!.contractId,
          extraTransferLegSides: [{ ...side('ReceiverSide'), transferLegId: 'it-2', amount: '1.0' }],
          nextIterationFunding: null,
        },
      ],
      actors: [venue],
      extraArgs: noExtra,
    });
    expect(String(s2.body.cause)).toMatch(/inputAmount 2.0000000000 .* is less than the minimal outputAmount 2.5000000000/);
  });
});

describe('v1 allocations in a v2 settlement', () => {
  it("a v1 AmuletAllocation is an Allocation v2 too: alice's v1 allocation and bob's v2 receipt settle in one batch", async () => {
    const { alice, bob } = world.parties;
    const venue = world.parties['trading-venue'];
    const now = server.clock.now();
    const v1Args = {
      expectedAdmin: dso,
      allocation: {
        settlement: { executor: venue, settlementRef: { id: 'mixed-1', cid: null }, requestedAt: iso(now - 60_000), allocateBefore: iso(now + HOUR), settleBefore: iso(now + 2 * HOUR), meta: { values: {} } },
        transferLegId: 'leg-1',
        transferLeg: { sender: alice, receiver: bob, amount: '6.0', instrumentId: { admin: dso, id: 'Amulet' }, meta: { values: {} } },
      },
      requestedAt: iso(now - 60_000),
      inputHoldingCids: [await mint(alice, '6.0')],
      extraArgs: noExtra,
    };
    const f1 = await factory('/registry/allocation-instruction/v1/allocation-factory', v1Args);
    const a = await mustSubmit(server, [alice], [exercise('#splice-api-token-allocation-instruction-v1:Splice.Api.Token.AllocationInstructionV1:AllocationFactory', f1.factoryId, 'AllocationFactory_Allocate', { ...v1Args, extraArgs: withContext(f1.choiceContext) })], {
      disclosedContracts: f1.choiceContext.disclosedContracts,
    });
    const v1Allocation = a.created.find((c) => c.templateId.endsWith(':Splice.AmuletAllocation:AmuletAllocation'))!.contractId;
    const view = (await viewsOf(alice, ALLOCATION_V2_INTERFACE)).find((v) => v.contractId === v1Allocation)!.view;
    const settlement = { executors: [venue], id: 'mixed-1', cid: null, meta: { values: {} } };
    expect(view.settlement).toEqual(settlement);
    expect(view.allocation).not.toHaveProperty('settlement');
    expect((view.allocation as DamlRecord).transferLegSides).toEqual([
      { transferLegId: 'leg-1', side: 'SenderSide', otherside: account(bob), amount: '6.0000000000', instrumentId: 'Amulet', meta: { values: {} } },
    ]);
    const bobArgs = {
      settlement,
      allocation: {
        admin: dso,
        authorizer: account(bob),
        transferLegSides: [{ transferLegId: 'leg-1', side: 'ReceiverSide', otherside: account(alice), amount: '6.0', instrumentId: 'Amulet', meta: { values: {} } }],
        settlementDeadline: iso(now + HOUR),
        nextIterationFunding: null,
        committed: false,
        meta: { values: {} },
      },
      requestedAt: iso(now - 60_000),
      inputHoldingCids: [],
      extraArgs: noExtra,
      actors: [bob],
    };
    const b = await allocate(bob, bobArgs);
    expect(b.status, JSON.stringify(b.body).slice(0, 400)).toBe(200);
    const bobBefore = await unlocked(bob);
    const s = await settle(venue, {
      settlement,
      transferLegs: [{ transferLegId: 'leg-1', sender: account(alice), receiver: account(bob), amount: '6.0', instrumentId: 'Amulet', meta: { values: {} } }],
      allocations: [v1Allocation, allocationOf(b)].map((allocationCid) => ({ allocationCid, extraTransferLegSides: [], nextIterationFunding: null })),
      actors: [venue],
      extraArgs: noExtra,
    });
    expect(s.status, JSON.stringify(s.body).slice(0, 500)).toBe(200);
    expect(s.archived).toEqual(expect.arrayContaining([v1Allocation, allocationOf(b)]));
    expect([...(await unlocked(bob))].filter(([cid]) => !bobBefore.has(cid)).map(([, v]) => v)).toEqual(['6.0000000000']);
  });
});

describe('allocation v2 cancel and withdraw', () => {
  it('the executors cancel with the v2 cancel context and alice gets her lock back; a committed one cannot be withdrawn before its deadline', async () => {
    const { alice } = world.parties;
    const t = trade('dvp-4', '5.0', '1.0');
    const a = await allocate(alice, t.allocateArgs(alice, [await mint(alice, '4.0')]));
    expect(a.status).toBe(200);
    const id = allocationOf(a);
    const ctx = (await postJson(server, `/registry/allocations/v2/${id}/choice-contexts/cancel`, { excludeDebugFields: true })).body as RegistryContext;
    expect(Object.keys(ctx.choiceContextData.values).sort()).toEqual(['amulet-rules', 'open-round']);
    // Not an AmuletAllocation: the v1 paths do not know it.
    expectError(await postJson(server, `/registry/allocations/v1/${id}/choice-contexts/cancel`, {}), 404, /not found: the contract is a/);
    const before = await unlocked(alice);
    const cancelled = await submit(server, [t.venue], [exercise(ALLOCATION_V2_INTERFACE, id, 'Allocation_Cancel', { actors: [t.venue], extraArgs: withContext(ctx) })], {
      disclosedContracts: ctx.disclosedContracts,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body).slice(0, 400)).toBe(200);
    expect([...(await unlocked(alice))].filter(([cid]) => !before.has(cid)).map(([, v]) => v)).toEqual(['4.0000000000']);
    expectError(await postJson(server, `/registry/allocations/v2/${id}/choice-contexts/withdraw`, {}), 404, /archived/);

    const c = await allocate(alice, t.allocateArgs(alice, [await mint(alice, '4.0')], { committed: true }));
    const cid = allocationOf(c);
    const wctx = (await postJson(server, `/registry/allocations/v2/${cid}/choice-contexts/withdraw`, { excludeDebugFields: true })).body as RegistryContext;
    const early = await submit(server, [alice], [exercise(ALLOCATION_V2_INTERFACE, cid, 'Allocation_Withdraw', { actors: [alice], extraArgs: withContext(wctx) })], {
      disclosedContracts: wctx.disclosedContracts,
    });
    expect(String(early.body.cause)).toMatch(/Cannot withdraw a committed allocation before its settlement deadline/);
  });
});

describe('settlement factory requests', () => {
  const path = '/registry/allocation/v2/settlement-factory';
  it('answers the same context for the same request, and 400 for malformed arguments', async () => {
    const t = trade('dvp-5', '1.0', '1.0');
    const args = t.settleArgs([`00${'ab'.repeat(32)}`]);
    const one = await postJson(server, path, { choiceArguments: args });
    expect(one.status, one.text).toBe(200);
    expect((await postJson(server, path, { choiceArguments: args })).body).toEqual(one.body);
    expect((one.body as RegistryFactory).choiceContext.disclosedContracts[0]).toHaveProperty('debugPayload');
    const bad: [unknown, RegExp][] = [
      [{}, /choiceArguments/],
      [{ choiceArguments: { ...args, transferLegs: [] } }, /transferLegs must be a non-empty list/],
      [{ choiceArguments: { ...args, settlement: { ...args.settlement, executors: [] } } }, /executors must not be empty/],
      [{ choiceArguments: { ...args, allocations: [{ allocationCid: 'nope' }] } }, /allocations\[0\].allocationCid is not a contract id/],
      [{ choiceArguments: { ...args, transferLegs: [{ ...args.transferLegs[0], amount: '1e3' }] } }, /amount must be a decimal string/],
      [{ choiceArguments: { ...args, transferLegs: [{ ...args.transferLegs[0], instrumentId: 'USD' }] } }, /unknown instrument/],
      [{ choiceArguments: { ...args, transferLegs: [{ ...args.transferLegs[0], sender: { owner: 'alice' } }] } }, /sender.owner: Invalid party id/],
      [{ choiceArguments: { ...args, transferLegs: Array.from({ length: 1001 }, () => args.transferLegs[0]) } }, /at most 1000/],
    ];
    for (const [body, message] of bad) expectError(await postJson(server, path, body), 400, message);
  });

  it("answers 409 while an allocation's locked amulet is being reassigned", async () => {
    const { alice } = world.parties;
    const t = trade('dvp-6', '2.0', '1.0');
    const a = await allocate(alice, t.allocateArgs(alice, [await mint(alice, '1.0')]));
    const locked = a.created.find((c) => c.templateId.endsWith(':Splice.Amulet:LockedAmulet'))!.contractId;
    const u = server.ledger.unassign(locked, server.ledger.config.synchronizers[1]!.id, { submitter: dso });
    expect(u.ok).toBe(true);
    expectError(await postJson(server, path, { choiceArguments: t.settleArgs([allocationOf(a)]) }), 409, /is being reassigned/);
    if (u.ok) expect(server.ledger.assign(u.value.reassignmentId, { submitter: dso }).ok).toBe(true);
    expect((await postJson(server, path, { choiceArguments: t.settleArgs([allocationOf(a)]) })).status).toBe(200);
  });
});

describe('allocation factory requests', () => {
  const path = '/registry/allocation-instruction/v2/allocation-factory';
  it("takes the settlement beside the specification, as splice-api-token-allocation-instruction-v2 1.0.0 does; the draft shape (inside it) gets a pointed 400 and the choice refuses it", async () => {
    const { alice } = world.parties;
    const t = trade('dvp-7', '1.0', '1.0');
    const args = t.allocateArgs(alice, []);
    expect((await postJson(server, path, { choiceArguments: args })).status).toBe(200);
    const { settlement, ...rest } = args;
    const draft = { ...rest, allocation: { ...rest.allocation, settlement } };
    expectError(await postJson(server, path, { choiceArguments: draft }), 400, /choiceArguments\.settlement is missing: AllocationFactory_Allocate takes the settlement beside the allocation/);
    expectError(await postJson(server, path, { choiceArguments: rest }), 400, /choiceArguments\.settlement/);
    // The ledger holds the choice to the same shape: the draft arguments do not type-check.
    const f = await factory(path, args);
    const refused = await submit(server, [alice], [exercise(ALLOCATION_FACTORY_V2_INTERFACE, f.factoryId, 'AllocationFactory_Allocate', { ...draft, extraArgs: withContext(f.choiceContext) })], {
      disclosedContracts: f.choiceContext.disclosedContracts,
    });
    expect(refused.status, JSON.stringify(refused.body).slice(0, 400)).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/settlement/);
  });
});
