/**
 * Benchmarks of the conformance suite (issue 6):
 *
 * 1. A full default run against the reference server (`canton-conformance run` without --target:
 *    in-process server, every check, 25 inputs per property): budget < 60 s on the 2-core machine.
 *    Also at --concurrency 2, and the run's own timings per operation.
 * 2. Writing the four report files for 1,000 checks (10% failing with full evidence): budget < 2 s.
 *
 * Build and run: `npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/suite-run.js`
 * (`--quick` for a smaller harness check). Prints a Markdown section for bench/RESULTS.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { main } from '../conformance/src/cli/main.js';
import { summarize, type CheckResult, type Evidence, type Report } from '../conformance/src/report/model.js';
import { writeReports } from '../conformance/src/report/writeReports.js';

const quick = process.argv.includes('--quick');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function fullRun(extra: string[]): Promise<{ seconds: number; code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-run-'));
  const log = console.log;
  console.log = () => undefined;
  const t = performance.now();
  let code: number;
  try {
    code = await main(['run', '--report-dir', dir, '--quiet', '--seed', '7', ...(quick ? ['--runs', '5'] : []), ...extra]);
  } finally {
    console.log = log;
  }
  const seconds = (performance.now() - t) / 1000;
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  rmSync(dir, { recursive: true, force: true });
  return { seconds, code, report };
}

function syntheticReport(n: number): Report {
  const body = JSON.stringify({ code: 'OFFSET_AFTER_LEDGER_END', cause: 'x'.repeat(7800), context: {}, errorCategory: 12 });
  const evidence: Evidence = {
    request: { method: 'POST', url: 'http://127.0.0.1:7575/v2/state/active-contracts', headers: { 'content-type': 'application/json', authorization: 'Bearer $TOKEN' }, body: '{"activeAtOffset":100,"eventFormat":{"filtersByParty":{}}}' },
    curl: `curl -sS -i -X POST 'http://127.0.0.1:7575/v2/state/active-contracts' -H 'content-type: application/json' --data-binary '{"activeAtOffset":100}'`,
    response: { status: 400, headers: { 'content-type': 'application/json' }, contentType: 'application/json', body, truncated: false },
    durationMs: 2.5,
  };
  const groups = ['registry', 'ledger', 'scan'] as const;
  const checks: CheckResult[] = Array.from({ length: n }, (_, i) => {
    const failing = i % 10 === 0;
    return {
      id: `${groups[i % 3]}.bench.check-${i}`,
      title: `Synthetic check number ${i} with a realistic title length`,
      group: groups[i % 3]!,
      operationId: `operation${i % 40}`,
      level: 'MUST',
      kind: i % 5 === 0 ? 'property' : 'example',
      status: failing ? 'fail' : i % 13 === 0 ? 'skip' : 'pass',
      specRef: 'service description, group B: active contracts',
      durationMs: 3,
      requests: 4,
      ...(failing ? { message: 'expected HTTP 400, got 200', evidence, seed: 7, counterexample: { value: '"00abcdef"', path: '0:1', numRuns: 3, numShrinks: 5 } } : {}),
    };
  });
  return {
    tool: { name: 'canton-conformance', version: 'bench' },
    target: 'http://127.0.0.1:7575',
    targets: { registry: 'http://127.0.0.1:7575', ledger: 'http://127.0.0.1:7575', scan: 'http://127.0.0.1:7575' },
    profile: 'bench',
    startedAt: new Date().toISOString(),
    durationMs: 1000,
    seed: 7,
    runs: 25,
    warnings: [],
    summary: summarize(checks),
    verdict: 'fail',
    timings: Array.from({ length: 40 }, (_, i) => ({ group: 'ledger' as const, operationId: `operation${i}`, requests: 100, p50Ms: 1.2, p95Ms: 4.5, maxMs: 9 })),
    checks,
  };
}

async function main2(): Promise<void> {
  const lines: string[] = [];
  const log = (l: string) => {
    lines.push(l);
    console.log(l);
  };
  log(`## Conformance suite (bench/suite-run.ts)`);
  log('');
  log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}${quick ? ' (--quick)' : ''}. Command: \`npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/suite-run.js\`.`);
  log('');
  log('| Measure | Budget | Result |');
  log('|---|---|---|');
  for (const [label, extra] of [
    ['full default run, in-process reference server (concurrency 1)', []],
    ['full default run, --concurrency 2', ['--concurrency', '2']],
  ] as const) {
    const runs = [];
    for (let i = 0; i < (quick ? 1 : 5); i++) runs.push(await fullRun([...extra]));
    const s = runs.map((r) => r.seconds);
    const r = runs[0]!.report;
    log(`| ${label}: ${r.summary.total} checks (${r.summary.passed} pass, ${r.summary.skipped} skip), ${r.timings.reduce((n, t) => n + t.requests, 0)} HTTP requests, exit ${runs[0]!.code} | < 60 s | median ${median(s).toFixed(1)} s (max ${Math.max(...s).toFixed(1)} s) |`);
  }
  const report = syntheticReport(1000);
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'cc-bench-write-'));
    const t = performance.now();
    await writeReports(report, dir);
    times.push(performance.now() - t);
    rmSync(dir, { recursive: true, force: true });
  }
  log(`| write report.json + junit.xml + summary.md + report.html, 1,000 checks (100 failing with 8 KB evidence) | < 2 s | median ${median(times).toFixed(0)} ms (max ${Math.max(...times).toFixed(0)} ms) |`);
}

await main2();
