import { CheckFailed, CheckNotOnRelease, CheckSkipped, TransportFailure } from '../checks/outcomes.js';
import type { CheckContext, CheckDefinition, Counterexample, Status } from '../checks/types.js';
import type { CheckResult } from '../report/model.js';
import type { Target } from '../target/createTarget.js';
import type { Exchange } from '../target/exchange.js';
import type { OracleSession } from '../oracle/oracleSession.js';
import type { ReinterpretTally } from '../reinterpret/reinterpretTally.js';
import { reinterpretCommitted, type CommittedOutcome } from '../reinterpret/reinterpretCommitted.js';
import { oracleResultOf } from '../oracle/oracleResult.js';
import type { JudgeSession } from '../judge/judgeSession.js';
import { judgeResultOf } from '../judge/judgeResult.js';
import { judgeHistory } from '../history/judgeHistory.js';
import { historyVerdictOf, type HistoryCheckResult, type HistoryTally } from '../history/historyTally.js';
import { evidenceOf } from './evidenceOf.js';
import type { Profile } from './profile.js';
import type { Progress } from './progress.js';
import { checkSeed } from './seeds.js';
import { groupsNotServed, skipReason } from './skipReason.js';
import { accessOf } from '../preflight/ledgerAccess.js';

export interface RunChecksOptions {
  /** Selected checks, observers included (they run last). */
  readonly checks: readonly CheckDefinition[];
  readonly target: Target;
  readonly profile: Profile;
  readonly seed: number;
  readonly runs: number;
  readonly concurrency: number;
  /** Budget of one whole check (its requests each have their own timeout). */
  readonly checkTimeoutMs: number;
  /** Per-request timeout (`--timeout`), handed to checks that wait for later outcomes. */
  readonly requestTimeoutMs?: number;
  readonly progress?: Progress;
  /** The command line that replays one check (`--only <id> --seed N`). */
  readonly replay?: (checkId: string) => string;
  /** --spec files (validated first, then our specs). */
  readonly specFiles?: readonly string[];
  /** The reference as the oracle: each request is replayed on it in lockstep and the answers compared. */
  readonly oracle?: OracleSession;
  /** Re-interpretation of the transactions checks cause (they hand them to it). */
  readonly reinterpretation?: ReinterpretTally;
  /** The target's own model: every answer judged by the named invariants (conformance/src/judge/). */
  readonly judge?: JudgeSession;
  /** The history judge: the token-standard history of the parties a check acted as, parsed by core-tx-parser (conformance/src/history/). */
  readonly history?: HistoryTally;
  /**
   * The judged Canton line and the ledger operations it lacks: a check that did not pass because a
   * request to one of them answered 404 (a helper, such as a DAR upload or a page walk, outside its
   * own operation) skips naming the line instead of failing.
   */
  readonly absent?: { readonly line: string; readonly operations: ReadonlySet<string> };
  /** `--splice-version`: the Splice release the Scan is judged by, whatever it says. */
  readonly spliceVersion?: string;
  /** Rights the run's user lacks (runSuite's `missingRights`). */
  readonly missingRights?: ReadonlySet<string>;
}

export interface RunChecksResult {
  /** In the order of `checks`. */
  readonly results: CheckResult[];
  readonly exchanges: readonly Exchange[];
}

class DeadlineExceeded extends Error {}

/** The sweep never crashes the run: a suite error in it is a skip in the tally, not a verdict. */
async function sweepCommitted(...args: Parameters<typeof reinterpretCommitted>): Promise<CommittedOutcome> {
  try {
    return await reinterpretCommitted(...args);
  } catch (e) {
    args[0].reinterpretation?.record(args[0].check.id, { kind: 'skipped', reason: `suite error (please report): ${(e as Error)?.message ?? String(e)}` });
    return {};
  }
}

/** Runs checks with bounded concurrency; a check can never crash the run or outlive its budget. */
export async function runChecks(o: RunChecksOptions): Promise<RunChecksResult> {
  const seen: Exchange[] = [];
  const shared = sharedMemo();
  let uniqueCounter = 0;
  const runTag = o.seed.toString(36);
  const results = new Map<string, CheckResult>();

  const runOne = async (check: CheckDefinition): Promise<void> => {
    o.progress?.start(check);
    const started = performance.now();
    const exchanges: Exchange[] = [];
    const reason = skipReason(check, o.profile);
    const notServed = reason === undefined ? undefined : groupsNotServed(check, o.profile);
    let status: Status;
    let message: string | undefined;
    let counterexample: Counterexample | undefined;
    let evidence: Exchange | undefined;
    const warnings: string[] = [];
    let oracle: ReturnType<NonNullable<RunChecksOptions['oracle']>['check']> | undefined;
    let judge: ReturnType<NonNullable<RunChecksOptions['judge']>['check']> | undefined;
    let bound: ReturnType<Target['bind']> | undefined;
    let history: HistoryCheckResult | undefined;
    /** The judged Canton line (or the Splice release a Scan said), when the target's release has no rule the check tests (`CheckNotOnRelease`). */
    let notOnLine: string | undefined;
    if (reason !== undefined) {
      status = 'skip';
      message = reason;
    } else {
      bound = o.target.bind(check.id, (e) => {
        exchanges.push(e);
        seen.push(e);
      });
      judge = o.judge?.check(check, bound);
      oracle = o.oracle?.check(check, judge?.http ?? bound);
      const http = oracle?.http ?? judge?.http ?? bound;
      const ctx: CheckContext = {
        check,
        profile: o.profile,
        http,
        seed: checkSeed(o.seed, check.id),
        runs: o.runs,
        timeoutMs: o.requestTimeoutMs ?? 10_000,
        seen,
        specFiles: o.specFiles ?? [],
        ...(o.reinterpretation ? { reinterpretation: o.reinterpretation } : {}),
        shared,
        unique: (prefix) => `${prefix}-${runTag}-${(++uniqueCounter).toString(36)}-${Math.random().toString(36).slice(2, 7)}`,
        lacks: (operationId) => o.absent?.operations.has(operationId) ?? false,
        ...(o.spliceVersion !== undefined ? { spliceVersion: o.spliceVersion } : {}),
        skip: (why) => {
          throw new CheckSkipped(why);
        },
        fail: (why, exchange) => {
          throw new CheckFailed(why, exchange ?? exchanges.at(-1));
        },
        warn: (why) => void warnings.push(why),
        setCounterexample: (c) => void (counterexample = c),
        setEvidence: (e) => void (evidence = e),
      };
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check.run(ctx),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new DeadlineExceeded()), o.checkTimeoutMs);
          }),
        ]);
        status = warnings.length > 0 ? 'warn' : 'pass';
        message = warnings.length > 0 ? warnings.join('; ') : undefined;
      } catch (e) {
        if (e instanceof CheckFailed) {
          // A broken SHOULD/MAY rule does not fail certification; it is reported as a warning.
          status = check.level === 'MUST' ? 'fail' : 'warn';
          message = e.message;
          evidence = e.exchange ?? evidence;
        } else if (e instanceof CheckSkipped) {
          status = 'skip';
          message = e.message;
          if (e instanceof CheckNotOnRelease) notOnLine = e.release ?? o.absent?.line;
        } else if (e instanceof TransportFailure) {
          status = 'error';
          message = e.message;
          evidence = e.exchange;
        } else if (e instanceof DeadlineExceeded) {
          status = 'error';
          message = `the check did not finish within ${o.checkTimeoutMs} ms`;
        } else {
          status = 'error';
          message = `suite error (please report): ${(e as Error)?.message ?? String(e)}`;
        }
      } finally {
        clearTimeout(timer);
      }
      if (o.reinterpretation && (status === 'pass' || status === 'warn' || status === 'fail')) {
        // Every transaction the check committed, re-run by the engine; read back off the check's evidence.
        const swept = await sweepCommitted({ http: o.target.bind(check.id, () => undefined), shared: ctx.shared, reinterpretation: o.reinterpretation, check }, exchanges);
        if (swept.failure !== undefined && (status === 'pass' || status === 'warn')) {
          status = check.level === 'MUST' ? 'fail' : 'warn';
          message = swept.failure.message;
          evidence = swept.failure.exchange;
        }
      }
    }
    const judged = oracle === undefined ? undefined : oracleResultOf(oracle.outcome());
    if (judged?.failure !== undefined && (status === 'pass' || status === 'warn')) {
      // A difference from the reference ledger fails the check whose request showed it.
      status = check.level === 'MUST' ? 'fail' : 'warn';
      message = judged.failure.message;
      evidence = judged.failure.exchange;
    }
    // The update stream up to here, when the check committed a write (its findings fail this check).
    await judge?.settle().catch(() => undefined);
    const byModel = judge === undefined ? undefined : judgeResultOf(judge.violations());
    if (byModel?.failure !== undefined && status !== 'fail') {
      // An answer that breaks an invariant fails the check that received it, whatever the check asserted.
      status = 'fail';
      message = byModel.failure.message;
      evidence = byModel.failure.exchange;
    }
    if (o.history?.mode === 'parser' && bound !== undefined && (status === 'pass' || status === 'warn')) {
      // The holdings the check's transactions moved, as a wallet's parser reads them back: an unexplained change fails the check.
      const outcome = await judgeHistory(bound, [...exchanges]);
      o.history.record(check.id, outcome);
      const v = historyVerdictOf(outcome);
      if (v.failure) {
        status = 'fail';
        message = v.failure.message;
        evidence = v.failure.exchange;
        history = v.failure.result;
      } else if (v.warning) [status, message] = ['warn', message === undefined ? v.warning : `${message}; ${v.warning}`];
    }
    const missing = o.absent && status !== 'pass' && status !== 'skip' ? missingOperation(o.absent.operations, evidence ? [evidence, ...exchanges] : exchanges) : undefined;
    if (missing !== undefined) {
      status = 'skip';
      message = `Canton ${o.absent!.line} has no ${missing}, which this check needs (${message ?? 'it answered 404'})`;
    }
    // Not the target's fault: the run's user may not read what the check reads (auth checks probe refusals themselves).
    const refused = o.missingRights !== undefined && check.kind !== 'auth' && status !== 'pass' && status !== 'skip' ? refusedFor(o.missingRights, evidence ? [evidence, ...exchanges] : exchanges) : undefined;
    if (refused !== undefined) {
      status = 'skip';
      message = `the run's user lacks ${refused.right} (see the preflight: grant it, or give a profile): ${refused.operationId} answered 403 (${message ?? 'the check did not pass'})`;
    }
    const shown = evidence ?? (status === 'pass' || status === 'skip' ? undefined : exchanges.at(-1)) ?? exchanges.at(-1);
    const isProperty = check.kind === 'property' || check.kind === 'stateful';
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      group: check.group,
      operationId: check.operationId,
      level: check.level,
      kind: check.kind,
      status,
      specRef: check.specRef,
      durationMs: Math.round(performance.now() - started),
      ...(message === undefined ? {} : { message }),
      ...(shown ? { evidence: evidenceOf(shown) } : {}),
      ...(counterexample ? { counterexample } : {}),
      ...(isProperty || counterexample ? { seed: o.seed } : {}),
      ...(o.replay && status !== 'pass' && status !== 'skip' ? { replay: o.replay(check.id) } : {}),
      requests: exchanges.length,
      ...(judged ? { oracle: judged.result } : {}),
      ...(byModel?.result ? { judge: byModel.result } : {}),
      ...(history ? { history } : {}),
      ...(notOnLine !== undefined && status === 'skip' ? { notOnLine } : {}),
      ...(notServed !== undefined ? { notServed } : {}),
    };
    results.set(check.id, result);
    o.progress?.finish(result);
  };

  const regular = o.checks.filter((c) => !c.observer);
  const observers = o.checks.filter((c) => c.observer);
  await pool(regular, Math.max(1, o.concurrency), runOne);
  await pool(observers, Math.max(1, o.concurrency), runOne);
  return { results: o.checks.map((c) => results.get(c.id)!), exchanges: seen };
}

/** The first operation the line lacks that one of the check's requests met as a 404. */
function missingOperation(absent: ReadonlySet<string>, exchanges: readonly Exchange[]): string | undefined {
  return exchanges.find((e) => e.group === 'ledger' && e.operationId !== undefined && absent.has(e.operationId) && e.response?.status === 404)?.operationId;
}

async function pool<T>(items: readonly T[], size: number, work: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/**
 * The first of the check's requests that met a 403 for a right the run's user lacks: reads for
 * parties need CanReadAsAnyParty (a run without a party reads for any), party, user, package and
 * identity-provider management ParticipantAdmin.
 */
function refusedFor(missing: ReadonlySet<string>, exchanges: readonly Exchange[]): { right: string; operationId: string } | undefined {
  for (const e of exchanges) {
    if (e.group !== 'ledger' || e.operationId === undefined || e.response?.status !== 403) continue;
    const access = accessOf(e.operationId);
    const right = access === 'read' ? 'CanReadAsAnyParty' : access === 'admin' || access === 'participant-admin' ? 'ParticipantAdmin' : undefined;
    if (right !== undefined && missing.has(right)) return { right, operationId: e.operationId };
  }
  return undefined;
}

/** A run-wide memo (`CheckContext.shared`): the first caller of a key makes its value, later ones share it. */
export function sharedMemo(): CheckContext['shared'] {
  const memo = new Map<string, Promise<unknown>>();
  return <T>(key: string, make: () => Promise<T>): Promise<T> => {
    let p = memo.get(key) as Promise<T> | undefined;
    if (p === undefined) {
      p = make();
      memo.set(key, p);
    }
    return p;
  };
}
