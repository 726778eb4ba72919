import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type ExternalParty, type GuideSdk } from './guideSdk.js';
import { loopbackUrls, startTestLocalNet } from './support.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';

quietSdkLogs();

const T = 60_000;
const sum = (amounts: string[]) => amounts.reduce((a, b) => a + Number(b), 0);

/**
 * The wallet integration guide's token flows (scripts 02-two-step-transfer, 05-preapproval,
 * 06-merge-utxos) with wallet-sdk 1.4.0 configured as the guide configures it, against
 * `serve --localnet`: the registry is reached under the validator's scan proxy.
 */
describe('wallet guide flows on serve --localnet: transfers, preapprovals, merging', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  let registryUrl: URL;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
    registryUrl = new URL(loopbackUrls(net).registry);
  });
  afterAll(() => net.close());

  const tap = async (party: ExternalParty, amount: string) => {
    const [command, disclosed] = await sdk.amulet.tap(party.partyId, amount);
    return signAndRun(sdk, party, command, disclosed);
  };
  const offer = async (sender: ExternalParty, receiver: ExternalParty, amount: string, expirationDate?: Date) => {
    const [command, disclosed] = await sdk.token.transfer.create({ sender: sender.partyId, recipient: receiver.partyId, instrumentId: 'Amulet', registryUrl, amount, ...(expirationDate === undefined ? {} : { expirationDate }) });
    await signAndRun(sdk, sender, command, disclosed);
    const pending = await sdk.token.transfer.pending(receiver.partyId);
    expect(pending).toHaveLength(1);
    return pending[0]!.contractId;
  };

  describe('02: two-step transfers', () => {
    let sender: ExternalParty;
    let receiver: ExternalParty;
    beforeAll(async () => {
      [sender, receiver] = await Promise.all([externalParty(sdk, 'guide-02-alice'), externalParty(sdk, 'guide-02-bob')]);
      await tap(sender, '10000');
      expect(await amuletAmounts(sdk, sender.partyId)).toEqual(['10000.0000000000']);
    }, T);

    it('accept: the receiver accepts through the registry context and holds the amount', async () => {
      const cid = await offer(sender, receiver, '2000');
      const [accept, disclosed] = await sdk.token.transfer.accept({ transferInstructionCid: cid, registryUrl });
      await signAndRun(sdk, receiver, accept, disclosed);
      expect(await amuletAmounts(sdk, receiver.partyId)).toEqual(['2000.0000000000']);
      expect(await sdk.token.transfer.pending(receiver.partyId)).toEqual([]);
      expect(sum(await amuletAmounts(sdk, sender.partyId))).toBe(8000);
    }, T);

    it('reject: nothing pending afterwards, the sender gets the amount back', async () => {
      const cid = await offer(sender, receiver, '2000');
      expect(sum(await amuletAmounts(sdk, sender.partyId))).toBe(6000); // the offered amount is locked meanwhile
      const [reject, disclosed] = await sdk.token.transfer.reject({ transferInstructionCid: cid, registryUrl });
      await signAndRun(sdk, receiver, reject, disclosed);
      expect(await sdk.token.transfer.pending(receiver.partyId)).toEqual([]);
      expect(sum(await amuletAmounts(sdk, sender.partyId))).toBe(8000);
      expect(await amuletAmounts(sdk, receiver.partyId)).toEqual(['2000.0000000000']);
    }, T);

    it('withdraw: the sender takes the offer back', async () => {
      const cid = await offer(sender, receiver, '2000');
      const [withdraw, disclosed] = await sdk.token.transfer.withdraw({ transferInstructionCid: cid, registryUrl });
      await signAndRun(sdk, sender, withdraw, disclosed);
      expect(await sdk.token.transfer.pending(receiver.partyId)).toEqual([]);
      expect(sum(await amuletAmounts(sdk, sender.partyId))).toBe(8000);
    }, T);

    it('expire: accepting after the expiration date fails with a FAILED_PRECONDITION (category 9) error', async () => {
      // LocalNet runs on the system clock: the offer must be made before its expiry however busy the
      // machine (5 s), and accepted after it (waiting for the clock to pass it, not a fixed sleep).
      const expiresAt = Date.now() + 5000;
      const cid = await offer(sender, receiver, '2000', new Date(expiresAt));
      const [accept, disclosed] = await sdk.token.transfer.accept({ transferInstructionCid: cid, registryUrl });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt + 100 - Date.now())));
      const refused = await signAndRun(sdk, receiver, accept, disclosed).then(
        () => undefined,
        (e: unknown) => e as { errorCategory?: number; code?: string },
      );
      expect(refused?.errorCategory).toBe(9);
      expect(await amuletAmounts(sdk, receiver.partyId)).toEqual(['2000.0000000000']);
    }, T);
  });

  it('05: a preapproval proposal the validator accepts; a transfer completes at once; renew; cancel', async () => {
    await sdk.amulet.tapInternal('1000');
    const [alice, bob] = await Promise.all([externalParty(sdk, 'guide-05-alice'), externalParty(sdk, 'guide-05-bob')]);
    await tap(alice, '10000');
    expect(await sdk.amulet.preapproval.fetchQuick(bob.partyId)).toBeNull();

    const proposal = await sdk.amulet.preapproval.command.create({ parties: { receiver: bob.partyId } });
    await signAndRun(sdk, bob, proposal);
    const quick = (await sdk.amulet.preapproval.fetchQuick(bob.partyId)) as { contract: { payload: { provider: string; receiver: string } } } | null;
    expect(quick?.contract.payload).toMatchObject({ provider: net.validatorParty, receiver: bob.partyId });
    const status = await sdk.amulet.preapproval.fetchStatus(bob.partyId, { intervalMs: 100, timeoutMs: 5000 });

    const [transfer, disclosed] = await sdk.token.transfer.create({ sender: alice.partyId, recipient: bob.partyId, amount: '2000', instrumentId: 'Amulet', registryUrl });
    await signAndRun(sdk, alice, transfer, disclosed);
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBe(8000);
    expect(sum(await amuletAmounts(sdk, bob.partyId))).toBe(2000);
    expect(await sdk.token.transfer.pending(bob.partyId)).toEqual([]);

    const later = new Date(status!.expiresAt);
    later.setDate(later.getDate() + 2);
    await sdk.amulet.preapproval.renew({ parties: { receiver: bob.partyId }, expiresAt: later });
    const renewed = await sdk.amulet.preapproval.fetchStatus(bob.partyId, { oldCid: status!.contractId, intervalMs: 100, timeoutMs: 5000 });
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(status!.expiresAt.getTime());

    const [cancel, cancelDisclosed] = await sdk.amulet.preapproval.command.cancel({ parties: { receiver: bob.partyId } });
    expect(cancel).not.toBeNull();
    await signAndRun(sdk, bob, cancel, cancelDisclosed);
    expect(await sdk.amulet.preapproval.fetchStatus(bob.partyId, { cancelled: true, intervalMs: 100, timeoutMs: 5000 })).toBeNull();
  }, T);

  it('06: fifteen concurrent taps, then utxos.merge leaves one holding with the sum', async () => {
    const alice = await externalParty(sdk, 'guide-06-alice');
    await Promise.all(Array.from({ length: 15 }, () => tap(alice, '2000000')));
    expect(await amuletAmounts(sdk, alice.partyId)).toHaveLength(15);
    const [commands, disclosed] = await sdk.token.utxos.merge({ partyId: alice.partyId });
    await Promise.all(commands.map((command) => signAndRun(sdk, alice, command, disclosed)));
    expect(await amuletAmounts(sdk, alice.partyId)).toEqual(['30000000.0000000000']);
  }, T);
});
