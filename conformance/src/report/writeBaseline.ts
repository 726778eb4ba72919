import { applyBaseline, type Baseline, type BaselineOutcome } from './baseline.js';
import { summarize, type Report } from './model.js';

/**
 * The baseline a run implies: its failed and errored checks, one id per line with the first line
 * of its message as the reason, in the text form `--baseline` reads (baseline.ts).
 */
export function renderBaseline(report: Report, source: string): { text: string; baseline: Baseline } {
  const failing = report.checks.filter((c) => c.status === 'fail' || c.status === 'error');
  const entries = new Map(failing.map((c) => [c.id, oneLine(c.message ?? c.status)]));
  const text = [
    `# canton-conformance baseline: the failures accepted on ${report.startedAt.slice(0, 10)} (${report.tool.name} ${report.tool.version})`,
    `# target ${report.target}, profile ${report.profile}, seed ${report.seed}${report.shard ? `, shard ${report.shard.index}/${report.shard.total}` : ''}`,
    '# Gate later runs with `--baseline` on this file; remove a line once its check passes.',
    ...[...entries].map(([id, why]) => (why === '' ? id : `${id}  # ${why}`)),
    '',
  ].join('\n');
  return { text, baseline: { source, entries } };
}

/** The report judged by another baseline: marks, verdict and exit code as if the run had been given it. */
export function rebaseline(report: Report, baseline: Baseline): { report: Report; outcome: BaselineOutcome } {
  const outcome = applyBaseline(report.checks, baseline);
  return { report: { ...report, checks: outcome.checks, summary: summarize(outcome.checks), verdict: outcome.exitCode === 0 ? 'pass' : 'fail' }, outcome };
}

const oneLine = (s: string) => s.split('\n')[0]!.trim().slice(0, 200);
