import type { Group } from '../checks/types.js';
import { summarize, type PreflightVerdict, type Report } from './model.js';

export interface StoppedRun {
  readonly target: string;
  readonly targets: Readonly<Record<Group, string>>;
  readonly profile: string;
  readonly seed: number;
  readonly runs: number;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly toolVersion: string;
  readonly preflight: PreflightVerdict;
}

/**
 * The report of a run the preflight stopped (exit 2: the target cannot be certified as
 * configured): the files exist for CI as with an unreachable target, and say what to fix.
 */
export function preflightReport(r: StoppedRun): Report {
  return {
    tool: { name: 'canton-conformance', version: r.toolVersion },
    target: r.target,
    targets: r.targets,
    profile: r.profile,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    seed: r.seed,
    runs: r.runs,
    preflight: r.preflight,
    warnings: r.preflight.problems.map((p) => `preflight: ${p}`),
    summary: summarize([]),
    verdict: 'fail',
    timings: [],
    checks: [],
  };
}

/** A run the preflight stopped before any check (exit 2). */
export const stoppedByPreflight = (r: Pick<Report, 'preflight'>): boolean => r.preflight?.status === 'misconfigured';
