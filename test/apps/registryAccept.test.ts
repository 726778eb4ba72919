import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_MAP_TEMPLATE,
  ALLOCATION_INSTRUCTION_INTERFACE,
  TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE,
  TOKEN_ALLOCATION_TEMPLATE,
  TOKEN_RULES_TEMPLATE,
} from '../../reference-server/src/apps/index.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { acceptPath, expectError, postJson, startWorldServer, withdrawPath, type AppServer, type RegistryContext, closeAppServer } from './support/appServer.js';
import { create, exercise, mustSubmit, submit } from './support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
});
afterAll(() => closeAppServer(server));

/** What a wallet does: fetch the context (without debug fields, as TokenStandardService asks). */
async function contextFor(path: string): Promise<RegistryContext> {
  const res = await postJson(server, path, { excludeDebugFields: true });
  expect(res.status, res.text).toBe(200);
  return res.body as RegistryContext;
}

/** ...then exercise the interface choice with it, passing the disclosed contracts unchanged. */
function exerciseWith(choice: string, instruction: string, actor: string, ctx: RegistryContext, meta: Record<string, string> = {}) {
  return submit(
    server,
    [actor],
    [exercise(ALLOCATION_INSTRUCTION_INTERFACE, instruction, choice, { actors: [actor], extraArgs: { context: ctx.choiceContextData, meta: { values: meta } } })],
    { disclosedContracts: ctx.disclosedContracts },
  );
}

describe('accepting an allocation instruction through the JSON API with the registry context', () => {
  it('refuses an exercise without the context, naming what is missing', async () => {
    const id = world.registry.instructions.bobActive;
    const r = await exerciseWith('AllocationInstruction_Accept', id, world.parties.bob, { choiceContextData: { values: {} }, disclosedContracts: [] });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('DAML_FAILURE');
    expect(String(r.body.cause)).toMatch(/no 'token-rules' contract id/);
  });

  it('refuses a disclosed contract whose blob was altered', async () => {
    const id = world.registry.instructions.bobActive;
    const ctx = await contextFor(acceptPath(id));
    const blob = Buffer.from(ctx.disclosedContracts[0]!.createdEventBlob, 'base64');
    blob.writeUInt8(blob.readUInt8(blob.length - 1) ^ 1, blob.length - 1);
    const tampered = { ...ctx, disclosedContracts: [{ ...ctx.disclosedContracts[0]!, createdEventBlob: blob.toString('base64') }, ctx.disclosedContracts[1]!] };
    const r = await exerciseWith('AllocationInstruction_Accept', id, world.parties.bob, tampered);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('DISCLOSED_CONTRACT_INVALID');
  });

  it('refuses an actor the registry does not allow (only the authorizer accepts)', async () => {
    const id = world.registry.instructions.bobActive;
    // The trading venue sees the instruction (an executor observes it) but may not accept it.
    const r = await exerciseWith('AllocationInstruction_Accept', id, world.parties['trading-venue'], await contextFor(acceptPath(id)));
    expect(r.status).toBe(400);
    expect(String(r.body.cause)).toMatch(/actors must be exactly the authorizer/);
  });

  it('accepts: the instruction is consumed, the allocation created, and the registry then answers 404', async () => {
    const id = world.registry.instructions.aliceActive;
    const ctx = await contextFor(acceptPath(id));
    const r = await exerciseWith('AllocationInstruction_Accept', id, world.parties.alice, ctx, { note: 'from the test' });
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
    expect(r.archived).toEqual([id]);
    expect(r.created).toHaveLength(1);
    expect(r.created[0]?.templateId).toMatch(/:Sample\.Token\.Allocation:TokenAllocation$/);
    expectError(await postJson(server, acceptPath(id), {}), 404, /has been archived/);
    // The contracts the context named are untouched and still serve the next instruction.
    expect((await contextFor(acceptPath(world.registry.instructions.bobActive))).disclosedContracts.map((d) => d.contractId)).toEqual(ctx.disclosedContracts.map((d) => d.contractId));
  });

  it('creates the allocation signed by the admin and the authorizer, naming the instruction it came from', async () => {
    const id = world.registry.instructions.bobActive;
    const r = await exerciseWith('AllocationInstruction_Accept', id, world.parties.bob, await contextFor(acceptPath(id)));
    expect(r.status).toBe(200);
    const allocation = server.ledger.contract(r.created[0]!.contractId);
    expect(allocation?.templateId.endsWith(TOKEN_ALLOCATION_TEMPLATE.slice(TOKEN_ALLOCATION_TEMPLATE.indexOf(':')))).toBe(true);
    expect(allocation?.argument.originalInstructionCid).toBe(id);
    expect(allocation?.signatories).toEqual([world.parties.bob, world.parties['registry-admin']].sort());
  });
});

describe('withdrawing through the JSON API with the withdraw context', () => {
  it('withdraws: the instruction is archived with a Failed result and no allocation', async () => {
    const id = world.registry.instructions.carolInFlight;
    const r = await exerciseWith('AllocationInstruction_Withdraw', id, world.parties.carol, await contextFor(withdrawPath(id)));
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.archived).toEqual([id]);
    expect(r.created).toEqual([]);
    expectError(await postJson(server, withdrawPath(id), {}), 404, /has been archived/);
  });
});

describe('the allocation\'s settlementDeadline', () => {
  it('refuses to accept once it has passed (Splice\'s test token asserts it when it locks the funds), and accepts before it', async () => {
    const { alice } = world.parties;
    const now = server.clock.now();
    const late = await newInstruction(alice, new Date(now - 60_000).toISOString());
    const refused = await exerciseWith('AllocationInstruction_Accept', late, alice, await contextFor(acceptPath(late)));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('DAML_FAILURE');
    expect(String(refused.body.cause)).toContain(`Ledger time is at or past deadline 'allocation.settlementDeadline' at ${new Date(now - 60_000).toISOString()}`);
    const open = await newInstruction(alice, new Date(now + 60_000).toISOString());
    const accepted = await exerciseWith('AllocationInstruction_Accept', open, alice, await contextFor(acceptPath(open)));
    expect(accepted.status, JSON.stringify(accepted.body).slice(0, 300)).toBe(200);
    expect(accepted.archived).toEqual([open]);
  });
});

/** A fresh instruction, created by the registry admin through the JSON API. */
async function newInstruction(authorizer: string, settlementDeadline: string | null = null): Promise<string> {
  const admin = world.parties['registry-admin'];
  const created = await mustSubmit(server, [admin], [
    create(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE, {
      originalInstructionCid: null,
      admin,
      settlement: { executors: [world.parties['trading-venue']], id: 'trade-9', meta: { values: {} } },
      allocation: {
        admin,
        authorizer,
        transferLegSides: [{ transferLegId: 'leg-0', side: 'SenderSide', otherside: world.parties.bob, amount: '5', instrumentId: 'SAMPLE' }],
        settlementDeadline,
        committed: false,
      },
      requestedAt: '2026-01-01T00:00:00Z',
    }),
  ]);
  return created.created[0]!.contractId;
}

describe('contexts follow the ledger', () => {
  it('answers 409 while the account map is in flight, then names its new synchronizer once assigned', async () => {
    const admin = world.parties['registry-admin'];
    const id = await newInstruction(world.parties.carol);
    expectError(await postJson(server, acceptPath(id), {}), 409, /is being reassigned/);
    const assigned = server.ledger.assign(world.registry.accountMapReassignmentId!, { submitter: admin });
    expect(assigned.ok).toBe(true);
    const ctx = await contextFor(acceptPath(id));
    const map = ctx.disclosedContracts.find((d) => d.contractId === world.registry.accountMapInFlight);
    expect(map?.synchronizerId).toBe(server.ledger.config.synchronizers[1]!.id);
    // Inputs on two synchronizers cannot be used together: the ledger refuses, as Canton does, at
    // interpretation already (the used disclosed contracts name two synchronizers).
    const split = await exerciseWith('AllocationInstruction_Accept', id, world.parties.carol, ctx);
    expect(split.status).toBe(400);
    expect(split.body.code).toBe('DISCLOSED_CONTRACTS_SYNCHRONIZER_ID_MISMATCH');
    // Back on the first synchronizer, the fresh context works.
    expect(server.ledger.reassign(world.registry.accountMapInFlight, server.ledger.config.synchronizers[0].id, { submitter: admin }).ok).toBe(true);
    const again = await exerciseWith('AllocationInstruction_Accept', id, world.parties.carol, await contextFor(acceptPath(id)));
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(200);
  });

  it('answers 404 naming what is missing once the registry archives its rules or the account map', async () => {
    const admin = world.parties['registry-admin'];
    const id = await newInstruction(world.parties.alice);
    expect((await postJson(server, acceptPath(id), {})).status).toBe(200);
    await mustSubmit(server, [admin], [exercise(ACCOUNT_MAP_TEMPLATE, world.registry.accountMap, 'Archive', {})]);
    expectError(await postJson(server, acceptPath(id), {}), 404, `No active AccountMap of ${admin} lists ${world.parties.alice}.`);
    expect((await postJson(server, withdrawPath(id), {})).status).toBe(200);
    await mustSubmit(server, [admin], [exercise(TOKEN_RULES_TEMPLATE, world.registry.tokenRules, 'Archive', {})]);
    expectError(await postJson(server, withdrawPath(id), {}), 404, `No active TokenRules of ${admin} for instrument 'SAMPLE'.`);
    // New rules are picked up at once.
    const rules = await mustSubmit(server, [admin], [create(TOKEN_RULES_TEMPLATE, { admin, instrumentId: 'SAMPLE' })]);
    const ctx = await contextFor(withdrawPath(id));
    expect(ctx.choiceContextData.values['token-rules']).toEqual({ tag: 'AV_ContractId', value: rules.created[0]!.contractId });
  });
});
