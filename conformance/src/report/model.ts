import type { StreamTotals } from '../judge/streamFollower.js';
import type { HistoryCheckResult, HistorySummary } from '../history/historyTally.js';
import type { CantonLine } from '../runner/cantonLine.js';
import type { ReinterpretSummary } from '../reinterpret/reinterpretTally.js';
import type { Counterexample, Group, Kind, Level, Status } from '../checks/types.js';
import type { Coverage } from './coverage.js';

/** Baseline verdict of one check (see baseline.ts for the exit-code table). */
export type BaselineMark = 'expected' | 'unexpected' | 'stale';

/** The evidence of a check: one exchange, the one that failed (or the last one). */
export interface Evidence {
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string };
  readonly curl: string;
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly contentType: string;
    /** At most EVIDENCE_BODY_CHARS characters of the body. */
    readonly body: string;
    readonly truncated: boolean;
  };
  /** Why no (complete) response arrived. */
  readonly error?: { readonly kind: string; readonly message: string };
  readonly durationMs: number;
}

export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly group: Group;
  readonly operationId: string;
  readonly level: Level;
  readonly kind: Kind;
  readonly status: Status;
  readonly specRef: string;
  readonly durationMs: number;
  /** Why it failed, warned, errored or was skipped. */
  readonly message?: string;
  readonly evidence?: Evidence;
  readonly counterexample?: Counterexample;
  /** The seed to replay it with (`--seed`); the same for every check of a run. */
  readonly seed?: number;
  /** Command line that re-runs only this check with the same seed. */
  readonly replay?: string;
  /** Requests the check made. */
  readonly requests: number;
  readonly baseline?: BaselineMark;
  /** What the oracle (the reference ledger replaying the check in lockstep) found; absent without `--oracle reference`. */
  readonly oracle?: OracleCheckResult;
  /** The first named invariant (`judge.*`) the check's answers broke, judged against the target's own earlier answers. */
  readonly judge?: JudgeCheckResult;
  /** The first holding change of the check's transactions that the token-standard history (core-tx-parser) does not explain (`judge.history.*`). */
  readonly history?: HistoryCheckResult;
  /**
   * The target's Canton line (such as `3.5`) when its document has no rule this check tests, or
   * the Splice release a Scan says (`Splice 0.6.4`) when that release lacks the operation: the
   * check does not apply there. Its status is `skip`, and the gate counts it neither as a skipped
   * MUST check nor among the checks that should have run.
   */
  readonly notOnLine?: string;
  /**
   * The groups this check needs that the profile says the target does not serve (`scan`,
   * `registry and scan`): it does not apply to the target either. Its status is `skip`, and the
   * gate counts it as it counts `notOnLine`.
   */
  readonly notServed?: string;
}

/** Where and when the judge saw an answer. */
export interface JudgeObservation {
  readonly checkId: string;
  /** `METHOD /path` (`WS /path` for a stream). */
  readonly where: string;
  readonly at: string;
  readonly seq: number;
}

/** The judge's part of a check result. */
export interface JudgeCheckResult {
  /** How many invariant violations the check's answers showed; the first is described. */
  readonly violations: number;
  readonly invariant: string;
  readonly rule: string;
  readonly message: string;
  /** The earlier answer it contradicts (absent for rules about one answer). */
  readonly first?: JudgeObservation;
  readonly second: JudgeObservation;
  readonly evidence: Evidence;
}

/** The run's judge: how many answers were judged by the target's own model. */
export interface JudgeRunSummary {
  readonly mode: 'model';
  readonly invariants: number;
  readonly answers: number;
  readonly violations: number;
  /** The update stream followed from the run's start, and the run's completions. */
  readonly stream?: StreamTotals;
}

/** The oracle's part of a check result. */
export interface OracleCheckResult {
  /** Requests answered by both the target and the reference ledger and compared. */
  readonly compared: number;
  /** Why (part of) the check was not replayed on the reference ledger. */
  readonly notReplayed?: string;
  /** How many differences were found; the first is `difference`. */
  readonly differences?: number;
  readonly difference?: {
    /** JSON path into the target's answer, `status` or `body`. */
    readonly path: string;
    readonly why: string;
    readonly target?: unknown;
    readonly reference?: unknown;
    readonly targetExchange: Evidence;
    readonly referenceExchange: Evidence;
  };
}

/** Why a run ended before its last check. */
export type RunStopped =
  | { readonly reason: 'configuration-error'; readonly message: string }
  | { readonly reason: 'interrupted'; readonly signal: 'SIGINT' | 'SIGTERM'; readonly message: string };

/** The run's oracle: the reference ledger it started and how much it compared. */
export interface OracleRunSummary {
  readonly mode: 'reference';
  /** Requests compared over the run. */
  readonly compared: number;
  /** Checks (part of) whose scenario was not replayed (their `oracle.notReplayed` says why). */
  readonly checksNotReplayed: number;
}

export interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly warned: number;
  readonly errored: number;
  /** Selected checks that ran (every status but skip): `total - skipped`. Absent in reports of older versions. */
  readonly ran?: number;
  /** Selected checks skipped because the target's Canton line has no such rule (`notOnLine`); absent when none. */
  readonly notOnLine?: number;
  /** Selected checks skipped because they need a group the profile does not serve (`notServed`); absent when none. */
  readonly notServed?: number;
}

/** Response-time statistics per operation, for the report's chart. */
export interface OperationTiming {
  readonly group: Group;
  readonly operationId: string;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

export interface Report {
  readonly tool: { readonly name: string; readonly version: string };
  /** The main target URL (`--target`, or the in-process reference server). */
  readonly target: string;
  /** Base URL per group; `scanProxy` when a validator's scan proxy was asked at its own URL (`--scan-proxy-url`). */
  readonly targets: Readonly<Record<Group, string>> & { readonly scanProxy?: string };
  readonly profile: string;
  readonly startedAt: string;
  /** Time spent running the checks (start of the suite to its end), as before `wallTimeMs` existed. */
  readonly durationMs: number;
  /** The whole command, from the process's start (start-up, the in-process server, reports) to the report. */
  readonly wallTimeMs?: number;
  readonly seed: number;
  readonly runs: number;
  readonly shard?: { readonly index: number; readonly total: number };
  /** Shards merged into this report (`report merge`). */
  readonly mergedFrom?: number;
  /** Set when a target did not answer at all (exit 3): no check ran. */
  readonly unreachable?: { readonly url: string; readonly reason: string };
  /** Set when the run did not finish: a configuration error (exit 2) or a signal (exit 130/143); `checks` holds what ran. */
  readonly stopped?: RunStopped;
  /** Run-level warnings that keep a pass honest (mostly 401/403, mostly 404, ...). */
  readonly warnings: readonly string[];
  readonly summary: Summary;
  /** The run's verdict after the baseline: would CI pass? */
  readonly verdict: 'pass' | 'fail';
  readonly timings: readonly OperationTiming[];
  readonly checks: readonly CheckResult[];
  /** What re-interpretation of the suite's transactions did (present when any was handed to it, or it was off). */
  readonly reinterpretation?: ReinterpretSummary;
  /** Present when the run compared answers with the reference ledger (`--oracle reference`). */
  readonly oracle?: OracleRunSummary;
  /** The gate on what ran (`--min-ran`, `--fail-on-skip`); present when either was given. */
  readonly gate?: RunGate;
  /** What the preflight (`doctor`) found before the run; present for runs of `run`. */
  readonly preflight?: PreflightVerdict;
  /** The Canton line the target was judged by, and how it was chosen; present for runs of `run`. */
  readonly canton?: CantonLine;
  /** The Splice release the Scan was judged by: `--splice-version` (`flag`) or what it said (`target`); absent when neither (the newest). */
  readonly splice?: { readonly release: string; readonly from: 'flag' | 'target' };
  /** Present unless `--judge none`: answers judged against the target's own model. */
  readonly judge?: JudgeRunSummary;
  /** The token-standard history of the parties the checks acted as, parsed by core-tx-parser (`--history parser|none`). */
  readonly history?: HistorySummary;
  /** Every operation of specs/ with its behaviour checks (and how many ran), every documented rule with its checks. */
  readonly coverage?: Coverage;
}

/** The gate on what ran: `--min-ran PERCENT` and `--fail-on-skip` (both off by default). */
export interface RunGate {
  readonly minRanPercent?: number;
  readonly failOnSkip?: boolean;
  /** Share of the selected checks that ran, in percent (100 when none was selected). */
  readonly ranPercent: number;
  /** Ids of MUST checks that skipped. */
  readonly skippedMust: readonly string[];
  /** Why the gate failed the run; empty when it held. */
  readonly failures: readonly string[];
}

/** The preflight's verdict as report.json records it (the full result is `doctor --json`). */
export interface PreflightVerdict {
  /** ready: exit 0; misconfigured: exit 2 (the run did not start); unreachable: exit 3. */
  readonly status: 'ready' | 'misconfigured' | 'unreachable';
  /** The Canton version the ledger's /v2/version reports, when the profile serves the ledger. */
  readonly cantonVersion?: string;
  /** One line per problem found (empty when ready). */
  readonly problems: readonly string[];
  /** Rights the selected checks need that the profile's user lacks. */
  readonly missingRights?: readonly string[];
  /**
   * Rights the profile's user lacks that a check may need on its way, whatever its own operation
   * (ParticipantAdmin to onboard an external party, list parties or create a user): a check that a
   * 403 for one of them stopped skips, naming it, instead of failing.
   */
  readonly lacksRights?: readonly string[];
}

export const EVIDENCE_BODY_CHARS = 8192;

export function summarize(checks: readonly Pick<CheckResult, 'status' | 'notOnLine' | 'notServed'>[]): Summary {
  const count = (s: CheckResult['status']) => checks.filter((c) => c.status === s).length;
  const skipped = count('skip');
  const notOnLine = checks.filter((c) => c.status === 'skip' && c.notOnLine !== undefined).length;
  const notServed = checks.filter((c) => c.status === 'skip' && c.notOnLine === undefined && c.notServed !== undefined).length;
  return {
    total: checks.length, passed: count('pass'), failed: count('fail'), skipped, warned: count('warn'), errored: count('error'), ran: checks.length - skipped,
    ...(notOnLine > 0 ? { notOnLine } : {}),
    ...(notServed > 0 ? { notServed } : {}),
  };
}

/** Worst first: the order used when two results for one check meet (merge) and in listings. */
export const STATUS_RANK: Readonly<Record<CheckResult['status'], number>> = { fail: 0, error: 1, warn: 2, pass: 3, skip: 4 };

/** fail/error count against a run unless the baseline expects them; stale entries count too. */
export function isUnexpected(c: Pick<CheckResult, 'status' | 'baseline'>): boolean {
  if (c.baseline === 'stale') return true;
  return (c.status === 'fail' || c.status === 'error') && c.baseline !== 'expected';
}
