import type { Command, DamlRecord, Ledger, LedgerError, Result } from '../../ledger/index.js';
import { ok, PARTICIPANT_ADMIN_USER } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import type { AmuletLedgerView } from '../amulet/AmuletLedgerView.js';
import { record, text } from '../amulet/amuletContext.js';
import type { RoundKeeper } from '../amulet/RoundAutomation.js';
import { msToMicros, timeMicros } from '../time.js';
import type { SpliceAmulet } from './SpliceAmulet.js';

/** Advances per catch-up: after a long idle only the rounds opened before it can be archived. */
const MAX_ADVANCES = 4;
/** The summary a round starts issuing with: the ports record no reward coupons either. */
const EMPTY_SUMMARY = { totalValidatorRewardCoupons: '0.0', totalFeaturedAppRewardCoupons: '0.0', totalUnfeaturedAppRewardCoupons: '0.0', totalSvRewardWeight: '0', optTotalValidatorFaucetCoupons: null };

/** Round numbers by contract (arguments never change): the automation sorts the open rounds on every read. */
const roundNumbers = new WeakMap<StoredContract, bigint>();
const roundNumber = (c: StoredContract): bigint => {
  let n = roundNumbers.get(c);
  if (n === undefined) roundNumbers.set(c, (n = BigInt(text(record(c.argument.round).number) || '0')));
  return n;
};

/** The reward coupons a round's closing leaves behind, and the choice by which the DSO expires each. */
const COUPONS = [
  ['Splice.Amulet:AppRewardCoupon', 'AppRewardCoupon_DsoExpire'],
  ['Splice.Amulet:ValidatorRewardCoupon', 'ValidatorRewardCoupon_DsoExpire'],
  ['Splice.Amulet:SvRewardCoupon', 'SvRewardCoupon_DsoExpire'],
  ['Splice.ValidatorLicense:ValidatorFaucetCoupon', 'ValidatorFaucetCoupon_DsoExpire'],
  ['Splice.ValidatorLicense:ValidatorLivenessActivityRecord', 'ValidatorLivenessActivityRecord_DsoExpire'],
] as const;

const at = (c: StoredContract, field: string) => timeMicros(text(c.argument[field])) ?? 0n;

/**
 * The DSO's round automation on Splice's own splice-amulet: the real choices, exercised as the
 * DSO when a reader needs the current round (as the ports' RoundAutomation, so an idle server
 * writes nothing). `AmuletRules_AdvanceOpenMiningRounds` while the oldest of the three open rounds
 * has reached its target close and the middle one has opened (the package's own conditions; the
 * new round opens a tick later, as Splice schedules it), then, on 0.1.22 and later, once the
 * older ExternalPartyConfigState may be archived, `AmuletRules_UpdateExternalPartyConfigStates`; summarizing rounds start
 * issuing (`AmuletRules_MiningRound_StartIssuing`, with an empty summary: no reward coupons are
 * tallied) and issuing rounds past their target close are closed (`AmuletRules_MiningRound_Close`).
 * The round answered is Splice's registry's: the latest open round that has opened.
 */
export class SpliceRoundAutomation implements RoundKeeper {
  #step = 0;

  constructor(
    readonly ledger: Ledger,
    readonly view: AmuletLedgerView,
    readonly amulet: SpliceAmulet,
  ) {}

  /** The latest open round of `dso` that has opened by `now` (Splice's lookupLatestUsableOpenMiningRound). */
  usableRound(dso: string, now: bigint): StoredContract | undefined {
    let best: StoredContract | undefined;
    for (const c of this.view.openRounds.get(dso)) if (at(c, 'opensAt') <= now && (best === undefined || roundNumber(c) > roundNumber(best))) best = c;
    return best;
  }

  catchUp(dso: string): Result<StoredContract | undefined, LedgerError> {
    const nowMs = this.ledger.config.clock.now();
    const now = msToMicros(nowMs);
    const rules = this.view.amuletRules.first(dso);
    if (rules === undefined) return ok(undefined);
    const ids = this.amulet.ids;
    const onRules = (choice: string, choiceArgument: DamlRecord): Command => ({ ExerciseCommand: { templateId: ids.amuletRules, contractId: rules.contractId, choice, choiceArgument } });
    const submit = (commands: Command[]) =>
      this.ledger.submitAndWait({ userId: PARTICIPANT_ADMIN_USER, commandId: `dso-round-automation-${nowMs}-${++this.#step}`, actAs: [dso], commands });

    // The older ExternalPartyConfigState (none before 0.1.22) is replaced once it may be archived
    // (its targetArchiveAfter passed), naming the latest open-round triple.
    const refreshConfigStates = (): Result<unknown, LedgerError> => {
      const states = this.#configStates(dso);
      const triple = [...this.view.openRounds.get(dso)].sort((a, b) => (roundNumber(a) < roundNumber(b) ? -1 : 1)).slice(-3);
      if (states.length < 2 || triple.length !== 3 || at(states[0]!, 'targetArchiveAfter') > now) return ok(undefined);
      return submit([onRules('AmuletRules_UpdateExternalPartyConfigStates', {
        externalPartyConfigStateCid0: states[0]!.contractId,
        externalPartyConfigStateCid1: states[1]!.contractId,
        openMiningRoundTriple: { round0Cid: triple[0]!.contractId, round1Cid: triple[1]!.contractId, round2Cid: triple[2]!.contractId },
      })]);
    };

    for (let i = 0; i < MAX_ADVANCES; i++) {
      const open = [...this.view.openRounds.get(dso)].sort((a, b) => (roundNumber(a) < roundNumber(b) ? -1 : 1));
      if (open.length < 3) break;
      const [oldest, middle, latest] = open.slice(0, 3) as [StoredContract, StoredContract, StoredContract];
      if (at(oldest, 'targetClosesAt') > now || at(latest, 'opensAt') > now) break;
      const advanced = submit([onRules('AmuletRules_AdvanceOpenMiningRounds', { amuletPrice: text(latest.argument.amuletPrice), roundToArchiveCid: oldest.contractId, middleRoundCid: middle.contractId, latestRoundCid: latest.contractId })]);
      if (!advanced.ok) return advanced;
      const updated = refreshConfigStates();
      if (!updated.ok) return updated;
    }
    // After an idle longer than two ticks no round is open now (the rounds left closed in the past,
    // the new one opens a tick ahead): the DSO bootstraps a new schedule from now, as a network
    // starting up does, archiving the stale open rounds (wallets tap and transfer in a round that
    // is open now: opensAt <= now < targetClosesAt).
    if (!this.#openNow(dso, now)) {
      const open = [...this.view.openRounds.get(dso)].sort((a, b) => (roundNumber(a) < roundNumber(b) ? -1 : 1));
      const latest = open.at(-1);
      const restarted = submit([
        ...open.map((c): Command => ({ ExerciseCommand: { templateId: ids.openMiningRound, contractId: c.contractId, choice: 'Archive', choiceArgument: {} } })),
        onRules('AmuletRules_Bootstrap_Rounds', {
          amuletPrice: latest === undefined ? '1.0' : text(latest.argument.amuletPrice),
          round0Duration: { microseconds: text(record(latest?.argument.tickDuration).microseconds) || '600000000' },
          // 0.1.22 and later continue the numbering; earlier packages start again at 0.
          ...(this.#bootstrapTakesInitialRound() && latest !== undefined ? { initialRound: (roundNumber(latest) + 1n).toString() } : {}),
        }),
      ]);
      if (!restarted.ok) return restarted;
      const updated = refreshConfigStates();
      if (!updated.ok) return updated;
    }
    const summarizing = [...this.ledger.store.activeSnapshot({ kind: 'template', template: this.amulet.templates.summarizingMiningRound })].filter((c) => c.argument.dso === dso);
    const closing = this.view.issuingRounds.get(dso).filter((c) => at(c, 'targetClosesAt') <= now);
    const lifecycle = [
      ...summarizing.map((c) => onRules('AmuletRules_MiningRound_StartIssuing', { miningRoundCid: c.contractId, summary: EMPTY_SUMMARY })),
      ...closing.map((c) => onRules('AmuletRules_MiningRound_Close', { issuingRoundCid: c.contractId })),
    ];
    if (lifecycle.length > 0) {
      const done = submit(lifecycle);
      if (!done.ok) return done;
    }
    const archived = this.#archiveClosedRounds(dso, submit, onRules);
    if (!archived.ok) return archived;
    // Read at the ledger time now: a schedule bootstrapped above opens at its transaction's time.
    return ok(this.usableRound(dso, msToMicros(this.ledger.config.clock.now())));
  }

  /**
   * Closed rounds end as Splice's SV automation ends them: the reward coupons of the round still
   * unclaimed expire (`*_DsoExpire`), then the round is archived (`AmuletRules_MiningRound_Archive`),
   * which is what Scan's reward accounting counts as a complete round (COUPONS: the kinds expired).
   */
  #archiveClosedRounds(dso: string, submit: (commands: Command[]) => Result<unknown, LedgerError>, onRules: (choice: string, choiceArgument: DamlRecord) => Command): Result<unknown, LedgerError> {
    const closed = this.ledger.store.activeSnapshot({ kind: 'template', template: this.amulet.templates.closedMiningRound }).filter((c) => c.argument.dso === dso);
    if (closed.length === 0) return ok(undefined);
    const coupons = COUPONS.flatMap(([qualified, choice]) => {
      const def = this.ledger.catalogue.resolve(`${this.amulet.packageId}:${qualified}`);
      return def.ok && def.value.kind === 'template' ? [{ template: def.value, choice }] : [];
    });
    const commands: Command[] = [];
    for (const round of closed) {
      const n = roundNumber(round);
      const expiring: Command[] = [];
      for (const { template, choice } of coupons) {
        for (const c of this.ledger.store.activeSnapshot({ kind: 'template', template })) {
          if (c.argument.dso === dso && BigInt(text(record(c.argument.round).number) || '-1') === n) {
            expiring.push({ ExerciseCommand: { templateId: template.id, contractId: c.contractId, choice, choiceArgument: { closedRoundCid: round.contractId } } });
          }
        }
      }
      commands.push(...expiring, onRules('AmuletRules_MiningRound_Archive', { closedRoundCid: round.contractId }));
    }
    return submit(commands);
  }

  /** Is one of `dso`'s open rounds open at `now` (opensAt <= now < targetClosesAt)? */
  #openNow(dso: string, now: bigint): boolean {
    return this.view.openRounds.get(dso).some((c) => at(c, 'opensAt') <= now && now < at(c, 'targetClosesAt'));
  }

  #bootstrapTakesInitialRound(): boolean {
    const def = this.ledger.engine.packages.dataTypes.dataType({ packageId: this.amulet.packageId, module: 'Splice.AmuletRules', name: 'AmuletRules_Bootstrap_Rounds' });
    return def?.kind === 'record' && def.fields.some((f) => f.name === 'initialRound');
  }

  /** The DSO's ExternalPartyConfigStates, the first to expire first (none before 0.1.22): the order the update choice requires. */
  #configStates(dso: string): StoredContract[] {
    const t = this.amulet.externalPartyConfigState?.template;
    if (t === undefined) return [];
    return [...this.ledger.store.activeSnapshot({ kind: 'template', template: t })].filter((c) => c.argument.dso === dso).sort((a, b) => Number(at(a, 'targetArchiveAfter') - at(b, 'targetArchiveAfter')) || a.createdOffset - b.createdOffset);
  }

  /** The newest ExternalPartyConfigState of `dso`, which the registry's contexts name. */
  latestConfigState(dso: string): StoredContract | undefined {
    return this.#configStates(dso).at(-1);
  }
}
