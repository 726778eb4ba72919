import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type ExternalParty, type GuideSdk } from './guideSdk.js';
import { loopbackUrls, startTestLocalNet } from './support.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';

quietSdkLogs();

const TRADE = '#canton-conformance-sample-trading:Sample.Trading:TradeAllocationRequest';
const sum = (amounts: string[]) => amounts.reduce((a, b) => a + Number(b), 0);

/**
 * Script 04-token-standard-allocation: an OTC trade through Splice's test trading app
 * (splice-token-test-trading-app, built in under LocalNet's package id, so the script's upload is
 * skipped as already vetted). Alice proposes, Bob accepts, the venue initiates settlement; each
 * sender finds the trade as an AllocationRequest (`allocation.request.pending`) and allocates its
 * leg through the registry (`allocation.instruction.create`); the venue settles with each
 * allocation's execute context and the holdings move. Beside it, with a venue request that holds
 * no trading party's authority, the venue alone may not execute an allocation
 * (`Allocation_ExecuteTransfer` wants executor, sender and receiver), and a sender can withdraw.
 */
const OTC_PROPOSAL = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp:OTCTradeProposal';
const OTC_TRADE = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp:OTCTrade';
/** `acsReader.readJsContracts`, which the guide's script calls; 1.4.0's typings leave it out. */
const readJsContracts = (sdk: GuideSdk, templateId: string, party: ExternalParty) =>
  (sdk.ledger.acsReader as unknown as { readJsContracts(o: object): Promise<{ contractId: string }[]> }).readJsContracts({ templateIds: [templateId], parties: [party.partyId], filterByParty: true });

describe('wallet guide flows on serve --localnet: a token-standard allocation settled by a venue', () => {
  let net: LocalNet;
  let sdk: GuideSdk;
  beforeAll(async () => {
    net = await startTestLocalNet();
    sdk = await guideSdk(net);
  });
  afterAll(() => net.close());

  /** Two traders with 1000 Amulet each and a venue, as the script sets them up. */
  async function traders(prefix: string) {
    const [alice, bob, venue] = (await Promise.all([`${prefix}-alice`, `${prefix}-bob`, `${prefix}-venue`].map((h) => externalParty(sdk, h)))) as [ExternalParty, ExternalParty, ExternalParty];
    const registryUrl = new URL(loopbackUrls(net).registry);
    const amulet = await sdk.asset.find('Amulet', registryUrl);
    for (const p of [alice, bob]) {
      const [tap, disclosed] = await sdk.amulet.tap(p.partyId, '1000');
      await signAndRun(sdk, p, tap, disclosed);
    }
    return { alice, bob, venue, registryUrl, amulet, instrumentId: { admin: amulet.admin, id: 'Amulet' } };
  }

  it('04: propose, accept, initiate settlement, allocate each leg, settle: the holdings move', async () => {
    const { alice, bob, venue, registryUrl, amulet, instrumentId } = await traders('otc');
    const leg = (sender: string, receiver: string, amount: string) => ({ sender, receiver, amount, instrumentId, meta: { values: {} } });
    const transferLegs = { leg0: leg(alice.partyId, bob.partyId, '100'), leg1: leg(bob.partyId, alice.partyId, '20') };
    await signAndRun(sdk, alice, { CreateCommand: { templateId: OTC_PROPOSAL, createArguments: { venue: venue.partyId, tradeCid: null, transferLegs, approvers: [alice.partyId] } } });

    const proposalOf = async (p: ExternalParty) => (await readJsContracts(sdk, OTC_PROPOSAL, p))[0]!.contractId;
    const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: unknown) => [{ ExerciseCommand: { templateId, contractId, choice, choiceArgument } }];
    // The venue may not initiate before every trading party approved.
    const early = await signAndRun(sdk, venue, exercise(OTC_PROPOSAL, await proposalOf(venue), 'OTCTradeProposal_InitiateSettlement', { prepareUntil: new Date(Date.now() + 3_600_000).toISOString(), settleBefore: new Date(Date.now() + 7_200_000).toISOString() })).then(
      () => undefined,
      (e: unknown) => e as { cause?: string },
    );
    expect(early?.cause).toContain("The requirement 'All trading parties have approved' was not met.");
    await signAndRun(sdk, bob, exercise(OTC_PROPOSAL, await proposalOf(bob), 'OTCTradeProposal_Accept', { approver: bob.partyId }));
    await signAndRun(sdk, venue, exercise(OTC_PROPOSAL, await proposalOf(venue), 'OTCTradeProposal_InitiateSettlement', { prepareUntil: new Date(Date.now() + 3_600_000).toISOString(), settleBefore: new Date(Date.now() + 7_200_000).toISOString() }));
    const [trade] = await readJsContracts(sdk, OTC_TRADE, venue);
    expect(trade).toBeDefined();

    for (const p of [alice, bob]) {
      const [request] = await sdk.token.allocation.request.pending(p.partyId);
      const view = request!.interfaceViewValue;
      expect(view.settlement.settlementRef.id).toBe('OTCTradeProposal');
      const legId = Object.keys(view.transferLegs).find((k) => view.transferLegs[k]!.sender === p.partyId)!;
      const [allocate, disclosed] = await sdk.token.allocation.instruction.create({ allocationSpecification: { settlement: view.settlement, transferLegId: legId, transferLeg: view.transferLegs[legId]! }, asset: amulet });
      await signAndRun(sdk, p, allocate, disclosed);
    }
    const allocations = await sdk.token.allocation.pending(venue.partyId);
    const entries = await Promise.all(
      allocations.map(async (a) => ({ a, ctx: await sdk.token.allocation.context.execute({ allocationCid: a.contractId, registryUrl: registryUrl } as never) })),
    );
    const allocationsWithContext = Object.fromEntries(
      entries.map(({ a, ctx }) => [a.interfaceViewValue.allocation.transferLegId, { _1: a.contractId, _2: { context: { values: ctx.choiceContextData?.values ?? {} }, meta: { values: {} } } }]),
    );
    const disclosed = [...new Map(entries.flatMap(({ ctx }) => ctx.disclosedContracts ?? []).map((d) => [d.contractId, d])).values()];
    // A settlement missing a leg is refused, nothing moves.
    const partial = await signAndRun(sdk, venue, exercise(OTC_TRADE, trade!.contractId, 'OTCTrade_Settle', { allocationsWithContext: { leg0: allocationsWithContext.leg0 } }), disclosed).then(
      () => undefined,
      (e: unknown) => e as { cause?: string },
    );
    expect(partial?.cause).toContain('Allocation cid and extra arg is missing for leg leg1');
    // Each leg's allocation must be exactly the trade's for that leg: swapped, they are refused.
    const swapped = await signAndRun(sdk, venue, exercise(OTC_TRADE, trade!.contractId, 'OTCTrade_Settle', { allocationsWithContext: { leg0: allocationsWithContext.leg1, leg1: allocationsWithContext.leg0 } }), disclosed).then(
      () => undefined,
      (e: unknown) => e as { cause?: string },
    );
    expect(swapped?.cause).toContain("The requirement 'Allocation matches expected allocation' was not met.");
    await signAndRun(sdk, venue, exercise(OTC_TRADE, trade!.contractId, 'OTCTrade_Settle', { allocationsWithContext }), disclosed);
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBe(920);
    expect(sum(await amuletAmounts(sdk, bob.partyId))).toBe(1080);
    expect(await sdk.token.allocation.pending(venue.partyId)).toEqual([]);
  }, 60_000);

  it('04 without the trade app: request, allocate each leg; the venue alone may not execute; a sender withdraws', async () => {
    const { alice, bob, venue, amulet, instrumentId } = await traders('guide-04');
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
      (e: unknown) => e as { code?: string; cause?: string },
    );
    expect(refused?.code).toBe('DAML_AUTHORIZATION_ERROR');
    // Canton names the authorizers in the cause only (its AuthorizationError has no context fields).
    const required = /requires authorizers (\S+), but only/.exec(refused?.cause ?? '')?.[1];
    expect(required?.split(',').sort()).toEqual([alice.partyId, bob.partyId, venue.partyId].sort());

    const [withdraw, withdrawDisclosed] = await sdk.token.allocation.withdraw({ allocationCid: aliceLeg.contractId, asset: amulet });
    await signAndRun(sdk, alice, withdraw, withdrawDisclosed);
    expect(sum(await amuletAmounts(sdk, alice.partyId))).toBe(1000);
    expect((await sdk.token.allocation.pending(venue.partyId)).map((a) => a.interfaceViewValue.allocation.transferLegId)).toEqual(['leg1']);
  }, 60_000);
});
