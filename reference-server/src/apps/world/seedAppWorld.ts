import type { Command, DamlRecord, DamlValue, Ledger, LedgerError, Result } from '../../ledger/index.js';
import { BUILT_IN_PACKAGE_VERSION, localPartyId, ok, PARTICIPANT_ADMIN_USER } from '../../ledger/index.js';
import { createApps, type AppsOptions } from '../createApps.js';
import { TOKEN_RULES_KEY } from '../registry/contextKeys.js';
import { AMULET_INSTRUMENT_ID } from '../amulet/amuletContext.js';
import { amuletConfigSchedule } from '../splice/amuletConfig.js';
import {
  ACCOUNT_MAP_TEMPLATE,
  AMULET_ALLOCATION_TEMPLATE,
  AMULET_TEMPLATE,
  AMULET_TRANSFER_INSTRUCTION_TEMPLATE,
  DSO_RULES_TEMPLATE,
  EXTERNAL_PARTY_AMULET_RULES_TEMPLATE,
  LOCKED_AMULET_TEMPLATE,
  TRADE_ALLOCATION_REQUEST_TEMPLATE,
  ALLOCATION_INSTRUCTION_INTERFACE,
  AMULET_RULES_TEMPLATE,
  OPEN_MINING_ROUND_TEMPLATE,
  TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE,
  TOKEN_RULES_TEMPLATE,
  TRANSFER_PREAPPROVAL_TEMPLATE,
} from '../templateIds.js';

/** Party hints of the apps' world; ids are `hint::<participant namespace>`. */
export const APP_WORLD_PARTY_HINTS = ['registry-admin', 'trading-venue', 'dso', 'wallet-provider', 'alice', 'bob', 'carol', 'dave', 'erin'] as const;
export type AppWorldPartyHint = (typeof APP_WORLD_PARTY_HINTS)[number];

/**
 * Ledger time the default world is seeded at (see SeedingClock): before any real start time, so
 * ledger time only moves forward afterwards.
 */
export const APP_WORLD_TIME = Date.UTC(2025, 0, 1);

/** The instrument of the sample registry. */
export const SAMPLE_INSTRUMENT = 'SAMPLE';

/** What the apps' world holds, by role: the ids a README or a profile names. */
export interface AppWorld {
  readonly parties: Readonly<Record<AppWorldPartyHint, string>>;
  readonly registry: {
    readonly tokenRules: string;
    /** Lists alice and bob. */
    readonly accountMap: string;
    /** Lists carol; unassigned from the first synchronizer and not assigned: in flight. */
    readonly accountMapInFlight: string;
    /**
     * Completes that move (`ledger.assign`), putting the map on the second synchronizer; undefined
     * on a participant connected to one synchronizer (the map stays where it is).
     */
    readonly accountMapReassignmentId: string | undefined;
    readonly instructions: {
      /** Active: alice sends 100 SAMPLE to bob. Accept and withdraw contexts answer 200. */
      readonly aliceActive: string;
      /** Active: bob receives 100 SAMPLE from alice. */
      readonly bobActive: string;
      /** Withdrawn by alice: archived, contexts answer 404. */
      readonly aliceWithdrawn: string;
      /** Active, but carol's account map is in flight: accept answers 409 (withdraw needs only the rules: 200). */
      readonly carolInFlight: string;
    };
  };
  readonly preapprovals: {
    /** alice's self-managed preapproval. */
    readonly alice: string;
    /** bob's two, both by wallet-provider: validFrom 2024-10-01 and 2024-12-01 (the newer is answered). */
    readonly bobOlder: string;
    readonly bobNewer: string;
    /** carol's, expired 2024-07-01 and never archived: still answered. */
    readonly carolExpired: string;
    /** dave's, cancelled: dave has none. */
    readonly daveCancelled: string;
  };
  readonly rounds: {
    readonly amuletRules: string;
    /** Rounds 0 and 1 went through summarizing, issuing and closed and were archived; 2 is closed; 3-5 are open. */
    readonly closedRound2: string;
    readonly openRounds: readonly [string, string, string];
    /** What Scan answers: first ingested round 0, so 1 once round 1 is archived. */
    readonly earliestRound: number;
  };
  /** Amulet as a token-standard registry; the DSO party is the instrument admin. */
  readonly amulet: {
    readonly dsoRules: string;
    /** The transfer and allocation factory. */
    readonly factory: string;
    /** alice: 1000 and 250.5 unlocked (plus 25 locked for carol); bob: 500 (plus 20 locked in the allocation). */
    readonly holdings: { readonly alice: readonly [string, string]; readonly bob: readonly [string] };
    /** alice -> carol, 25 Amulet, pending carol's acceptance; its locked amulet. */
    readonly transferToCarol: string;
    readonly lockedForCarol: string;
    /** trading-venue asks bob (20 Amulet to alice) and alice (10 Amulet to bob) to allocate for trade 'otc-1'. */
    readonly allocationRequest: string;
    /** bob's allocation for leg 'leg-0' of that trade, and its locked amulet. */
    readonly allocation: string;
    readonly lockedForAllocation: string;
  };
}

const TICK_MICROS = '600000000'; // 10 minutes, Splice's default tick
const FAR_FUTURE = '2099-01-01T00:00:00Z';

/**
 * Adds the registry's and Scan's part of the default world to a ledger: parties, the sample
 * registry's rules, account maps and allocation instructions (active, withdrawn, one whose
 * account map is in flight), transfer preapprovals (one, two, expired, cancelled, none) and a
 * round history. Attaches the apps first, so Scan's ingestion starts with the world's first round.
 *
 * Everything is submitted through the ledger's public API as `participant_admin`. Contract ids
 * derive from the ledger's clock and the contracts created before: seed a fresh ledger under a
 * clock pinned at APP_WORLD_TIME (SeedingClock, or a ManualClock) to get the ids the README names.
 */
export function seedAppWorld(ledger: Ledger, options: AppsOptions = {}): Result<AppWorld, LedgerError> {
  createApps(ledger, options);
  const base = seedSampleRegistry(ledger);
  if (!base.ok) return base;
  const { parties, registry } = base.value;
  const { submit } = worldSubmitter(ledger, base.value.steps);
  const { 'trading-venue': venue, dso, 'wallet-provider': provider, alice, bob, carol, dave } = parties;

  // ---- transfer preapprovals
  const preapproval = (receiver: string, by: string, validFrom: string, expiresAt: string) =>
    create(TRANSFER_PREAPPROVAL_TEMPLATE, { dso, receiver, provider: by, validFrom, lastRenewedAt: validFrom, expiresAt });
  const preapprovals = submit([dso, provider, alice, bob, carol, dave], seededPreapprovals(parties).map(([r, by, from, to]) => preapproval(r, by, from, to)));
  if (!preapprovals.ok) return preapprovals;
  const [pAlice, pBobOlder, pBobNewer, pCarol, pDave] = preapprovals.value as string[] as [string, string, string, string, string];
  const cancelled = submit([dave], [exercise(TRANSFER_PREAPPROVAL_TEMPLATE, pDave, 'TransferPreapproval_Cancel', { p: dave })]);
  if (!cancelled.ok) return cancelled;

  // ---- rounds: bootstrap 0-2, then advance as the DSO's automation would
  const openRound = (n: number) =>
    create(OPEN_MINING_ROUND_TEMPLATE, {
      dso,
      round: { number: String(n) },
      amuletPrice: '0.005',
      opensAt: `2025-01-01T00:${String(n * 10).padStart(2, '0')}:00Z`,
      targetClosesAt: `2025-01-01T00:${String(n * 10 + 20).padStart(2, '0')}:00Z`,
      issuingFor: { microseconds: String(BigInt(TICK_MICROS) * BigInt(n)) },
      tickDuration: { microseconds: TICK_MICROS },
    });
  const boot = submit([dso], [create(AMULET_RULES_TEMPLATE, { dso, configSchedule: amuletConfigSchedule(ledger, undefined, BUILT_IN_PACKAGE_VERSION), isDevNet: true }), openRound(0), openRound(1), openRound(2)]);
  if (!boot.ok) return boot;
  const [amuletRules, ...open] = boot.value as string[] as [string, string, string, string];
  const rules = (choice: string, argument: DamlRecord) => submit([dso], [exercise(AMULET_RULES_TEMPLATE, amuletRules, choice, argument)]);
  const field = (r: Result<readonly DamlValue[], LedgerError>, name: string): string => ((r.ok ? r.value[0] : {}) as Record<string, string>)[name] ?? '';

  const openRounds = [...open];
  const summarizing: string[] = [];
  const advance = () => {
    const [a, b, c] = openRounds.slice(-3) as [string, string, string];
    const r = rules('AmuletRules_AdvanceOpenMiningRounds', { amuletPrice: '0.005', roundToArchiveCid: a, middleRoundCid: b, latestRoundCid: c });
    if (r.ok) {
      summarizing.push(field(r, 'summarizingRoundCid'));
      openRounds.push(field(r, 'openRoundCid'));
    }
    return r;
  };
  const close = (summarizingCid: string): Result<string, LedgerError> => {
    const issuing = rules('AmuletRules_MiningRound_StartIssuing', { miningRoundCid: summarizingCid });
    if (!issuing.ok) return issuing;
    const closed = rules('AmuletRules_MiningRound_Close', { issuingRoundCid: field(issuing, 'issuingRoundCid') });
    return closed.ok ? ok(field(closed, 'closedRoundCid')) : closed;
  };
  for (const r of [advance(), advance(), advance()]) if (!r.ok) return r; // opens 3, 4, 5; rounds 0-2 summarizing
  for (const s of summarizing.slice(0, 2)) {
    const closed = close(s);
    if (!closed.ok) return closed;
    const archived = rules('AmuletRules_MiningRound_Archive', { closedRoundCid: closed.value });
    if (!archived.ok) return archived;
  }
  const closedRound2 = close(summarizing[2] as string);
  if (!closedRound2.ok) return closedRound2;

  // ---- Amulet as a registry: the DSO's rules and factory, holdings, a pending transfer, an allocation
  const instrumentId = { admin: dso, id: AMULET_INSTRUMENT_ID };
  const amulet = (owner: string, amount: string) => ({ dso, owner, amount: { initialAmount: amount, createdAt: { number: '3' }, ratePerRound: { rate: '0.0' } } });
  const locked = (owner: string, amount: string, context: string) =>
    create(LOCKED_AMULET_TEMPLATE, { amulet: amulet(owner, amount), lock: { holders: [dso], expiresAt: FAR_FUTURE, optContext: context } });
  const settlement = { executor: venue, settlementRef: { id: 'otc-1', cid: null }, requestedAt: '2025-01-01T00:00:00Z', allocateBefore: FAR_FUTURE, settleBefore: FAR_FUTURE, meta: { values: {} } };
  const leg = (sender: string, receiver: string, amount: string) => ({ sender, receiver, amount, instrumentId, meta: { values: {} } });
  const registryBoot = submit(
    [dso, alice, bob, venue],
    [
      // One SV, the party Scan answers as its own (sv_party_id): a DSO always has at least one.
      create(DSO_RULES_TEMPLATE, { dso, epoch: '0', svs: { [dso]: { name: 'sv-1', joinedAsOfRound: { number: '0' } } } }),
      create(EXTERNAL_PARTY_AMULET_RULES_TEMPLATE, { dso }),
      create(AMULET_TEMPLATE, amulet(alice, '1000.0')),
      create(AMULET_TEMPLATE, amulet(alice, '250.5')),
      create(AMULET_TEMPLATE, amulet(bob, '500.0')),
      locked(alice, '25.0', `transfer to ${carol}`),
      locked(bob, '20.0', 'allocation for otc-1'),
      create(TRADE_ALLOCATION_REQUEST_TEMPLATE, { venue, settlement, transferLegs: { 'leg-0': leg(bob, alice, '20.0'), 'leg-1': leg(alice, bob, '10.0') }, meta: { values: {} } }),
    ],
  );
  if (!registryBoot.ok) return registryBoot;
  const [dsoRules, factory, aliceBig, aliceSmall, bobHolding, lockedForCarol, lockedForAllocation, allocationRequest] = registryBoot.value as string[] as [
    string, string, string, string, string, string, string, string,
  ];
  const pending = submit(
    [dso, alice, bob],
    [
      create(AMULET_TRANSFER_INSTRUCTION_TEMPLATE, {
        lockedAmulet: lockedForCarol,
        transfer: { sender: alice, receiver: carol, amount: '25.0', instrumentId, requestedAt: '2025-01-01T00:00:00Z', executeBefore: FAR_FUTURE, inputHoldingCids: [], meta: { values: {} } },
      }),
      create(AMULET_ALLOCATION_TEMPLATE, { lockedAmulet: lockedForAllocation, allocation: { settlement, transferLegId: 'leg-0', transferLeg: leg(bob, alice, '20.0') } }),
    ],
  );
  if (!pending.ok) return pending;
  const [transferToCarol, allocation] = pending.value as string[] as [string, string];

  return ok({
    parties,
    registry,
    preapprovals: { alice: pAlice, bobOlder: pBobOlder, bobNewer: pBobNewer, carolExpired: pCarol, daveCancelled: pDave },
    rounds: { amuletRules, closedRound2: closedRound2.value, openRounds: openRounds.slice(-3) as [string, string, string], earliestRound: 1 },
    amulet: {
      dsoRules,
      factory,
      holdings: { alice: [aliceBig, aliceSmall], bob: [bobHolding] },
      transferToCarol,
      lockedForCarol,
      allocationRequest,
      allocation,
      lockedForAllocation,
    },
  });
}

/**
 * The parties of the apps' world and the sample registry (rules, account maps, allocation
 * instructions): the part of the default world that is the same over the ports and over Splice's
 * own packages. `steps` is the number of command ids used (`app-world-N`).
 */
/** A create command. */
export const create = (templateId: string, createArguments: DamlRecord): Command => ({ CreateCommand: { templateId, createArguments } });
/** An exercise command. */
export const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: DamlRecord): Command => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument },
});

/**
 * Submits the world's seeding commands as the participant admin, numbered `app-world-N` after
 * `from`, interpreted and committed at once: the results, or the ledger's refusal.
 */
export function worldSubmitter(ledger: Ledger, from: number) {
  let step = from;
  const nextCommandId = () => `app-world-${++step}`;
  return {
    /** `disclosed`: contracts the submitters cannot see that the commands use (by id: their blobs are the ledger's). */
    submit(actAs: readonly string[], commands: Command[], disclosed: readonly string[] = []): Result<readonly DamlValue[], LedgerError> {
      const disclosedContracts = disclosed.map((contractId) => ({ contractId, createdEventBlob: ledger.createdEventBlob(contractId) ?? '' }));
      const prepared = ledger.interpret({ userId: PARTICIPANT_ADMIN_USER, commandId: nextCommandId(), actAs: [...actAs], commands, disclosedContracts });
      if (!prepared.ok) return prepared;
      const committed = ledger.commit(prepared.value);
      return committed.ok ? ok(prepared.value.results) : committed;
    },
    nextCommandId,
    steps: () => step,
  };
}

/**
 * The default world's transfer preapprovals, the same over the ports and Splice's own packages
 * (receiver, provider, validFrom, expiresAt): alice's own, bob's older and newer by the wallet
 * provider, carol's expired one, and dave's (which the seeding then cancels).
 */
export function seededPreapprovals(p: Readonly<Record<'wallet-provider' | 'alice' | 'bob' | 'carol' | 'dave', string>>): readonly (readonly [string, string, string, string])[] {
  const provider = p['wallet-provider'];
  return [
    [p.alice, p.alice, '2024-10-01T00:00:00Z', FAR_FUTURE],
    [p.bob, provider, '2024-10-01T00:00:00Z', FAR_FUTURE],
    [p.bob, provider, '2024-12-01T00:00:00Z', FAR_FUTURE],
    [p.carol, provider, '2024-01-01T00:00:00Z', '2024-07-01T00:00:00Z'],
    [p.dave, provider, '2024-10-01T00:00:00Z', FAR_FUTURE],
  ];
}

export function seedSampleRegistry(ledger: Ledger): Result<Pick<AppWorld, 'parties' | 'registry'> & { steps: number }, LedgerError> {
  const world = worldSubmitter(ledger, 0);
  const { submit } = world;

  const parties = {} as Record<AppWorldPartyHint, string>;
  for (const hint of APP_WORLD_PARTY_HINTS) {
    const id = localPartyId(hint, ledger.config.participantId);
    if (!ledger.isKnownParty(id)) {
      const allocated = ledger.allocateParty({ partyIdHint: hint });
      if (!allocated.ok) return allocated;
    }
    parties[hint] = id;
  }
  const { 'registry-admin': admin, 'trading-venue': venue, alice, bob, carol } = parties;

  // ---- the sample registry
  const registry = submit(
    [admin],
    [
      create(TOKEN_RULES_TEMPLATE, { admin, instrumentId: SAMPLE_INSTRUMENT }),
      create(ACCOUNT_MAP_TEMPLATE, { admin, accounts: [alice, bob] }),
      create(ACCOUNT_MAP_TEMPLATE, { admin, accounts: [carol] }),
      create(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE, instruction(admin, venue, 'trade-1', alice, 'SenderSide', bob, '2024-12-20T09:00:00Z')),
      create(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE, instruction(admin, venue, 'trade-1', bob, 'ReceiverSide', alice, '2024-12-20T09:00:00Z')),
      create(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE, instruction(admin, venue, 'trade-0', alice, 'SenderSide', bob, '2024-12-01T09:00:00Z')),
      create(TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE, instruction(admin, venue, 'trade-2', carol, 'SenderSide', alice, '2024-12-21T09:00:00Z')),
    ],
  );
  if (!registry.ok) return registry;
  const [tokenRules, accountMap, accountMapInFlight, aliceActive, bobActive, aliceWithdrawn, carolInFlight] = registry.value as string[] as [
    string, string, string, string, string, string, string,
  ];
  // alice withdraws one instruction through the interface, with the context the registry serves.
  const withdrawn = submit(
    [alice],
    [
      exercise(ALLOCATION_INSTRUCTION_INTERFACE, aliceWithdrawn, 'AllocationInstruction_Withdraw', {
        actors: [alice],
        extraArgs: { context: { values: { [TOKEN_RULES_KEY]: { tag: 'AV_ContractId', value: tokenRules } } }, meta: { values: {} } },
      }),
    ],
    // The registry's token rules: alice is no stakeholder of them (the context discloses them).
    [tokenRules],
  );
  if (!withdrawn.ok) return withdrawn;
  // The account map in flight to the second synchronizer; a participant connected to one has no
  // reassignment to be in the middle of.
  const target = ledger.config.synchronizers[1]?.id;
  const moving = target === undefined ? undefined : ledger.unassign(accountMapInFlight, target, { submitter: admin, userId: PARTICIPANT_ADMIN_USER, commandId: world.nextCommandId() });
  if (moving !== undefined && !moving.ok) return moving;

  return ok({
    parties,
    registry: { tokenRules, accountMap, accountMapInFlight, accountMapReassignmentId: moving?.value.reassignmentId, instructions: { aliceActive, bobActive, aliceWithdrawn, carolInFlight } },
    steps: world.steps(),
  });
}

/** One allocation instruction of the sample registry: a 100 SAMPLE leg between two parties. */
function instruction(admin: string, executor: string, settlementId: string, authorizer: string, side: 'SenderSide' | 'ReceiverSide', otherside: string, requestedAt: string): DamlRecord {
  return {
    originalInstructionCid: null,
    admin,
    settlement: { executors: [executor], id: settlementId, meta: { values: {} } },
    allocation: {
      admin,
      authorizer,
      transferLegSides: [{ transferLegId: 'leg-0', side, otherside, amount: '100', instrumentId: SAMPLE_INSTRUMENT }],
      settlementDeadline: FAR_FUTURE,
      committed: false,
    },
    requestedAt,
  };
}
