/**
 * wallet-sdk, unchanged, prepares, signs and executes commands on an uploaded DAR
 * (splice-token-test-dummy-holding) for an external party on `serve --localnet`: a create, then an
 * exercise of the contract it made, each hashed again by the SDK itself before it signs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { externalParty, guideSdk, type ExternalParty, type GuideSdk } from '../localnet/guideSdk.js';
import { localNetToken, loopbackUrls, startTestLocalNet } from '../localnet/support.js';

quietSdkLogs();

const T = 60_000;
const DUMMY = '#splice-token-test-dummy-holding:Splice.Api.Token.Test.DummyHolding:DummyHolding';

interface Event { CreatedEvent?: { contractId: string; createArgument: Record<string, unknown> }; ArchivedEvent?: { contractId: string } }

describe.runIf(HAS_DARS)('wallet-sdk: interactive submission of an uploaded DAR on serve --localnet (needs ../shared/upstream/daml/dars)', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  let owner: ExternalParty;
  let ledgerUrl: string;
  let token: string;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
    ledgerUrl = loopbackUrls(net).ledger;
    token = await localNetToken();
    const dar = readFileSync(join(DARS_DIR, 'splice/splice-token-test-dummy-holding-0.0.4.dar'));
    // Vetted on the global synchronizer, where the SDK's parties live (LocalNet connects two).
    const synchronizerId = net.ledger.config.synchronizers[0]!.id;
    const uploaded = await fetch(`${ledgerUrl}/v2/dars?synchronizerId=${encodeURIComponent(synchronizerId)}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: dar });
    expect(uploaded.status, await uploaded.text()).toBe(200);
    owner = await externalParty(sdk, 'dummy-owner');
  }, T);
  afterAll(() => net.close());

  /** Prepare with the SDK, check its own hash of the bytes, sign, execute and wait. */
  async function run(commands: unknown[]) {
    const signed = sdk.ledger.prepare({ partyId: owner.partyId, commands: commands as never, disclosedContracts: [] }).sign(owner.keys.privateKey);
    const prepared = await signed.response();
    expect((await sdk.utils.hash.preparedTransaction(prepared.preparedTransaction)).toBase64()).toBe(prepared.preparedTransactionHash);
    return signed.execute({ partyId: owner.partyId });
  }

  async function events(updateId: string): Promise<Event[]> {
    const res = await fetch(`${ledgerUrl}/v2/updates/transaction-by-id`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ updateId, transactionFormat: { eventFormat: { filtersByParty: { [owner.partyId]: {} }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { transaction: { events: Event[] } }).transaction.events;
  }

  it('creates and then archives a holding of the uploaded template', async () => {
    const created = await run([{ CreateCommand: { templateId: DUMMY, createArguments: { owner: owner.partyId, issuer: owner.partyId, amount: '12.5' } } }]);
    const [event] = await events(created.updateId);
    expect(event?.CreatedEvent?.createArgument).toEqual({ owner: owner.partyId, issuer: owner.partyId, amount: '12.5000000000' });
    const contractId = event!.CreatedEvent!.contractId;

    const archived = await run([{ ExerciseCommand: { templateId: DUMMY, contractId, choice: 'Archive', choiceArgument: {} } }]);
    expect(archived.completionOffset).toBeGreaterThan(created.completionOffset);
    expect(await events(archived.updateId)).toEqual([expect.objectContaining({ ArchivedEvent: expect.objectContaining({ contractId }) })]);
  }, T);
});
