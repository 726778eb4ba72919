import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type GuideSdk } from './guideSdk.js';
import { loopbackUrls, startTestLocalNet } from './support.js';

quietSdkLogs();

const sum = (amounts: string[]) => amounts.reduce((a, b) => a + Number(b), 0);
type TrafficStatus = { traffic_status: { actual: { total_consumed: number; total_limit: number }; target: { total_purchased: number } } };

/**
 * Script 07-buy-member-traffic: alice pays amulet for traffic of the participant's member on the
 * global synchronizer (`amulet.traffic.buy`, AmuletRules_BuyMemberTraffic), Scan's traffic status
 * (`amulet.traffic.status`) shows the purchase, then alice pays bob through his preapproval. The
 * price is Splice's default: 16.67 USD per MB at the open round's amulet price (0.005 USD here),
 * so 200,000 bytes cost 666.8 amulet.
 */
describe('wallet guide flows on serve --localnet: buying member traffic', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
  });
  afterAll(() => net.close());

  it('07: traffic bought with amulet shows in Scan\'s traffic status; a transfer through a preapproval follows', async () => {
    const [alice, bob] = await Promise.all([externalParty(sdk, 'guide-07-alice'), externalParty(sdk, 'guide-07-bob')]);
    await signAndRun(sdk, bob, await sdk.amulet.preapproval.command.create({ parties: { receiver: bob.partyId } }));
    await sdk.amulet.preapproval.fetchStatus(bob.partyId, { intervalMs: 100, timeoutMs: 5000 });
    const [tap, tapDisclosed] = await sdk.amulet.tap(alice.partyId, '2000000');
    await signAndRun(sdk, alice, tap, tapDisclosed);

    const before = (await sdk.amulet.traffic.status()) as TrafficStatus;
    const [buy, buyDisclosed] = await sdk.amulet.traffic.buy({ buyer: alice.partyId, ccAmount: 200000, inputUtxos: [] });
    await signAndRun(sdk, alice, buy, buyDisclosed);
    const after = (await sdk.amulet.traffic.status()) as TrafficStatus;
    expect(after.traffic_status.target.total_purchased - before.traffic_status.target.total_purchased).toBe(200000);
    expect(after.traffic_status.actual.total_limit).toBe(after.traffic_status.target.total_purchased);
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBeCloseTo(2000000 - 666.8, 6);

    const registryUrl = new URL(loopbackUrls(net).registry);
    const [transfer, disclosed] = await sdk.token.transfer.create({ sender: alice.partyId, recipient: bob.partyId, amount: '2000', instrumentId: 'Amulet', registryUrl });
    await signAndRun(sdk, alice, transfer, disclosed);
    expect(sum(await amuletAmounts(sdk, bob.partyId))).toBe(2000);
  }, 60_000);

  it('a purchase below the 200,000-byte minimum top-up, or with too little amulet, is refused and burns nothing', async () => {
    const carol = await externalParty(sdk, 'guide-07-carol');
    const [tap, tapDisclosed] = await sdk.amulet.tap(carol.partyId, '100');
    await signAndRun(sdk, carol, tap, tapDisclosed);
    const refused = async (ccAmount: number) => {
      const [buy, disclosed] = await sdk.amulet.traffic.buy({ buyer: carol.partyId, ccAmount, inputUtxos: [] }).catch(async () => {
        // The SDK picks inputs worth ccAmount amulet; with less, give it carol's one holding.
        const [utxo] = await sdk.token.utxos.list({ partyId: carol.partyId });
        return sdk.amulet.traffic.buy({ buyer: carol.partyId, ccAmount, inputUtxos: [utxo!.contractId] });
      });
      return signAndRun(sdk, carol, buy, disclosed).then(
        () => undefined,
        (e: unknown) => e as { cause?: string },
      );
    };
    expect((await refused(100))?.cause).toContain('below the minimum top-up of 200000 bytes');
    expect((await refused(200000))?.cause).toContain('Insufficient funds: the inputs hold 100.0000000000, the traffic purchase needs 666.8000000000');
    expect(sum(await amuletAmounts(sdk, carol.partyId))).toBe(100);
  }, 60_000);
});
