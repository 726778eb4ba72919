/**
 * The run's re-interpretation: whether it is on (`run --reinterpret engine|none`) and what it did,
 * for the report (how many of the suite's transactions were re-run, which were skipped and why).
 */
import type { Exchange } from '../target/exchange.js';

export type ReinterpretMode = 'engine' | 'none';

export interface ReinterpretSkip {
  readonly check: string;
  readonly reason: string;
}

export interface ReinterpretSummary {
  readonly mode: ReinterpretMode;
  /** Transactions the suite's checks committed on the target (answered submissions: `committedTransactions`). */
  readonly transactions: number;
  /** Of those, handed to re-interpretation by the check that caused them. */
  readonly handed: number;
  /** Of those, re-run by the engine and compared (agreeing or not). */
  readonly reinterpreted: number;
  /** Of those, where the target's transaction differed from the engine's. */
  readonly differing: number;
  /** `reinterpreted / transactions` (1 when there were none). */
  readonly share: number;
  readonly skipped: readonly ReinterpretSkip[];
  /** Submissions the target refused with an error of Daml interpretation: re-run and their codes compared, and how many differed. */
  readonly refusals?: { readonly compared: number; readonly differing: number };
  /**
   * The target's own transactions (`ledger.reinterpret.target-history`): how many it read, re-ran
   * from their top-level nodes and compared, found differing, and could not re-run.
   */
  readonly targetHistory?: TargetHistoryTally;
  /** The same for the transactions other applications committed during the run, as the judge's stream follower read them. */
  readonly duringRun?: TargetHistoryTally;
}

export interface TargetHistoryTally {
  readonly read: number;
  readonly reinterpreted: number;
  readonly differing: number;
  readonly skipped: number;
  /** Interface views of the reader's active contracts the engine computed and compared. */
  readonly views?: number;
}

type ShownOutcome = { kind: 'agrees' } | { kind: 'differs' } | { kind: 'skipped' };

/** `tally` with one more transaction re-run from what its reader saw. */
function counted(tally: TargetHistoryTally | undefined, outcome: ShownOutcome): TargetHistoryTally {
  const h = tally ?? { read: 0, reinterpreted: 0, differing: 0, skipped: 0 };
  return {
    ...h,
    read: h.read + 1,
    reinterpreted: h.reinterpreted + (outcome.kind === 'skipped' ? 0 : 1),
    differing: h.differing + (outcome.kind === 'differs' ? 1 : 0),
    skipped: h.skipped + (outcome.kind === 'skipped' ? 1 : 0),
  };
}

export class ReinterpretTally {
  #transactions = 0;
  #reinterpreted = 0;
  #differing = 0;
  readonly #skipped: ReinterpretSkip[] = [];
  /** Updates a check handed over itself (`judgeTransaction`), so the run's sweep does not re-run them. */
  readonly #handedUpdates = new Set<string>();

  /**
   * The target's ledger end when the run began (read by the runner when `ledger.reinterpret.target-history`
   * is selected): the target's own history ends there, whatever the checks write meanwhile.
   */
  historyEnd: number | undefined;

  constructor(readonly mode: ReinterpretMode) {}

  markHanded(updateId: string): void {
    this.#handedUpdates.add(updateId);
  }

  handedUpdate(updateId: string): boolean {
    return this.#handedUpdates.has(updateId);
  }

  #refusalsCompared = 0;
  #refusalsDiffering = 0;

  /** A refused submission re-run (not a transaction: it changes neither `transactions` nor `share`). */
  recordRefusal(check: string, outcome: { kind: 'agrees' } | { kind: 'differs' } | { kind: 'skipped'; reason: string }): void {
    if (outcome.kind === 'skipped') this.#skipped.push({ check, reason: `refused command: ${outcome.reason}` });
    else this.#refusalsCompared++;
    if (outcome.kind === 'differs') this.#refusalsDiffering++;
  }

  #history: TargetHistoryTally | undefined;

  /** One of the target's own transactions, re-run from what a reader sees (not the suite's: neither `transactions` nor `share`). */
  recordHistory(outcome: ShownOutcome): void {
    this.#history = counted(this.#history, outcome);
  }

  #followed: TargetHistoryTally | undefined;

  /** One transaction another application committed during the run, re-run from what its reader saw. */
  recordFollowed(outcome: ShownOutcome): void {
    this.#followed = counted(this.#followed, outcome);
  }

  /** Views of the target's active contracts compared by the history check. */
  recordHistoryViews(compared: number): void {
    const h = this.#history ?? { read: 0, reinterpreted: 0, differing: 0, skipped: 0 };
    this.#history = { ...h, views: (h.views ?? 0) + compared };
  }

  record(check: string, outcome: { kind: 'agrees' } | { kind: 'differs' } | { kind: 'skipped'; reason: string } | { kind: 'off' }): void {
    this.#transactions++;
    if (outcome.kind === 'agrees' || outcome.kind === 'differs') this.#reinterpreted++;
    if (outcome.kind === 'differs') this.#differing++;
    if (outcome.kind === 'skipped') this.#skipped.push({ check, reason: outcome.reason });
  }

  /** `committed`: the run's committed transactions (at least those handed here). */
  summary(committed = 0): ReinterpretSummary {
    const transactions = Math.max(committed, this.#transactions);
    const share = transactions === 0 ? 1 : Math.round((this.#reinterpreted / transactions) * 1000) / 1000;
    const refusals = this.#refusalsCompared > 0 ? { refusals: { compared: this.#refusalsCompared, differing: this.#refusalsDiffering } } : {};
    const history = { ...(this.#history === undefined ? {} : { targetHistory: this.#history }), ...(this.#followed === undefined ? {} : { duringRun: this.#followed }) };
    return { mode: this.mode, transactions, handed: this.#transactions, reinterpreted: this.#reinterpreted, differing: this.#differing, share, skipped: [...this.#skipped], ...refusals, ...history };
  }
}

/** Answered submissions that commit a transaction (the synchronous command and interactive forms; asynchronous submits are not counted). */
export const COMMITTING = /^\/v2\/(commands\/submit-and-wait(-for-transaction(-tree)?)?|interactive-submission\/executeAndWait(ForTransaction)?)$/;

export function committedTransactions(exchanges: readonly Pick<Exchange, 'group' | 'path' | 'request' | 'response'>[]): number {
  return exchanges.filter((e) => e.group === 'ledger' && e.request.method === 'POST' && e.response?.status === 200 && COMMITTING.test(e.path)).length;
}

/** The summaries of several reports (shards, re-runs) added up; undefined when none has one. */
export function mergeReinterpretation(all: readonly (ReinterpretSummary | undefined)[]): ReinterpretSummary | undefined {
  const present = all.filter((s): s is ReinterpretSummary => s !== undefined);
  if (present.length === 0) return undefined;
  const sum = (f: (s: ReinterpretSummary) => number) => present.reduce((n, s) => n + f(s), 0);
  const transactions = sum((s) => s.transactions);
  const reinterpreted = sum((s) => s.reinterpreted);
  return {
    mode: present.some((s) => s.mode === 'engine') ? 'engine' : 'none',
    transactions, handed: sum((s) => s.handed), reinterpreted, differing: sum((s) => s.differing),
    share: transactions === 0 ? 1 : Math.round((reinterpreted / transactions) * 1000) / 1000,
    skipped: present.flatMap((s) => s.skipped),
    ...(present.some((s) => s.refusals) ? { refusals: { compared: sum((s) => s.refusals?.compared ?? 0), differing: sum((s) => s.refusals?.differing ?? 0) } } : {}),
    ...mergedTally(present, 'targetHistory'),
    ...mergedTally(present, 'duringRun'),
  };
}

/** The sum of one history tally over shards' summaries (absent when no shard has it). */
function mergedTally<K extends 'targetHistory' | 'duringRun'>(present: readonly ReinterpretSummary[], key: K): Partial<Record<K, TargetHistoryTally>> {
  const tallies = present.flatMap((s) => (s[key] === undefined ? [] : [s[key]]));
  if (tallies.length === 0) return {};
  const sum = (f: (t: TargetHistoryTally) => number) => tallies.reduce((n, t) => n + f(t), 0);
  const views = tallies.some((t) => t.views !== undefined) ? { views: sum((t) => t.views ?? 0) } : {};
  return { [key]: { read: sum((t) => t.read), reinterpreted: sum((t) => t.reinterpreted), differing: sum((t) => t.differing), skipped: sum((t) => t.skipped), ...views } } as Partial<Record<K, TargetHistoryTally>>;
}
