/**
 * Splice's test trading app (splice-token-test-trading-app, an OTC venue) settling a two-leg
 * trade of test-token v1 holdings, driven as the traders' wallets and the venue would: a
 * proposal, its acceptance, the venue's settlement request (an AllocationRequest the wallets read
 * through the interface), one allocation per leg through the disclosed AllocationFactory, and the
 * venue's OTCTrade_Settle. Both DARs must be on the ledger already.
 */
import { expect } from 'vitest';
import { createdIn, disclose, entityOf, exercisedIn, type CreatedEvent, type JsonApiClient } from './JsonApiClient.js';
import { decimal, holdingsOf, instrument, mint, NO_CONTEXT, tokenWorld } from './tokenV1Flow.js';

export const APP = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp';
const EMPTY_META = { values: {} };

export async function runTradingAppFlow(api: JsonApiClient) {
  const w = await tokenWorld(api);
  const { alice, bob } = w;
  const venue = await api.party('venue');
  const [aliceToken, bobToken] = [await mint(api, w, alice, '100.0'), await mint(api, w, bob, '100.0')];
  const legs = {
    leg0: { sender: alice, receiver: bob, amount: '10.0', instrumentId: instrument(w.admin), meta: EMPTY_META },
    leg1: { sender: bob, receiver: alice, amount: '20.0', instrumentId: instrument(w.admin), meta: EMPTY_META },
  };
  const proposal = createdIn(await api.must([alice], [{ CreateCommand: { templateId: `${APP}:OTCTradeProposal`, createArguments: { venue, tradeCid: null, transferLegs: legs, approvers: [alice] } } }]))[0]!;
  expect(proposal.observers).toEqual([alice, bob, venue].filter((p) => p !== alice).sort());

  // The venue is no trading party: it cannot approve. Bob can.
  const byVenue = await api.submit([venue], [{ ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: proposal.contractId, choice: 'OTCTradeProposal_Accept', choiceArgument: { approver: venue } } }]);
  expect([byVenue.status, byVenue.body.code]).toEqual([400, 'UNHANDLED_EXCEPTION']);
  expect(byVenue.body.cause).toContain("The requirement 'Approver is a trading party' was not met.");
  const accepted = createdIn(await api.must([bob], [{ ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: proposal.contractId, choice: 'OTCTradeProposal_Accept', choiceArgument: { approver: bob } } }]))[0]!;
  expect(accepted.createArgument).toMatchObject({ approvers: [bob, alice], tradeCid: proposal.contractId });

  const initiated = await api.must([venue], [{ ExerciseCommand: { templateId: `${APP}:OTCTradeProposal`, contractId: accepted.contractId, choice: 'OTCTradeProposal_InitiateSettlement', choiceArgument: { prepareUntil: '9000-01-01T00:00:00Z', settleBefore: '9000-01-02T00:00:00Z' } } }]);
  const trade = createdIn(initiated)[0]!;
  expect(entityOf(trade.templateId)).toBe('Splice.Testing.Apps.TradingApp:OTCTrade');
  expect(trade.signatories).toEqual([alice, bob, venue].sort());

  // Each trader's wallet finds the request through the AllocationRequest interface and allocates its leg.
  const allocate = async (trader: string, input: CreatedEvent): Promise<string> => {
    const [request] = await api.byInterface(trader, w.ids.allocationRequest);
    expect(request!.contractId).toBe(trade.contractId);
    const view = request!.interfaceViews![0]!.viewValue as { settlement: Record<string, unknown>; transferLegs: Record<string, { sender: string }> };
    expect(view.settlement).toMatchObject({ executor: venue, settlementRef: { id: 'OTCTradeProposal', cid: proposal.contractId } });
    expect(Date.parse(view.settlement.requestedAt as string)).toBe(Date.parse(initiated.effectiveAt));
    const [legId, leg] = Object.entries(view.transferLegs).find(([, l]) => l.sender === trader)!;
    const tx = await api.must([trader], [{
      ExerciseCommand: {
        templateId: w.ids.allocationFactory, contractId: w.rules.contractId, choice: 'AllocationFactory_Allocate',
        choiceArgument: { expectedAdmin: w.admin, allocation: { settlement: view.settlement, transferLegId: legId, transferLeg: leg }, requestedAt: '2000-01-01T00:00:00Z', inputHoldingCids: [input.contractId], extraArgs: NO_CONTEXT },
      },
    }], [disclose(w.rules, api.synchronizerId)]);
    const result = exercisedIn(tx)[0]!.exerciseResult as { output: { tag: string; value: { allocationCid: string } } };
    expect(result.output.tag).toBe('AllocationInstructionResult_Completed');
    return result.output.value.allocationCid;
  };
  const allocations = { leg0: await allocate(alice, aliceToken), leg1: await allocate(bob, bobToken) };
  // The venue sees the allocations it executes (it is their executor, an observer).
  expect((await api.byInterface(venue, w.ids.allocation)).map((c) => c.contractId).sort()).toEqual(Object.values(allocations).sort());

  // Settling without every leg is refused by the trade's own check.
  const partial = await api.submit([venue], [{ ExerciseCommand: { templateId: `${APP}:OTCTrade`, contractId: trade.contractId, choice: 'OTCTrade_Settle', choiceArgument: { allocationsWithContext: { leg0: { _1: allocations.leg0, _2: NO_CONTEXT } } } } }]);
  expect([partial.status, partial.body.code]).toEqual([400, 'UNHANDLED_EXCEPTION']);
  expect(partial.body.cause).toContain('Allocation cid and extra arg is missing for leg leg1');

  const settled = await api.must([venue], [{
    ExerciseCommand: { templateId: `${APP}:OTCTrade`, contractId: trade.contractId, choice: 'OTCTrade_Settle', choiceArgument: { allocationsWithContext: { leg0: { _1: allocations.leg0, _2: NO_CONTEXT }, leg1: { _1: allocations.leg1, _2: NO_CONTEXT } } } },
  }]);
  const root = exercisedIn(settled)[0]!;
  expect(root).toMatchObject({ choice: 'OTCTrade_Settle', consuming: true, actingParties: [venue] });
  const received = createdIn(settled);
  expect(received.map((c) => (c.createArgument as { holding: { owner: string; amount: string } }).holding)).toMatchObject([{ owner: bob, amount: decimal('10') }, { owner: alice, amount: decimal('20') }]);
  expect(root.exerciseResult).toEqual({
    leg0: { senderHoldingCids: [], receiverHoldingCids: [received[0]!.contractId], meta: EMPTY_META },
    leg1: { senderHoldingCids: [], receiverHoldingCids: [received[1]!.contractId], meta: EMPTY_META },
  });
  expect(exercisedIn(settled).filter((e) => e.choice === 'Allocation_ExecuteTransfer').map((e) => e.contractId)).toEqual([allocations.leg0, allocations.leg1]);
  return { holdings: { alice: await holdingsOf(api, w, alice), bob: await holdingsOf(api, w, bob) } };
}
