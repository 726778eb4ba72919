import type { Group } from '../checks/types.js';
import type { Unreachable } from '../runner/reachability.js';
import { summarize, type Report } from './model.js';

export interface UnreachableRun {
  readonly target: string;
  readonly targets: Readonly<Record<Group, string>>;
  readonly profile: string;
  readonly seed: number;
  readonly runs: number;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly toolVersion: string;
  readonly down: Unreachable;
}

/**
 * The report of a run that stopped before any check (exit 3): CI keeps `reports/` as an artifact
 * and prints summary.md either way, so the files exist and say why nothing was checked.
 */
export function unreachableReport(r: UnreachableRun): Report {
  return {
    tool: { name: 'canton-conformance', version: r.toolVersion },
    target: r.target,
    targets: r.targets,
    profile: r.profile,
    startedAt: r.startedAt.toISOString(),
    durationMs: r.durationMs,
    seed: r.seed,
    runs: r.runs,
    unreachable: { url: r.down.url, reason: r.down.reason },
    // The preflight's first question got no answer: the same verdict `doctor` gives (exit 3).
    preflight: { status: 'unreachable', problems: [`target unreachable: ${r.down.url}: ${r.down.reason}`] },
    warnings: [`target unreachable: ${r.down.url}: ${r.down.reason}; no check ran`],
    summary: summarize([]),
    verdict: 'fail',
    timings: [],
    checks: [],
  };
}
