/**
 * A default run now (the target's own model judging every answer, the oracle narrowed) against a
 * default run at another commit (the start of issue 28), side by side: each run in a process of
 * its own, alternating which checkout goes first. Budget: ratio of medians <= 1.5.
 *
 * Usage (see bench/RESULTS.md for the full command):
 *   node bench/out/build/bench/suite-judge-vs-start.js <other checkout> [rounds]
 * where <other checkout> has bench/suite-once.ts built the same way.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';

const start = resolve(process.argv[2] ?? '');
const rounds = Number(process.argv[3] ?? 3);
const here = resolve(import.meta.dirname, '../../../..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function once(checkout: string): number {
  const out = execFileSync(process.execPath, [join(checkout, 'bench/out/build/bench/suite-once.js')], { cwd: checkout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as { seconds: number; code: number };
  if (r.code !== 0) throw new Error(`${checkout}: exit ${r.code}`);
  return r.seconds;
}

const times: Record<'start' | 'now', number[]> = { start: [], now: [] };
const loads: number[] = [];
for (let i = 0; i < rounds; i++) {
  for (const which of i % 2 === 0 ? (['start', 'now'] as const) : (['now', 'start'] as const)) {
    loads.push(loadavg()[0]!);
    const s = once(which === 'start' ? start : here);
    times[which].push(s);
    console.error(`${which}: ${s.toFixed(1)} s`);
  }
}
console.log(`| run | median | all runs |\n|---|---|---|`);
console.log(`| default \`run\` at the start commit | ${median(times.start).toFixed(1)} s | ${times.start.map((s) => s.toFixed(1)).join(', ')} |`);
console.log(`| default \`run\` now (judge on, oracle narrowed) | ${median(times.now).toFixed(1)} s | ${times.now.map((s) => s.toFixed(1)).join(', ')} |`);
console.log(`\nratio ${(median(times.now) / median(times.start)).toFixed(2)} (budget 1.50); ${cpus().length} cores, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
