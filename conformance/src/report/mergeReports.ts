import { catalogue } from '../checks/catalogue.js';
import { GROUPS } from '../checks/types.js';
import { coverageOf } from './coverage.js';
import { mergeReinterpretation } from '../reinterpret/reinterpretTally.js';
import { mergeHistory } from '../history/historyTally.js';
import type { CheckResult, OperationTiming, Report } from './model.js';
import { isUnexpected, STATUS_RANK, summarize } from './model.js';

export class MergeError extends Error {
  override readonly name = 'MergeError';
}

/**
 * One report from several (the shards of a campaign, or re-runs). A check that appears in more than
 * one input keeps its worst result (fail > error > warn > pass > skip): observers run in every shard.
 */
export function mergeReports(reports: readonly Report[]): Report {
  if (reports.length === 0) throw new MergeError('nothing to merge');
  const first = reports[0]!;
  const targets = new Set(reports.map((r) => r.target));
  if (targets.size > 1) throw new MergeError(`the reports are for different targets (${[...targets].join(', ')}); merge only runs against one target`);
  const byId = new Map<string, CheckResult>();
  for (const r of reports) {
    for (const c of r.checks) {
      const prev = byId.get(c.id);
      if (prev === undefined || STATUS_RANK[c.status] < STATUS_RANK[prev.status] || (isUnexpected(c) && !isUnexpected(prev))) byId.set(c.id, c);
    }
  }
  const checks = [...byId.values()].sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group) || a.id.localeCompare(b.id));
  const seeds = [...new Set(reports.map((r) => r.seed))];
  const warnings = [...new Set(reports.flatMap((r) => r.warnings))];
  if (seeds.length > 1) warnings.push(`merged reports used different seeds (${seeds.join(', ')}); replay each check with the seed in its own entry`);
  const lines = [...new Set(reports.flatMap((r) => (r.canton ? [r.canton.line] : [])))];
  if (lines.length > 1) warnings.push(`merged reports judged the target by different Canton lines (${lines.join(', ')}); the merged report names the first's`);
  const releases = [...new Set(reports.flatMap((r) => (r.splice ? [r.splice.release] : [])))];
  if (releases.length > 1) warnings.push(`merged reports judged the Scan by different Splice releases (${releases.join(', ')}); the merged report names the first's`);
  const shards = reports.filter((r) => r.shard).map((r) => `${r.shard!.index}/${r.shard!.total}`);
  const totals = new Set(reports.filter((r) => r.shard).map((r) => r.shard!.total));
  if (totals.size === 1 && shards.length > 0) {
    const total = [...totals][0]!;
    const missing = Array.from({ length: total }, (_, i) => `${i + 1}/${total}`).filter((s) => !shards.includes(s));
    if (missing.length > 0) warnings.push(`shard(s) ${missing.join(', ')} missing from the merge: their checks are not in this report`);
  }
  const start = Math.min(...reports.map((r) => Date.parse(r.startedAt)));
  const end = Math.max(...reports.map((r) => Date.parse(r.startedAt) + r.durationMs));
  // Wall times of separate jobs do not add up; a shard that did not finish leaves the merge unfinished too.
  const { shard: _shard, wallTimeMs: _wall, stopped: _stopped, reinterpretation: _reinterpretation, history: _history, ...rest } = first;
  const reinterpretation = mergeReinterpretation(reports.map((r) => r.reinterpretation));
  const history = mergeHistory(reports.map((r) => r.history));
  const stopped = reports.find((r) => r.stopped)?.stopped;
  return {
    ...rest,
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    mergedFrom: reports.reduce((n, r) => n + (r.mergedFrom ?? 1), 0),
    warnings,
    summary: summarize(checks),
    ...(stopped ? { stopped } : {}),
    verdict: stopped || checks.some(isUnexpected) ? 'fail' : 'pass',
    timings: mergeTimings(reports.flatMap((r) => r.timings)),
    checks,
    ...(reports.some((r) => r.coverage) ? { coverage: coverageOf(catalogue(), checks) } : {}),
    ...(reinterpretation ? { reinterpretation } : {}),
    ...(history ? { history } : {}),
  };
}

/** p95 and max are the maxima over inputs; p50 is request-weighted (an approximation, documented). */
function mergeTimings(all: readonly OperationTiming[]): OperationTiming[] {
  const by = new Map<string, OperationTiming[]>();
  for (const t of all) by.set(`${t.group} ${t.operationId}`, [...(by.get(`${t.group} ${t.operationId}`) ?? []), t]);
  return [...by.values()].map((ts) => {
    const requests = ts.reduce((n, t) => n + t.requests, 0);
    return {
      group: ts[0]!.group,
      operationId: ts[0]!.operationId,
      requests,
      p50Ms: Math.round((ts.reduce((n, t) => n + t.p50Ms * t.requests, 0) / Math.max(1, requests)) * 10) / 10,
      p95Ms: Math.max(...ts.map((t) => t.p95Ms)),
      maxMs: Math.max(...ts.map((t) => t.maxMs)),
    };
  });
}
