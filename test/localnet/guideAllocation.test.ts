import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type ExternalParty, type GuideSdk } from './guideSdk.js';
import { loopbackUrls, startTestLocalNet } from './support.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';

quietSdkLogs();

const TRADE = '#canton-conformance-sample-trading:Sample.Trading:TradeAllocationRequest';
const sum = (amounts: string[]) => amounts.reduce((a, b) => a + Number(b), 0);

/**
 * Script 04-token-standard-allocation's flow as far as our model allows. The script's venue is a
 * Daml app uploaded as a DAR (splice-token-test-trading-app), stored here but not run, so the
 * venue's request is the sample trading venue's AllocationRequest; then as in the script each
 * sender finds the request (`allocation.request.pending`) and allocates its leg through the
 * registry's factory (`allocation.instruction.create`), and the venue sees both allocations
 * (`allocation.pending`). Settling needs the trade app's contract, which holds the senders' and
 * receivers' authority: `Allocation_ExecuteTransfer` wants executor, sender and receiver, so the
 * venue alone is refused (as it would be on LocalNet); a sender can withdraw its allocation.
 */
describe('wallet guide flows on serve --localnet: a token-standard allocation settled by a venue', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
  });
  afterAll(() => net.close());

  it('04: request, allocate each leg; the venue alone may not execute; a sender withdraws', async () => {
    const [alice, bob, venue] = (await Promise.all(['guide-04-alice', 'guide-04-bob', 'guide-04-venue'].map((h) => externalParty(sdk, h)))) as [ExternalParty, ExternalParty, ExternalParty];
    const registryUrl = new URL(loopbackUrls(net).registry);
    const amulet = await sdk.asset.find('Amulet', registryUrl);
    for (const p of [alice, bob]) {
      const [tap, disclosed] = await sdk.amulet.tap(p.partyId, '1000');
      await signAndRun(sdk, p, tap, disclosed);
    }
    const instrumentId = { admin: amulet.admin, id: 'Amulet' };
    const far = new Date(Date.now() + 3_600_000).toISOString();
    const leg = (sender: string, receiver: string, amount: string) => ({ sender, receiver, amount, instrumentId, meta: { values: {} } });
    const settlement = { executor: venue.partyId, settlementRef: { id: 'guide-04', cid: null }, requestedAt: new Date().toISOString(), allocateBefore: far, settleBefore: far, meta: { values: {} } };
    await signAndRun(sdk, venue, [{ CreateCommand: { templateId: TRADE, createArguments: { venue: venue.partyId, settlement, transferLegs: { leg0: leg(alice.partyId, bob.partyId, '100'), leg1: leg(bob.partyId, alice.partyId, '20') }, meta: { values: {} } } } }]);

    for (const p of [alice, bob]) {
      const [request] = await sdk.token.allocation.request.pending(p.partyId);
      expect(request).toBeDefined();
      const view = request!.interfaceViewValue;
      const legId = Object.keys(view.transferLegs).find((k) => view.transferLegs[k]!.sender === p.partyId)!;
      const [allocate, disclosed] = await sdk.token.allocation.instruction.create({ allocationSpecification: { settlement: view.settlement, transferLegId: legId, transferLeg: view.transferLegs[legId]! }, asset: amulet });
      await signAndRun(sdk, p, allocate, disclosed);
    }
    const allocations = (await sdk.token.allocation.pending(venue.partyId)).filter((a) => a.interfaceViewValue.allocation.settlement.settlementRef.id === 'guide-04');
    expect(allocations.map((a) => a.interfaceViewValue.allocation.transferLegId).sort()).toEqual(['leg0', 'leg1']);
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBe(900); // 100 locked in the allocation

    const aliceLeg = allocations.find((a) => a.interfaceViewValue.allocation.transferLegId === 'leg0')!;
    const [execute, executeDisclosed] = await sdk.token.allocation.execute({ allocationCid: aliceLeg.contractId, asset: amulet });
    const refused = await signAndRun(sdk, venue, execute, executeDisclosed).then(
      () => undefined,
      (e: unknown) => e as { code?: string; context?: { required_authorizers?: string } },
    );
    expect(refused?.code).toBe('DAML_AUTHORIZATION_ERROR');
    expect(refused?.context?.required_authorizers?.split(',').sort()).toEqual([alice.partyId, bob.partyId, venue.partyId].sort());

    const [withdraw, withdrawDisclosed] = await sdk.token.allocation.withdraw({ allocationCid: aliceLeg.contractId, asset: amulet });
    await signAndRun(sdk, alice, withdraw, withdrawDisclosed);
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBe(1000);
    expect((await sdk.token.allocation.pending(venue.partyId)).map((a) => a.interfaceViewValue.allocation.transferLegId)).toEqual(['leg1']);
  }, 60_000);
});
