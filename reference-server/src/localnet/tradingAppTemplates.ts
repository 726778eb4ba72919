import { record, text } from '../apps/amulet/amuletContext.js';
import { tokenStandardOf } from '../apps/registerAppTemplates.js';
import { microsToTimestamp, msToMicros, timeMicros } from '../apps/time.js';
import { TokenStandardInterfaces, type Implementation } from '../apps/tokenStandard/TokenStandardInterfaces.js';
import { ALLOCATION_REQUEST_V1_INTERFACE, ALLOCATION_V1_INTERFACE } from '../apps/tokenStandard/ids.js';
import { EXTRA_ARGS_T, TRANSFER_LEG_T } from '../apps/tokenStandard/types.js';
import { unwrapRegistration } from '../apps/unwrapRegistration.js';
import { unhandledDamlException } from './damlExceptionError.js';
import { err, ok, type Result } from '../ledger/result.js';
import type { Catalogue } from '../ledger/templates/Catalogue.js';
import type { ChoiceContext, ChoiceSpec } from '../ledger/templates/types.js';
import type { DamlRecord, DamlValue } from '../ledger/wire.js';
import type { LedgerError } from '../ledger/errors.js';

export const TRADING_APP_PACKAGE = 'splice-token-test-trading-app';
/** The package id of splice-token-test-trading-app 1.0.0, the DAR LocalNet ships (and the wallet guide's script 04 uploads). */
export const TRADING_APP_PACKAGE_ID = 'e5c9847d5a88d3b8d65436f01765fc5ba142cc58529692e2dacdd865d9939f71';
export const OTC_TRADE_PROPOSAL_TEMPLATE = `#${TRADING_APP_PACKAGE}:Splice.Testing.Apps.TradingApp:OTCTradeProposal`;
export const OTC_TRADE_TEMPLATE = `#${TRADING_APP_PACKAGE}:Splice.Testing.Apps.TradingApp:OTCTrade`;

const EMPTY_META: DamlRecord = { values: {} };
const LEGS_T = { textMap: TRANSFER_LEG_T } as const;
/** `TextMap (ContractId Allocation, ExtraArgs)`: Daml tuples are records `_1`, `_2` on the JSON API. */
const ALLOCATIONS_WITH_CONTEXT_T = { textMap: { record: { _1: 'ContractId', _2: EXTRA_ARGS_T } } } as const;

const legsOf = (a: DamlRecord): [string, DamlRecord][] => Object.entries(record(a.transferLegs)).map(([id, leg]) => [id, record(leg)]);
/** Senders and receivers of all legs (upstream's `tradingParties`). */
const tradingParties = (a: DamlRecord): string[] => [...new Set(legsOf(a).flatMap(([, l]) => [text(l.sender), text(l.receiver)]))].sort();
/** Upstream's `require`: `assertMsg`, which throws AssertionFailed. */
const require_ = (_ctx: ChoiceContext, what: string, holds: boolean): Result<void, LedgerError> => (holds ? ok(undefined) : err(unhandledDamlException('AssertionFailed', `The requirement '${what}' was not met.`)));

/** The OTCTrade's SettlementInfo (upstream's: settlementRef names the proposal, as `makeTradeRef`). */
function settlementOf(trade: DamlRecord): DamlRecord {
  return {
    executor: text(trade.venue),
    settlementRef: { id: 'OTCTradeProposal', cid: text(trade.tradeCid) },
    requestedAt: text(trade.createdAt),
    allocateBefore: text(trade.prepareUntil),
    settleBefore: text(trade.settleBefore),
    meta: EMPTY_META,
  };
}

/** Daml's structural equality on values as the ledger stores them (key order aside). */
function sameValue(a: DamlValue | undefined, b: DamlValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [timeMicros(a), timeMicros(b)];
    return x !== undefined && x === y;
  }
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => sameValue((a as DamlRecord)[k], (b as DamlRecord)[k]));
}

/**
 * For each leg the allocation given for it: present for every leg, for no other, and holding
 * exactly the trade's AllocationSpecification for it (upstream's zipTextMaps and checks).
 * Upstream's `fromSomeNote`s sit in `let`s that Daml evaluates while `mapA` builds the update,
 * and the list fold builds from the last key to the first: those refusals name the last bad leg;
 * the fetches and checks then run from the first leg on.
 */
function matchedAllocations(ctx: ChoiceContext, ts: TokenStandardInterfaces, trade: DamlRecord, given: DamlRecord, everyLeg: boolean): Result<[string, string, DamlValue][], LedgerError> {
  const settlement = settlementOf(trade);
  const legs = new Map(legsOf(trade));
  const keys = [...new Set([...Object.keys(given), ...legs.keys()])].sort();
  for (const legId of [...keys].reverse()) {
    if (given[legId] === undefined) {
      // fromSomeNote: `error`, which throws GeneralError.
      if (everyLeg) return err(unhandledDamlException('GeneralError', `Allocation cid and extra arg is missing for leg ${legId}`));
    } else if (!legs.has(legId)) {
      return err(unhandledDamlException('GeneralError', `Allocation with context provided for unexpected leg ${legId}`));
    }
  }
  const out: [string, string, DamlValue][] = [];
  for (const legId of keys) {
    if (given[legId] === undefined) continue;
    const entry = record(given[legId]);
    const leg = legs.get(legId) as DamlRecord;
    const cid = text(entry._1);
    const fetched = ctx.fetch(cid);
    if (!fetched.ok) return fetched;
    if (!ts.implements(fetched.value, ALLOCATION_V1_INTERFACE)) return err(ctx.fail(`${cid} is not an Allocation`));
    const allocation = record(ts.view(fetched.value, ALLOCATION_V1_INTERFACE)).allocation;
    const matches = require_(ctx, 'Allocation matches expected allocation', sameValue(allocation, { settlement, transferLegId: legId, transferLeg: leg }));
    if (!matches.ok) return matches;
    out.push([legId, cid, entry._2 ?? { context: { values: {} }, meta: EMPTY_META }]);
  }
  return ok(out);
}

/** OTCTrade_Settle and OTCTrade_Cancel: the venue checks the allocations given against the trade, then exercises `choice` on each. */
function tradeChoice(ts: TokenStandardInterfaces, choice: 'Allocation_ExecuteTransfer' | 'Allocation_Cancel', settling: boolean): ChoiceSpec {
  return {
    consuming: true,
    argument: { record: { allocationsWithContext: ALLOCATIONS_WITH_CONTEXT_T } },
    controllers: (self) => [text(self.argument.venue)],
    body: (ctx, self, arg) => {
      if (settling) {
        const deadline = require_(ctx, 'Settlement deadline has not passed', msToMicros(ctx.now) < (timeMicros(text(self.argument.settleBefore)) ?? 0n));
        if (!deadline.ok) return deadline;
      }
      const matched = matchedAllocations(ctx, ts, self.argument, record(record(arg).allocationsWithContext), settling);
      if (!matched.ok) return matched;
      // Cancel answers every leg of the trade: None where no allocation was given (upstream's forA over an Optional).
      const results: DamlRecord = settling ? {} : Object.fromEntries(legsOf(self.argument).map(([legId]) => [legId, null]));
      for (const [legId, cid, extraArgs] of matched.value) {
        const r = ctx.exercise(cid, choice, { extraArgs }, ALLOCATION_V1_INTERFACE);
        if (!r.ok) return r;
        results[legId] = r.value;
      }
      return ok(results);
    },
  };
}

/**
 * Splice's test trading app (`splice-token-test-trading-app`, `Splice.Testing.Apps.TradingApp`),
 * the OTC venue of the wallet guide's script 04, as upstream's Daml defines it:
 * - `OTCTradeProposal {venue, tradeCid: Optional ContractId, transferLegs: TextMap TransferLeg,
 *   approvers: [Party]}`: signatories the approvers, observers the venue and the trading parties;
 *   `OTCTradeProposal_Accept {approver}` (a new trading party approves), `_Reject {trader}`, and
 *   `_InitiateSettlement {prepareUntil, settleBefore}` (the venue, once every trading party
 *   approved, before prepareUntil) creating the OTCTrade.
 * - `OTCTrade {venue, transferLegs, tradeCid, createdAt, prepareUntil, settleBefore}`: signatories
 *   the venue and the trading parties; an AllocationRequest; `OTCTrade_Settle
 *   {allocationsWithContext}` (before settleBefore) checks that each leg's allocation is exactly
 *   the trade's and executes them all; `OTCTrade_Cancel` cancels those given.
 * Declared with the package id of the DAR LocalNet ships, so a client that checks for it before
 * uploading (wallet-sdk's `ledger.dar.upload`) finds it vetted. Idempotent.
 */
export function registerTradingAppTemplates(catalogue: Catalogue): void {
  if (catalogue.resolve(OTC_TRADE_PROPOSAL_TEMPLATE).ok) return;
  const ts = tokenStandardOf(catalogue);
  const base = { packageName: TRADING_APP_PACKAGE, packageId: TRADING_APP_PACKAGE_ID, module: 'Splice.Testing.Apps.TradingApp' };

  const allocationRequest: Implementation = {
    view: (self) => ({ settlement: settlementOf(self.argument), transferLegs: record(self.argument.transferLegs), meta: EMPTY_META }),
    choices: {
      AllocationRequest_Reject: (ctx, self, arg) => {
        const actor = text(record(arg).actor);
        const sender = require_(ctx, 'Actor is a sender', legsOf(self.argument).some(([, l]) => l.sender === actor));
        return sender.ok ? ok({ meta: EMPTY_META }) : sender;
      },
      AllocationRequest_Withdraw: () => ok({ meta: EMPTY_META }),
    },
  };
  const trade = unwrapRegistration(
    catalogue.addTemplate({
      ...base,
      entity: 'OTCTrade',
      fields: { venue: 'Party', transferLegs: LEGS_T, tradeCid: 'ContractId', createdAt: 'Time', prepareUntil: 'Time', settleBefore: 'Time' },
      signatories: (a) => [...new Set([text(a.venue), ...tradingParties(a)])],
      implements: TokenStandardInterfaces.implementsOf({ [ALLOCATION_REQUEST_V1_INTERFACE]: allocationRequest }),
      choices: {
        // Settle: before settleBefore, an allocation for every leg, each executed.
        OTCTrade_Settle: tradeChoice(ts, 'Allocation_ExecuteTransfer', true),
        // Cancel: the allocations given (legs without one are skipped), each cancelled.
        OTCTrade_Cancel: tradeChoice(ts, 'Allocation_Cancel', false),
      },
    }),
  );
  ts.implement(trade.id, ALLOCATION_REQUEST_V1_INTERFACE, allocationRequest);

  unwrapRegistration(
    catalogue.addTemplate({
      ...base,
      entity: 'OTCTradeProposal',
      fields: { venue: 'Party', tradeCid: { optional: 'ContractId' }, transferLegs: LEGS_T, approvers: { list: 'Party' } },
      signatories: (a) => [...new Set((a.approvers as string[] | undefined) ?? [])],
      observers: (a) => [text(a.venue), ...tradingParties(a)],
      choices: {
        OTCTradeProposal_Accept: {
          consuming: true,
          argument: { record: { approver: 'Party' } },
          controllers: (_self, arg) => [text(record(arg).approver)],
          body: (ctx, self, arg) => {
            const approver = text(record(arg).approver);
            const approvers = (self.argument.approvers as string[] | undefined) ?? [];
            const trader = require_(ctx, 'Approver is a trading party', tradingParties(self.argument).includes(approver));
            if (!trader.ok) return trader;
            const fresh = require_(ctx, 'Approver is new', !approvers.includes(approver));
            if (!fresh.ok) return fresh;
            return ctx.create(OTC_TRADE_PROPOSAL_TEMPLATE, { ...self.argument, approvers: [approver, ...approvers], tradeCid: typeof self.argument.tradeCid === 'string' ? self.argument.tradeCid : self.contractId });
          },
        },
        OTCTradeProposal_Reject: {
          consuming: true,
          argument: { record: { trader: 'Party' } },
          controllers: (_self, arg) => [text(record(arg).trader)],
          body: (ctx, self, arg) => {
            const trader = require_(ctx, 'Trader is a trading party', tradingParties(self.argument).includes(text(record(arg).trader)));
            return trader.ok ? ok({}) : trader;
          },
        },
        OTCTradeProposal_InitiateSettlement: {
          consuming: true,
          argument: { record: { prepareUntil: 'Time', settleBefore: 'Time' } },
          controllers: (self) => [text(self.argument.venue)],
          body: (ctx, self, arg) => {
            const a = record(arg);
            const approved = [...new Set((self.argument.approvers as string[] | undefined) ?? [])].sort();
            const all = require_(ctx, 'All trading parties have approved', approved.join() === tradingParties(self.argument).join());
            if (!all.ok) return all;
            const [now, prepareUntil, settleBefore] = [msToMicros(ctx.now), timeMicros(text(a.prepareUntil)) ?? 0n, timeMicros(text(a.settleBefore)) ?? 0n];
            const open = require_(ctx, 'Preparation time has not passed', now < prepareUntil);
            if (!open.ok) return open;
            const ordered = require_(ctx, 'Preparation time before settlement time', prepareUntil < settleBefore);
            if (!ordered.ok) return ordered;
            return ctx.create(OTC_TRADE_TEMPLATE, {
              venue: text(self.argument.venue),
              transferLegs: record(self.argument.transferLegs),
              tradeCid: typeof self.argument.tradeCid === 'string' ? self.argument.tradeCid : self.contractId,
              createdAt: microsToTimestamp(now),
              prepareUntil: text(a.prepareUntil),
              settleBefore: text(a.settleBefore),
            });
          },
        },
      },
    }),
  );
}

