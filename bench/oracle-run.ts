/**
 * What the oracle costs: a full default run (`canton-conformance run`: the in-process reference
 * server, reference profile, every check, 25 inputs per property) with `--oracle none` and with the
 * default `--oracle reference`, alternated in one process so both see the same machine load.
 * Budget: the oracle adds at most 50 % (ratio of medians <= 1.5).
 *
 * Build and run: `npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/oracle-run.js [rounds]`
 * (default 3 rounds). Prints a Markdown table for bench/RESULTS.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../conformance/src/cli/main.js';
import type { Report } from '../conformance/src/report/model.js';

const rounds = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function fullRun(oracle: 'none' | 'reference'): Promise<{ seconds: number; code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-oracle-'));
  const log = console.log;
  console.log = () => undefined;
  const t = performance.now();
  let code: number;
  try {
    code = await main(['run', '--report-dir', dir, '--quiet', '--seed', '7', '--oracle', oracle]);
  } finally {
    console.log = log;
  }
  const seconds = (performance.now() - t) / 1000;
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  rmSync(dir, { recursive: true, force: true });
  return { seconds, code, report };
}

const times: Record<'none' | 'reference', number[]> = { none: [], reference: [] };
let compared = 0;
const loads: number[] = [];
for (let i = 0; i < rounds; i++) {
  // Alternate which goes first, so neither always runs on a warmer process.
  for (const mode of i % 2 === 0 ? (['none', 'reference'] as const) : (['reference', 'none'] as const)) {
    loads.push(loadavg()[0]!);
    const r = await fullRun(mode);
    if (r.code !== 0) throw new Error(`${mode}: exit ${r.code}: ${r.report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.message}`).join('; ')}`);
    times[mode].push(r.seconds);
    if (mode === 'reference') compared = r.report.oracle?.compared ?? 0;
    console.error(`${mode}: ${r.seconds.toFixed(1)} s`);
  }
}
const none = median(times.none);
const withOracle = median(times.reference);
console.log(`| run | median | all runs |\n|---|---|---|`);
console.log(`| \`run --oracle none\` | ${none.toFixed(1)} s | ${times.none.map((s) => s.toFixed(1)).join(', ')} |`);
console.log(`| \`run\` (\`--oracle reference\`, ${compared} requests compared) | ${withOracle.toFixed(1)} s | ${times.reference.map((s) => s.toFixed(1)).join(', ')} |`);
console.log(`\nratio ${(withOracle / none).toFixed(2)} (budget 1.50); ${cpus().length} cores, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
