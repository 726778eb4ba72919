import type { Report, RunGate } from './model.js';

/** `--min-ran PERCENT` and `--fail-on-skip`; both off unless given. */
export interface GateOptions {
  readonly minRanPercent?: number;
  readonly failOnSkip?: boolean;
}

/** The selected checks that apply to the target: all but those its Canton line has no rule for, and those of groups its profile does not serve. */
const applicable = (summary: Report['summary']): number => summary.total - (summary.notOnLine ?? 0) - (summary.notServed ?? 0);

/** Share of the selected checks that apply to the target that ran, in percent, to one decimal; 100 when none applies. */
export function ranPercent(summary: Report['summary']): number {
  const of = applicable(summary);
  if (of === 0) return 100;
  const ran = summary.ran ?? summary.total - summary.skipped;
  return Math.floor((ran / of) * 1000) / 10;
}

/**
 * A pass says little when most checks skipped: the gate fails the run (exit 1, verdict fail) when
 * fewer than `minRanPercent` of the selected checks ran, or, with `failOnSkip`, when any MUST check
 * skipped. Without either option the report is returned unchanged.
 */
export function applyGate(report: Report, o: GateOptions): { readonly report: Report; readonly failed: boolean } {
  if (o.minRanPercent === undefined && o.failOnSkip !== true) return { report, failed: false };
  const percent = ranPercent(report.summary);
  const ran = report.summary.ran ?? report.summary.total - report.summary.skipped;
  // A rule the target's Canton line does not have, or of an API the profile says it does not
  // serve, is not a skip: the target cannot break it.
  const skippedMust = report.checks.filter((c) => c.status === 'skip' && c.level === 'MUST' && c.notOnLine === undefined && c.notServed === undefined).map((c) => c.id);
  const failures: string[] = [];
  if (o.minRanPercent !== undefined && percent < o.minRanPercent) {
    failures.push(`only ${ran} of ${applicable(report.summary)} selected checks ran (${percent}%), below --min-ran ${o.minRanPercent}%`);
  }
  if (o.failOnSkip === true && skippedMust.length > 0) {
    failures.push(`${skippedMust.length} MUST check(s) skipped with --fail-on-skip: ${skippedMust.slice(0, 5).join(', ')}${skippedMust.length > 5 ? `, …and ${skippedMust.length - 5} more` : ''}`);
  }
  const gate: RunGate = {
    ...(o.minRanPercent !== undefined ? { minRanPercent: o.minRanPercent } : {}),
    ...(o.failOnSkip === true ? { failOnSkip: true } : {}),
    ranPercent: percent,
    skippedMust,
    failures,
  };
  const failed = failures.length > 0;
  return { report: { ...report, gate, ...(failed ? { verdict: 'fail' as const } : {}) }, failed };
}

/**
 * "ran 12 of 20 selected checks (60%)": the line every summary shows, with the checks that do not
 * apply counted apart: rules the target's Canton line lacks, rules its Splice release lacks (a Scan
 * that said its release; `notOnLine: 'Splice 0.6.4'`), and groups the profile does not serve.
 */
export function ranLine(report: Pick<Report, 'summary' | 'checks'>): string {
  const { summary } = report;
  const ran = summary.ran ?? summary.total - summary.skipped;
  const of = applicable(summary);
  const splice = report.checks.filter((c) => c.status === 'skip' && c.notOnLine?.startsWith('Splice ') === true);
  const releases = [...new Set(splice.map((c) => c.notOnLine))].sort().join(', ');
  const absent = (summary.notOnLine ?? 0) - splice.length;
  const unserved = summary.notServed ?? 0;
  const are = (n: number) => `${n} more ${n === 1 ? 'is' : 'are'}`;
  return `ran ${ran} of ${of} selected check${of === 1 ? '' : 's'} (${ranPercent(summary)}%)` +
    (absent > 0 ? `; ${are(absent)} not on the target's Canton line` : '') +
    (splice.length > 0 ? `; ${are(splice.length)} not in the target's Splice release (${releases})` : '') +
    (unserved > 0 ? `; ${unserved} more need${unserved === 1 ? 's' : ''} a group the profile does not serve` : '');
}
