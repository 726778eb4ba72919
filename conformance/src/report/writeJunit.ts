import type { Group } from '../checks/types.js';
import { escapeXml } from './escape.js';
import type { CheckResult, Report } from './model.js';
import { summarize } from './model.js';

const secs = (ms: number) => (ms / 1000).toFixed(3);

/**
 * junit.xml: one testsuite per group, one testcase per check. Expected failures (baseline) are
 * `skipped` so CI dashboards stay green for them; stale baseline entries are failures.
 */
export function renderJunit(report: Report): string {
  if (report.unreachable) return unreachableJunit(report, report.unreachable);
  if (report.preflight?.status === 'misconfigured') return stoppedJunit(report, report.preflight.problems);
  const groups = [...new Set(report.checks.map((c) => c.group))];
  const suites = groups.map((g) => suite(g, report.checks.filter((c) => c.group === g)));
  const all = report.checks.map(classify);
  const count = (k: Classified['kind']) => all.filter((c) => c.kind === k).length;
  // A run that did not finish shows red in a CI test tab however its checks went: one errored testcase says why.
  const stopped = report.stopped ? stoppedSuite(report, report.stopped) : [];
  // The gate (--min-ran, --fail-on-skip) is one more testcase, so a test tab is red when it failed the run.
  const gate = report.gate ? gateSuite(report.gate.failures) : undefined;
  const gateFailed = (report.gate?.failures.length ?? 0) > 0 ? 1 : 0;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="canton-conformance" tests="${report.checks.length + (report.stopped ? 1 : 0) + (gate ? 1 : 0)}" failures="${count('failure') + gateFailed}" errors="${count('error') + (report.stopped ? 1 : 0)}" skipped="${count('skipped')}" time="${secs(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
    ...stopped,
    ...suites,
    ...(gate ? [gate] : []),
    '</testsuites>',
    '',
  ].join('\n');
}

interface Classified {
  kind: 'ok' | 'failure' | 'error' | 'skipped';
  message: string;
}

function classify(c: CheckResult): Classified {
  const m = c.message ?? '';
  if (c.baseline === 'expected') return { kind: 'skipped', message: `expected failure (baseline): ${c.status}: ${m}` };
  if (c.baseline === 'stale') return { kind: 'failure', message: 'stale baseline entry: this check now passes; remove it from the baseline' };
  switch (c.status) {
    case 'fail':
      return { kind: 'failure', message: m };
    case 'error':
      return { kind: 'error', message: m };
    case 'skip':
      return { kind: 'skipped', message: m };
    default:
      return { kind: 'ok', message: m };
  }
}

function suite(group: Group, checks: readonly CheckResult[]): string {
  const s = summarize(checks);
  const cls = checks.map(classify);
  const time = checks.reduce((t, c) => t + c.durationMs, 0);
  return [
    `  <testsuite name="${group}" tests="${s.total}" failures="${cls.filter((c) => c.kind === 'failure').length}" errors="${cls.filter((c) => c.kind === 'error').length}" skipped="${cls.filter((c) => c.kind === 'skipped').length}" time="${secs(time)}">`,
    ...checks.map((c, i) => testcase(c, cls[i]!)),
    '  </testsuite>',
  ].join('\n');
}

function testcase(c: CheckResult, k: Classified): string {
  const open = `    <testcase classname="${escapeXml(`${c.group}.${c.operationId}`)}" name="${escapeXml(`${c.id} [${c.level}] ${c.title}`)}" time="${secs(c.durationMs)}"`;
  const details = [
    `${c.level} ${c.status}${c.baseline ? ` (baseline: ${c.baseline})` : ''}: ${c.message ?? ''}`,
    `rule: ${c.specRef}`,
    c.evidence ? `request: ${c.evidence.request.method} ${c.evidence.request.url}\ncurl: ${c.evidence.curl}` : '',
    c.evidence?.response ? `response: ${c.evidence.response.status} ${c.evidence.response.contentType}\n${c.evidence.response.body.slice(0, 2000)}` : '',
    c.evidence?.error ? `transport: ${c.evidence.error.message}` : '',
    c.counterexample ? `counterexample (seed ${c.seed ?? '?'}): ${c.counterexample.value}` : '',
    c.replay ? `replay: ${c.replay}` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
  const msg = escapeXml(k.message.split('\n')[0]!.slice(0, 500));
  const inner =
    k.kind === 'failure'
      ? `      <failure message="${msg}" type="${c.level}">${escapeXml(details)}</failure>`
      : k.kind === 'error'
        ? `      <error message="${msg}" type="error">${escapeXml(details)}</error>`
        : k.kind === 'skipped'
          ? `      <skipped message="${msg}"/>`
          : c.status === 'warn'
            ? `      <system-out>${escapeXml(`WARN: ${details}`)}</system-out>`
            : '';
  return inner === '' ? `${open}/>` : `${open}>\n${inner}\n    </testcase>`;
}

function stoppedSuite(report: Report, stopped: NonNullable<Report['stopped']>): string[] {
  const message = escapeXml(stopped.message);
  return [
    `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="${secs(report.durationMs)}">`,
    `    <testcase classname="run" name="run completed" time="${secs(report.durationMs)}">`,
    `      <error message="${message}" type="${stopped.reason}">${message}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}

function gateSuite(failures: readonly string[]): string {
  const message = escapeXml(failures.join('; '));
  return [
    `  <testsuite name="gate" tests="1" failures="${failures.length > 0 ? 1 : 0}" errors="0" skipped="0" time="0.000">`,
    failures.length > 0
      ? `    <testcase classname="gate" name="enough of the selected checks ran" time="0.000">\n      <failure message="${message}" type="gate">${message}</failure>\n    </testcase>`
      : '    <testcase classname="gate" name="enough of the selected checks ran" time="0.000"/>',
    '  </testsuite>',
  ].join('\n');
}

/** The preflight stopped the run: one failed testcase names its problems (exit 2). */
function stoppedJunit(report: Report, problems: readonly string[]): string {
  const message = escapeXml(`the target cannot be certified as configured: ${problems.join('; ')}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="canton-conformance" tests="1" failures="1" errors="0" skipped="0" time="${secs(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
    `  <testsuite name="preflight" tests="1" failures="1" errors="0" skipped="0" time="${secs(report.durationMs)}">`,
    `    <testcase classname="preflight" name="target ready to certify" time="${secs(report.durationMs)}">`,
    `      <failure message="${message}" type="preflight">${message}; no check ran (exit 2)</failure>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** No check ran: one errored testcase says so, so a CI test tab shows the run as red with the reason. */
function unreachableJunit(report: Report, down: NonNullable<Report['unreachable']>): string {
  const message = escapeXml(`target unreachable: ${down.url}: ${down.reason}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="canton-conformance" tests="1" failures="0" errors="1" skipped="0" time="${secs(report.durationMs)}" timestamp="${escapeXml(report.startedAt)}">`,
    `  <testsuite name="reachability" tests="1" failures="0" errors="1" skipped="0" time="${secs(report.durationMs)}">`,
    `    <testcase classname="reachability" name="target reachable" time="${secs(report.durationMs)}">`,
    `      <error message="${message}" type="unreachable">${message}; no check ran (exit 3)</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
