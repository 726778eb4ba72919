import type { Group } from '../checks/types.js';
import { summarize, type CheckResult, type Report } from './model.js';

/** What every report knows of its run, however early the run ended. */
export interface RunIdentity {
  readonly target: string;
  readonly targets: Readonly<Record<Group, string>>;
  readonly profile: string;
  readonly seed: number;
  readonly runs: number;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly toolVersion: string;
}

/**
 * The report of a run that ended before its selection ran in full (unreachable, stopped by the
 * preflight, a configuration error, a signal): CI keeps `reports/` and prints summary.md whatever
 * the exit, so the files exist and say why. Never a pass. `why` carries the member that says so.
 */
export function earlyReport(r: RunIdentity, why: Partial<Report> & Pick<Report, 'warnings'>, checks: readonly CheckResult[] = []): Report {
  return {
    tool: { name: 'canton-conformance', version: r.toolVersion },
    target: r.target,
    targets: r.targets,
    profile: r.profile,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    seed: r.seed,
    runs: r.runs,
    ...why,
    summary: summarize(checks),
    verdict: 'fail',
    timings: [],
    checks,
  };
}
