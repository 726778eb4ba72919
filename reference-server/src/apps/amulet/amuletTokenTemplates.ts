import type { Catalogue, ChoiceBody, ChoiceContext, ContractView, DamlRecord, DamlValue, FieldType, LedgerError, Result } from '../../ledger/index.js';
import { err, ok } from '../../ledger/index.js';
import { fromScaled, toScaled } from '../../ledger/templates/numeric.js';
import {
  ALLOCATION_FACTORY_V1_INTERFACE,
  ALLOCATION_REQUEST_V1_INTERFACE,
  ALLOCATION_V1_INTERFACE,
  HOLDING_V1_INTERFACE,
  TRANSFER_FACTORY_V1_INTERFACE,
  TRANSFER_INSTRUCTION_V1_INTERFACE,
} from '../tokenStandard/ids.js';
import { ALLOCATION_V2_INTERFACE, HOLDING_V2_INTERFACE, TRANSFER_INSTRUCTION_V2_INTERFACE } from '../tokenStandard/idsV2.js';
import { TokenStandardInterfaces, type Implementation } from '../tokenStandard/TokenStandardInterfaces.js';
import { ALLOCATION_SPEC_T, METADATA_T, SETTLEMENT_INFO_T, TRANSFER_LEG_T, TRANSFER_T } from '../tokenStandard/types.js';
import {
  AMULET_ALLOCATION_TEMPLATE,
  AMULET_PACKAGE,
  AMULET_RULES_TEMPLATE,
  AMULET_TEMPLATE,
  AMULET_TRANSFER_INSTRUCTION_TEMPLATE,
  DSO_RULES_TEMPLATE,
  EXTERNAL_PARTY_AMULET_RULES_TEMPLATE,
  FEATURED_APP_RIGHT_TEMPLATE,
  LOCKED_AMULET_TEMPLATE,
  OPEN_MINING_ROUND_TEMPLATE,
  TRADE_ALLOCATION_REQUEST_TEMPLATE,
  TRANSFER_PREAPPROVAL_TEMPLATE,
} from '../templateIds.js';
import { unwrapRegistration } from '../unwrapRegistration.js';
import {
  AMULET_INSTRUMENT_ID,
  AMULET_RULES_KEY,
  OPEN_ROUND_KEY,
  TRANSFER_PREAPPROVAL_KEY,
  before,
  contextCid,
  fetchOf,
  notAfterNow,
  record,
  requiredContextCid,
  text,
} from './amuletContext.js';
import { AmuletTokenStandardV2, holdingV2Of } from './amuletTokenTemplatesV2.js';

const EXPIRING_AMOUNT: FieldType = { record: { initialAmount: 'Numeric', createdAt: { record: { number: 'Int64' } }, ratePerRound: { record: { rate: 'Numeric' } } } };
const AMULET_RECORD: FieldType = { record: { dso: 'Party', owner: 'Party', amount: EXPIRING_AMOUNT } };
const TIME_LOCK: FieldType = { record: { holders: { list: 'Party' }, expiresAt: 'Time', optContext: { optional: 'Text' } } };
export const EMPTY_META = { values: {} };
/** Holding fees are not charged here: amulets keep their initial amount. */
const RATE_PER_ROUND = { rate: '0.0000000000' };

/** Package-id forms of the templates, for type checks of fetched contracts (filled at registration). */
export interface AmuletIds {
  amulet: string;
  lockedAmulet: string;
  amuletRules: string;
  openRound: string;
  preapproval: string;
}

export const positive = (amount: string) => toScaled(amount) > 0n;
export const amuletOf = (dso: string, owner: string, amount: string, round: string): DamlRecord => ({
  dso,
  owner,
  amount: { initialAmount: amount, createdAt: { number: round }, ratePerRound: RATE_PER_ROUND },
});

/**
 * Amulet as a token-standard registry (package `splice-amulet`, upstream module and field names;
 * fees, rewards and expiry of amulets are left out, amounts never decay):
 *
 * - `Splice.Amulet:Amulet {dso, owner, amount: {initialAmount, createdAt: {number}, ratePerRound}}`:
 *   signatories dso and owner; a Holding (instrument `{admin: dso, id: "Amulet"}`, no lock).
 * - `Splice.Amulet:LockedAmulet {amulet, lock: {holders, expiresAt, optContext}}`: signatories dso,
 *   owner and the lock holders; a Holding with its lock.
 * - `Splice.Amulet:FeaturedAppRight {dso, provider}`: signatory dso.
 * - `Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules {dso}`: the TransferFactory and the
 *   AllocationFactory. A transfer spends `inputHoldingCids` (the sender's unlocked amulets, each
 *   once) and returns the change; to a receiver with a TransferPreapproval in the context it
 *   completes at once, otherwise the amount is locked (holder: dso, until `executeBefore`) under
 *   an AmuletTransferInstruction the receiver accepts or rejects and the sender may withdraw.
 * - `Splice.AmuletTransferInstruction:AmuletTransferInstruction {lockedAmulet, transfer}`:
 *   signatories dso and sender, observer receiver; a TransferInstruction.
 * - `Splice.AmuletAllocation:AmuletAllocation {lockedAmulet, allocation}`: signatories dso and
 *   sender, observer the executor; an Allocation (execute-transfer, cancel, withdraw).
 * - `AmuletRules_DevNet_Tap {receiver, amount, openRound}` and `AmuletRules_DevNet_FeatureApp
 *   {provider}` on AmuletRules (DevNet only), `TransferPreapproval_Send {sender, amount, round}`.
 * - `Splice.DsoRules:DsoRules {dso, epoch, svs}` (package splice-dso-governance) and a sample
 *   trading venue's `Sample.Trading:TradeAllocationRequest`, an AllocationRequest.
 */
export function registerAmuletTokenTemplates(catalogue: Catalogue, ts: TokenStandardInterfaces): void {
  const ids = {} as AmuletIds;
  const template = (spec: Parameters<Catalogue['addTemplate']>[0], impls: Readonly<Record<string, Implementation>> = {}) => {
    const def = unwrapRegistration(catalogue.addTemplate({ ...spec, implements: TokenStandardInterfaces.implementsOf(impls) }));
    for (const [iface, impl] of Object.entries(impls)) ts.implement(def.id, iface, impl);
    return def;
  };

  // The v2 interfaces (holding, factories, instructions, allocations) share this file's logic.
  const v2 = new AmuletTokenStandardV2(ids, ts);

  const holdingView = (a: DamlRecord, lock: DamlValue): DamlValue => ({
    owner: text(a.owner),
    instrumentId: { admin: text(a.dso), id: AMULET_INSTRUMENT_ID },
    amount: text(record(a.amount).initialAmount),
    lock,
    meta: EMPTY_META,
  });
  ids.amulet = template(
    {
      packageName: AMULET_PACKAGE,
      module: 'Splice.Amulet',
      entity: 'Amulet',
      fields: { dso: 'Party', owner: 'Party', amount: EXPIRING_AMOUNT },
      signatories: ['dso', 'owner'],
      ensure: (a) => (positive(text(record(a.amount).initialAmount)) ? undefined : 'amount must be positive'),
    },
    {
      [HOLDING_V1_INTERFACE]: { view: (self) => holdingView(self.argument, null) },
      [HOLDING_V2_INTERFACE]: { view: (self) => holdingV2Of(holdingView(self.argument, null)) },
    },
  ).id;
  const lockedHoldingView = (self: ContractView): DamlValue => {
    const lock = record(self.argument.lock);
    return holdingView(record(self.argument.amulet), { holders: lock.holders as string[], expiresAt: text(lock.expiresAt), expiresAfter: null, context: lock.optContext ?? null });
  };
  ids.lockedAmulet = template(
    {
      packageName: AMULET_PACKAGE,
      module: 'Splice.Amulet',
      entity: 'LockedAmulet',
      fields: { amulet: AMULET_RECORD, lock: TIME_LOCK },
      signatories: (a) => [text(record(a.amulet).dso), text(record(a.amulet).owner), ...(record(a.lock).holders as string[])],
    },
    {
      [HOLDING_V1_INTERFACE]: { view: lockedHoldingView },
      [HOLDING_V2_INTERFACE]: { view: (self) => holdingV2Of(lockedHoldingView(self)) },
    },
  ).id;
  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.Amulet',
    entity: 'FeaturedAppRight',
    fields: { dso: 'Party', provider: 'Party' },
    signatories: ['dso'],
    observers: ['provider'],
  });
  template({
    packageName: 'splice-dso-governance',
    module: 'Splice.DsoRules',
    entity: 'DsoRules',
    fields: { dso: 'Party', epoch: 'Int64', svs: { textMap: { record: { name: 'Text', joinedAsOfRound: { record: { number: 'Int64' } } } } } },
    signatories: ['dso'],
  });

  const factoryView = (self: ContractView): DamlValue => ({ admin: text(self.argument.dso), meta: EMPTY_META });
  template(
    {
      packageName: AMULET_PACKAGE,
      module: 'Splice.ExternalPartyAmuletRules',
      entity: 'ExternalPartyAmuletRules',
      fields: { dso: 'Party' },
      signatories: ['dso'],
    },
    {
      [TRANSFER_FACTORY_V1_INTERFACE]: {
        view: factoryView,
        choices: { TransferFactory_Transfer: (ctx, self, arg) => transfer(ctx, self, record(arg), ids), TransferFactory_PublicFetch: publicFetch },
      },
      [ALLOCATION_FACTORY_V1_INTERFACE]: {
        view: factoryView,
        choices: { AllocationFactory_Allocate: (ctx, self, arg) => allocate(ctx, self, record(arg), ids), AllocationFactory_PublicFetch: publicFetch },
      },
      ...v2.factories(),
    },
  );

  template(
    {
      packageName: AMULET_PACKAGE,
      module: 'Splice.AmuletTransferInstruction',
      entity: 'AmuletTransferInstruction',
      fields: { lockedAmulet: 'ContractId', transfer: TRANSFER_T },
      signatories: (a) => [text(record(record(a.transfer).instrumentId).admin), text(record(a.transfer).sender)],
      observers: (a) => [text(record(a.transfer).receiver)],
    },
    {
      [TRANSFER_INSTRUCTION_V1_INTERFACE]: {
        view: (self) => ({ originalInstructionCid: null, transfer: record(self.argument.transfer), status: { tag: 'TransferPendingReceiverAcceptance', value: {} }, meta: EMPTY_META }),
        choices: {
          TransferInstruction_Accept: (ctx, self, arg) => acceptTransfer(ctx, self, record(arg), ids),
          TransferInstruction_Reject: (ctx, self, arg) => returnToSender(ctx, self, record(arg), ids),
          TransferInstruction_Withdraw: (ctx, self, arg) => returnToSender(ctx, self, record(arg), ids),
        },
      },
      [TRANSFER_INSTRUCTION_V2_INTERFACE]: v2.transferInstruction(),
    },
  );

  template(
    {
      packageName: AMULET_PACKAGE,
      module: 'Splice.AmuletAllocation',
      entity: 'AmuletAllocation',
      fields: { lockedAmulet: 'ContractId', allocation: ALLOCATION_SPEC_T },
      signatories: (a) => {
        const leg = record(record(a.allocation).transferLeg);
        return [text(record(leg.instrumentId).admin), text(leg.sender)];
      },
      observers: (a) => [text(record(record(a.allocation).settlement).executor)],
    },
    {
      [ALLOCATION_V1_INTERFACE]: {
        view: (self) => ({ allocation: record(self.argument.allocation), holdingCids: [text(self.argument.lockedAmulet)], meta: EMPTY_META }),
        choices: {
          Allocation_ExecuteTransfer: (ctx, self, arg) => settleAllocation(ctx, self, record(arg), 'execute', ids),
          Allocation_Cancel: (ctx, self, arg) => settleAllocation(ctx, self, record(arg), 'release', ids),
          Allocation_Withdraw: (ctx, self, arg) => settleAllocation(ctx, self, record(arg), 'release', ids),
        },
      },
      [ALLOCATION_V2_INTERFACE]: v2.allocationOfV1(),
    },
  );

  v2.registerAllocationTemplate(template);

  template(
    {
      packageName: 'canton-conformance-sample-trading',
      module: 'Sample.Trading',
      entity: 'TradeAllocationRequest',
      fields: { venue: 'Party', settlement: SETTLEMENT_INFO_T, transferLegs: { textMap: TRANSFER_LEG_T }, meta: METADATA_T },
      signatories: ['venue'],
      observers: (a) => Object.values(record(a.transferLegs)).flatMap((l) => [text(record(l).sender), text(record(l).receiver)]),
    },
    {
      [ALLOCATION_REQUEST_V1_INTERFACE]: {
        view: (self) => ({ settlement: record(self.argument.settlement), transferLegs: record(self.argument.transferLegs), meta: record(self.argument.meta) }),
        choices: {
          AllocationRequest_Reject: (ctx, self, arg) => {
            const actor = text(record(arg).actor);
            const legParties = Object.values(record(self.argument.transferLegs)).flatMap((l) => [text(record(l).sender), text(record(l).receiver)]);
            if (!legParties.includes(actor)) return err(ctx.fail(`actor ${actor} is neither a sender nor a receiver of the request`));
            return ok({ meta: EMPTY_META });
          },
          AllocationRequest_Withdraw: () => ok({ meta: EMPTY_META }),
        },
      },
    },
  );

  ids.amuletRules = unwrapRegistration(catalogue.resolveTemplate(AMULET_RULES_TEMPLATE)).id;
  ids.openRound = unwrapRegistration(catalogue.resolveTemplate(OPEN_MINING_ROUND_TEMPLATE)).id;
  ids.preapproval = unwrapRegistration(catalogue.resolveTemplate(TRANSFER_PREAPPROVAL_TEMPLATE)).id;
  for (const id of [AMULET_TEMPLATE, LOCKED_AMULET_TEMPLATE, FEATURED_APP_RIGHT_TEMPLATE, EXTERNAL_PARTY_AMULET_RULES_TEMPLATE, AMULET_TRANSFER_INSTRUCTION_TEMPLATE, AMULET_ALLOCATION_TEMPLATE, DSO_RULES_TEMPLATE, TRADE_ALLOCATION_REQUEST_TEMPLATE]) {
    unwrapRegistration(catalogue.resolveTemplate(id));
  }
}

const publicFetch: ChoiceBody = (ctx, self, arg) => {
  const expected = text(record(arg).expectedAdmin);
  if (expected !== self.argument.dso) return err(ctx.fail(`expectedAdmin ${expected} is not the admin ${text(self.argument.dso)}`));
  return ok({ admin: text(self.argument.dso), meta: EMPTY_META });
};

/** What every factory choice checks first: the admin, the instrument, the amount, the open round. */
function checkFactoryCall(ctx: ChoiceContext, self: ContractView, expectedAdmin: string, instrument: DamlRecord, amount: string, extraArgs: DamlValue | undefined, ids: AmuletIds): Result<string, LedgerError> {
  const dso = text(self.argument.dso);
  if (expectedAdmin !== dso) return err(ctx.fail(`expectedAdmin ${expectedAdmin} is not the admin ${dso} of this factory`));
  if (instrument.admin !== dso || instrument.id !== AMULET_INSTRUMENT_ID) {
    return err(ctx.fail(`instrument ${text(instrument.admin)}/${text(instrument.id)} is not ${dso}/${AMULET_INSTRUMENT_ID}`));
  }
  if (!positive(amount)) return err(ctx.fail(`amount must be positive, got ${amount}`));
  return contextRound(ctx, extraArgs, dso, ids);
}

/**
 * What every Amulet choice reads from its context: the AmuletRules and the open round (whose
 * number new amulets carry), both of this dso. Answers the round number.
 */
export function contextRound(ctx: ChoiceContext, extraArgs: DamlValue | undefined, dso: string, ids: AmuletIds): Result<string, LedgerError> {
  const rulesCid = requiredContextCid(ctx, extraArgs, AMULET_RULES_KEY);
  if (!rulesCid.ok) return rulesCid;
  const rules = fetchOf(ctx, rulesCid.value, ids.amuletRules, 'AmuletRules', dso);
  if (!rules.ok) return rules;
  const roundCid = requiredContextCid(ctx, extraArgs, OPEN_ROUND_KEY);
  if (!roundCid.ok) return roundCid;
  const round = fetchOf(ctx, roundCid.value, ids.openRound, 'OpenMiningRound', dso);
  if (!round.ok) return round;
  const opened = notAfterNow(ctx, round.value.argument.opensAt, 'the open round opensAt');
  if (!opened.ok) return opened;
  return ok(text(record(round.value.argument.round).number));
}

/**
 * Spends the sender's input holdings (each an unlocked Amulet of this dso owned by the sender;
 * one used twice fails as a fetch of an archived contract) and returns the change, if any.
 */
export function spend(
  ctx: ChoiceContext,
  dso: string,
  sender: string,
  inputs: readonly string[],
  amount: string,
  round: string,
  ids: Pick<AmuletIds, 'amulet' | 'lockedAmulet'>,
  what = 'the transfer',
): Result<string[], LedgerError> {
  let total = 0n;
  for (const cid of inputs) {
    const c = ctx.fetch(cid);
    if (!c.ok) return c;
    if (c.value.templateId === ids.lockedAmulet) return err(ctx.fail(`input holding ${cid} is locked`));
    if (c.value.templateId !== ids.amulet || c.value.argument.dso !== dso) return err(ctx.fail(`input holding ${cid} is not an Amulet of ${dso}`));
    if (c.value.argument.owner !== sender) return err(ctx.fail(`input holding ${cid} is not owned by the sender ${sender}`));
    total += toScaled(text(record(c.value.argument.amount).initialAmount));
    const archived = ctx.archive(cid);
    if (!archived.ok) return archived;
  }
  const change = total - toScaled(amount);
  if (change < 0n) return err(ctx.fail(`Insufficient funds: the inputs hold ${fromScaled(total)}, ${what} needs ${fromScaled(toScaled(amount))}`));
  if (change === 0n) return ok([]);
  const cid = ctx.create(AMULET_TEMPLATE, amuletOf(dso, sender, fromScaled(change), round));
  return cid.ok ? ok([cid.value]) : cid;
}

export function transfer(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, ids: AmuletIds): Result<DamlValue, LedgerError> {
  const t = record(arg.transfer);
  const dso = text(self.argument.dso);
  const sender = text(t.sender);
  const receiver = text(t.receiver);
  const amount = text(t.amount);
  const round = checkFactoryCall(ctx, self, text(arg.expectedAdmin), record(t.instrumentId), amount, arg.extraArgs, ids);
  if (!round.ok) return round;
  const requested = notAfterNow(ctx, t.requestedAt, 'requestedAt');
  if (!requested.ok) return requested;
  const open = before(ctx, t.executeBefore, 'executeBefore');
  if (!open.ok) return open;
  const change = spend(ctx, dso, sender, t.inputHoldingCids as string[], amount, round.value, ids);
  if (!change.ok) return change;

  const result = (output: DamlValue) => ok({ output, senderChangeCids: change.value, meta: EMPTY_META });
  if (receiver === sender) {
    const cid = ctx.create(AMULET_TEMPLATE, amuletOf(dso, receiver, amount, round.value));
    return cid.ok ? result({ tag: 'TransferInstructionResult_Completed', value: { receiverHoldingCids: [cid.value] } }) : cid;
  }
  const preapprovalCid = contextCid(arg.extraArgs, TRANSFER_PREAPPROVAL_KEY);
  if (preapprovalCid !== undefined) {
    const p = fetchOf(ctx, preapprovalCid, ids.preapproval, 'TransferPreapproval', dso);
    if (!p.ok) return p;
    if (p.value.argument.receiver !== receiver) return err(ctx.fail(`the transfer preapproval ${preapprovalCid} is not for ${receiver}`));
    const sent = ctx.exercise(preapprovalCid, 'TransferPreapproval_Send', { sender, amount, round: { number: round.value } });
    if (!sent.ok) return sent;
    return result({ tag: 'TransferInstructionResult_Completed', value: { receiverHoldingCids: [text(record(sent.value).receiverAmuletCid)] } });
  }
  const locked = ctx.create(LOCKED_AMULET_TEMPLATE, {
    amulet: amuletOf(dso, sender, amount, round.value),
    lock: { holders: [dso], expiresAt: text(t.executeBefore), optContext: `transfer to ${receiver}` },
  });
  if (!locked.ok) return locked;
  const instruction = ctx.create(AMULET_TRANSFER_INSTRUCTION_TEMPLATE, { lockedAmulet: locked.value, transfer: t });
  if (!instruction.ok) return instruction;
  return result({ tag: 'TransferInstructionResult_Pending', value: { transferInstructionCid: instruction.value } });
}

/** Archives the locked amulet behind an instruction or allocation and hands its amount to `owner`. */
export function unlockTo(ctx: ChoiceContext, lockedCid: string, owner: string, round: string, ids: AmuletIds): Result<string, LedgerError> {
  const locked = ctx.fetch(lockedCid);
  if (!locked.ok) return locked;
  if (locked.value.templateId !== ids.lockedAmulet) return err(ctx.fail(`${lockedCid} is not a LockedAmulet`));
  const archived = ctx.archive(lockedCid);
  if (!archived.ok) return archived;
  const a = record(locked.value.argument.amulet);
  return ctx.create(AMULET_TEMPLATE, amuletOf(text(a.dso), owner, text(record(a.amount).initialAmount), round));
}

export function acceptTransfer(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, ids: AmuletIds): Result<DamlValue, LedgerError> {
  const t = record(self.argument.transfer);
  const dso = text(record(t.instrumentId).admin);
  const round = contextRound(ctx, arg.extraArgs, dso, ids);
  if (!round.ok) return round;
  const open = before(ctx, t.executeBefore, 'executeBefore');
  if (!open.ok) return open;
  const cid = unlockTo(ctx, text(self.argument.lockedAmulet), text(t.receiver), round.value, ids);
  if (!cid.ok) return cid;
  return ok({ output: { tag: 'TransferInstructionResult_Completed', value: { receiverHoldingCids: [cid.value] } }, senderChangeCids: [], meta: EMPTY_META });
}

/** Reject (receiver) and withdraw (sender): the locked amount goes back to the sender. */
export function returnToSender(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, ids: AmuletIds): Result<DamlValue, LedgerError> {
  const t = record(self.argument.transfer);
  const round = contextRound(ctx, arg.extraArgs, text(record(t.instrumentId).admin), ids);
  if (!round.ok) return round;
  const cid = unlockTo(ctx, text(self.argument.lockedAmulet), text(t.sender), round.value, ids);
  if (!cid.ok) return cid;
  return ok({ output: { tag: 'TransferInstructionResult_Failed', value: {} }, senderChangeCids: [cid.value], meta: EMPTY_META });
}

function allocate(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, ids: AmuletIds): Result<DamlValue, LedgerError> {
  const spec = record(arg.allocation);
  const leg = record(spec.transferLeg);
  const settlement = record(spec.settlement);
  const dso = text(self.argument.dso);
  const amount = text(leg.amount);
  const round = checkFactoryCall(ctx, self, text(arg.expectedAdmin), record(leg.instrumentId), amount, arg.extraArgs, ids);
  if (!round.ok) return round;
  const requested = notAfterNow(ctx, arg.requestedAt, 'requestedAt');
  if (!requested.ok) return requested;
  const open = before(ctx, settlement.allocateBefore, 'allocateBefore');
  if (!open.ok) return open;
  const change = spend(ctx, dso, text(leg.sender), arg.inputHoldingCids as string[], amount, round.value, ids);
  if (!change.ok) return change;
  const locked = ctx.create(LOCKED_AMULET_TEMPLATE, {
    amulet: amuletOf(dso, text(leg.sender), amount, round.value),
    lock: { holders: [dso], expiresAt: text(settlement.settleBefore), optContext: `allocation for ${text(record(settlement.settlementRef).id)}` },
  });
  if (!locked.ok) return locked;
  const allocation = ctx.create(AMULET_ALLOCATION_TEMPLATE, { lockedAmulet: locked.value, allocation: spec });
  if (!allocation.ok) return allocation;
  return ok({ output: { tag: 'AllocationInstructionResult_Completed', value: { allocationCid: allocation.value } }, senderChangeCids: change.value, meta: EMPTY_META });
}

/** Execute (to the receiver, before settleBefore) or release (cancel, withdraw: back to the sender); archives the allocation. */
function settleAllocation(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, how: 'execute' | 'release', ids: AmuletIds): Result<DamlValue, LedgerError> {
  const spec = record(self.argument.allocation);
  const leg = record(spec.transferLeg);
  const round = contextRound(ctx, arg.extraArgs, text(record(leg.instrumentId).admin), ids);
  if (!round.ok) return round;
  if (how === 'execute') {
    const open = before(ctx, record(spec.settlement).settleBefore, 'settleBefore');
    if (!open.ok) return open;
  }
  const archived = ctx.archive(self.contractId);
  if (!archived.ok) return archived;
  const owner = text(how === 'execute' ? leg.receiver : leg.sender);
  const cid = unlockTo(ctx, text(self.argument.lockedAmulet), owner, round.value, ids);
  if (!cid.ok) return cid;
  return how === 'execute'
    ? ok({ senderHoldingCids: [], receiverHoldingCids: [cid.value], meta: EMPTY_META })
    : ok({ senderHoldingCids: [cid.value], meta: EMPTY_META });
}
