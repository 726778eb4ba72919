import type { Status } from '../checks/types.js';
import { mdCell } from './escape.js';
import type { Report } from './model.js';

export interface DiffEntry {
  readonly id: string;
  readonly title: string;
  readonly before?: Status;
  readonly after?: Status;
  readonly message?: string;
}

/** What changed between two runs of (usually) the same target. */
export interface ReportDiff {
  /** Passed (or warned, or skipped) before, fails or errors now. */
  readonly regressed: DiffEntry[];
  /** Failed or errored before, passes now. */
  readonly fixed: DiffEntry[];
  /** Any other change of status (e.g. pass -> skip, fail -> error). */
  readonly changed: DiffEntry[];
  /** Only in the second report. */
  readonly added: DiffEntry[];
  /** Only in the first report. */
  readonly removed: DiffEntry[];
  readonly unchanged: number;
  /**
   * Why a run did not complete (unreachable, stopped by a configuration error or a signal): its
   * missing checks are not a change of the target. An incomplete B fails `report --diff`.
   */
  readonly incomplete?: { readonly a?: string; readonly b?: string };
}

/** Why `r` did not run every check it selected, or undefined when it completed. */
export function incompleteRun(r: Report): string | undefined {
  if (r.unreachable !== undefined) return `the target was unreachable (${r.unreachable.url}: ${r.unreachable.reason}); no check ran`;
  if (r.stopped?.reason === 'configuration-error') return `the run did not start: ${r.stopped.message}`;
  if (r.stopped?.reason === 'interrupted') return `the run was interrupted (${r.stopped.signal}): only the checks that finished are in it`;
  return undefined;
}

const ifDefined = <K extends string>(k: K, v: string | undefined): Partial<Record<K, string>> => (v === undefined ? {} : ({ [k]: v } as Record<K, string>));

const bad = (s: Status | undefined) => s === 'fail' || s === 'error';

export function diffReports(a: Report, b: Report): ReportDiff {
  const before = new Map(a.checks.map((c) => [c.id, c]));
  const after = new Map(b.checks.map((c) => [c.id, c]));
  const d: ReportDiff = { regressed: [], fixed: [], changed: [], added: [], removed: [], unchanged: 0 };
  for (const [id, y] of after) {
    const x = before.get(id);
    const entry: DiffEntry = { id, title: y.title, ...(x ? { before: x.status } : {}), after: y.status, ...(y.message ? { message: y.message } : {}) };
    if (!x) d.added.push(entry);
    else if (x.status === y.status) (d as { unchanged: number }).unchanged++;
    else if (bad(y.status) && !bad(x.status)) d.regressed.push(entry);
    else if (bad(x.status) && y.status === 'pass') d.fixed.push(entry);
    else d.changed.push(entry);
  }
  for (const [id, x] of before) if (!after.has(id)) d.removed.push({ id, title: x.title, before: x.status });
  const incomplete = { ...ifDefined('a', incompleteRun(a)), ...ifDefined('b', incompleteRun(b)) };
  return Object.keys(incomplete).length === 0 ? d : { ...d, incomplete };
}

/** The diff as Markdown (for a terminal or a PR comment). */
export function renderDiff(a: Report, b: Report, d: ReportDiff): string {
  const out = [
    `## canton-conformance diff`,
    '',
    `A: \`${a.target}\` ${a.startedAt} (seed ${a.seed}, ${a.summary.failed + a.summary.errored} failing)`,
    `B: \`${b.target}\` ${b.startedAt} (seed ${b.seed}, ${b.summary.failed + b.summary.errored} failing)`,
    '',
    ...(['a', 'b'] as const).flatMap((k) => (d.incomplete?.[k] === undefined ? [] : [`**${k.toUpperCase()} is not a complete run**: ${d.incomplete[k]}.`, ''])),
    `${d.regressed.length} regressed · ${d.fixed.length} fixed · ${d.changed.length} changed · ${d.added.length} added · ${d.removed.length} removed · ${d.unchanged} unchanged`,
  ];
  const table = (title: string, rows: DiffEntry[]) => {
    if (rows.length === 0) return;
    out.push('', `### ${title} (${rows.length})`, '', '| Check | A | B | Why (B) |', '|---|---|---|---|');
    for (const r of rows) out.push(`| \`${r.id}\` | ${r.before ?? '—'} | ${r.after ?? '—'} | ${mdCell(r.message ?? '')} |`);
  };
  table('Regressed', d.regressed);
  table('Fixed', d.fixed);
  table('Changed', d.changed);
  table('Added', d.added);
  table('Removed', d.removed);
  return `${out.join('\n')}\n`;
}
