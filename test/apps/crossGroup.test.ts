import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { acceptPath, getJson, postJson, preapprovalPath, startWorldServer, type AppServer } from './support/appServer.js';
import { activeContract } from './support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
});
afterAll(async () => {
  expect(server.errors).toEqual([]);
  await server.close();
});

describe('the registry and Scan agree with the JSON API about the same contracts', () => {
  it("the registry's disclosed contracts are the JSON API's: id, template id, payload, blob, synchronizer, creation time", async () => {
    const res = await postJson(server, acceptPath(world.registry.instructions.bobActive), {});
    expect(res.status).toBe(200);
    const disclosed = res.body.disclosedContracts as Record<string, unknown>[];
    expect(disclosed).toHaveLength(2);
    for (const d of disclosed) {
      const seen = await activeContract(server, world.parties['registry-admin'], d.contractId as string);
      expect(d).toEqual({
        templateId: seen.createdEvent.templateId,
        contractId: seen.createdEvent.contractId,
        createdEventBlob: seen.createdEvent.createdEventBlob,
        synchronizerId: seen.synchronizerId,
        debugPackageName: seen.createdEvent.packageName,
        debugPayload: seen.createdEvent.createArgument,
        debugCreatedAt: seen.createdEvent.createdAt,
      });
    }
  });

  it("Scan's preapproval is the JSON API's: id, template id, payload, blob, synchronizer, creation time", async () => {
    for (const party of [world.parties.alice, world.parties.bob, world.parties.carol]) {
      const res = await getJson(server, preapprovalPath(party));
      expect(res.status).toBe(200);
      const { contract, domain_id } = res.body.transfer_preapproval;
      const seen = await activeContract(server, party, contract.contract_id);
      expect({ ...contract, domain_id }).toEqual({
        template_id: seen.createdEvent.templateId,
        contract_id: seen.createdEvent.contractId,
        payload: seen.createdEvent.createArgument,
        created_event_blob: seen.createdEvent.createdEventBlob,
        created_at: seen.createdEvent.createdAt,
        domain_id: seen.synchronizerId,
      });
    }
  });

  it('the blob the registry hands out is the one a ledger accepts back: equal to the stakeholder-visible blob byte for byte', async () => {
    const res = await postJson(server, acceptPath(world.registry.instructions.aliceActive), { excludeDebugFields: true });
    const rules = (res.body.disclosedContracts as { contractId: string; createdEventBlob: string }[])[0]!;
    expect(server.ledger.createdEventBlob(rules.contractId)).toBe(rules.createdEventBlob);
  });
});
