/**
 * The run's history judge (`run --history parser|none`): what it judged, for the report, and the
 * verdict it adds to each check.
 */
import { evidenceOf } from '../runner/evidenceOf.js';
import type { Exchange } from '../target/exchange.js';
import type { Evidence } from '../report/model.js';
import { historyRuleOf } from './historyIds.js';
import type { HistoryMode, HistoryOutcome } from './judgeHistory.js';

export interface HistorySkip {
  readonly check: string;
  readonly reason: string;
}

/** report.json `history`: checks whose transactions moved holdings, the transactions and holdings judged, violations, skips. */
export interface HistorySummary {
  readonly mode: HistoryMode;
  readonly checks: number;
  readonly transactions: number;
  readonly holdings: number;
  /** Holding changes beneath allocation choices, which core-tx-parser 1.8.0 does not label: not failed, counted. */
  readonly unlabelled: number;
  readonly violations: number;
  readonly skipped: readonly HistorySkip[];
}

/** A check's `history` member: the first violation, named and placed. */
export interface HistoryCheckResult {
  readonly violations: number;
  readonly id: string;
  readonly rule: string;
  readonly party: string;
  readonly updateId: string;
  readonly offset: number;
  readonly holding?: string;
  readonly message: string;
  readonly evidence: Evidence;
}

export class HistoryTally {
  #checks = 0;
  #transactions = 0;
  #holdings = 0;
  #unlabelled = 0;
  #violations = 0;
  readonly #skipped: HistorySkip[] = [];

  constructor(readonly mode: HistoryMode) {}

  record(check: string, o: HistoryOutcome): void {
    if (o.kind === 'skipped') this.#skipped.push({ check, reason: o.reason });
    if (o.kind !== 'judged') return;
    this.#checks++;
    this.#transactions += o.transactions;
    this.#holdings += o.holdings;
    this.#unlabelled += o.unlabelled;
    this.#violations += o.violations.length;
  }

  summary(): HistorySummary {
    return { mode: this.mode, checks: this.#checks, transactions: this.#transactions, holdings: this.#holdings, unlabelled: this.#unlabelled, violations: this.#violations, skipped: [...this.#skipped] };
  }
}

/** What an outcome does to a check: a failure (first violation, with its id and rule), a warning (skipped, with the reason), or nothing. */
export function historyVerdictOf(o: HistoryOutcome): { failure?: { message: string; exchange: Exchange; result: HistoryCheckResult }; warning?: string } {
  if (o.kind === 'skipped') return { warning: `token-standard history not judged: ${o.reason}` };
  if (o.kind !== 'judged' || o.violations.length === 0) return {};
  const v = o.violations[0]!;
  const rule = historyRuleOf(v.id);
  const more = o.violations.length > 1 ? ` (and ${o.violations.length - 1} more)` : '';
  return {
    failure: {
      message: `${v.id} (${rule.title}): ${v.message}${more}`,
      exchange: v.exchange,
      result: { violations: o.violations.length, id: v.id, rule: rule.rule, party: v.party, updateId: v.updateId, offset: v.offset, ...(v.holding ? { holding: v.holding } : {}), message: v.message, evidence: evidenceOf(v.exchange) },
    },
  };
}

/** The history summaries of several reports (shards, re-runs) added up; undefined when none has one. */
export function mergeHistory(all: readonly (HistorySummary | undefined)[]): HistorySummary | undefined {
  const present = all.filter((s): s is HistorySummary => s !== undefined);
  if (present.length === 0) return undefined;
  const sum = (f: (s: HistorySummary) => number) => present.reduce((n, s) => n + f(s), 0);
  return {
    mode: present.some((s) => s.mode === 'parser') ? 'parser' : 'none',
    checks: sum((s) => s.checks), transactions: sum((s) => s.transactions), holdings: sum((s) => s.holdings),
    unlabelled: sum((s) => s.unlabelled), violations: sum((s) => s.violations), skipped: present.flatMap((s) => s.skipped),
  };
}
