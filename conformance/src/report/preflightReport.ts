import { earlyReport, type RunIdentity } from './earlyReport.js';
import type { PreflightVerdict, Report } from './model.js';

/**
 * The report of a run the preflight stopped (exit 2: the target cannot be certified as
 * configured): the files exist for CI as with an unreachable target, and say what to fix.
 */
export function preflightReport(r: RunIdentity & { readonly preflight: PreflightVerdict }): Report {
  return earlyReport(r, { preflight: r.preflight, warnings: r.preflight.problems.map((p) => `preflight: ${p}`) });
}

/** A run the preflight stopped before any check (exit 2). */
export const stoppedByPreflight = (r: Pick<Report, 'preflight'>): boolean => r.preflight?.status === 'misconfigured';
