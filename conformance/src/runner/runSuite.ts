import { catalogue } from '../checks/catalogue.js';
import type { CheckDefinition, Group } from '../checks/types.js';
import { applyBaseline, type Baseline, type BaselineOutcome } from '../report/baseline.js';
import { coverageOf } from '../report/coverage.js';
import { summarize, type CheckResult, type Report } from '../report/model.js';
import { timingsOf } from '../report/timings.js';
import { TARGET_HISTORY } from '../checks/ledgerTargetHistory.js';
import { spliceJudged } from '../checks/support/targetVersion.js';
import { reinterpretFollowed } from '../reinterpret/reinterpretFollowed.js';
import { evidenceOf } from './evidenceOf.js';
import { committedTransactions, ReinterpretTally, type ReinterpretMode } from '../reinterpret/reinterpretTally.js';
import { startOracle, type RunningOracle } from '../oracle/startOracle.js';
import { createJudgeSession, type JudgeSession } from '../judge/judgeSession.js';
import { STREAM_CHECK_ID, StreamFollower } from '../judge/streamFollower.js';
import { TargetModel } from '../judge/targetModel.js';
import { judgeAtEnd } from '../judge/judgeAtEnd.js';
import type { Exchange } from '../target/exchange.js';
import { INVARIANTS } from '../judge/invariants.js';
import { HistoryTally } from '../history/historyTally.js';
import type { HistoryMode } from '../history/judgeHistory.js';
import { findOperation } from '../schema/index.js';
import { createTarget } from '../target/createTarget.js';
import type { TokenProvider } from '../target/tokenProvider.js';
import type { Profile } from './profile.js';
import { createProgress, type Progress } from './progress.js';
import { runChecks, sharedMemo } from './runChecks.js';
import { randomSeed } from './seeds.js';
import { selectChecks } from './select.js';
import { absentOnLine, asSnapshotWarning, snapshotRule, type CantonLine } from './cantonLine.js';
import { absentOperations } from '../schema/cantonVersions.js';
import { shardChecks, type Shard } from './shard.js';
import { runWarnings, specLineWarnings, toleranceWarnings } from './warnings.js';

export interface SuiteOptions {
  /** Base URL per group. */
  readonly baseUrls: Readonly<Record<Group, string>>;
  /** The URL shown as "the target" in reports. */
  readonly target: string;
  readonly profile: Profile;
  readonly tokens?: TokenProvider;
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly seed?: number;
  /** Runs per property (default 25). */
  readonly runs?: number;
  /** Per-request timeout (default 10 s). */
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  readonly shard?: Shard;
  readonly baseline?: Baseline;
  readonly specFiles?: readonly string[];
  readonly progress?: 'auto' | 'tty' | 'lines' | 'quiet';
  /** Called with each check's result as it finishes: what a run stopped by a signal reports. */
  readonly onResult?: (result: CheckResult) => void;
  /** Command-line prefix used to print replay commands (`canton-conformance run --target ...`). */
  readonly replayPrefix?: string;
  /** Another catalogue (tests); defaults to every check. */
  readonly checks?: readonly CheckDefinition[];
  readonly toolVersion: string;
  /**
   * `reference`: replay every check on an in-process reference ledger in lockstep and compare the
   * answers (only for profiles that allow writes). Default `none` here; `run` picks per profile.
   */
  readonly oracle?: OracleMode;
  /** `engine` (default): checks re-interpret the transactions they cause with the Daml engine; `none`: off. */
  readonly reinterpret?: ReinterpretMode;
  /** `model` (default): judge every answer against the target's own earlier answers by the named invariants; `none`: off. */
  readonly judge?: JudgeMode;
  /**
   * `parser` (default unless `judge` is `none`): the token-standard history of the parties each check acted as is read
   * back and parsed by @canton-network/core-tx-parser; a holding change it cannot explain fails the check. `none`: off.
   */
  readonly history?: HistoryMode;
  /**
   * The Canton line the target is judged by (`cantonLineOf`): checks of operations that line lacks
   * skip, naming it, instead of meeting 404s. Absent: every check runs (tests, custom catalogues).
   */
  readonly canton?: CantonLine;
  /** `--splice-version`: the Splice release the Scan is judged by, whatever its GET /version says. */
  readonly spliceVersion?: string;
  /**
   * Rights the preflight found the run's user without, in a run it let start (the default profile
   * claims nothing): a check that did not pass because a request needing one of them answered
   * 403 skips, naming the right, instead of failing.
   */
  readonly missingRights?: readonly string[];
}

export type OracleMode = 'reference' | 'none';
export type JudgeMode = 'model' | 'none';

export interface SuiteResult {
  readonly report: Report;
  readonly baseline: BaselineOutcome;
  readonly exitCode: 0 | 1;
}

export const DEFAULTS = { runs: 25, timeoutMs: 10_000, concurrency: 1 } as const;

/** Selects, shards and runs checks against a target; assembles the report with the baseline applied. */
export async function runSuite(o: SuiteOptions): Promise<SuiteResult> {
  const seed = o.seed ?? randomSeed();
  const runs = o.runs ?? DEFAULTS.runs;
  const timeoutMs = o.timeoutMs ?? DEFAULTS.timeoutMs;
  const all = o.checks ?? catalogue();
  const selected = shardChecks(selectChecks(all, o.only ?? [], o.skip ?? []), o.shard);
  const target = createTarget({
    baseUrls: o.baseUrls,
    ...(o.profile.scan?.scanProxyUrl !== undefined ? { scanProxyUrl: o.profile.scan.scanProxyUrl } : {}),
    timeoutMs,
    ...(o.tokens ? { tokens: o.tokens } : {}),
    operationOf: (group, method, path) => findOperation(method, path, group)?.operationId,
  });
  const startedAt = new Date();
  const started = performance.now();
  const oracle: RunningOracle | undefined = o.oracle === 'reference' ? await startOracle(o.profile, o.tokens, timeoutMs, o.canton?.line) : undefined;
  try {
    return await runWith(o, { seed, runs, timeoutMs, all, selected, target, startedAt, started, ...(oracle ? { oracle } : {}) });
  } finally {
    await oracle?.close();
  }
}

interface Prepared {
  readonly seed: number;
  readonly runs: number;
  readonly timeoutMs: number;
  readonly all: readonly CheckDefinition[];
  readonly selected: readonly CheckDefinition[];
  readonly target: ReturnType<typeof createTarget>;
  readonly startedAt: Date;
  readonly started: number;
  readonly oracle?: RunningOracle;
}

/** Whether report.json carries the re-interpretation tally: something was re-run, or it was turned off (said so). */
function reinterpreted(tally: ReinterpretTally): boolean {
  const s = tally.summary();
  return s.handed > 0 || s.targetHistory !== undefined || s.duringRun !== undefined || tally.mode === 'none';
}

/** The target's ledger end, read outside every check (undefined when it does not answer one). */
async function ledgerEndNow(target: ReturnType<typeof createTarget>): Promise<number | undefined> {
  const e = await target.bind('run', () => undefined).request('ledger', { method: 'GET', path: '/v2/state/ledger-end' });
  try {
    const offset = e.response?.status === 200 ? (JSON.parse(e.response.text) as { offset?: unknown }).offset : undefined;
    return typeof offset === 'number' ? offset : undefined;
  } catch {
    return undefined;
  }
}

async function runWith(o: SuiteOptions, p: Prepared): Promise<SuiteResult> {
  const { seed, runs, timeoutMs, all, target, startedAt, started, oracle } = p;
  const line = o.canton?.line;
  const notOnLine = new Map(line === undefined ? [] : p.selected.flatMap((c) => { const why = absentOnLine(c, line); return why === undefined ? [] : [[c.id, why] as const]; }));
  const selected = p.selected.filter((c) => !notOnLine.has(c.id));
  const reinterpretation = new ReinterpretTally(o.reinterpret ?? 'engine');
  if (reinterpretation.mode === 'engine' && selected.some((c) => c.id === TARGET_HISTORY)) reinterpretation.historyEnd = await ledgerEndNow(target);
  const shown = createProgress(selected.length, process.stderr, o.progress ?? 'auto', { checks: selected });
  const progress: Progress = o.onResult ? { ...shown, finish: (r) => (o.onResult!(r), shown.finish(r)) } : shown;
  const followed: Exchange[] = [];
  const judge = o.judge === 'none' ? undefined : await followingJudge(o, target, followed, selected);
  const history = new HistoryTally(o.history ?? (o.judge === 'none' ? 'none' : 'parser'));
  const { results, exchanges } = await runChecks({
    checks: selected,
    target,
    profile: o.profile,
    seed,
    runs,
    concurrency: o.concurrency ?? DEFAULTS.concurrency,
    checkTimeoutMs: Math.max(120_000, timeoutMs * 12),
    requestTimeoutMs: timeoutMs,
    progress,
    ...(o.specFiles ? { specFiles: o.specFiles } : {}),
    ...(oracle ? { oracle: oracle.session } : {}),
    reinterpretation,
    ...(judge ? { judge } : {}),
    history,
    ...(line !== undefined ? { absent: { line, operations: absentOperations(line) } } : {}),
    ...(o.spliceVersion !== undefined ? { spliceVersion: o.spliceVersion } : {}),
    ...(o.missingRights !== undefined && o.missingRights.length > 0 ? { missingRights: new Set(o.missingRights) } : {}),
    ...(o.replayPrefix ? { replay: (id: string) => `${o.replayPrefix} --only ${id} --seed ${seed}` } : {}),
  });
  progress.done();
  // The rest of the update stream and the run's completions: a finding fails the check whose write it names.
  const atEnd = judge === undefined ? [] : judgeAtEnd(await judge.finish().catch(() => []), results, followed);
  // What other applications committed meanwhile, as the follower read it: re-run, a difference fails the history check.
  const historyAt = results.findIndex((r) => r.id === TARGET_HISTORY);
  if (judge !== undefined && historyAt >= 0 && results[historyAt]!.status !== 'fail') {
    const during = await reinterpretFollowed({ http: target.bind(TARGET_HISTORY, () => undefined), shared: sharedMemo() }, followed, exchanges, reinterpretation);
    if (during.failure !== undefined) results[historyAt] = { ...results[historyAt]!, status: 'fail', message: during.failure.message, evidence: evidenceOf(during.failure.exchange) };
  }
  // Rules only a snapshot document has (3.6's) warn instead of failing while no release line has them.
  const snapshot = new Set(line === undefined ? [] : selected.filter((c) => snapshotRule(c, line)).map((c) => c.id));
  const ran = new Map(results.map((r) => [r.id, line !== undefined && snapshot.has(r.id) ? asSnapshotWarning(r, line) : r]));
  // `notOnLine` has entries only when a line is judged.
  const skipped = new Map([...notOnLine].map(([id, why]) => [id, { ...skippedResult(p.selected.find((c) => c.id === id)!, why), notOnLine: line! }]));
  for (const r of skipped.values()) o.onResult?.(r);
  const baseline = applyBaseline([...p.selected.map((c) => ran.get(c.id) ?? skipped.get(c.id)!), ...atEnd], o.baseline);
  const report: Report = {
    tool: { name: 'canton-conformance', version: o.toolVersion },
    target: o.target,
    // A validator's scan proxy at its own URL (`--scan-proxy-url`) is a target of the run too.
    targets: o.profile.scan?.scanProxyUrl === undefined ? o.baseUrls : { ...o.baseUrls, scanProxy: o.profile.scan.scanProxyUrl },
    profile: o.profile.name,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    seed,
    runs,
    ...(o.shard && o.shard.total > 1 ? { shard: o.shard } : {}),
    ...(o.canton ? { canton: o.canton } : {}),
    ...spliceJudged(o.spliceVersion, exchanges),
    warnings: [...(o.canton?.warning ? [o.canton.warning] : []), ...runWarnings(selected, results, exchanges), ...toleranceWarnings(o.specFiles ?? []), ...specLineWarnings(o.specFiles ?? [], o.canton?.line)],
    summary: summarize(baseline.checks),
    verdict: baseline.exitCode === 0 ? 'pass' : 'fail',
    timings: timingsOf(exchanges),
    checks: baseline.checks,
    coverage: coverageOf(all, baseline.checks, line === undefined ? undefined : absentOperations(line)),
    ...(reinterpreted(reinterpretation) ? { reinterpretation: reinterpretation.summary(committedTransactions(exchanges)) } : {}),
    ...(judge ? { judge: { mode: 'model' as const, invariants: INVARIANTS.length, answers: judge.totals().answers, violations: judge.totals().violations, ...(judge.follower ? { stream: judge.follower.totals() } : {}) } } : {}),
    history: history.summary(),
    ...(oracle ? { oracle: { mode: 'reference' as const, compared: oracle.session.totals().compared, checksNotReplayed: oracle.session.totals().stoppedChecks } } : {}),
  };
  return { report, baseline, exitCode: baseline.exitCode };
}

/**
 * The judge, following the target's update stream from the ledger end read now when the run has
 * ledger checks (`followed` collects the follower's own exchanges).
 */
async function followingJudge(o: SuiteOptions, target: ReturnType<typeof createTarget>, followed: Exchange[], selected: readonly CheckDefinition[]): Promise<JudgeSession> {
  if (!selected.some((c) => c.group === 'ledger')) return createJudgeSession();
  const model = new TargetModel();
  const follower = new StreamFollower(model, target.bind(STREAM_CHECK_ID, (e) => void followed.push(e)), o.profile.ledger?.party === undefined ? [] : [o.profile.ledger.party]);
  await follower.start();
  return createJudgeSession(model, follower);
}

/** A check of an operation the judged line lacks: skipped before any request, saying which line. */
function skippedResult(c: CheckDefinition, why: string): CheckResult {
  return { id: c.id, title: c.title, group: c.group, operationId: c.operationId, level: c.level, kind: c.kind, status: 'skip', specRef: c.specRef, durationMs: 0, message: why, requests: 0 };
}
