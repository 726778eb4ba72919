import { randomUUID } from 'node:crypto';
import { SDK, signTransactionHash } from '@canton-network/wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type GuideSdk } from './guideSdk.js';
import { startTestLocalNet } from './support.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';

quietSdkLogs();

const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';
const T = 60_000;

/**
 * The wallet integration guide's first flows (scripts 01-init, 03-parties, 11-hashing,
 * 14-offline-signing), performed with wallet-sdk 1.4.0 configured as the guide configures it,
 * against `serve --localnet`.
 */
describe('wallet guide flows on serve --localnet: onboarding, ping, tap, hashing, offline signing', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
  });
  afterAll(() => net.close());

  it('01: external parties (signed by the SDK, and from an externally signed multiHash), ping online and offline, tap, utxos, a Mint in transactionsById', async () => {
    const sender = await externalParty(sdk, 'guide-01-alice');
    expect(sender.publicKeyFingerprint).toBe(await sdk.keys.fingerprint(sender.keys.publicKey));

    const receiverKeys = sdk.keys.generate();
    const creation = sdk.party.external.create(receiverKeys.publicKey, { partyHint: 'guide-01-bob' });
    const unsigned = await creation.topology();
    const receiver = await creation.execute(signTransactionHash(unsigned.multiHash, receiverKeys.privateKey));
    expect((await sdk.party.list()) as string[]).toEqual(expect.arrayContaining([sender.partyId, receiver.partyId]));

    const ping = [{ CreateCommand: { templateId: PING, createArguments: { id: randomUUID(), initiator: sender.partyId, responder: sender.partyId } } }];
    const online = await signAndRun(sdk, sender, ping);
    expect(online.updateId).toEqual(expect.any(String));

    const { response } = await sdk.ledger.prepare({ partyId: sender.partyId, commands: ping as never, disclosedContracts: [] }).toJSON();
    const signed = sdk.ledger.fromSignature(response, signTransactionHash(response.preparedTransactionHash, sender.keys.privateKey));
    const offline = await sdk.ledger.execute(signed, { partyId: sender.partyId });
    expect(offline.updateId).not.toBe(online.updateId);
    // The published .d.ts hides BaseReader's methods from NodeNext.
    const reader = sdk.ledger.acsReader as unknown as { readJsContracts(o: object): Promise<unknown[]> };
    expect(await reader.readJsContracts({ templateIds: [PING], parties: [sender.partyId], filterByParty: true })).toHaveLength(2);

    const [tap, disclosed] = await sdk.amulet.tap(sender.partyId, '10000');
    const tapped = await signAndRun(sdk, sender, tap, disclosed);
    expect(await amuletAmounts(sdk, sender.partyId)).toEqual(['10000.0000000000']);
    const tx = await sdk.token.transactionsById({ updateId: tapped.updateId, partyId: sender.partyId });
    const mint = tx.events.find((e) => e.label.type === 'Mint' && e.unlockedHoldingsChange.creates.some((h) => h.amount === '10000.0000000000'));
    expect(mint).toBeDefined();
  }, T);

  it('03: parties allocated concurrently are listed; the validator self-grants a featured app right; a ping via utils.ping', async () => {
    const parties = await Promise.all(['guide-03-alice', 'guide-03-bob'].map((hint) => externalParty(sdk, hint)));
    expect((await sdk.party.list()) as string[]).toEqual(expect.arrayContaining(parties.map((p) => p.partyId)));

    // The SDK first looks for an existing right (20 tries, a second apart), then grants one.
    const rights = (await sdk.amulet.featuredApp.grant()) as { payload: { provider: string } } | undefined;
    expect(rights?.payload.provider).toBe(net.validatorParty);
    // Asked again, the right is found, not granted twice.
    expect(await sdk.amulet.featuredApp.grant()).toEqual(rights);

    const [alice] = parties as [(typeof parties)[0]];
    const result = await signAndRun(sdk, alice, sdk.utils.ping.create([{ initiator: alice.partyId, responder: alice.partyId }]));
    expect(result.updateId).toEqual(expect.any(String));
  }, T);

  it('11: the SDK recomputes the prepared transaction hash of a tap', async () => {
    const sender = await externalParty(sdk, 'guide-11-alice');
    const [tap, disclosed] = await sdk.amulet.tap(sender.partyId, '10000');
    const prepared = sdk.ledger.prepare({ partyId: sender.partyId, commands: tap as never, disclosedContracts: disclosed as never });
    const { response } = await prepared.toJSON();
    await prepared.sign(sender.keys.privateKey).execute({ partyId: sender.partyId });
    const hash = await sdk.utils.hash.preparedTransacation(response.preparedTransaction as string);
    expect(hash.toBase64()).toBe(response.preparedTransactionHash);
  }, T);

  it('14: offline signing end to end: topology multiHash recomputed offline, tap, transfer and accept each hashed and signed offline', async () => {
    const offlineSdk = SDK.createOffline();
    const onboard = async (hint: string) => {
      const keys = offlineSdk.keys.generate();
      const prepared = sdk.party.external.create(keys.publicKey, { partyHint: hint });
      const topology = await prepared.topology();
      expect(await offlineSdk.utils.hash.topologyTransaction(topology.topologyTransactions as string[])).toBe(topology.multiHash);
      return { ...(await prepared.execute(signTransactionHash(topology.multiHash, keys.privateKey))), keys };
    };
    const sender = await onboard('guide-14-alice');
    const receiver = await onboard('guide-14-bob');
    const offlineRun = async (party: typeof sender, commands: unknown, disclosed: unknown) => {
      const { response } = await sdk.ledger.prepare({ partyId: party.partyId, commands: commands as never, disclosedContracts: disclosed as never }).toJSON();
      expect((await offlineSdk.utils.hash.preparedTransacation(response.preparedTransaction as string)).toBase64()).toBe(response.preparedTransactionHash);
      const signed = sdk.ledger.fromSignature(response, signTransactionHash(response.preparedTransactionHash, party.keys.privateKey));
      return sdk.ledger.execute(signed, { partyId: party.partyId });
    };
    const [tap, tapDisclosed] = await sdk.amulet.tap(sender.partyId, '10000');
    await offlineRun(sender, tap, tapDisclosed);
    const registryUrl = new URL(`http://127.0.0.1:${net.ports.validator}/api/validator/v0/scan-proxy`);
    const [transfer, transferDisclosed] = await sdk.token.transfer.create({ sender: sender.partyId, recipient: receiver.partyId, instrumentId: 'Amulet', registryUrl, amount: '100' });
    await offlineRun(sender, transfer, transferDisclosed);
    const pending = await sdk.token.transfer.pending(receiver.partyId);
    expect(pending).toHaveLength(1);
    const [accept, acceptDisclosed] = await sdk.token.transfer.accept({ transferInstructionCid: pending[0]!.contractId, registryUrl });
    await offlineRun(receiver, accept, acceptDisclosed);
    expect(await amuletAmounts(sdk, receiver.partyId)).toEqual(['100.0000000000']);
    expect(await sdk.token.transfer.pending(receiver.partyId)).toEqual([]);
  }, T);
});
