import { catalogue } from '../checks/catalogue.js';
import { applyBaseline, BaselineError, loadBaseline } from '../report/baseline.js';
import { diffReports, renderDiff } from '../report/diffReports.js';
import { mergeReports, MergeError } from '../report/mergeReports.js';
import { isUnexpected, summarize, type Report } from '../report/model.js';
import { readReport, ReportReadError } from '../report/readReport.js';
import { writeReports } from '../report/writeReports.js';
import { ExitCode, UsageError } from './exitCodes.js';
import { parseFlags } from './parseFlags.js';
import { writableDir } from './writableDir.js';

export const REPORT_HELP = `Usage:
  canton-conformance report merge A B ... --out DIR [--baseline FILE]
  canton-conformance report --diff A B [--json]

merge   Combines reports (the shards of one campaign, or re-runs against one target) into one set of
        report files in DIR. A check found in several inputs keeps its worst result. With
        --baseline the baseline is applied to the merged result. Exit 1 when the merged report
        has unexpected failures or stale baseline entries (so CI can gate on it), else 0.
--diff  Compares run A with run B: regressed, fixed, changed, added and removed checks, as
        Markdown (or --json). Exit 1 when a check regressed, or when B is not a complete run
        (the target unreachable, a configuration error, interrupted), else 0.

A and B are report.json files or the report directories holding them.`;

function read(path: string): Report {
  try {
    return readReport(path);
  } catch (e) {
    if (e instanceof ReportReadError) throw new UsageError(e.message);
    throw e;
  }
}

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseFlags({
      args: argv,
      options: { out: { type: 'string' }, diff: { type: 'boolean' }, json: { type: 'boolean' }, baseline: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(REPORT_HELP);
    return ExitCode.Ok;
  }
  if (values.diff) {
    if (positionals.length !== 2) throw new UsageError('report --diff takes exactly two reports: A B');
    if (values.out !== undefined) throw new UsageError('--out is for report merge; report --diff prints to standard output');
    const [a, b] = positionals.map(read) as [Report, Report];
    const d = diffReports(a, b);
    console.log(values.json ? JSON.stringify(d, null, 2) : renderDiff(a, b, d));
    // A B that did not complete cannot show that nothing regressed.
    return d.regressed.length > 0 || d.incomplete?.b !== undefined ? ExitCode.Failures : ExitCode.Ok;
  }
  if (positionals[0] !== 'merge') throw new UsageError(`expected \`report merge ...\` or \`report --diff A B\`\n\n${REPORT_HELP}`);
  const inputs = positionals.slice(1);
  if (inputs.length === 0) throw new UsageError('report merge needs at least one report');
  if (values.out === undefined) throw new UsageError('report merge needs --out DIR');
  await writableDir(values.out, 'the merged report');
  let merged: Report;
  try {
    merged = mergeReports(inputs.map(read));
  } catch (e) {
    if (e instanceof MergeError) throw new UsageError(e.message);
    throw e;
  }
  if (values.baseline !== undefined) {
    let outcome;
    try {
      outcome = applyBaseline(merged.checks, loadBaseline(values.baseline, catalogue().map((c) => c.id)));
    } catch (e) {
      if (e instanceof BaselineError) throw new UsageError(e.message);
      throw e;
    }
    merged = { ...merged, checks: outcome.checks, summary: summarize(outcome.checks), verdict: outcome.exitCode === 0 ? 'pass' : 'fail' };
  }
  const paths = await writeReports(merged, values.out);
  const s = merged.summary;
  console.log(`canton-conformance: merged ${inputs.length} report(s): ${merged.verdict.toUpperCase()}: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored, ${s.warned} warned, ${s.skipped} skipped`);
  for (const w of merged.warnings) console.log(`warning: ${w}`);
  console.log(`report: ${paths.html}`);
  return merged.checks.some(isUnexpected) ? ExitCode.Failures : ExitCode.Ok;
}
