import type { Catalogue, ChoiceBody, ChoiceContext, ContractView, DamlRecord, DamlValue, LedgerError, RecordType, Result } from '../../ledger/index.js';
import { err, ok, toTimestamp } from '../../ledger/index.js';
import { canonicalJson } from '../../ledger/values.js';
import { fromScaled, toScaled } from '../../ledger/templates/numeric.js';
import { ALLOCATION_FACTORY_V2_INTERFACE, ALLOCATION_V2_INTERFACE, SETTLEMENT_FACTORY_V2_INTERFACE, TRANSFER_FACTORY_V2_INTERFACE } from '../tokenStandard/idsV2.js';
import type { Implementation, TokenStandardInterfaces } from '../tokenStandard/TokenStandardInterfaces.js';
import { ALLOCATION_SPEC_V2_T, SETTLEMENT_INFO_V2_T } from '../tokenStandard/typesV2.js';
import { AMULET_PACKAGE, AMULET_TEMPLATE, LOCKED_AMULET_TEMPLATE } from '../templateIds.js';
import { msToMicros, timeMicros } from '../time.js';
import { AMULET_INSTRUMENT_ID, notAfterNow, record, text } from './amuletContext.js';
import { EMPTY_META, acceptTransfer, amuletOf, contextRound, returnToSender, spend, transfer, unlockTo, type AmuletIds } from './amuletTokenTemplates.js';

/** Splice.AmuletAllocationV2:AmuletAllocationV2, what the v2 allocation factory creates. */
export const AMULET_ALLOCATION_V2_TEMPLATE = `#${AMULET_PACKAGE}:Splice.AmuletAllocationV2:AmuletAllocationV2`;

/** AmuletAllocationV2's fields, as splice-amulet 0.1.22 declares them (the settlement beside the specification). */
export const AMULET_ALLOCATION_V2_FIELDS: RecordType = {
  lockedAmulet: { optional: 'ContractId' },
  settlement: SETTLEMENT_INFO_V2_T,
  allocation: ALLOCATION_SPEC_V2_T,
  expiresAt: 'Time',
  numIterations: 'Int64',
  createdAt: 'Time',
};

/** Allocations live at most this long (upstream: twice the 45-day minimum TTL), or until the settlement deadline. */
const MAX_ALLOCATION_TTL_MS = 90 * 24 * 3_600_000;

const list = (v: DamlValue | undefined): DamlValue[] => (Array.isArray(v) ? v : []);
const parties = (v: DamlValue | undefined): string[] => list(v).filter((p): p is string => typeof p === 'string');
const unit = (tag: string) => ({ tag, value: {} });
/** A TextMap of Amulet holdings, keyed by instrument id; empty when there are none. */
const byInstrument = (cids: readonly string[]): DamlRecord => (cids.length === 0 ? {} : { [AMULET_INSTRUMENT_ID]: [...cids] });

/** An Amulet account: the owner's default account, no provider (Amulet has no account providers). */
export const basicAccount = (owner: string): DamlRecord => ({ owner, provider: null, id: '' });
/** The owner of a basic account, or undefined for any other account. */
function basicOwner(account: DamlValue | undefined): string | undefined {
  const a = record(account);
  return typeof a.owner === 'string' && (a.provider === null || a.provider === undefined) && a.id === '' ? a.owner : undefined;
}

/** Daml `checkActors`: the actors must be exactly `expected` (as sets). */
function checkActors(ctx: ChoiceContext, actors: DamlValue | undefined, expected: readonly string[], what: string): Result<void, LedgerError> {
  const given = [...new Set(parties(actors))].sort();
  const want = [...new Set(expected)].sort();
  if (given.length === want.length && given.every((p, i) => p === want[i])) return ok(undefined);
  return err(ctx.fail(`actors [${given.join(', ')}] are not the ${what} [${want.join(', ')}]`));
}

/** The HoldingV2 view of an Amulet or LockedAmulet, from its HoldingV1 view: the owner's basic account. */
export function holdingV2Of(v1: DamlValue): DamlValue {
  const h = record(v1);
  return { account: basicAccount(text(h.owner)), instrumentId: record(h.instrumentId), amount: text(h.amount), lock: h.lock ?? null, meta: EMPTY_META };
}

/** A TransferInstructionV1.Transfer as the v2 Transfer: sender and receiver as their basic accounts. */
function transferV2Of(t: DamlRecord): DamlRecord {
  return { ...t, sender: basicAccount(text(t.sender)), receiver: basicAccount(text(t.receiver)) };
}

/** Net credit of an authorizer across its leg sides (receipts minus sends), scaled. */
function netCredit(sides: readonly DamlValue[]): bigint {
  let net = 0n;
  for (const s of sides) {
    const side = record(s);
    const amount = toScaled(text(side.amount));
    net += side.side === 'ReceiverSide' ? amount : -amount;
  }
  return net;
}

/** The total of an iteration funding map (Amulet only, amounts not negative); 0 when absent. */
function iterationFunding(ctx: ChoiceContext, funding: DamlValue | undefined, what: string): Result<bigint, LedgerError> {
  let total = 0n;
  for (const [id, amount] of Object.entries(record(funding))) {
    if (id !== AMULET_INSTRUMENT_ID) return err(ctx.fail(`${what}: instrument '${id}' is not '${AMULET_INSTRUMENT_ID}'`));
    const scaled = toScaled(text(amount));
    if (scaled < 0n) return err(ctx.fail(`${what}.${id} must be at least zero, got ${text(amount)}`));
    total += scaled;
  }
  return ok(total);
}

/**
 * Daml's `assertWithinDeadline label deadline` as splice-amulet 0.1.22's v2 choices call it
 * (AllocationFactory_Allocate: "Allocation.settlementDeadline"; Allocation_Settle:
 * "allocation.settlement.settlementDeadline"): ledger time strictly before the deadline, else
 * the stdlib's words ("Ledger time is at or past deadline '<label>' at <deadline>").
 */
function withinDeadline(ctx: ChoiceContext, deadline: DamlValue | undefined, label: string): Result<void, LedgerError> {
  const t = timeMicros(text(deadline));
  if (t !== undefined && msToMicros(ctx.now) < t) return ok(undefined);
  return err(ctx.fail(`Ledger time is at or past deadline '${label}' at ${text(deadline)}`));
}

/** Upstream's checks on leg sides: unique (id, side), Amulet only, amounts not negative (strictly positive when allocating). */
function checkLegSides(ctx: ChoiceContext, sides: readonly DamlValue[], strict: boolean): Result<void, LedgerError> {
  const seen = new Set<string>();
  for (const s of sides) {
    const side = record(s);
    const key = `${text(side.transferLegId)}\n${text(side.side)}`;
    if (seen.has(key)) return err(ctx.fail(`transferLegSides: the ${text(side.side)} of leg '${text(side.transferLegId)}' is listed twice`));
    seen.add(key);
    if (side.instrumentId !== AMULET_INSTRUMENT_ID) return err(ctx.fail(`transferLeg.instrumentId '${text(side.instrumentId)}' is not '${AMULET_INSTRUMENT_ID}'`));
    const amount = toScaled(text(side.amount));
    if (strict ? amount <= 0n : amount < 0n) return err(ctx.fail(`transferLeg.amount ${text(side.amount)} of leg '${text(side.transferLegId)}' must be ${strict ? 'positive' : 'at least zero'}`));
  }
  return ok(undefined);
}

/**
 * Amulet's token standard v2 (upstream Splice.ExternalPartyAmuletRules and
 * Splice.AmuletAllocationV2), sharing the v1 business logic as upstream does:
 *
 * - TransferFactory v2: the v1 transfer (TransferFactory_Transfer) after checking the actors are
 *   the sender and both accounts are basic; the result and the context are v1's.
 * - TransferInstruction v2 on AmuletTransferInstruction: the v1 accept, reject and withdraw
 *   (the v2 choices are nonconsuming, so the instruction is archived here).
 * - AllocationFactory v2: an AmuletAllocationV2 that locks the authorizer's net debit across its
 *   leg sides (nothing when it nets to a receipt), spending inputs like a transfer.
 * - Allocation v2 on AmuletAllocationV2: settle (admin and executors; pays the net credit out of
 *   the lock), cancel (executors), withdraw (the authorizer; a committed allocation only after
 *   its deadline).
 * - SettlementFactory v2: SettlementFactory_SettleBatch validates the batch as upstream's default
 *   implementation does and settles every allocation in one transaction: all or nothing.
 *
 * Iterated settlement (nextIterationFunding, extra leg sides per iteration) works as upstream's:
 * each settlement keeps the next iteration's funding locked in a fresh allocation.
 */
export class AmuletTokenStandardV2 {
  constructor(
    readonly ids: AmuletIds,
    readonly ts: TokenStandardInterfaces,
  ) {}

  /** The v2 factories ExternalPartyAmuletRules implements besides the v1 ones. */
  factories(): Record<string, Implementation> {
    const view = (self: ContractView): DamlValue => ({ admin: text(self.argument.dso), meta: EMPTY_META });
    const publicFetch: ChoiceBody = (_ctx, self) => ok({ admin: text(self.argument.dso), meta: EMPTY_META });
    return {
      [TRANSFER_FACTORY_V2_INTERFACE]: { view, choices: { TransferFactory_Transfer: (ctx, self, arg) => this.#transfer(ctx, self, record(arg)), TransferFactory_PublicFetch: publicFetch } },
      [ALLOCATION_FACTORY_V2_INTERFACE]: { view, choices: { AllocationFactory_Allocate: (ctx, self, arg) => this.#allocate(ctx, self, record(arg)), AllocationFactory_PublicFetch: publicFetch } },
      [SETTLEMENT_FACTORY_V2_INTERFACE]: { view, choices: { SettlementFactory_SettleBatch: (ctx, self, arg) => this.#settleBatch(ctx, self, record(arg)), SettlementFactory_PublicFetch: publicFetch } },
    };
  }

  /** TransferInstruction v2 on AmuletTransferInstruction. */
  transferInstruction(): Implementation {
    const t = (self: ContractView) => record(self.argument.transfer);
    const step =
      (who: 'receiver' | 'sender', body: typeof acceptTransfer): ChoiceBody =>
      (ctx, self, arg) => {
        const a = record(arg);
        const actors = checkActors(ctx, a.actors, [text(t(self)[who])], who);
        if (!actors.ok) return actors;
        const archived = ctx.archive(self.contractId);
        if (!archived.ok) return archived;
        return body(ctx, self, { extraArgs: a.extraArgs ?? null }, this.ids);
      };
    return {
      view: (self) => ({
        originalInstructionCid: null,
        transfer: transferV2Of(t(self)),
        expiresAt: text(t(self).executeBefore),
        // Daml `Map [Party] [TransferInstructionAction]`: a list of pairs in the JSON encoding.
        availableActions: [
          [[text(t(self).receiver)], [unit('TIA_Accept'), unit('TIA_Reject')]],
          [[text(t(self).sender)], [unit('TIA_Withdraw')]],
        ],
        meta: EMPTY_META,
      }),
      choices: {
        TransferInstruction_Accept: step('receiver', acceptTransfer),
        TransferInstruction_Reject: step('receiver', returnToSender),
        TransferInstruction_Withdraw: step('sender', returnToSender),
      },
    };
  }

  /**
   * Registers AmuletAllocationV2 as splice-amulet 0.1.22 declares it: the settlement beside the
   * specification; signatories the admin and the authorizer, observers the executors.
   */
  registerAllocationTemplate(template: (spec: Parameters<Catalogue['addTemplate']>[0], impls: Readonly<Record<string, Implementation>>) => { id: string }): string {
    return template(
      {
        packageName: AMULET_PACKAGE,
        module: 'Splice.AmuletAllocationV2',
        entity: 'AmuletAllocationV2',
        fields: AMULET_ALLOCATION_V2_FIELDS,
        signatories: (a) => [text(record(a.allocation).admin), text(record(record(a.allocation).authorizer).owner)],
        observers: (a) => parties(record(a.settlement).executors),
        ensure: (a) => {
          const spec = record(a.allocation);
          if (basicOwner(spec.authorizer) === undefined) return 'allocation.authorizer must be a basic account (owner set, no provider, id "")';
          if (parties(record(a.settlement).executors).length === 0) return 'settlement.executors must not be empty';
          if (list(spec.transferLegSides).length === 0 && spec.nextIterationFunding === null) return 'allocation.transferLegSides must not be empty unless iterated settlement is enabled';
          return undefined;
        },
      },
      {
        [ALLOCATION_V2_INTERFACE]: this.#allocationImpl(),
      },
    ).id;
  }

  /** Allocation v2 on the v1 AmuletAllocation: its single sender-side leg as a v2 allocation (upstream's upcast). */
  allocationOfV1(): Implementation {
    return this.#allocationImpl();
  }

  #allocationImpl(): Implementation {
    return {
      view: (self) => this.#allocationView(self),
      choices: {
        Allocation_Settle: (ctx, self, arg) => this.#settleAllocation(ctx, self, record(arg)),
        Allocation_Cancel: (ctx, self, arg) => this.#releaseAllocation(ctx, self, record(arg), 'cancel'),
        Allocation_Withdraw: (ctx, self, arg) => this.#releaseAllocation(ctx, self, record(arg), 'withdraw'),
      },
    };
  }

  #allocationView(self: ContractView): DamlValue {
    const a = allocationState(self);
    const spec = a.spec;
    const executors = [...new Set(parties(a.settlement.executors))].sort();
    const canWithdraw = spec.committed !== true || spec.settlementDeadline !== null;
    return {
      originalAllocationCid: null,
      settlement: a.settlement,
      allocation: spec,
      holdingCids: typeof a.lockedAmulet === 'string' ? [a.lockedAmulet] : [],
      createdAt: text(a.createdAt),
      numIterations: text(a.numIterations),
      expiresAt: text(a.expiresAt),
      // Daml `Map AllocationAction [[Party]]`, keys in constructor order.
      availableActions: [
        [unit('AA_Settle'), [[...new Set([text(spec.admin), ...executors])].sort()]],
        [unit('AA_Cancel'), [executors]],
        ...(canWithdraw ? [[unit('AA_Withdraw'), [[text(record(spec.authorizer).owner)]]]] : []),
      ],
      meta: EMPTY_META,
    };
  }

  #transfer(ctx: ChoiceContext, self: ContractView, arg: DamlRecord): Result<DamlValue, LedgerError> {
    const t = record(arg.transfer);
    const sender = basicOwner(t.sender);
    const receiver = basicOwner(t.receiver);
    if (sender === undefined || receiver === undefined) return err(ctx.fail('Amulet transfers need basic accounts: owner set, no provider, id ""'));
    const actors = checkActors(ctx, arg.actors, [sender], 'sender');
    if (!actors.ok) return actors;
    // The v1 transfer with the factory's own admin: the instrument check then refuses another admin.
    return transfer(ctx, self, { expectedAdmin: text(self.argument.dso), transfer: { ...t, sender, receiver }, extraArgs: arg.extraArgs ?? null }, this.ids);
  }

  #allocate(ctx: ChoiceContext, self: ContractView, arg: DamlRecord): Result<DamlValue, LedgerError> {
    const settlement = record(arg.settlement);
    const spec = record(arg.allocation);
    const dso = text(self.argument.dso);
    if (spec.admin !== dso) return err(ctx.fail(`allocation.admin ${text(spec.admin)} is not the admin ${dso} of this factory`));
    const owner = basicOwner(spec.authorizer);
    if (owner === undefined) return err(ctx.fail('allocation.authorizer must be a basic account (owner set, no provider, id "")'));
    const actors = checkActors(ctx, arg.actors, [owner], 'authorizer');
    if (!actors.ok) return actors;
    if (parties(settlement.executors).length === 0) return err(ctx.fail('settlement.executors must not be empty'));
    const sides = list(spec.transferLegSides);
    // Empty leg sides only for iterated settlement (the legs then come with each iteration).
    if (sides.length === 0 && spec.nextIterationFunding === null) return err(ctx.fail('allocation.transferLegSides must not be empty unless iterated settlement is enabled'));
    const legs = checkLegSides(ctx, sides, true);
    if (!legs.ok) return legs;
    const funding = iterationFunding(ctx, spec.nextIterationFunding, 'allocation.nextIterationFunding');
    if (!funding.ok) return funding;
    const round = contextRound(ctx, arg.extraArgs, dso, this.ids);
    if (!round.ok) return round;
    const requested = notAfterNow(ctx, arg.requestedAt, 'requestedAt');
    if (!requested.ok) return requested;
    const deadline = spec.settlementDeadline;
    if (deadline !== null) {
      const open = withinDeadline(ctx, deadline, 'Allocation.settlementDeadline');
      if (!open.ok) return open;
    }
    const net = netCredit(sides);
    const lock = (net < 0n ? -net : 0n) + funding.value;
    const change = spend(ctx, dso, owner, list(arg.inputHoldingCids).map((c) => text(c)), fromScaled(lock), round.value, this.ids);
    if (!change.ok) return change;
    const ttlEnd = ctx.now + MAX_ALLOCATION_TTL_MS;
    const deadlineMs = deadline === null ? undefined : Number((timeMicros(text(deadline)) ?? msToMicros(ttlEnd)) / 1000n);
    const expiresAt = toTimestamp(deadlineMs === undefined ? ttlEnd : Math.min(deadlineMs, ttlEnd));
    let lockedAmulet: string | null = null;
    if (lock > 0n) {
      const locked = ctx.create(LOCKED_AMULET_TEMPLATE, {
        amulet: amuletOf(dso, owner, fromScaled(lock), round.value),
        lock: { holders: [dso], expiresAt, optContext: `allocation for ${text(settlement.id)}` },
      });
      if (!locked.ok) return locked;
      lockedAmulet = locked.value;
    }
    const allocation = ctx.create(AMULET_ALLOCATION_V2_TEMPLATE, { lockedAmulet, settlement, allocation: spec, expiresAt, numIterations: '0', createdAt: toTimestamp(ctx.now) });
    if (!allocation.ok) return allocation;
    return ok({
      output: { tag: 'AllocationInstructionResult_Completed', value: { allocationCid: allocation.value } },
      authorizerChangeCids: byInstrument(change.value),
      meta: EMPTY_META,
    });
  }

  /**
   * Allocation_Settle: archives the allocation and its lock and pays the lock plus the net credit
   * to the authorizer, less what funds the next iteration (iterated settlement: then a new
   * allocation without leg sides holds that funding in a new lock).
   */
  #settleAllocation(ctx: ChoiceContext, self: ContractView, arg: DamlRecord): Result<DamlValue, LedgerError> {
    const a = allocationState(self);
    const spec = a.spec;
    const dso = a.dso;
    const owner = text(record(spec.authorizer).owner);
    const actors = checkActors(ctx, arg.actors, [dso, ...parties(a.settlement.executors)], 'admin and executors');
    if (!actors.ok) return actors;
    const archived = ctx.archive(self.contractId);
    if (!archived.ok) return archived;
    if (spec.settlementDeadline !== null) {
      const open = withinDeadline(ctx, spec.settlementDeadline, 'allocation.settlement.settlementDeadline');
      if (!open.ok) return open;
    }
    if (spec.nextIterationFunding === null && (list(arg.extraTransferLegSides).length > 0 || arg.nextIterationFunding !== null)) {
      return err(ctx.fail('no extra transfer legs and no next iteration funding are allowed when iterated settlement is disabled'));
    }
    const sides = [...list(spec.transferLegSides), ...list(arg.extraTransferLegSides)];
    const legs = checkLegSides(ctx, sides, false);
    if (!legs.ok) return legs;
    const funding = iterationFunding(ctx, arg.nextIterationFunding, 'nextIterationFunding');
    if (!funding.ok) return funding;
    const round = contextRound(ctx, arg.extraArgs, dso, this.ids);
    if (!round.ok) return round;
    let input = 0n;
    if (typeof a.lockedAmulet === 'string') {
      const locked = ctx.fetch(a.lockedAmulet);
      if (!locked.ok) return locked;
      const amulet = record(locked.value.argument.amulet);
      if (locked.value.templateId !== this.ids.lockedAmulet || amulet.owner !== owner || amulet.dso !== dso) {
        return err(ctx.fail(`${a.lockedAmulet} is not a LockedAmulet of ${owner}`));
      }
      const gone = ctx.archive(a.lockedAmulet);
      if (!gone.ok) return gone;
      input = toScaled(text(record(amulet.amount).initialAmount));
    }
    const available = input + netCredit(sides);
    if (available < funding.value) {
      return err(ctx.fail(`inputAmount ${fromScaled(available)} (the lock plus the net credit) is less than the minimal outputAmount ${fromScaled(funding.value)}`));
    }
    const payout = available - funding.value;
    const paid: string[] = [];
    if (payout > 0n) {
      const cid = ctx.create(AMULET_TEMPLATE, amuletOf(dso, owner, fromScaled(payout), round.value));
      if (!cid.ok) return cid;
      paid.push(cid.value);
    }
    let next: string | null = null;
    if (arg.nextIterationFunding !== null) {
      let lockedAmulet: string | null = null;
      if (funding.value > 0n) {
        const locked = ctx.create(LOCKED_AMULET_TEMPLATE, {
          amulet: amuletOf(dso, owner, fromScaled(funding.value), round.value),
          lock: { holders: [owner, dso], expiresAt: a.expiresAt, optContext: `allocation for ${text(a.settlement.id)}` },
        });
        if (!locked.ok) return locked;
        lockedAmulet = locked.value;
        paid.unshift(locked.value);
      }
      const created = ctx.create(AMULET_ALLOCATION_V2_TEMPLATE, {
        lockedAmulet,
        settlement: a.settlement,
        allocation: { ...spec, transferLegSides: [], nextIterationFunding: arg.nextIterationFunding ?? null },
        expiresAt: a.expiresAt,
        numIterations: String(BigInt(a.numIterations || '0') + 1n),
        createdAt: a.createdAt,
      });
      if (!created.ok) return created;
      next = created.value;
    }
    return ok({
      output: { tag: 'AllocationResult_Settled', value: { nextIterationAllocationCid: next } },
      authorizerHoldingCids: byInstrument(paid),
      meta: EMPTY_META,
    });
  }

  /** Allocation_Cancel (the executors) and Allocation_Withdraw (the authorizer): the lock goes back to the authorizer. */
  #releaseAllocation(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, how: 'cancel' | 'withdraw'): Result<DamlValue, LedgerError> {
    const a = allocationState(self);
    const spec = a.spec;
    const owner = text(record(spec.authorizer).owner);
    const actors =
      how === 'cancel' ? checkActors(ctx, arg.actors, parties(a.settlement.executors), 'executors') : checkActors(ctx, arg.actors, [owner], 'authorizer');
    if (!actors.ok) return actors;
    if (how === 'withdraw' && spec.committed === true) {
      const deadline = timeMicros(text(spec.settlementDeadline));
      if (deadline === undefined) return err(ctx.fail('Cannot withdraw a committed allocation that has no settlement deadline.'));
      if (msToMicros(ctx.now) <= deadline) return err(ctx.fail('Cannot withdraw a committed allocation before its settlement deadline.'));
    }
    const archived = ctx.archive(self.contractId);
    if (!archived.ok) return archived;
    const returned: string[] = [];
    if (typeof a.lockedAmulet === 'string') {
      const round = contextRound(ctx, arg.extraArgs, a.dso, this.ids);
      if (!round.ok) return round;
      const cid = unlockTo(ctx, a.lockedAmulet, owner, round.value, this.ids);
      if (!cid.ok) return cid;
      returned.push(cid.value);
    }
    return ok({
      output: unit(how === 'cancel' ? 'AllocationResult_Cancelled' : 'AllocationResult_Withdrawn'),
      authorizerHoldingCids: byInstrument(returned),
      meta: EMPTY_META,
    });
  }

  /**
   * SettlementFactory_SettleBatch, as upstream's default implementation: the actors are the
   * executors; the legs are unique and positive; every allocation is an Allocation of this
   * admin for exactly this settlement; together they authorize both sides of every leg, each
   * once and nothing more; then each is settled with the admin and the executors as actors.
   * Any refusal fails the whole transaction, so nothing is half-settled.
   */
  #settleBatch(ctx: ChoiceContext, self: ContractView, arg: DamlRecord): Result<DamlValue, LedgerError> {
    const dso = text(self.argument.dso);
    const settlement = record(arg.settlement);
    const executors = parties(settlement.executors);
    const actors = checkActors(ctx, arg.actors, executors, 'settlement executors');
    if (!actors.ok) return actors;
    const legs = list(arg.transferLegs).map(record);
    if (legs.length === 0) return err(ctx.fail('transferLegs must not be empty'));
    const legIds = new Set<string>();
    for (const leg of legs) {
      if (legIds.has(text(leg.transferLegId))) return err(ctx.fail(`SettleBatch.transferLegsIds: '${text(leg.transferLegId)}' is not unique`));
      legIds.add(text(leg.transferLegId));
      if (toScaled(text(leg.amount)) <= 0n) return err(ctx.fail(`transferLeg.amount ${text(leg.amount)} of leg '${text(leg.transferLegId)}' must be positive`));
    }
    const settlementKey = canonicalJson(settlement);
    const allocated = new Set<string>();
    const checked: { f: DamlRecord; admin: string }[] = [];
    for (const f of list(arg.allocations).map(record)) {
      const cid = text(f.allocationCid);
      const c = ctx.fetch(cid);
      if (!c.ok) return c;
      if (!this.ts.implements(c.value, ALLOCATION_V2_INTERFACE)) return err(ctx.fail(`${cid} is a ${c.value.templateId}, not an Allocation`));
      const view = record(this.ts.view(c.value, ALLOCATION_V2_INTERFACE));
      const spec = record(view.allocation);
      if (canonicalJson(record(view.settlement)) !== settlementKey) return err(ctx.fail(`allocation ${cid} was made for another settlement than ${text(settlement.id)}`));
      if (spec.admin !== dso) return err(ctx.fail(`allocation.admin ${text(spec.admin)} of ${cid} is not the admin ${dso} of this factory`));
      if (spec.nextIterationFunding === null && (list(f.extraTransferLegSides).length > 0 || f.nextIterationFunding !== null)) {
        return err(ctx.fail(`finalizedAllocation ${cid}: extraTransferLegSides and nextIterationFunding must be empty unless iterated settlement is enabled`));
      }
      // Upstream's validateNextIterationArgs: what an iteration adds must be positive.
      for (const x of [...list(f.extraTransferLegSides).map((l) => record(l).amount), ...Object.values(record(f.nextIterationFunding))]) {
        if (toScaled(text(x)) <= 0n) return err(ctx.fail(`finalizedAllocation ${cid}: extra leg and next iteration funding amounts must be positive, got ${text(x)}`));
      }
      for (const side of [...list(spec.transferLegSides), ...list(f.extraTransferLegSides)]) {
        const key = canonicalJson([record(spec.authorizer), record(side)]);
        if (allocated.has(key)) return err(ctx.fail(`allocated authorizations are not unique: leg '${text(record(side).transferLegId)}' is authorized twice`));
        allocated.add(key);
      }
      checked.push({ f, admin: text(spec.admin) });
    }
    const required = new Set(legs.flatMap((leg) => sidesOf(leg).map(([account, side]) => canonicalJson([account, side]))));
    const missing = [...required].filter((k) => !allocated.has(k)).length;
    const superfluous = [...allocated].filter((k) => !required.has(k)).length;
    if (missing > 0 || superfluous > 0) {
      return err(ctx.fail(`the allocations do not authorize exactly the transfer legs: ${missing} missing and ${superfluous} superfluous authorizations`));
    }
    const results: DamlValue[] = [];
    for (const { f, admin } of checked) {
      const settled = ctx.exercise(
        text(f.allocationCid),
        'Allocation_Settle',
        { actors: [admin, ...executors], extraTransferLegSides: list(f.extraTransferLegSides), nextIterationFunding: f.nextIterationFunding ?? null, extraArgs: arg.extraArgs ?? null },
        ALLOCATION_V2_INTERFACE,
      );
      if (!settled.ok) return settled;
      results.push(settled.value);
    }
    return ok({ allocationSettleResults: results, meta: EMPTY_META });
  }
}

/**
 * What the v2 choices need of an Amulet allocation: an AmuletAllocationV2 as it is, a v1
 * AmuletAllocation upcast as upstream does (its executor, its settleBefore as the deadline, its
 * leg as the sender side).
 */
function allocationState(self: ContractView): {
  settlement: DamlRecord;
  spec: DamlRecord;
  dso: string;
  lockedAmulet: string | null;
  createdAt: string;
  numIterations: string;
  expiresAt: string;
} {
  const a = self.argument;
  const spec = record(a.allocation);
  if (!('transferLeg' in spec)) {
    return { settlement: record(a.settlement), spec, dso: text(spec.admin), lockedAmulet: typeof a.lockedAmulet === 'string' ? a.lockedAmulet : null, createdAt: text(a.createdAt), numIterations: text(a.numIterations), expiresAt: text(a.expiresAt) };
  }
  const settlement = record(spec.settlement);
  const leg = record(spec.transferLeg);
  const instrument = record(leg.instrumentId);
  return {
    settlement: { executors: [text(settlement.executor)], id: text(record(settlement.settlementRef).id), cid: record(settlement.settlementRef).cid ?? null, meta: record(settlement.meta) },
    spec: {
      admin: text(instrument.admin),
      authorizer: basicAccount(text(leg.sender)),
      transferLegSides: [
        { transferLegId: text(spec.transferLegId), side: 'SenderSide', otherside: basicAccount(text(leg.receiver)), amount: text(leg.amount), instrumentId: text(instrument.id), meta: record(leg.meta) },
      ],
      settlementDeadline: text(settlement.settleBefore),
      nextIterationFunding: null,
      committed: false,
      meta: EMPTY_META,
    },
    dso: text(instrument.admin),
    lockedAmulet: typeof a.lockedAmulet === 'string' ? a.lockedAmulet : null,
    createdAt: text(settlement.requestedAt),
    numIterations: '0',
    expiresAt: text(settlement.settleBefore),
  };
}

/** Both sides of a leg with the account that must authorize each (upstream transferLegSidesWithAuthorizer). */
function sidesOf(leg: DamlRecord): [DamlRecord, DamlRecord][] {
  const common = { transferLegId: leg.transferLegId ?? '', amount: leg.amount ?? '', instrumentId: leg.instrumentId ?? '', meta: leg.meta ?? EMPTY_META };
  return [
    [record(leg.sender), { transferLegId: common.transferLegId, side: 'SenderSide', otherside: record(leg.receiver), amount: common.amount, instrumentId: common.instrumentId, meta: common.meta }],
    [record(leg.receiver), { transferLegId: common.transferLegId, side: 'ReceiverSide', otherside: record(leg.sender), amount: common.amount, instrumentId: common.instrumentId, meta: common.meta }],
  ];
}
