/**
 * Reports of a Daml Script run (`canton-conformance test --dar`): junit.xml with one test case per
 * script (its debug output in system-out) and summary.md, in the conventions of the suite's reports.
 */
import type { CoverageCount, CoverageReport, CoverageScope, ScriptResult } from '../../../daml-engine/index.js';
import { coverageRatio } from '../../../daml-engine/index.js';
import { escapeXml, mdCell } from './escape.js';

export interface ScriptRun {
  /** The DAR's main package, `name-version`. */
  readonly dar: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly results: readonly ScriptResult[];
  /** With `--show-coverage`. */
  readonly coverage?: CoverageReport | undefined;
}

const secs = (ms: number) => (ms / 1000).toFixed(3);

export function renderScriptJunit(run: ScriptRun): string {
  const failures = run.results.filter((r) => !r.ok).length;
  const modules = [...new Set(run.results.map((r) => r.ref.module))];
  const attrs = (rs: readonly ScriptResult[]) =>
    `tests="${rs.length}" failures="${rs.filter((r) => !r.ok).length}" errors="0" skipped="0" time="${secs(rs.reduce((t, r) => t + r.durationMs, 0))}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(`daml-script ${run.dar}`)}" tests="${run.results.length}" failures="${failures}" errors="0" skipped="0" time="${secs(run.durationMs)}" timestamp="${escapeXml(run.startedAt)}">`,
    ...modules.map((m) => {
      const rs = run.results.filter((r) => r.ref.module === m);
      return [`  <testsuite name="${escapeXml(m)}" ${attrs(rs)}>`, ...rs.map(testcase), '  </testsuite>'].join('\n');
    }),
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(r: ScriptResult): string {
  const open = `    <testcase classname="${escapeXml(r.ref.module)}" name="${escapeXml(r.ref.name)}" time="${secs(r.durationMs)}"`;
  const inner: string[] = [];
  if (r.failure) {
    inner.push(`      <failure message="${escapeXml(r.failure.message.split('\n')[0]!.slice(0, 500))}" type="${r.failure.kind}">${escapeXml(`${r.failure.kind}: ${r.failure.message}\npackage: ${r.ref.packageId}`)}</failure>`);
  }
  if (r.trace.length > 0) inner.push(`      <system-out>${escapeXml(r.trace.join('\n'))}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

export function renderScriptSummary(run: ScriptRun): string {
  const failed = run.results.filter((r) => !r.ok);
  return [
    `# Daml Script tests: ${mdCell(run.dar)}`,
    '',
    `${run.results.length - failed.length} passed, ${failed.length} failed, ${run.results.length} script${run.results.length === 1 ? '' : 's'} in ${(run.durationMs / 1000).toFixed(1)} s (started ${run.startedAt}).`,
    '',
    '| Script | Result | ms | Script steps | Ledger steps | Questions |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...run.results.map((r) => `| ${mdCell(r.name)} | ${r.ok ? 'pass' : 'FAIL'} | ${r.durationMs.toFixed(0)} | ${r.steps} | ${r.ledgerSteps} | ${r.questions} |`),
    ...(failed.length > 0 ? ['', '## Failures', '', ...failed.map((r) => `- **${mdCell(r.name)}** (${r.failure!.kind}): ${mdCell(r.failure!.message, 1000)}`)] : []),
    ...(run.coverage ? ['', '## Coverage', '', ...coverageMarkdown(run.coverage)] : []),
    '',
  ].join('\n');
}

const KINDS: readonly (readonly [keyof CoverageScope, string, string])[] = [
  ['templatesCreated', 'Templates created', 'never created'],
  ['templateChoicesExercised', 'Template choices exercised', 'never exercised'],
  ['interfacesUsed', 'Interfaces used', 'never used'],
  ['interfaceChoicesExercised', 'Interface choices exercised', 'never exercised'],
];
const SCOPES = [['main', 'this package'], ['dependencies', 'dependencies']] as const;

function coverageMarkdown(c: CoverageReport): string[] {
  const unused = (n: CoverageCount) => (n.unused.length === 0 ? '' : n.unused.map((u) => mdCell(u)).join(', '));
  return [
    '| Scope | What | Used / defined | Not used |',
    '| --- | --- | ---: | --- |',
    ...SCOPES.flatMap(([scope, label]) => KINDS.map(([k, what]) => `| ${label} | ${what} | ${coverageRatio(c[scope][k])} | ${unused(c[scope][k])} |`)),
  ];
}

/** The coverage as `--show-coverage` prints it: counts, then what was never used in this package. */
export function renderCoverageText(c: CoverageReport): string {
  return [
    'Coverage:',
    ...SCOPES.flatMap(([scope, label]) => [
      `- ${label}`,
      ...KINDS.flatMap(([k, what, never]) => {
        const n = c[scope][k];
        const list = scope === 'main' && n.unused.length > 0 ? [`      ${never}: ${n.unused.join(', ')}`] : [];
        return [`    ${what}: ${coverageRatio(n)}`, ...list];
      }),
    ]),
  ].join('\n');
}
