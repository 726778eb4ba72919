/**
 * The run's re-interpretation: whether it is on (`run --reinterpret engine|none`) and what it did,
 * for the report (how many of the suite's transactions were re-run, which were skipped and why).
 */
export type ReinterpretMode = 'engine' | 'none';

export interface ReinterpretSkip {
  readonly check: string;
  readonly reason: string;
}

export interface ReinterpretSummary {
  readonly mode: ReinterpretMode;
  /** Transactions of the suite handed to re-interpretation. */
  readonly transactions: number;
  /** Of those, re-run by the engine and compared (agreeing or not). */
  readonly reinterpreted: number;
  /** Of those, where the target's transaction differed from the engine's. */
  readonly differing: number;
  /** `reinterpreted / transactions` (1 when there were none). */
  readonly share: number;
  readonly skipped: readonly ReinterpretSkip[];
}

export class ReinterpretTally {
  #transactions = 0;
  #reinterpreted = 0;
  #differing = 0;
  readonly #skipped: ReinterpretSkip[] = [];

  constructor(readonly mode: ReinterpretMode) {}

  record(check: string, outcome: { kind: 'agrees' } | { kind: 'differs' } | { kind: 'skipped'; reason: string } | { kind: 'off' }): void {
    this.#transactions++;
    if (outcome.kind === 'agrees' || outcome.kind === 'differs') this.#reinterpreted++;
    if (outcome.kind === 'differs') this.#differing++;
    if (outcome.kind === 'skipped') this.#skipped.push({ check, reason: outcome.reason });
  }

  summary(): ReinterpretSummary {
    const share = this.#transactions === 0 ? 1 : Math.round((this.#reinterpreted / this.#transactions) * 1000) / 1000;
    return { mode: this.mode, transactions: this.#transactions, reinterpreted: this.#reinterpreted, differing: this.#differing, share, skipped: [...this.#skipped] };
  }
}
