import type { Group } from '../checks/types.js';
import { summarize, type CheckResult, type Report, type RunStopped } from './model.js';

/** What is known of a run when it stops early; `checks` are the ones that finished. */
export interface StoppedRun {
  readonly target: string;
  readonly targets: Readonly<Record<Group, string>>;
  readonly profile: string;
  readonly seed: number;
  readonly runs: number;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly wallTimeMs: number;
  readonly toolVersion: string;
  readonly checks: readonly CheckResult[];
  readonly stopped: RunStopped;
}

/**
 * The report of a run that did not finish (a configuration error, SIGINT, SIGTERM): CI keeps
 * `reports/` and prints summary.md whatever the exit, so the files exist, say why the run stopped
 * and carry the checks that finished. Never a pass: the selection did not run in full.
 */
export function stoppedReport(r: StoppedRun): Report {
  return {
    tool: { name: 'canton-conformance', version: r.toolVersion },
    target: r.target,
    targets: r.targets,
    profile: r.profile,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    wallTimeMs: r.wallTimeMs,
    seed: r.seed,
    runs: r.runs,
    stopped: r.stopped,
    warnings: [r.stopped.message],
    summary: summarize(r.checks),
    verdict: 'fail',
    timings: [],
    checks: r.checks,
  };
}
