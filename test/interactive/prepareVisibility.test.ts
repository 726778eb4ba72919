/**
 * Prepare interprets with the contracts a submission may use, as submit does and as Canton's
 * participant does: those visible to actAs/readAs, the disclosed ones, and those the transaction
 * creates. A contract fetched inside a choice is not usable because one of the choice's
 * authorizers is its stakeholder: the participant looks contracts up as the submission's readers.
 * The case: the receiver of a pending Amulet transfer accepts it (TransferInstruction_Accept) with
 * the registry's accept context; the AmuletRules, the open round and the sender's locked amulet
 * are the registry's to disclose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_INSTRUCTION_V1_INTERFACE } from '../../reference-server/src/apps/tokenStandard/ids.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { closeAppServer, postJson, startWorldServer, type AppServer, type RegistryContext } from '../apps/support/appServer.js';
import { commandId, submit } from '../apps/support/jsonApi.js';

let server: AppServer;
let world: AppWorld;
let instruction: string;
let carol: string;
let context: RegistryContext;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
  instruction = world.amulet.transferToCarol;
  carol = world.parties.carol;
  const res = await postJson(server, `/registry/transfer-instruction/v1/${instruction}/choice-contexts/accept`, { excludeDebugFields: true });
  expect(res.status, res.text).toBe(200);
  context = res.body as RegistryContext;
});
afterAll(() => closeAppServer(server));

const accept = () => ({
  ExerciseCommand: {
    templateId: TRANSFER_INSTRUCTION_V1_INTERFACE,
    contractId: instruction,
    choice: 'TransferInstruction_Accept',
    choiceArgument: { extraArgs: { context: context.choiceContextData, meta: { values: {} } } },
  },
});

function prepare(extra: { disclosedContracts?: unknown[]; readAs?: string[] }) {
  const body = { commands: [accept()], commandId: commandId('prep'), userId: 'participant_admin', actAs: [carol], readAs: [], disclosedContracts: [], packageIdSelectionPreference: [], verboseHashing: false, ...extra };
  return server.http.post('/v2/interactive-submission/prepare').send(Buffer.from(JSON.stringify(body)));
}

describe("prepare uses only the contracts the submission may use (a transfer's accept by its receiver)", () => {
  it('without the registry\'s disclosed contracts, prepare is refused as submit is: CONTRACT_NOT_FOUND for a contract the receiver cannot see', async () => {
    const prepared = await prepare({});
    expect(prepared.status, prepared.text.slice(0, 400)).toBe(404);
    expect(prepared.body.code).toBe('CONTRACT_NOT_FOUND');
    const submitted = await submit(server, [carol], [accept()], { disclosedContracts: [] });
    expect(submitted.status, JSON.stringify(submitted.body).slice(0, 400)).toBe(404);
    expect(prepared.body.code).toBe(submitted.body.code);
    expect(prepared.body.cause).toBe(submitted.body.cause);
    // The contract refused is one the registry discloses (carol is no stakeholder of it).
    const missing = (prepared.body.context as Record<string, string>).contract_id;
    expect(context.disclosedContracts.map((d) => d.contractId)).toContain(missing);
  });

  it("with the registry's disclosed contracts, prepare succeeds", async () => {
    const prepared = await prepare({ disclosedContracts: context.disclosedContracts });
    expect(prepared.status, prepared.text.slice(0, 400)).toBe(200);
    expect(typeof prepared.body.preparedTransaction).toBe('string');
  });

  it('with the contracts visible to a readAs party instead (the DSO and the sender), prepare succeeds', async () => {
    const prepared = await prepare({ readAs: [world.parties.dso, world.parties.alice] });
    expect(prepared.status, prepared.text.slice(0, 400)).toBe(200);
  });

  it("and submit with the registry's disclosed contracts accepts the transfer", async () => {
    const submitted = await submit(server, [carol], [accept()], { disclosedContracts: context.disclosedContracts });
    expect(submitted.status, JSON.stringify(submitted.body).slice(0, 400)).toBe(200);
    expect(submitted.archived).toContain(instruction);
  });
});
