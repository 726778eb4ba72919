import { earlyReport, type RunIdentity } from './earlyReport.js';
import type { CheckResult, Report, RunStopped } from './model.js';

/** What is known of a run when it stops early; `checks` are the ones that finished. */
export interface StoppedRun extends RunIdentity {
  readonly wallTimeMs: number;
  readonly checks: readonly CheckResult[];
  readonly stopped: RunStopped;
}

/**
 * The report of a run that did not finish (a configuration error, SIGINT, SIGTERM), with the
 * checks that finished. Never a pass: the selection did not run in full.
 */
export function stoppedReport(r: StoppedRun): Report {
  return earlyReport(r, { wallTimeMs: r.wallTimeMs, stopped: r.stopped, warnings: [r.stopped.message] }, r.checks);
}
