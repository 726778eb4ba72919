/**
 * What the history judge adds to a default run: `run` (history on: the token-standard history of
 * the parties each check acted as or allocated, parsed by core-tx-parser) against
 * `run --history none`, each run in a process of its own, alternating which goes first.
 *
 * Usage: npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/suite-history.js [rounds]
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';

const rounds = Number(process.argv[2] ?? 3);
const here = resolve(import.meta.dirname, '../../../..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function once(flags: string[]): number {
  const out = execFileSync(process.execPath, [join(here, 'bench/out/build/bench/suite-once.js'), ...flags], { cwd: here, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as { seconds: number; code: number };
  if (r.code !== 0) throw new Error(`run ${flags.join(' ')}: exit ${r.code}`);
  return r.seconds;
}

const times: Record<'off' | 'on', number[]> = { off: [], on: [] };
const loads: number[] = [];
for (let i = 0; i < rounds; i++) {
  for (const which of i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
    loads.push(loadavg()[0]!);
    const s = once(which === 'off' ? ['--history', 'none'] : []);
    times[which].push(s);
    console.error(`${which}: ${s.toFixed(1)} s`);
  }
}
console.log(`| run | median | all runs |\n|---|---|---|`);
console.log(`| \`run --history none\` | ${median(times.off).toFixed(1)} s | ${times.off.map((s) => s.toFixed(1)).join(', ')} |`);
console.log(`| \`run\` (history judged) | ${median(times.on).toFixed(1)} s | ${times.on.map((s) => s.toFixed(1)).join(', ')} |`);
console.log(`\nratio ${(median(times.on) / median(times.off)).toFixed(2)}; ${cpus().length} cores, load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
