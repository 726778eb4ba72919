import type { DamlRecord, Ledger, LedgerError, Result } from '../../ledger/index.js';
import { canStep, ok } from '../../ledger/index.js';
import type { RoundKeeper } from '../amulet/RoundAutomation.js';
import { record, text } from '../amulet/amuletContext.js';
import { TICK_MICROS } from './amuletConfig.js';
import type { SpliceAmulet } from './SpliceAmulet.js';

/** Ticks the history may take: five from the bootstrap reach it; more would mean the lifecycle stalls. */
const MAX_TICKS = 8;
/** The round whose records Scan's reward accounting answers first on the ports: 1. */
const EARLIEST_ROUND = 1n;

/** The rounds a seeded history leaves, as the world names them. */
export interface SpliceRoundHistory {
  /** The three open rounds, oldest first (the middle one has opened: the registry's round). */
  readonly openRounds: readonly [string, string, string];
  /** What Scan's reward accounting answers: 1, as on the ports. */
  readonly earliestRound: number;
  /** Ticks (10 minutes of ledger time each) the seeding clock stepped. */
  readonly ticks: number;
}

/**
 * The real world's round history, made the way Splice's DSO makes it: the seeding clock steps a
 * tick at a time and the DSO's automation (the same SpliceRoundAutomation that runs on reads)
 * exercises the real choices (`AmuletRules_AdvanceOpenMiningRounds`, `_MiningRound_StartIssuing`,
 * `_MiningRound_Close`, the coupons' expiry, `_MiningRound_Archive`), until round 1 is complete:
 * no round 0 or 1 is left in any state, so Scan's earliest complete round is 1 at start-up, as on
 * the ports. Splice's package checks ledger time (a round closes only after its target close), so
 * this takes five ticks from the bootstrap: rounds 0-1 archived, 2-4 issuing, 5-7 open. A clock
 * the seeding cannot step (the system clock) leaves no history: undefined.
 */
export function seedSpliceRoundHistory(ledger: Ledger, rounds: RoundKeeper, amulet: SpliceAmulet, dso: string): Result<SpliceRoundHistory | undefined, LedgerError> {
  const clock = ledger.config.clock;
  if (!canStep(clock)) return ok(undefined);
  const { templates } = amulet;
  const roundTemplates = [templates.openMiningRound, templates.summarizingMiningRound, templates.issuingMiningRound, templates.closedMiningRound];
  const number = (argument: DamlRecord) => BigInt(text(record(argument.round).number) || '0');
  const incomplete = () => roundTemplates.some((template) => ledger.store.activeSnapshot({ kind: 'template', template }).some((c) => c.argument.dso === dso && number(c.argument) <= EARLIEST_ROUND));
  let ticks = 0;
  while (incomplete()) {
    if (ticks === MAX_TICKS) return ok(undefined);
    clock.advance(Number(TICK_MICROS / 1000n));
    ticks++;
    const caught = rounds.catchUp(dso);
    if (!caught.ok) return caught;
  }
  const open = ledger.store.activeSnapshot({ kind: 'template', template: templates.openMiningRound }).filter((c) => c.argument.dso === dso).sort((a, b) => (number(a.argument) < number(b.argument) ? -1 : 1));
  if (open.length !== 3) return ok(undefined);
  return ok({ openRounds: open.map((c) => c.contractId) as unknown as [string, string, string], earliestRound: Number(EARLIEST_ROUND), ticks });
}
