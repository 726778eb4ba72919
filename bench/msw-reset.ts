/**
 * `reset()` of msw handlers (`createHandlers`), what a unit test's `afterEach(() => mock.reset())`
 * costs: with no DAR, and with splice-amulet-0.1.22.dar (from ../shared/upstream; that row is left
 * out when the file is absent). Also the `createHandlers` call itself, once per configuration.
 * Timed by the wall clock and by this process's CPU time (the latter does not move when other
 * processes share the machine); the median and p95 of single resets are given after a warm-up.
 *
 * `tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/msw-reset.js [--quick]`
 * prints a Markdown table and writes bench/out/msw-reset.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createHandlers, type CreateHandlersOptions } from '../reference-server/src/msw/index.js';

const quick = process.argv.includes('--quick');
const RESETS = quick ? 10 : 100;
const WARMUP = quick ? 2 : 10;
const AMULET = fileURLToPath(new URL('../../../../../shared/upstream/daml/dars/splice/splice-amulet-0.1.22.dar', import.meta.url));

interface Row {
  readonly config: string;
  readonly createMs: number;
  readonly resets: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly meanWallMs: number;
  readonly meanCpuMs: number;
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

function measure(config: string, options: CreateHandlersOptions): Row {
  const c0 = performance.now();
  const mock = createHandlers({ log: silentLogger, ...options });
  const createMs = performance.now() - c0;
  for (let i = 0; i < WARMUP; i++) mock.reset();
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < RESETS; i++) {
    const s = performance.now();
    mock.reset();
    times.push(performance.now() - s);
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  return { config, createMs, resets: RESETS, medianMs: quantile(times, 0.5), p95Ms: quantile(times, 0.95), meanWallMs: wall / RESETS, meanCpuMs: (cpu.user + cpu.system) / 1000 / RESETS };
}

const configs: [string, CreateHandlersOptions][] = [
  ['no DAR', {}],
  ['no DAR, default fixtures + app world', { fixtures: 'default' }],
];
if (existsSync(AMULET)) {
  const bytes = readFileSync(AMULET);
  configs.push(['splice-amulet-0.1.22.dar', { dars: [bytes] }]);
  configs.push(['splice-amulet-0.1.22.dar, default fixtures + app world', { dars: [bytes], fixtures: 'default' }]);
} else {
  console.error(`(splice-amulet rows left out: ${AMULET} is absent)`);
}

const rows = configs.map(([name, options]) => measure(name, options));
const f = (n: number) => n.toFixed(2);
console.log(`msw reset(), ${RESETS} resets after ${WARMUP} warm-up, ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(2)}`);
console.log('| handlers | createHandlers ms | reset median ms | reset p95 ms | mean wall ms | mean CPU ms |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.config} | ${f(r.createMs)} | ${f(r.medianMs)} | ${f(r.p95Ms)} | ${f(r.meanWallMs)} | ${f(r.meanCpuMs)} |`);
mkdirSync(fileURLToPath(new URL('../..', import.meta.url)), { recursive: true });
writeFileSync(fileURLToPath(new URL('../../msw-reset.json', import.meta.url)), JSON.stringify({ resets: RESETS, warmup: WARMUP, rows }, null, 2));
