import { GROUPS } from '../checks/types.js';
import { mdCell } from './escape.js';
import { ranLine } from './gate.js';
import { stoppedByPreflight } from './preflightReport.js';
import type { CheckResult, Report } from './model.js';
import { isUnexpected, summarize } from './model.js';

const MAX_ROWS = 50;
const MAX_UNCHECKED = 10;

/** `1 check`, `2 checks`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** summary.md: short enough for a CI job summary ($GITHUB_STEP_SUMMARY), the verdict first. */
export function renderMarkdown(report: Report): string {
  const s = report.summary;
  const unexpected = report.checks.filter(isUnexpected);
  const expected = report.checks.filter((c) => c.baseline === 'expected');
  const warned = report.checks.filter((c) => c.status === 'warn');
  const out: string[] = [];
  out.push(`## canton-conformance: ${headline(report)}`);
  out.push('');
  out.push(
    `Target \`${report.target}\` · profile \`${report.profile}\` · seed \`${report.seed}\` · ${plural(s.total, 'check')} in ${(report.durationMs / 1000).toFixed(1)} s` +
      (report.wallTimeMs !== undefined ? ` (${(report.wallTimeMs / 1000).toFixed(1)} s in all)` : '') +
      (report.shard ? ` · shard ${report.shard.index}/${report.shard.total}` : '') +
      (report.mergedFrom ? ` · merged from ${report.mergedFrom} reports` : '') +
      (report.preflight?.cantonVersion ? ` · Canton ${report.preflight.cantonVersion}` : '') +
      (report.canton ? ` · judged as Canton ${report.canton.line} (${report.canton.from === 'flag' ? '--canton-version' : report.canton.from === 'target' ? 'its version' : 'default'})` : '') +
      (report.splice ? ` · Scan judged as Splice ${report.splice.release} (${report.splice.from === 'flag' ? '--splice-version' : 'its version'})` : '') +
      ` · ${report.tool.name} ${report.tool.version}`,
  );
  out.push('');
  if (report.unreachable) {
    out.push(`The target did not answer, so no check ran: \`${report.unreachable.url}\`: ${mdCell(report.unreachable.reason)}.`, '');
    out.push('Start the target (or fix its URL) and run again; the exit code was 3.', '');
    return out.join('\n');
  }
  if (stoppedByPreflight(report)) {
    out.push('The preflight found that the target cannot be certified as configured, so no check ran (exit 2):', '');
    out.push(...(report.preflight?.problems ?? []).map((p) => `- ${mdCell(p)}`), '');
    out.push('`npx canton-conformance doctor` with the same flags says more (the rights to grant, the checks that skip).', '');
    return out.join('\n');
  }
  if (report.stopped?.reason === 'configuration-error') {
    out.push(`The run did not start: ${mdCell(report.stopped.message)}`, '', 'Fix the configuration and run again; the exit code was 2.', '');
    return out.join('\n');
  }
  if (report.stopped) out.push(`${mdCell(report.stopped.message)}: below is what ran until then. Run again for the verdict.`, '');
  out.push(`The run ${ranLine(report)}.`, '');
  for (const f of report.gate?.failures ?? []) out.push(`The gate fails the run: ${mdCell(f)}.`, '');
  const stale = unexpected.filter((c) => c.baseline === 'stale').length;
  if (stale > 0) out.push(`${plural(stale, 'stale baseline entry', 'stale baseline entries')} fail${stale === 1 ? 's' : ''} the run: ${stale === 1 ? 'it passes' : 'they pass'} now; remove ${stale === 1 ? 'it' : 'them'} from the baseline.`, '');
  out.push('| Group | Passed | Failed | Errored | Warned | Skipped |');
  out.push('|---|---:|---:|---:|---:|---:|');
  for (const g of GROUPS) {
    const checks = report.checks.filter((c) => c.group === g);
    if (checks.length === 0) continue;
    const t = summarize(checks);
    out.push(`| ${g} | ${t.passed} | ${t.failed} | ${t.errored} | ${t.warned} | ${t.skipped} |`);
  }
  out.push(`| **all** | **${s.passed}** | **${s.failed}** | **${s.errored}** | **${s.warned}** | **${s.skipped}** |`);
  if (report.warnings.length > 0) {
    out.push('', '### Warnings', '', ...report.warnings.map((w) => `- ⚠️ ${w.replace(/\r?\n/g, ' ')}`));
  }
  section(out, 'Failures', unexpected, true);
  section(out, 'Expected failures (baseline)', expected, false);
  section(out, 'Warnings from SHOULD/MAY rules', warned, false);
  coverage(out, report);
  if (unexpected.some((c) => c.replay)) {
    out.push('', `Replay one check: \`${unexpected.find((c) => c.replay)!.replay!}\``);
  }
  out.push('', 'Full details (requests, responses, curl lines, counterexamples): `report.html` in the report directory.', '');
  return out.join('\n');
}

function headline(report: Report): string {
  if (report.unreachable) return '❌ UNREACHABLE';
  if (stoppedByPreflight(report)) return '❌ NOT STARTED';
  if (report.stopped) return report.stopped.reason === 'interrupted' ? '⏹ INTERRUPTED' : '❌ CONFIGURATION ERROR';
  return report.verdict === 'pass' ? '✅ PASS' : '❌ FAIL';
}

function coverage(out: string[], report: Report): void {
  const c = report.coverage;
  if (!c) return;
  const notChecked = c.notChecked ?? [];
  out.push('', '### Coverage', '');
  out.push(`${c.operations.length - c.uncovered.length}/${c.operations.length} operations have a behaviour check, ${c.operations.length - notChecked.length} checked in this run; ${c.rules.length - c.uncheckedRules.length}/${c.rules.length} documented rules have a check.`);
  if (c.uncovered.length > 0) out.push('', `Without a behaviour check: ${c.uncovered.map((o) => `\`${o}\``).join(', ')}`);
  const skipped = notChecked.filter((o) => !c.uncovered.includes(o));
  // One operation a line, and only the first few: a narrow run (--only) leaves most of them out.
  if (skipped.length > 0) {
    out.push('', `Not checked in this run (${skipped.length}):`, '', ...skipped.slice(0, MAX_UNCHECKED).map((o) => `- \`${o}\``));
    if (skipped.length > MAX_UNCHECKED) out.push('', `…and ${skipped.length - MAX_UNCHECKED} more (\`coverage.notChecked\` in report.json).`);
  }
  if (c.uncheckedRules.length > 0) out.push('', 'Documented rules without a check:', '', ...c.uncheckedRules.map((r) => `- ${mdCell(r)}`));
}

function section(out: string[], title: string, checks: readonly CheckResult[], withStatus: boolean): void {
  if (checks.length === 0) return;
  out.push('', `### ${title} (${checks.length})`, '');
  out.push(withStatus ? '| Check | Level | Status | Why |' : '| Check | Level | Why |');
  out.push(withStatus ? '|---|---|---|---|' : '|---|---|---|');
  for (const c of checks.slice(0, MAX_ROWS)) {
    const why = c.baseline === 'stale' ? 'stale baseline entry: passes now, remove it from the baseline' : (c.message ?? '');
    const id = `\`${c.id}\``;
    out.push(withStatus ? `| ${id} | ${c.level} | ${c.baseline === 'stale' ? 'stale' : c.status} | ${mdCell(why)} |` : `| ${id} | ${c.level} | ${mdCell(why)} |`);
  }
  if (checks.length > MAX_ROWS) out.push('', `…and ${checks.length - MAX_ROWS} more (see report.html).`);
}
