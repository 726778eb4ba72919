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
 * price is Splice's default: 16.67 USD per MB at the open round's amulet price (0.005 USD on the
 * ports, so 200,000 bytes cost 666.8 amulet; 1.0 USD on Splice's own DARs, 3.334 amulet).
 */
describe('wallet guide flows on serve --localnet: buying member traffic', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
  });
  afterAll(() => net.close());

  /** What `bytes` of traffic cost in amulet at the price of the round open now, as Scan shows it. */
  const trafficCost = async (bytes: number) => {
    const response = await fetch(`${loopbackUrls(net).scan}/v0/open-and-issuing-mining-rounds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] }),
    });
    type Round = { contract: { payload: { amuletPrice: string; opensAt: string; round: { number: string } } } };
    const rounds = Object.values(((await response.json()) as { open_mining_rounds: Record<string, Round> }).open_mining_rounds).map((r) => r.contract.payload);
    const open = rounds.filter((r) => Date.parse(r.opensAt) <= Date.now()).sort((a, b) => Number(a.round.number) - Number(b.round.number)).at(-1)!;
    return ((bytes / 1_000_000) * 16.67) / Number(open.amuletPrice);
  };

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
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBeCloseTo(2000000 - (await trafficCost(200000)), 6);

    const registryUrl = new URL(loopbackUrls(net).registry);
    const [transfer, disclosed] = await sdk.token.transfer.create({ sender: alice.partyId, recipient: bob.partyId, amount: '2000', instrumentId: 'Amulet', registryUrl });
    await signAndRun(sdk, alice, transfer, disclosed);
    expect(sum(await amuletAmounts(sdk, bob.partyId))).toBe(2000);
  }, 60_000);

  it('a purchase below the 200,000-byte minimum top-up, or with too little amulet, is refused and burns nothing', async () => {
    const carol = await externalParty(sdk, 'guide-07-carol');
    // Half what the minimum top-up costs.
    const held = (await trafficCost(200000)) / 2;
    const [tap, tapDisclosed] = await sdk.amulet.tap(carol.partyId, held.toFixed(10));
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
    // Splice's AmuletRules refuses both with its InvalidTransfer exception.
    expect((await refused(100))?.cause).toMatch(/ITR_InsufficientTopupAmount.*\{ requestedTopupAmount = 100, minTopupAmount = 200000 \}/);
    expect((await refused(200000))?.cause).toMatch(/ITR_InsufficientFunds.*\{ missingAmount = \d+\.\d{10} \}/);
    expect(sum(await amuletAmounts(sdk, carol.partyId))).toBeCloseTo(held, 9);
  }, 60_000);
});
