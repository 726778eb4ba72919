import { GROUPS, type Group } from '../checks/types.js';
import type { CheckResult, RunStopped } from '../report/model.js';
import { stoppedReport } from '../report/stoppedReport.js';
import { writeReports } from '../report/writeReports.js';
import { plural } from '../report/writeMarkdown.js';
import { toolVersion } from '../runner/toolVersion.js';

/**
 * What `run` knows so far, filled in as it goes (profile loaded, server started, checks finished):
 * a run that stops early, by a configuration error or a signal, still reports from it.
 */
export interface RunState {
  target: string;
  targets: Record<Group, string>;
  profile: string;
  readonly seed: number;
  readonly runs: number;
  readonly startedAt: Date;
  /** `performance.now()` when the checks started; absent before. */
  suiteStarted?: number;
  /** How many checks the run selected; absent before selection. */
  selected?: number;
  readonly checks: CheckResult[];
}

export interface RunStateSeed {
  readonly target?: string;
  readonly urls: Partial<Record<Group, string>>;
  readonly profile?: string;
  readonly seed: number;
  readonly runs: number;
}

export function newRunState(a: RunStateSeed): RunState {
  const base = a.target ?? Object.values(a.urls)[0];
  return {
    target: base ?? 'in-process reference server',
    targets: Object.fromEntries(GROUPS.map((g) => [g, a.urls[g] ?? base ?? ''])) as Record<Group, string>,
    profile: a.profile ?? (base === undefined ? 'reference' : 'default'),
    seed: a.seed,
    runs: a.runs,
    startedAt: new Date(),
    checks: [],
  };
}

/**
 * Writes the reports of a run that did not finish, says so on the console, and never throws: the
 * exit code (2, 130, 143) is the caller's, and a report directory that cannot be written is said.
 */
export async function writeStoppedReports(dir: string, state: RunState, stopped: RunStopped): Promise<void> {
  const checks = [...state.checks];
  const report = stoppedReport({
    ...state,
    durationMs: state.suiteStarted === undefined ? 0 : Math.round(performance.now() - state.suiteStarted),
    wallTimeMs: Math.round(performance.now()),
    toolVersion: toolVersion(),
    checks,
    stopped,
  });
  try {
    const paths = await writeReports(report, dir);
    if (stopped.reason === 'interrupted') {
      const of = state.selected === undefined ? '' : ` of ${state.selected}`;
      console.error(`canton-conformance: INTERRUPTED: ${stopped.message} after ${plural(checks.length, 'check')}${of}`);
    }
    console.error(`report: ${paths.markdown} (also report.json, junit.xml, report.html) says the run ${stopped.reason === 'interrupted' ? 'was interrupted, with what ran' : 'had a configuration error'}`);
  } catch (e) {
    console.error(`canton-conformance run: could not write the reports to ${dir}: ${(e as Error).message}`);
  }
}
