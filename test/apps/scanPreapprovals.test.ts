import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_PREAPPROVAL_TEMPLATE } from '../../reference-server/src/apps/index.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { expectError, getJson, preapprovalPath, startWorldServer, type AppServer } from './support/appServer.js';
import { allocateParty, create, exercise, mustSubmit, submit } from './support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
});
afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

interface Answer {
  transfer_preapproval: { contract: { template_id: string; contract_id: string; payload: Record<string, string>; created_event_blob: string; created_at: string }; domain_id?: string };
}
const lookup = async (party: string) => (await getJson(server, preapprovalPath(party))).body as Answer;

describe('GET /v0/transfer-preapprovals/by-party/{party}', () => {
  it("answers a party's preapproval as Scan's ContractWithState", async () => {
    const res = await getJson(server, preapprovalPath(world.parties.alice));
    expect(res.status).toBe(200);
    const { contract, domain_id } = (res.body as Answer).transfer_preapproval;
    expect(contract.contract_id).toBe(world.preapprovals.alice);
    expect(contract.template_id).toMatch(/^[0-9a-f]{64}:Splice\.AmuletRules:TransferPreapproval$/);
    expect(contract.payload).toEqual({
      dso: world.parties.dso,
      receiver: world.parties.alice,
      provider: world.parties.alice,
      validFrom: '2024-10-01T00:00:00Z',
      lastRenewedAt: '2024-10-01T00:00:00Z',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    expect(contract.created_at).toBe('2025-01-01T00:00:00.000000Z');
    expect(contract.created_event_blob).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(domain_id).toBe(server.ledger.config.synchronizers[0].id);
  });

  it('answers the newest validFrom when a party has several', async () => {
    expect((await lookup(world.parties.bob)).transfer_preapproval.contract.contract_id).toBe(world.preapprovals.bobNewer);
  });

  it('still answers a preapproval that expired but was not archived', async () => {
    const c = (await lookup(world.parties.carol)).transfer_preapproval.contract;
    expect(c.contract_id).toBe(world.preapprovals.carolExpired);
    expect(c.payload.expiresAt).toBe('2024-07-01T00:00:00Z');
  });

  it('answers 404 for a party whose preapproval was archived, and for a party that never had one', async () => {
    for (const party of [world.parties.dave, world.parties.erin, `nobody::1220${'ab'.repeat(32)}`]) {
      expectError(await getJson(server, preapprovalPath(party)), 404, `No TransferPreapproval found for party: ${party}`);
    }
  });

  it('answers 400 for a malformed party id, saying why', async () => {
    expectError(await getJson(server, preapprovalPath('alice')), 400, "Invalid party id 'alice': missing '::' separator");
    expectError(await getJson(server, preapprovalPath('alice::1220abc')), 400, /namespace after '::' must be '1220' followed by 64 lowercase hex digits/);
    expectError(await getJson(server, preapprovalPath(`al ice::1220${'ab'.repeat(32)}`)), 400, /part before '::'/);
    expectError(await getJson(server, preapprovalPath(`::1220${'ab'.repeat(32)}`)), 400, /part before '::'/);
  });

  it('takes the party percent-encoded or plain, and under the /api/scan prefix', async () => {
    const alice = world.parties.alice;
    const encoded = await getJson(server, `/v0/transfer-preapprovals/by-party/${encodeURIComponent(alice)}`);
    const plain = await getJson(server, `/v0/transfer-preapprovals/by-party/${alice}`);
    const mixed = await getJson(server, `/v0/transfer-preapprovals/by-party/${alice.replace('::', '%3a%3A')}`);
    const prefixed = await getJson(server, `/api/scan/v0/transfer-preapprovals/by-party/${encodeURIComponent(alice)}`);
    expect(encoded.status).toBe(200);
    for (const r of [plain, mixed, prefixed]) expect(r.text).toBe(encoded.text);
  });
});

describe('the lookup follows the ledger (changes through the JSON API)', () => {
  let receiver: string;
  let provider: string;
  const dso = () => world.parties.dso;
  const preapproval = (validFrom: string, expiresAt: string) =>
    create(TRANSFER_PREAPPROVAL_TEMPLATE, { dso: dso(), receiver, provider, validFrom, lastRenewedAt: validFrom, expiresAt });

  beforeAll(async () => {
    receiver = await allocateParty(server, 'receiver');
    provider = await allocateParty(server, 'provider');
  });

  it('sees a created preapproval at once', async () => {
    expectError(await getJson(server, preapprovalPath(receiver)), 404, /No TransferPreapproval/);
    const created = await mustSubmit(server, [dso(), receiver, provider], [preapproval('2025-03-01T00:00:00Z', '2026-06-01T00:00:00Z')]);
    expect((await lookup(receiver)).transfer_preapproval.contract.contract_id).toBe(created.created[0]?.contractId);
  });

  it('prefers a newer validFrom created later, and falls back when it goes', async () => {
    const before = (await lookup(receiver)).transfer_preapproval.contract.contract_id;
    const newer = (await mustSubmit(server, [dso(), receiver, provider], [preapproval('2025-09-01T00:00:00.000001Z', '2026-06-01T00:00:00Z')])).created[0]!.contractId;
    expect((await lookup(receiver)).transfer_preapproval.contract.contract_id).toBe(newer);
    // An older validFrom created now does not win.
    await mustSubmit(server, [dso(), receiver, provider], [preapproval('2024-01-01T00:00:00Z', '2026-06-01T00:00:00Z')]);
    expect((await lookup(receiver)).transfer_preapproval.contract.contract_id).toBe(newer);
    await mustSubmit(server, [receiver], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, newer, 'TransferPreapproval_Cancel', { p: receiver })]);
    expect((await lookup(receiver)).transfer_preapproval.contract.contract_id).toBe(before);
  });

  it('answers the renewed contract after a renewal: validFrom kept, lastRenewedAt = old expiry', async () => {
    const current = (await lookup(receiver)).transfer_preapproval.contract;
    const renewed = await mustSubmit(server, [provider], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, current.contract_id, 'TransferPreapproval_Renew', { newExpiresAt: '2027-01-01T00:00:00Z' })]);
    const after = (await lookup(receiver)).transfer_preapproval.contract;
    expect(after.contract_id).toBe(renewed.created[0]?.contractId);
    expect(after.contract_id).not.toBe(current.contract_id);
    expect(after.payload).toMatchObject({ validFrom: current.payload.validFrom, lastRenewedAt: current.payload.expiresAt, expiresAt: '2027-01-01T00:00:00Z' });
  });

  it('refuses a renewal to an earlier expiry, by anyone but the provider, or after expiry', async () => {
    const current = (await lookup(receiver)).transfer_preapproval.contract.contract_id;
    const earlier = await submit(server, [provider], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, current, 'TransferPreapproval_Renew', { newExpiresAt: '2026-02-01T00:00:00Z' })]);
    expect(earlier.status).toBe(400);
    expect(String(earlier.body.cause)).toMatch(/must be after expiresAt/);
    const byReceiver = await submit(server, [receiver], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, current, 'TransferPreapproval_Renew', { newExpiresAt: '2028-01-01T00:00:00Z' })]);
    expect(byReceiver.body.code).toBe('DAML_AUTHORIZATION_ERROR');
    const expired = await submit(server, [world.parties['wallet-provider']], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, world.preapprovals.carolExpired, 'TransferPreapproval_Renew', { newExpiresAt: '2030-01-01T00:00:00Z' })]);
    expect(expired.status).toBe(400);
    expect(String(expired.body.cause)).toMatch(/has passed/);
  });

  it('refuses a preapproval whose expiry is not after validFrom (ensure)', async () => {
    const bad = await submit(server, [dso(), receiver, provider], [preapproval('2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z')]);
    expect(bad.status).toBe(400);
    expect(String(bad.body.cause)).toMatch(/expiresAt must be after validFrom/);
  });

  it('lets the dso expire an expired one (and only then), after which the party has none', async () => {
    const carol = world.parties.carol;
    const early = await submit(server, [dso()], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, world.preapprovals.alice, 'TransferPreapproval_Expire', {})]);
    expect(early.status).toBe(400);
    expect(String(early.body.cause)).toMatch(/has not passed yet/);
    await mustSubmit(server, [dso()], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, world.preapprovals.carolExpired, 'TransferPreapproval_Expire', {})]);
    expectError(await getJson(server, preapprovalPath(carol)), 404, `No TransferPreapproval found for party: ${carol}`);
  });

  it('omits domain_id while the preapproval is being reassigned, and names the new synchronizer after', async () => {
    const id = (await lookup(receiver)).transfer_preapproval.contract.contract_id;
    const target = server.ledger.config.synchronizers[1]!.id;
    const moving = server.ledger.unassign(id, target, { submitter: receiver });
    expect(moving.ok).toBe(true);
    const during = await lookup(receiver);
    expect(during.transfer_preapproval.contract.contract_id).toBe(id);
    expect(during.transfer_preapproval).not.toHaveProperty('domain_id');
    if (moving.ok) server.ledger.assign(moving.value.reassignmentId, { submitter: receiver });
    expect((await lookup(receiver)).transfer_preapproval.domain_id).toBe(target);
  });
});
