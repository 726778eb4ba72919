import type { Catalogue, ChoiceContext, ContractView, DamlRecord, DamlValue, FieldType, LedgerError, Result } from '../../ledger/index.js';
import { err, ok } from '../../ledger/index.js';
import {
  AMULET_PACKAGE,
  AMULET_RULES_TEMPLATE,
  AMULET_TEMPLATE,
  FEATURED_APP_RIGHT_TEMPLATE,
  MEMBER_TRAFFIC_TEMPLATE,
  LOCKED_AMULET_TEMPLATE,
  CLOSED_MINING_ROUND_TEMPLATE,
  ISSUING_MINING_ROUND_TEMPLATE,
  OPEN_MINING_ROUND_TEMPLATE,
  SUMMARIZING_MINING_ROUND_TEMPLATE,
  TRANSFER_PREAPPROVAL_TEMPLATE,
} from '../templateIds.js';
import { fromScaled, toScaled } from '../../ledger/templates/numeric.js';
import { spend, type AmuletIds } from '../amulet/amuletTokenTemplates.js';
import { microsToTimestamp, msToMicros, timeMicros } from '../time.js';
import { unwrapRegistration } from '../unwrapRegistration.js';
import { invalidTransfer } from './invalidTransfer.js';

const ROUND: FieldType = { record: { number: 'Int64' } };
/** Daml `RelTime` in its JSON encoding. */
const REL_TIME: FieldType = { record: { microseconds: 'Int64' } };

const text = (v: DamlValue | undefined): string => v as string;
const micros = (v: DamlValue | undefined): bigint => timeMicros(text(v)) ?? 0n;
const relMicros = (v: DamlValue | undefined): bigint => BigInt(((v ?? {}) as DamlRecord).microseconds as string);

/**
 * Splice Amulet templates Scan reads, with upstream field and choice names. What Scan does not
 * look at is left out (fees, payment contexts, issuance configuration): renewals and round
 * transitions do not move Amulet here.
 *
 * - `Splice.AmuletRules:TransferPreapproval {dso, receiver, provider, validFrom, lastRenewedAt,
 *   expiresAt}`: signatories receiver, provider and dso; ensures `expiresAt > validFrom` and
 *   `lastRenewedAt >= validFrom`. Choices: `TransferPreapproval_Renew {newExpiresAt, context?,
 *   inputs?}` (provider, before expiry, to a later expiry; keeps validFrom, sets lastRenewedAt to
 *   the old expiry), `TransferPreapproval_Cancel {p}` (receiver or provider, before expiry),
 *   `TransferPreapproval_Expire {}` (dso, once expired), nonconsuming `TransferPreapproval_Fetch {p}`.
 * - `Splice.AmuletRules:AmuletRules {dso, configSchedule, isDevNet}`: signatory dso; drives the round lifecycle
 *   with the upstream choice names (all nonconsuming, controller dso):
 *   `AmuletRules_AdvanceOpenMiningRounds {amuletPrice, roundToArchiveCid, middleRoundCid,
 *   latestRoundCid}` (oldest open round -> summarizing, a new open round after the latest),
 *   `AmuletRules_MiningRound_StartIssuing {miningRoundCid}` (summarizing -> issuing),
 *   `AmuletRules_MiningRound_Close {issuingRoundCid}` (issuing -> closed),
 *   `AmuletRules_MiningRound_Archive {closedRoundCid}` (archives a closed round: the round is done).
 * - `Splice.Round:{Open,Summarizing,Issuing,Closed}MiningRound`, each with `dso` and
 *   `round: {number}`: signatory dso. Open rounds may also be created directly by the dso.
 */
export function registerAmuletTemplates(catalogue: Catalogue): void {
  const template = (spec: Parameters<Catalogue['addTemplate']>[0]) => unwrapRegistration(catalogue.addTemplate(spec));
  // Amulet holdings are declared after these templates (with the token standard); resolved once, on first use.
  let holdings: Pick<AmuletIds, 'amulet' | 'lockedAmulet'> | undefined;
  const holdingIds = () =>
    (holdings ??= { amulet: unwrapRegistration(catalogue.resolveTemplate(AMULET_TEMPLATE)).id, lockedAmulet: unwrapRegistration(catalogue.resolveTemplate(LOCKED_AMULET_TEMPLATE)).id });

  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.AmuletRules',
    entity: 'TransferPreapproval',
    fields: { dso: 'Party', receiver: 'Party', provider: 'Party', validFrom: 'Time', lastRenewedAt: 'Time', expiresAt: 'Time' },
    signatories: ['receiver', 'provider', 'dso'],
    ensure: (a) => {
      const validFrom = timeMicros(text(a.validFrom));
      const lastRenewedAt = timeMicros(text(a.lastRenewedAt));
      const expiresAt = timeMicros(text(a.expiresAt));
      if (validFrom === undefined || lastRenewedAt === undefined || expiresAt === undefined) return 'validFrom, lastRenewedAt and expiresAt must be RFC 3339 timestamps';
      if (!(expiresAt > validFrom)) return 'expiresAt must be after validFrom';
      if (!(lastRenewedAt >= validFrom)) return 'lastRenewedAt must not be before validFrom';
      return undefined;
    },
    choices: {
      TransferPreapproval_Fetch: {
        consuming: false,
        argument: { record: { p: 'Party' } },
        controllers: (_self, arg) => [text((arg as DamlRecord).p)],
        body: (_ctx, self) => ok(self.argument),
      },
      TransferPreapproval_Renew: {
        consuming: true,
        argument: { record: { newExpiresAt: 'Time', context: { optional: 'Any' }, inputs: { optional: { list: 'Any' } } } },
        controllers: (self) => [text(self.argument.provider)],
        body: (ctx, self, arg) => {
          const expiresAt = micros(self.argument.expiresAt);
          const within = withinDeadline(ctx, expiresAt);
          if (!within.ok) return within;
          const newExpiresAt = (arg as DamlRecord).newExpiresAt as string;
          if (!(micros(newExpiresAt) > expiresAt)) return err(ctx.fail(`newExpiresAt ${newExpiresAt} must be after expiresAt ${text(self.argument.expiresAt)}`));
          const cid = ctx.create(TRANSFER_PREAPPROVAL_TEMPLATE, { ...self.argument, lastRenewedAt: self.argument.expiresAt as string, expiresAt: newExpiresAt });
          if (!cid.ok) return cid;
          // Upstream also reports the payment (transferResult); renewals are free here.
          return ok({ transferPreapprovalCid: cid.value, receiver: text(self.argument.receiver), provider: text(self.argument.provider), amuletPaid: '0.0000000000', meta: null });
        },
      },
      TransferPreapproval_Cancel: {
        consuming: true,
        argument: { record: { p: 'Party' } },
        controllers: (_self, arg) => [text((arg as DamlRecord).p)],
        body: (ctx, self, arg) => {
          const p = text((arg as DamlRecord).p);
          if (p !== self.argument.receiver && p !== self.argument.provider) return err(ctx.fail(`Controller ${p} is neither the receiver nor the provider`));
          const within = withinDeadline(ctx, micros(self.argument.expiresAt));
          return within.ok ? ok({}) : within;
        },
      },
      // The receiver's authority for a transfer the factory completes at once (upstream: _SendV2).
      TransferPreapproval_Send: {
        consuming: false,
        argument: { record: { sender: 'Party', amount: 'Numeric', round: ROUND } },
        controllers: (_self, arg) => [text((arg as DamlRecord).sender)],
        body: (ctx, self, arg) => {
          const within = withinDeadline(ctx, micros(self.argument.expiresAt));
          if (!within.ok) return within;
          const a = arg as DamlRecord;
          const cid = ctx.create(AMULET_TEMPLATE, {
            dso: text(self.argument.dso),
            owner: text(self.argument.receiver),
            amount: { initialAmount: text(a.amount), createdAt: a.round as DamlRecord, ratePerRound: { rate: '0.0000000000' } },
          });
          return cid.ok ? ok({ receiverAmuletCid: cid.value }) : cid;
        },
      },
      TransferPreapproval_Expire: {
        consuming: true,
        controllers: (self) => [text(self.argument.dso)],
        body: (ctx, self) => {
          const expiresAt = micros(self.argument.expiresAt);
          if (msToMicros(ctx.now) < expiresAt) return err(ctx.fail(`TransferPreapproval.expiresAt ${text(self.argument.expiresAt)} has not passed yet`));
          return ok({});
        },
      },
    },
  });

  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.Round',
    entity: 'OpenMiningRound',
    fields: { dso: 'Party', round: ROUND, amuletPrice: 'Numeric', opensAt: 'Time', targetClosesAt: 'Time', issuingFor: REL_TIME, tickDuration: REL_TIME },
    signatories: ['dso'],
  });
  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.Round',
    entity: 'SummarizingMiningRound',
    fields: { dso: 'Party', round: ROUND, amuletPrice: 'Numeric', tickDuration: REL_TIME },
    signatories: ['dso'],
  });
  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.Round',
    entity: 'IssuingMiningRound',
    fields: { dso: 'Party', round: ROUND, opensAt: 'Time', targetClosesAt: 'Time' },
    signatories: ['dso'],
  });
  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.Round',
    entity: 'ClosedMiningRound',
    fields: { dso: 'Party', round: ROUND },
    signatories: ['dso'],
  });

  const dsoOf = (self: { argument: DamlRecord }) => [text(self.argument.dso)];
  template({
    packageName: AMULET_PACKAGE,
    module: 'Splice.AmuletRules',
    entity: 'AmuletRules',
    // configSchedule is Splice's `Schedule RelTime AmuletConfig`, carried as given: clients read
    // its synchronizer (core-splice-client's getAmuletSynchronizerId); the model never looks inside.
    fields: { dso: 'Party', configSchedule: { optional: 'Any' }, isDevNet: 'Bool' },
    signatories: ['dso'],
    choices: {
      // DevNet's faucet: any party mints amulet for itself, against an open round.
      AmuletRules_DevNet_Tap: {
        consuming: false,
        argument: { record: { receiver: 'Party', amount: 'Numeric', openRound: 'ContractId' } },
        controllers: (_self, arg) => [text((arg as DamlRecord).receiver)],
        body: (ctx, self, arg) => {
          const a = arg as DamlRecord;
          if (self.argument.isDevNet !== true) return err(ctx.fail('DevNet tap is only available on DevNet'));
          if (toScaled(text(a.amount)) <= 0n) return err(ctx.fail(`amount must be positive, got ${text(a.amount)}`));
          const r = roundOf(ctx, text(a.openRound), OPEN_MINING_ROUND_TEMPLATE, self.argument.dso);
          if (!r.ok) return r;
          if (micros(r.value.argument.opensAt) > msToMicros(ctx.now)) return err(ctx.fail(`round ${r.value.number} is not open yet (opensAt ${text(r.value.argument.opensAt)})`));
          const cid = ctx.create(AMULET_TEMPLATE, {
            dso: text(self.argument.dso),
            owner: text(a.receiver),
            amount: { initialAmount: text(a.amount), createdAt: { number: r.value.number.toString() }, ratePerRound: { rate: '0.0000000000' } },
          });
          // Upstream's result carries the token standard's tx-kind, so wallets label the tap a Mint.
          return cid.ok ? ok({ amuletSum: { amulet: cid.value }, meta: { values: { 'splice.lfdecentralizedtrust.org/tx-kind': 'mint' } } }) : cid;
        },
      },
      // The DSO's side of a transfer preapproval (upstream: what TransferPreapprovalProposal_Accept
      // calls): the provider and the receiver ask, the DSO co-signs. Free here (no fees are charged).
      AmuletRules_CreateTransferPreapproval: {
        consuming: false,
        argument: { record: { context: 'Any', inputs: { list: 'Any' }, receiver: 'Party', provider: 'Party', expiresAt: 'Time' } },
        controllers: (_self, arg) => [text((arg as DamlRecord).provider), text((arg as DamlRecord).receiver)],
        body: (ctx, self, arg) => {
          const a = arg as DamlRecord;
          const now = microsToTimestamp(msToMicros(ctx.now));
          const cid = ctx.create(TRANSFER_PREAPPROVAL_TEMPLATE, {
            dso: text(self.argument.dso),
            receiver: text(a.receiver),
            provider: text(a.provider),
            validFrom: now,
            lastRenewedAt: now,
            expiresAt: text(a.expiresAt),
          });
          return cid.ok ? ok({ transferPreapprovalCid: cid.value, amuletPaid: '0.0000000000', meta: null }) : cid;
        },
      },
      // Traffic for a synchronizer member, paid in amulet (burnt): Splice's defaults price extra
      // traffic at 16.67 USD per MB with a 200,000-byte minimum top-up; the open round's amulet
      // price converts. The purchase is a MemberTraffic contract Scan's traffic-status sums.
      AmuletRules_BuyMemberTraffic: {
        consuming: false,
        argument: {
          record: { inputs: { list: 'Any' }, context: 'Any', provider: 'Party', memberId: 'Text', synchronizerId: 'Text', migrationId: 'Int64', trafficAmount: 'Int64', expectedDso: { optional: 'Party' } },
        },
        controllers: (_self, arg) => [text((arg as DamlRecord).provider)],
        body: (ctx, self, arg) => buyMemberTraffic(ctx, self, arg as DamlRecord, holdingIds),
      },
      AmuletRules_DevNet_FeatureApp: {
        consuming: false,
        argument: { record: { provider: 'Party' } },
        controllers: (_self, arg) => [text((arg as DamlRecord).provider)],
        body: (ctx, self, arg) => {
          if (self.argument.isDevNet !== true) return err(ctx.fail('self-granting featured app rights is only available on DevNet'));
          const cid = ctx.create(FEATURED_APP_RIGHT_TEMPLATE, { dso: text(self.argument.dso), provider: text((arg as DamlRecord).provider) });
          return cid.ok ? ok({ featuredAppRightCid: cid.value }) : cid;
        },
      },
      AmuletRules_AdvanceOpenMiningRounds: {
        consuming: false,
        argument: { record: { amuletPrice: 'Numeric', roundToArchiveCid: 'ContractId', middleRoundCid: 'ContractId', latestRoundCid: 'ContractId' } },
        controllers: dsoOf,
        body: (ctx, self, arg) => {
          const a = arg as DamlRecord;
          const rounds: Round[] = [];
          for (const cid of [a.roundToArchiveCid, a.middleRoundCid, a.latestRoundCid]) {
            const r = roundOf(ctx, text(cid), OPEN_MINING_ROUND_TEMPLATE, self.argument.dso);
            if (!r.ok) return r;
            rounds.push(r.value);
          }
          const [oldest, middle, latest] = rounds as [Round, Round, Round];
          if (!(oldest.number + 1n === middle.number && middle.number + 1n === latest.number)) {
            return err(ctx.fail(`open rounds must be consecutive, got ${oldest.number}, ${middle.number}, ${latest.number}`));
          }
          const archived = ctx.archive(oldest.contractId);
          if (!archived.ok) return archived;
          const o = oldest.argument;
          const summarizingRoundCid = ctx.create(SUMMARIZING_MINING_ROUND_TEMPLATE, { dso: o.dso as string, round: o.round as DamlRecord, amuletPrice: o.amuletPrice as string, tickDuration: o.tickDuration as DamlRecord });
          if (!summarizingRoundCid.ok) return summarizingRoundCid;
          const l = latest.argument;
          const tick = relMicros(l.tickDuration);
          const now = msToMicros(ctx.now);
          const openRoundCid = ctx.create(OPEN_MINING_ROUND_TEMPLATE, {
            ...l,
            round: { number: (latest.number + 1n).toString() },
            amuletPrice: a.amuletPrice as string,
            opensAt: microsToTimestamp(now + tick),
            targetClosesAt: microsToTimestamp(now + 3n * tick),
          });
          if (!openRoundCid.ok) return openRoundCid;
          return ok({ summarizingRoundCid: summarizingRoundCid.value, openRoundCid: openRoundCid.value });
        },
      },
      AmuletRules_MiningRound_StartIssuing: {
        consuming: false,
        argument: { record: { miningRoundCid: 'ContractId' } },
        controllers: dsoOf,
        body: (ctx, self, arg) => {
          const r = roundOf(ctx, text((arg as DamlRecord).miningRoundCid), SUMMARIZING_MINING_ROUND_TEMPLATE, self.argument.dso);
          if (!r.ok) return r;
          const archived = ctx.archive(r.value.contractId);
          if (!archived.ok) return archived;
          const now = msToMicros(ctx.now);
          const tick = relMicros(r.value.argument.tickDuration);
          const issuingRoundCid = ctx.create(ISSUING_MINING_ROUND_TEMPLATE, {
            dso: r.value.argument.dso as string,
            round: r.value.argument.round as DamlRecord,
            opensAt: microsToTimestamp(now + tick),
            targetClosesAt: microsToTimestamp(now + 2n * tick),
          });
          return issuingRoundCid.ok ? ok({ issuingRoundCid: issuingRoundCid.value }) : issuingRoundCid;
        },
      },
      AmuletRules_MiningRound_Close: {
        consuming: false,
        argument: { record: { issuingRoundCid: 'ContractId' } },
        controllers: dsoOf,
        body: (ctx, self, arg) => {
          const r = roundOf(ctx, text((arg as DamlRecord).issuingRoundCid), ISSUING_MINING_ROUND_TEMPLATE, self.argument.dso);
          if (!r.ok) return r;
          const archived = ctx.archive(r.value.contractId);
          if (!archived.ok) return archived;
          const closedRoundCid = ctx.create(CLOSED_MINING_ROUND_TEMPLATE, { dso: r.value.argument.dso as string, round: r.value.argument.round as DamlRecord });
          return closedRoundCid.ok ? ok({ closedRoundCid: closedRoundCid.value }) : closedRoundCid;
        },
      },
      AmuletRules_MiningRound_Archive: {
        consuming: false,
        argument: { record: { closedRoundCid: 'ContractId' } },
        controllers: dsoOf,
        body: (ctx, self, arg) => {
          const r = roundOf(ctx, text((arg as DamlRecord).closedRoundCid), CLOSED_MINING_ROUND_TEMPLATE, self.argument.dso);
          if (!r.ok) return r;
          const archived = ctx.archive(r.value.contractId);
          return archived.ok ? ok({}) : archived;
        },
      },
    },
  });

  unwrapRegistration(catalogue.addTemplate({
    packageName: AMULET_PACKAGE,
    module: 'Splice.DecentralizedSynchronizer',
    entity: 'MemberTraffic',
    fields: { dso: 'Party', memberId: 'Text', synchronizerId: 'Text', migrationId: 'Int64', totalPurchased: 'Int64', numPurchases: 'Int64', amuletSpent: 'Numeric', usdSpent: 'Numeric' },
    signatories: ['dso'],
  }));

  // Resolve once so a typo in a template id above fails at start-up, not at the first exercise.
  for (const id of [AMULET_RULES_TEMPLATE, OPEN_MINING_ROUND_TEMPLATE, SUMMARIZING_MINING_ROUND_TEMPLATE, ISSUING_MINING_ROUND_TEMPLATE, CLOSED_MINING_ROUND_TEMPLATE, MEMBER_TRAFFIC_TEMPLATE]) {
    unwrapRegistration(catalogue.resolveTemplate(id));
  }
}

interface Round {
  readonly contractId: string;
  readonly number: bigint;
  readonly argument: DamlRecord;
}

/** Fetches a round contract and checks it is of the expected stage and of this dso. */
function roundOf(ctx: ChoiceContext, contractId: string, expected: string, dso: DamlValue | undefined): Result<Round, LedgerError> {
  const c = ctx.fetch(contractId);
  if (!c.ok) return c;
  const entity = expected.slice(expected.lastIndexOf(':') + 1);
  if (!c.value.templateId.endsWith(`:Splice.Round:${entity}`) || c.value.packageName !== AMULET_PACKAGE) {
    return err(ctx.fail(`contract ${contractId} is not a ${entity}`));
  }
  if (c.value.argument.dso !== dso) return err(ctx.fail(`round ${contractId} belongs to another dso`));
  const number = BigInt(((c.value.argument.round ?? {}) as DamlRecord).number as string);
  return ok({ contractId, number, argument: c.value.argument });
}

/** Splice's `assertWithinDeadline`: ledger time strictly before the deadline. */
function withinDeadline(ctx: ChoiceContext, deadline: bigint): Result<void, LedgerError> {
  if (msToMicros(ctx.now) < deadline) return ok(undefined);
  return err(ctx.fail(`TransferPreapproval.expiresAt ${microsToTimestamp(deadline)} has passed`));
}

/** Splice's default price of extra traffic (USD per MB) and minimum top-up (bytes). */
const EXTRA_TRAFFIC_PRICE_USD_PER_MB = '16.67';
const MIN_TOPUP_BYTES = 200_000n;

/** What the unlocked Amulet among `inputs` holds (scaled); spend checks each input itself. */
function heldAmount(ctx: ChoiceContext, inputs: readonly string[], amulet: string): bigint {
  let total = 0n;
  for (const cid of inputs) {
    const c = ctx.fetch(cid);
    if (c.ok && c.value.templateId === amulet) total += toScaled(text((c.value.argument.amount as DamlRecord | undefined)?.initialAmount));
  }
  return total;
}

/** AmuletRules_BuyMemberTraffic: burns the provider's input amulets for the traffic's price, returns the change, records the purchase. */
function buyMemberTraffic(ctx: ChoiceContext, self: ContractView, a: DamlRecord, holdingIds: () => Pick<AmuletIds, 'amulet' | 'lockedAmulet'>): Result<DamlValue, LedgerError> {
  const dso = text(self.argument.dso);
  // Refused as the real AmuletRules refuses: Splice's InvalidTransfer, typed in this package.
  const packageId = self.templateId.slice(0, self.templateId.indexOf(':'));
  const provider = text(a.provider);
  if (typeof a.expectedDso === 'string' && a.expectedDso !== dso) return err(ctx.fail(`the expected DSO ${a.expectedDso} is not AmuletRules' DSO`));
  const bytes = BigInt(text(a.trafficAmount) || '0');
  if (bytes < MIN_TOPUP_BYTES) return err(invalidTransfer(packageId, { reason: 'ITR_InsufficientTopupAmount', requestedTopupAmount: bytes, minTopupAmount: MIN_TOPUP_BYTES }));
  if (text(a.memberId) === '' || text(a.synchronizerId) === '') return err(ctx.fail('memberId and synchronizerId must be given'));
  const round = roundOf(ctx, text(((a.context ?? {}) as DamlRecord).openMiningRound), OPEN_MINING_ROUND_TEMPLATE, dso);
  if (!round.ok) return round;
  if (micros(round.value.argument.opensAt) > msToMicros(ctx.now)) return err(ctx.fail(`round ${round.value.number} is not open yet`));
  const price = toScaled(text(round.value.argument.amuletPrice));
  if (price <= 0n) return err(ctx.fail('the open round has no positive amulet price'));
  // Numeric 10 throughout: USD = bytes / 1e6 * price per MB; amulet = USD / amulet price (rounded up).
  const usd = (bytes * toScaled(EXTRA_TRAFFIC_PRICE_USD_PER_MB)) / 1_000_000n;
  const cost = (usd * 10_000_000_000n + price - 1n) / price;
  const inputs: string[] = [];
  for (const input of (a.inputs ?? []) as DamlValue[]) {
    const i = (input ?? {}) as DamlRecord;
    if (i.tag !== 'InputAmulet') return err(ctx.fail(`input ${JSON.stringify(input).slice(0, 120)} is not an InputAmulet`));
    inputs.push(text(i.value));
  }
  const held = heldAmount(ctx, inputs, holdingIds().amulet);
  if (held < cost) return err(invalidTransfer(packageId, { reason: 'ITR_InsufficientFunds', missingAmount: cost - held }));
  const change = spend(ctx, dso, provider, inputs, fromScaled(cost), round.value.number.toString(), holdingIds(), 'the traffic purchase');
  if (!change.ok) return change;
  const traffic = ctx.create(MEMBER_TRAFFIC_TEMPLATE, {
    dso,
    memberId: text(a.memberId),
    synchronizerId: text(a.synchronizerId),
    migrationId: text(a.migrationId) || '0',
    totalPurchased: bytes.toString(),
    numPurchases: '1',
    amuletSpent: fromScaled(cost),
    usdSpent: fromScaled(usd),
  });
  if (!traffic.ok) return traffic;
  return ok({ round: { number: round.value.number.toString() }, amuletPaid: fromScaled(cost), purchasedTraffic: traffic.value, senderChangeAmulet: change.value[0] ?? null, meta: null });
}
