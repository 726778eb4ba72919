/**
 * The Amulet part of the default world, built on Splice's own splice-amulet through the engine
 * (`serve --splice-dars`): what the ports seed, made the way Splice makes it. The DSO creates the
 * AmuletRules (amuletConfig.ts) and the ExternalPartyAmuletRules (the token-standard factory),
 * bootstraps rounds 0-2 with `AmuletRules_Bootstrap_Rounds`; the parties' amulet comes from
 * `AmuletRules_DevNet_Tap`; the preapprovals are the ports' (the DSO, receiver and provider sign
 * them), dave's cancelled with `TransferPreapproval_Cancel`; alice's pending transfer to carol is
 * a real `TransferFactory_Transfer` (two-step: carol has no valid preapproval), which locks the
 * amulet and creates the AmuletTransferInstruction. trading-venue's request for trade 'otc-1' is
 * the ports' (the sample trading venue's TradeAllocationRequest: not a Splice package), and bob's
 * allocation for its leg 'leg-0' is a real `AllocationFactory_Allocate` on the
 * ExternalPartyAmuletRules, which locks 20 Amulet and creates the AmuletAllocation.
 *
 * The round history comes after the rest of the world (seedSpliceRoundHistory): it moves ledger time.
 */
import type { Command, DamlRecord, Ledger, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok, PARTICIPANT_ADMIN_USER } from '../../ledger/index.js';
import type { CreatedEvent } from '../../ledger/wire.js';
import { AMULET_INSTRUMENT_ID, AMULET_RULES_KEY, EXTERNAL_PARTY_CONFIG_STATE_KEY, OPEN_ROUND_KEY } from '../amulet/amuletContext.js';
import { TRADE_ALLOCATION_REQUEST_TEMPLATE } from '../templateIds.js';
import { ALLOCATION_FACTORY_V1_INTERFACE, TRANSFER_FACTORY_V1_INTERFACE } from '../tokenStandard/ids.js';
import { seededPreapprovals, type AppWorld } from '../world/seedAppWorld.js';
import { amuletConfigSchedule, TICK_MICROS } from './amuletConfig.js';
import type { SpliceAmulet } from './SpliceAmulet.js';

/**
 * How long the pending transfer lives from seeding: 0.1.22 refuses a token-standard transfer
 * that lives longer than 90 days (`tokenStandardMaxTTL`). Seeded at APP_WORLD_TIME, it has
 * expired under a clock that follows the system's, as it would have on a network.
 */
const TRANSFER_LIFETIME_MS = 60 * 24 * 3_600_000;
/**
 * USD per Amulet: Splice's tests' price. Amulet's fees are in USD, so at the ports' 0.005 the
 * holding fee would expire 25 Amulet within weeks, and a lock may not outlive its amulet.
 */
export const AMULET_PRICE = '1.0';

/** What the real world holds: the ids a test or a README names. */
export interface SpliceAmuletWorld {
  readonly preapprovals: AppWorld['preapprovals'];
  readonly rounds: { readonly amuletRules: string; readonly openRounds: readonly [string, string, string] };
  readonly amulet: {
    /** The ExternalPartyAmuletRules: the transfer and allocation factory. */
    readonly factory: string;
    /** alice: 1000 and 250.5 unlocked (plus 25 locked for carol); bob: 500 (plus 20 locked in the allocation). */
    readonly holdings: { readonly alice: readonly [string, string]; readonly bob: readonly [string] };
    readonly transferToCarol: string;
    readonly lockedForCarol: string;
    /** trading-venue asks bob (20 Amulet to alice) and alice (10 Amulet to bob) to allocate for trade 'otc-1'. */
    readonly allocationRequest: string;
    /** bob's allocation for leg 'leg-0' of that trade (the real AmuletAllocation), and its locked amulet. */
    readonly allocation: string;
    readonly lockedForAllocation: string;
  };
}

/** Seeds the real Amulet world for `parties` (the apps' world's); `firstStep` continues its command ids. */
export function seedSpliceAmulet(ledger: Ledger, amulet: SpliceAmulet, parties: AppWorld['parties'], firstStep: number): Result<SpliceAmuletWorld, LedgerError> {
  let step = firstStep;
  const submit = (actAs: readonly string[], commands: Command[]): Result<CreatedEvent[], LedgerError> => {
    const r = ledger.submitAndWaitForTransaction({
      commands: { userId: PARTICIPANT_ADMIN_USER, commandId: `app-world-${++step}`, actAs: [...actAs], commands },
      transactionFormat: {
        eventFormat: { filtersForAnyParty: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] }, verbose: false },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    });
    if (!r.ok) return r;
    return ok(r.value.transaction.events.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent] : [])));
  };
  const { ids } = amulet;
  const of = (events: readonly CreatedEvent[], id: string) => events.filter((e) => e.templateId === id);
  const create = (templateId: string, createArguments: DamlRecord): Command => ({ CreateCommand: { templateId, createArguments } });
  const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: DamlRecord): Command => ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument } });
  const { dso, 'wallet-provider': provider, alice, bob, carol, dave } = parties;

  const rulesTx = submit([dso], [
    create(ids.amuletRules, { dso, configSchedule: amuletConfigSchedule(ledger, amulet.packageId, amulet.version), isDevNet: true }),
    create(ids.externalPartyAmuletRules, { dso }),
  ]);
  if (!rulesTx.ok) return rulesTx;
  const rules = of(rulesTx.value, ids.amuletRules)[0]!.contractId;
  const factory = of(rulesTx.value, ids.externalPartyAmuletRules)[0]!.contractId;
  const onRules = (choice: string, argument: DamlRecord) => exercise(ids.amuletRules, rules, choice, argument);

  const boot = submit([dso], [onRules('AmuletRules_Bootstrap_Rounds', { amuletPrice: AMULET_PRICE, round0Duration: { microseconds: TICK_MICROS.toString() } })]);
  if (!boot.ok) return boot;
  const rounds = of(boot.value, ids.openMiningRound).sort((a, b) => Number(roundOf(a) - roundOf(b)));
  const round0 = rounds[0]!.contractId;
  // 0.1.22 and later: the first configuration snapshot the token-standard choices read.
  let configState: string | undefined;
  if (amulet.externalPartyConfigState !== undefined) {
    const state = submit([dso], [
      onRules('AmuletRules_BootstrapExternalPartyConfigState', { openMiningRoundTriple: { round0Cid: rounds[0]!.contractId, round1Cid: rounds[1]!.contractId, round2Cid: rounds[2]!.contractId }, expectedDso: dso }),
    ]);
    if (!state.ok) return state;
    configState = of(state.value, amulet.externalPartyConfigState.id)[0]?.contractId;
  }

  const tap = (receiver: string, amount: string): Result<string, LedgerError> => {
    const tapped = submit([receiver, dso], [onRules('AmuletRules_DevNet_Tap', { receiver, amount, openRound: round0 })]);
    return tapped.ok ? ok(of(tapped.value, ids.amulet)[0]!.contractId) : tapped;
  };
  const holdings: string[] = [];
  for (const [receiver, amount] of [[alice, '1000.0'], [alice, '250.5'], [bob, '500.0'], [alice, '25.0'], [bob, '20.0']] as const) {
    const h = tap(receiver, amount);
    if (!h.ok) return h;
    holdings.push(h.value);
  }

  const preapproval = (receiver: string, by: string, validFrom: string, expiresAt: string) =>
    create(ids.transferPreapproval, { dso, receiver, provider: by, validFrom, lastRenewedAt: validFrom, expiresAt });
  const preapprovals = submit([dso, provider, alice, bob, carol, dave], seededPreapprovals(parties).map(([r, by, from, to]) => preapproval(r, by, from, to)));
  if (!preapprovals.ok) return preapprovals;
  const [pAlice, pBobOlder, pBobNewer, pCarol, pDave] = of(preapprovals.value, ids.transferPreapproval).map((c) => c.contractId) as [string, string, string, string, string];
  const cancelled = submit([dave], [exercise(ids.transferPreapproval, pDave, 'TransferPreapproval_Cancel', { p: dave })]);
  if (!cancelled.ok) return cancelled;

  const now = ledger.config.clock.now();
  // alice offers carol 25 through the token standard, with the context Amulet's registry serves.
  const transfer = {
    sender: alice, receiver: carol, amount: '25.0', instrumentId: { admin: dso, id: AMULET_INSTRUMENT_ID },
    requestedAt: new Date(now).toISOString(), executeBefore: new Date(now + TRANSFER_LIFETIME_MS).toISOString(), inputHoldingCids: [holdings[3]!], meta: { values: {} },
  };
  const cid = (value: string) => ({ tag: 'AV_ContractId', value });
  const context = { values: { [AMULET_RULES_KEY]: cid(rules), [OPEN_ROUND_KEY]: cid(round0), ...(configState === undefined ? {} : { [EXTERNAL_PARTY_CONFIG_STATE_KEY]: cid(configState) }) } };
  const offered = submit([alice, dso], [exercise(TRANSFER_FACTORY_V1_INTERFACE, factory, 'TransferFactory_Transfer', { expectedAdmin: dso, transfer, extraArgs: { context, meta: { values: {} } } })]);
  if (!offered.ok) return offered;
  const transferToCarol = of(offered.value, ids.amuletTransferInstruction)[0]?.contractId;
  const lockedForCarol = of(offered.value, ids.lockedAmulet)[0]?.contractId;
  if (transferToCarol === undefined || lockedForCarol === undefined) return fail('CONTRACT_NOT_FOUND', 'the transfer to carol created no AmuletTransferInstruction and LockedAmulet');

  // Trade 'otc-1': the venue's request, and bob's allocation of leg-0 through the real factory with
  // the context the registry serves (deadlines within the token standard's 90-day limit, as above).
  const { 'trading-venue': venue } = parties;
  const instrumentId = transfer.instrumentId;
  // Times as the ledger renders them (no zero fraction): the request is a built-in template, which
  // keeps its argument as written, and a client compares its view with the allocation's.
  const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const settlement = { executor: venue, settlementRef: { id: 'otc-1', cid: null }, requestedAt: at(now), allocateBefore: at(now + TRANSFER_LIFETIME_MS - 3_600_000), settleBefore: at(now + TRANSFER_LIFETIME_MS), meta: { values: {} } };
  const leg = (sender: string, receiver: string, amount: string) => ({ sender, receiver, amount, instrumentId, meta: { values: {} } });
  const requested = submit([venue], [create(TRADE_ALLOCATION_REQUEST_TEMPLATE, { venue, settlement, transferLegs: { 'leg-0': leg(bob, alice, '20.0'), 'leg-1': leg(alice, bob, '10.0') }, meta: { values: {} } })]);
  if (!requested.ok) return requested;
  const allocationRequest = requested.value[0]!.contractId;
  const allocated = submit([bob, dso], [exercise(ALLOCATION_FACTORY_V1_INTERFACE, factory, 'AllocationFactory_Allocate', {
    expectedAdmin: dso,
    allocation: { settlement, transferLegId: 'leg-0', transferLeg: leg(bob, alice, '20.0') },
    requestedAt: at(now),
    inputHoldingCids: [holdings[4]!],
    extraArgs: { context, meta: { values: {} } },
  })]);
  if (!allocated.ok) return allocated;
  const allocation = of(allocated.value, ids.amuletAllocation)[0]?.contractId;
  const lockedForAllocation = of(allocated.value, ids.lockedAmulet)[0]?.contractId;
  if (allocation === undefined || lockedForAllocation === undefined) return fail('CONTRACT_NOT_FOUND', 'bob\'s allocation for otc-1 created no AmuletAllocation and LockedAmulet');

  return ok({
    preapprovals: { alice: pAlice, bobOlder: pBobOlder, bobNewer: pBobNewer, carolExpired: pCarol, daveCancelled: pDave },
    rounds: { amuletRules: rules, openRounds: rounds.map((r) => r.contractId) as unknown as [string, string, string] },
    amulet: { factory, holdings: { alice: [holdings[0]!, holdings[1]!], bob: [holdings[2]!] }, transferToCarol, lockedForCarol, allocationRequest, allocation, lockedForAllocation },
  });
}

const roundOf = (c: CreatedEvent): bigint => BigInt(((c.createArgument as { round?: { number?: string } }).round?.number) ?? '0');
