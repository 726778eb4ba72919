import type { Command, DamlRecord, Ledger, LedgerError, Result } from '../../ledger/index.js';
import { ok, PARTICIPANT_ADMIN_USER } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import {
  AMULET_RULES_TEMPLATE,
  OPEN_MINING_ROUND_TEMPLATE,
  SUMMARIZING_MINING_ROUND_TEMPLATE,
} from '../templateIds.js';
import { microsToTimestamp, msToMicros, timeMicros } from '../time.js';
import type { AmuletLedgerView } from './AmuletLedgerView.js';
import { record, text } from './amuletContext.js';

const DEFAULT_TICK_MICROS = 600_000_000n;

/**
 * What the registry and Scan ask of the DSO's round automation: bring `dso`'s rounds up to ledger
 * time and answer the open round a transfer uses now (undefined when there is none). The ports'
 * RoundAutomation, or SpliceRoundAutomation on Splice's own splice-amulet.
 */
export interface RoundKeeper {
  catchUp(dso: string): Result<StoredContract | undefined, LedgerError>;
  /** The newest ExternalPartyConfigState of `dso` (splice-amulet 0.1.22 and later only). */
  latestConfigState?(dso: string): StoredContract | undefined;
}

/**
 * The DSO's round automation, run when a reader needs the current round (Scan's round reads, the
 * registry's factories and contexts) rather than on a timer, so an idle server writes nothing.
 * As time moves past rounds, in one transaction of the DSO: open rounds whose target close has
 * passed become summarizing; summarizing rounds start issuing
 * (`AmuletRules_MiningRound_StartIssuing`); issuing rounds whose target close has passed close
 * (`AmuletRules_MiningRound_Close`); and when no open round is open now, the next round opens
 * for two ticks, from a tick ago. Upstream opens rounds a tick ahead of time on a schedule, so its
 * active round opened up to a tick before any reader asks; opening on demand keeps an open round
 * for a client that arrives after hours of idleness.
 */
export class RoundAutomation implements RoundKeeper {
  #step = 0;

  constructor(
    readonly ledger: Ledger,
    readonly view: AmuletLedgerView,
  ) {}

  /** Brings `dso`'s rounds up to ledger time; answers the open round active now. */
  catchUp(dso: string): Result<StoredContract | undefined, LedgerError> {
    const nowMs = this.ledger.config.clock.now();
    const now = msToMicros(nowMs);
    const active = this.view.activeOpenRound(dso, now, timeMicros);
    const closing = this.view.issuingRounds.get(dso).filter((c) => (timeMicros(text(c.argument.targetClosesAt)) ?? 0n) <= now);
    if (active !== undefined && closing.length === 0) return ok(active);
    const rules = this.view.amuletRules.first(dso);
    if (rules === undefined) return ok(undefined);

    const exercise = (choice: string, choiceArgument: DamlRecord): Command => ({
      ExerciseCommand: { templateId: AMULET_RULES_TEMPLATE, contractId: rules.contractId, choice, choiceArgument },
    });
    const commands: Command[] = closing.map((c) => exercise('AmuletRules_MiningRound_Close', { issuingRoundCid: c.contractId }));
    if (active === undefined) {
      const open = this.view.openRounds.get(dso);
      const latest = open.at(-1);
      const tick = latest === undefined ? DEFAULT_TICK_MICROS : BigInt(text(record(latest.argument.tickDuration).microseconds) || DEFAULT_TICK_MICROS.toString());
      for (const c of open) {
        if ((timeMicros(text(c.argument.targetClosesAt)) ?? 0n) > now) continue;
        commands.push({ ExerciseCommand: { templateId: OPEN_MINING_ROUND_TEMPLATE, contractId: c.contractId, choice: 'Archive', choiceArgument: {} } });
        commands.push({
          CreateCommand: {
            templateId: SUMMARIZING_MINING_ROUND_TEMPLATE,
            createArguments: { dso, round: record(c.argument.round), amuletPrice: text(c.argument.amuletPrice), tickDuration: record(c.argument.tickDuration) },
          },
        });
      }
      const next = latest === undefined ? 0n : BigInt(text(record(latest.argument.round).number)) + 1n;
      commands.push({
        CreateCommand: {
          templateId: OPEN_MINING_ROUND_TEMPLATE,
          createArguments: {
            dso,
            round: { number: next.toString() },
            amuletPrice: latest === undefined ? '0.005' : text(latest.argument.amuletPrice),
            // Opened a tick ago, as on a schedule that never idled: a client judges the round
            // open by its own clock read before asking (core-splice-client ScanClient
            // getActiveOpenMiningRound: opensAt <= Date.now() taken before the request), so a
            // round opened at this request's time is not yet open to it. Still two ticks long.
            opensAt: microsToTimestamp(now - tick),
            targetClosesAt: microsToTimestamp(now + tick),
            issuingFor: { microseconds: (tick * next).toString() },
            tickDuration: { microseconds: tick.toString() },
          },
        },
      });
    }
    const submitted = this.ledger.submitAndWait({
      userId: PARTICIPANT_ADMIN_USER,
      commandId: `dso-round-automation-${nowMs}-${++this.#step}`,
      actAs: [dso],
      commands,
    });
    if (!submitted.ok) return submitted;
    // Rounds summarizing before this transaction start issuing in the next one, as upstream does.
    const summarizing = [...this.ledger.store.activeSnapshot({ kind: 'template', template: this.view.templates.summarizingMiningRound })].filter(
      (c) => c.argument.dso === dso,
    );
    if (summarizing.length > 0) {
      const issued = this.ledger.submitAndWait({
        userId: PARTICIPANT_ADMIN_USER,
        commandId: `dso-round-automation-${nowMs}-${++this.#step}`,
        actAs: [dso],
        commands: summarizing.map((c) => exercise('AmuletRules_MiningRound_StartIssuing', { miningRoundCid: c.contractId })),
      });
      if (!issued.ok) return issued;
    }
    return ok(this.view.activeOpenRound(dso, now, timeMicros));
  }
}
