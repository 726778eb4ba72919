import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOCATION_FACTORY_V1_INTERFACE,
  ALLOCATION_V1_INTERFACE,
  AMULET_TEMPLATE,
  HOLDING_V1_INTERFACE,
  TRANSFER_FACTORY_V1_INTERFACE,
  TRANSFER_INSTRUCTION_V1_INTERFACE,
} from '../../reference-server/src/apps/index.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { expectError, getJson, postJson, startWorldServer, type AppServer, HOUR, type RegistryContext, type RegistryFactory, closeAppServer, iso } from './support/appServer.js';
import { create, exercise, mustSubmit, submit } from './support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
let dso: string;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
  dso = world.parties.dso;
});
afterAll(() => closeAppServer(server));


/** Fresh amulet for `owner` (minted by the DSO with the owner's consent), so tests do not share holdings. */
async function mint(owner: string, amount: string): Promise<string> {
  const r = await mustSubmit(server, [dso, owner], [create(AMULET_TEMPLATE, { dso, owner, amount: { initialAmount: amount, createdAt: { number: '3' }, ratePerRound: { rate: '0.0' } } })]);
  return r.created[0]!.contractId;
}

function transferArgs(sender: string, receiver: string, amount: string, inputs: string[], over: Record<string, unknown> = {}) {
  const now = server.clock.now();
  return {
    expectedAdmin: dso,
    transfer: {
      sender,
      receiver,
      amount,
      instrumentId: { admin: dso, id: 'Amulet' },
      requestedAt: iso(now - 60_000),
      executeBefore: iso(now + HOUR),
      inputHoldingCids: inputs,
      meta: { values: {} },
      ...over,
    },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

async function factory(args: unknown, path = '/registry/transfer-instruction/v1/transfer-factory'): Promise<RegistryFactory> {
  const res = await postJson(server, path, { choiceArguments: args, excludeDebugFields: true });
  expect(res.status, res.text).toBe(200);
  return res.body as RegistryFactory;
}

/** What wallet-sdk does: the factory's context goes into extraArgs, its contracts are disclosed. */
async function transferVia(f: RegistryFactory, args: ReturnType<typeof transferArgs>) {
  return submit(
    server,
    [args.transfer.sender],
    [exercise(TRANSFER_FACTORY_V1_INTERFACE, f.factoryId, 'TransferFactory_Transfer', { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } })],
    { disclosedContracts: f.choiceContext.disclosedContracts },
  );
}

async function instructionChoice(choice: 'accept' | 'reject' | 'withdraw', id: string, actor: string) {
  const res = await postJson(server, `/registry/transfer-instruction/v1/${id}/choice-contexts/${choice}`, { excludeDebugFields: true });
  expect(res.status, res.text).toBe(200);
  const ctx = res.body as RegistryContext;
  const name = `TransferInstruction_${choice[0]!.toUpperCase()}${choice.slice(1)}`;
  return submit(server, [actor], [exercise(TRANSFER_INSTRUCTION_V1_INTERFACE, id, name, { extraArgs: { context: ctx.choiceContextData, meta: { values: {} } } })], {
    disclosedContracts: ctx.disclosedContracts,
  });
}

async function holdings(party: string): Promise<{ contractId: string; amount: string; locked: boolean }[]> {
  const end = (await server.http.get('/v2/state/ledger-end')).body as { offset: number };
  const res = await server.http.post('/v2/state/active-contracts').send(
    Buffer.from(JSON.stringify({
      activeAtOffset: end.offset,
      eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING_V1_INTERFACE, includeInterfaceView: true } } } }] } } },
    })),
  );
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return (res.body as { contractEntry: { JsActiveContract: { createdEvent: { contractId: string; interfaceViews: { viewValue: { owner: string; amount: string; lock: unknown } }[] } } } }[])
    .map((e) => e.contractEntry.JsActiveContract.createdEvent)
    .filter((ev) => ev.interfaceViews[0]!.viewValue.owner === party)
    .map((ev) => ({ contractId: ev.contractId, amount: ev.interfaceViews[0]!.viewValue.amount, locked: ev.interfaceViews[0]!.viewValue.lock !== null }));
}

describe('metadata v1', () => {
  it('names the DSO as admin, the APIs as Splice does, and Amulet with its supply', async () => {
    const info = await getJson(server, '/registry/metadata/v1/info');
    // Splice's Scan: the registry supports the metadata API; the rest is per instrument.
    expect(info.body).toEqual({ adminId: dso, supportedApis: { 'splice-api-token-metadata-v1': 1 } });
    // Amulet: Splice's v1 list (no allocation-request API: apps use it, registries do not), and
    // the v2 APIs served here by the same rule.
    expect((await getJson(server, '/registry/metadata/v1/instruments/Amulet')).body.supportedApis).toEqual({
      'splice-api-token-metadata-v1': 1,
      'splice-api-token-holding-v1': 1,
      'splice-api-token-transfer-instruction-v1': 1,
      'splice-api-token-allocation-v1': 1,
      'splice-api-token-allocation-instruction-v1': 1,
      'splice-api-token-holding-v2': 1,
      'splice-api-token-transfer-instruction-v2': 1,
      'splice-api-token-allocation-v2': 1,
      'splice-api-token-allocation-instruction-v2': 1,
    });
    const list = await getJson(server, '/registry/metadata/v1/instruments?pageSize=10');
    expect(list.body.instruments.map((i: { id: string }) => i.id)).toEqual(['Amulet']);
    const one = await getJson(server, '/registry/metadata/v1/instruments/Amulet');
    expect(one.body).toMatchObject({ id: 'Amulet', decimals: 10, totalSupply: expect.stringMatching(/^\d+\.\d{10}$/) });
    // Amulet has only the implicit basic account: wallets show no account input field (Splice PR #6346).
    expect(one.body.accountInputFieldsToShow).toEqual([]);
    expect(list.body.instruments[0].accountInputFieldsToShow).toEqual([]);
    expect(one.body).not.toHaveProperty('showAccountInputFields');
    expectError(await getJson(server, '/registry/metadata/v1/instruments/USD'), 404, /Instrument 'USD' not found/);
    expectError(await getJson(server, '/registry/metadata/v1/instruments?pageSize=0'), 400, /pageSize/);
  });

  it('counts minted amulet in the total supply', async () => {
    const before = (await getJson(server, '/registry/metadata/v1/instruments/Amulet')).body.totalSupply as string;
    await mint(world.parties.dave, '7.25');
    const after = (await getJson(server, '/registry/metadata/v1/instruments/Amulet')).body.totalSupply as string;
    expect(Number(after) - Number(before)).toBeCloseTo(7.25, 10);
  });
});

describe('the Holding interface', () => {
  it('lists alice\'s unlocked and locked amulet through an interface filter with views', async () => {
    const hs = await holdings(world.parties.alice);
    expect(hs).toEqual(expect.arrayContaining([
      { contractId: world.amulet.holdings.alice[0], amount: '1000.0000000000', locked: false },
      { contractId: world.amulet.lockedForCarol, amount: '25.0000000000', locked: true },
    ]));
  });
});

describe('transfers through the factory', () => {
  it('completes at once for a receiver with a preapproval (bob), with change for the sender', async () => {
    const input = await mint(world.parties.alice, '100.0');
    const args = transferArgs(world.parties.alice, world.parties.bob, '30.0', [input]);
    const f = await factory(args);
    expect(f.transferKind).toBe('direct');
    expect(Object.keys(f.choiceContext.choiceContextData.values).sort()).toEqual(['amulet-rules', 'open-round', 'transfer-preapproval']);
    const bobBefore = new Set((await holdings(world.parties.bob)).map((h) => h.contractId));
    const r = await transferVia(f, args);
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
    expect(r.archived).toContain(input);
    // bob's new amulet is not alice's to see: read it as bob.
    const bobs = await holdings(world.parties.bob);
    expect(bobs.filter((h) => !bobBefore.has(h.contractId)).map((h) => [h.amount, h.locked])).toEqual([['30.0000000000', false]]);
    const alices = await holdings(world.parties.alice);
    expect(alices.filter((h) => r.created.some((c) => c.contractId === h.contractId)).map((h) => h.amount)).toEqual(['70.0000000000']);
  });

  it('leaves a pending instruction for a receiver without one (erin), which she accepts with the registry context', async () => {
    const input = await mint(world.parties.alice, '40.0');
    const args = transferArgs(world.parties.alice, world.parties.erin, '40.0', [input]);
    const f = await factory(args);
    expect(f.transferKind).toBe('offer');
    const r = await transferVia(f, args);
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
    const instruction = r.created.find((c) => c.templateId.endsWith(':Splice.AmuletTransferInstruction:AmuletTransferInstruction'))!.contractId;
    const accepted = await instructionChoice('accept', instruction, world.parties.erin);
    expect(accepted.status, JSON.stringify(accepted.body).slice(0, 500)).toBe(200);
    expect((await holdings(world.parties.erin)).map((h) => h.amount)).toContain('40.0000000000');
    // Archived now: its contexts answer 404.
    expectError(await postJson(server, `/registry/transfer-instruction/v1/${instruction}/choice-contexts/accept`, {}), 404, /not found: it has been archived/);
  });

  it('returns the amount to the sender when the receiver rejects or the sender withdraws', async () => {
    for (const [choice, actor] of [['reject', world.parties.erin], ['withdraw', world.parties.alice]] as const) {
      const input = await mint(world.parties.alice, '5.0');
      const args = transferArgs(world.parties.alice, world.parties.erin, '5.0', [input]);
      const r = await transferVia(await factory(args), args);
      expect(r.status).toBe(200);
      const instruction = r.created.at(-1)!.contractId;
      const aliceBefore = new Set((await holdings(world.parties.alice)).map((h) => h.contractId));
      const done = await instructionChoice(choice, instruction, actor);
      expect(done.status, JSON.stringify(done.body).slice(0, 400)).toBe(200);
      const fresh = (await holdings(world.parties.alice)).filter((h) => !aliceBefore.has(h.contractId));
      expect(fresh.map((h) => [h.amount, h.locked])).toEqual([['5.0000000000', false]]);
      expect((await holdings(world.parties.erin)).some((h) => h.amount === '5.0000000000')).toBe(false);
    }
  });

  it('refuses overspending, an expired deadline, a wrong admin and a double spend, changing nothing', async () => {
    const input = await mint(world.parties.alice, '10.0');
    const endBefore = (await server.http.get('/v2/state/ledger-end')).body.offset as number;
    const over = transferArgs(world.parties.alice, world.parties.erin, '10.5', [input]);
    const r1 = await transferVia(await factory(over), over);
    expect(r1.status).toBe(400);
    expect(String(r1.body.cause)).toMatch(/Insufficient funds/);
    const late = transferArgs(world.parties.alice, world.parties.erin, '1.0', [input], { executeBefore: iso(server.clock.now() - 1) });
    const r2 = await transferVia(await factory(late), late);
    expect(String(r2.body.cause)).toMatch(/executeBefore .* has passed/);
    const ok = transferArgs(world.parties.alice, world.parties.erin, '1.0', [input]);
    const f = await factory(ok);
    const r3 = await transferVia(f, { ...ok, expectedAdmin: world.parties.bob });
    expect(String(r3.body.cause)).toMatch(/expectedAdmin .* is not the admin/);
    const twice = transferArgs(world.parties.alice, world.parties.erin, '1.0', [input, input]);
    const r4 = await transferVia(await factory(twice), twice);
    expect(r4.status).not.toBe(200);
    expect((await server.http.get('/v2/state/ledger-end')).body.offset).toBe(endBefore);
    expect((await holdings(world.parties.alice)).find((h) => h.contractId === input)).toBeDefined();
  });
});

describe('registry input checks (400, nothing applied)', () => {
  const bad: [string, (a: ReturnType<typeof transferArgs>) => unknown, RegExp][] = [
    ['a malformed amount', (a) => ({ ...a, transfer: { ...a.transfer, amount: '1.00000000001' } }), /amount must be a decimal string/],
    ['a negative amount', (a) => ({ ...a, transfer: { ...a.transfer, amount: '-1.0' } }), /amount must be positive/],
    ['an unknown instrument', (a) => ({ ...a, transfer: { ...a.transfer, instrumentId: { admin: a.expectedAdmin, id: 'USD' } } }), /unknown instrument/],
    ['a receiver that is not a party', (a) => ({ ...a, transfer: { ...a.transfer, receiver: 'erin' } }), /receiver: Invalid party id/],
    ['oversized metadata', (a) => ({ ...a, transfer: { ...a.transfer, meta: { values: { memo: 'x'.repeat(9000) } } } }), /metadata is limited to 8192 bytes/],
    ['a wrong expectedAdmin', (a) => ({ ...a, expectedAdmin: a.transfer.sender }), /expectedAdmin .* is not the admin/],
  ];
  for (const [what, mutate, message] of bad) {
    it(`answers 400 for ${what}`, async () => {
      const args = mutate(transferArgs(world.parties.alice, world.parties.erin, '1.0', []));
      expectError(await postJson(server, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args }), 400, message);
    });
  }
  it('answers 400 without choiceArguments and for a malformed instruction id', async () => {
    expectError(await postJson(server, '/registry/transfer-instruction/v2/transfer-factory', { excludeDebugFields: true }), 400, /choiceArguments/);
    expectError(await postJson(server, '/registry/transfer-instruction/v1/not-a-cid/choice-contexts/accept', {}), 400, /Invalid transferInstructionId/);
  });
});

describe('contexts', () => {
  it('are the same for the same request, and name what the choice needs', async () => {
    const path = `/registry/transfer-instruction/v2/${world.amulet.transferToCarol}/choice-contexts/accept`;
    const a = await postJson(server, path, { excludeDebugFields: true });
    const b = await postJson(server, path, { excludeDebugFields: true });
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const ctx = a.body as RegistryContext;
    // Every contract it names, and the sender's locked amulet the choice fetches (the receiver is no stakeholder of it), as Splice's registry discloses it.
    const named = Object.values(ctx.choiceContextData.values).map((v) => (v as { value: string }).value);
    expect(ctx.disclosedContracts.map((d) => d.contractId).sort()).toEqual([...named, world.amulet.lockedForCarol].sort());
  });

  it('answer 404 for an unknown id and for a contract of another kind', async () => {
    expectError(await postJson(server, `/registry/allocations/v1/00${'ab'.repeat(32)}/choice-contexts/cancel`, {}), 404, /Allocation '.*' not found/);
    expectError(await postJson(server, `/registry/transfer-instruction/v1/${world.amulet.allocation}/choice-contexts/accept`, {}), 404, /TransferInstruction '.*' not found: the contract is a/);
  });
});

describe('allocations', () => {
  it('allocates through the factory and executes the transfer with the allocation context', async () => {
    const { alice, bob } = world.parties;
    const venue = world.parties['trading-venue'];
    const input = await mint(alice, '12.0');
    const now = server.clock.now();
    const args = {
      expectedAdmin: dso,
      allocation: {
        settlement: { executor: venue, settlementRef: { id: 'otc-7', cid: null }, requestedAt: iso(now - 60_000), allocateBefore: iso(now + HOUR), settleBefore: iso(now + 2 * HOUR), meta: { values: {} } },
        transferLegId: 'leg-1',
        transferLeg: { sender: alice, receiver: bob, amount: '10.0', instrumentId: { admin: dso, id: 'Amulet' }, meta: { values: {} } },
      },
      requestedAt: iso(now - 60_000),
      inputHoldingCids: [input],
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const f = await factory(args, '/registry/allocation-instruction/v1/allocation-factory');
    const allocated = await submit(server, [alice], [exercise(ALLOCATION_FACTORY_V1_INTERFACE, f.factoryId, 'AllocationFactory_Allocate', { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } })], {
      disclosedContracts: f.choiceContext.disclosedContracts,
    });
    expect(allocated.status, JSON.stringify(allocated.body).slice(0, 400)).toBe(200);
    const allocation = allocated.created.find((c) => c.templateId.endsWith(':Splice.AmuletAllocation:AmuletAllocation'))!.contractId;
    const ctx = (await postJson(server, `/registry/allocations/v1/${allocation}/choice-contexts/execute-transfer`, { excludeDebugFields: true })).body as RegistryContext;
    const executed = await submit(server, [venue, alice, bob], [exercise(ALLOCATION_V1_INTERFACE, allocation, 'Allocation_ExecuteTransfer', { extraArgs: { context: ctx.choiceContextData, meta: { values: {} } } })], {
      disclosedContracts: ctx.disclosedContracts,
    });
    expect(executed.status, JSON.stringify(executed.body).slice(0, 400)).toBe(200);
    expect(executed.archived).toContain(allocation);
    expectError(await postJson(server, `/registry/allocations/v2/${allocation}/choice-contexts/withdraw`, {}), 404, /archived/);
  });

  it('the world\'s allocation can be withdrawn by bob with the v2 withdraw context', async () => {
    const ctx = (await postJson(server, `/registry/allocations/v2/${world.amulet.allocation}/choice-contexts/withdraw`, { excludeDebugFields: true })).body as RegistryContext;
    const r = await submit(server, [world.parties.bob], [exercise(ALLOCATION_V1_INTERFACE, world.amulet.allocation, 'Allocation_Withdraw', { extraArgs: { context: ctx.choiceContextData, meta: { values: {} } } })], {
      disclosedContracts: ctx.disclosedContracts,
    });
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
  });
});
