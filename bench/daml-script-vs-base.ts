/**
 * The whole of splice-amulet-test-0.1.8 (50 scripts) with this checkout's engine and with a base
 * build side by side in one process: whole runs alternate between the two (which goes first
 * alternates too), so both see the same machine load. Reports each side's evaluation steps and the
 * median wall and CPU time of the warm rounds (this process's CPU, collector threads included),
 * and per run the bytes allocated in the young generation and the collector's time (v8.GCProfiler):
 * allocation is nearly deterministic, so it shows an allocation change that wall and CPU time on
 * a shared machine cannot.
 * The base is another commit compiled into bench/out/base (see bench/RESULTS.md).
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-script-vs-base.js [rounds] [memory|core]
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type * as Scripts from '../daml-engine/script/runDarScripts.js';
import type * as Core from '../reference-server/src/ledger/engine/CoreScriptLedger.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');
const baseDir = join(here, '../../base');
if (!statSync(baseDir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`no base build in ${baseDir} (see bench/RESULTS.md)`);

const rounds = Number(process.argv[2] ?? 5);
const ledger = process.argv[3] === 'core' ? 'core' : 'memory';
const bytes = readFileSync(join(root, 'history/splice-amulet-test-0.1.8.dar'));

/** One side: a function running the whole DAR once, returning its steps (script + ledger). */
async function side(dir: string): Promise<() => Promise<number>> {
  const scripts = await import(pathToFileURL(join(dir, 'daml-engine/script/runDarScripts.js')).href) as typeof Scripts;
  const core = await import(pathToFileURL(join(dir, 'reference-server/src/ledger/engine/CoreScriptLedger.js')).href) as typeof Core;
  const loaded = scripts.loadDarScripts(bytes);
  if (!loaded.ok) throw new Error(loaded.message);
  let factory: Scripts.ScriptLedgerFactory = scripts.inMemoryScriptLedger;
  if (ledger === 'core') {
    const c = core.coreScriptLedgers(loaded.loaded);
    if (!c.ok) throw new Error(c.error);
    factory = c.value;
  }
  return async () => {
    const results = await scripts.runDarScripts(loaded.loaded, undefined, { ledger: factory });
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) throw new Error(`${dir}: ${failed.map((r) => r.name).join(', ')} failed`);
    return results.reduce((t, r) => t + r.steps + r.ledgerSteps, 0);
  };
}

const sides = [{ name: 'base', run: await side(baseDir) }, { name: 'this', run: await side(join(here, '..')) }];
const times = new Map<string, { wall: number; cpu: number; young: number; gc: number }[]>(sides.map((s) => [s.name, []]));
// GCProfiler's statistics name spaces in camelCase, getHeapSpaceStatistics in snake_case.
const newSpaceUsed = (spaces: readonly { spaceName: string; spaceUsedSize: number }[]): number =>
  spaces.find((x) => x.spaceName === 'new_space')?.spaceUsedSize ?? 0;
const newSpaceUsedNow = (): number => v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')?.space_used_size ?? 0;
const steps = new Map<string, number>();
for (let i = 0; i < rounds; i++) {
  for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
    const profiler = new v8.GCProfiler();
    const used0 = newSpaceUsedNow();
    profiler.start();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    steps.set(s.name, await s.run());
    const c = process.cpuUsage(c0);
    const wall = performance.now() - t0;
    const gcs = profiler.stop()?.statistics ?? [];
    // Young-generation bytes allocated: what each collection found used, less what the one before left.
    let young = 0;
    let left = used0;
    let gc = 0;
    for (const g of gcs) {
      young += Math.max(0, newSpaceUsed(g.beforeGC.heapSpaceStatistics) - left);
      left = newSpaceUsed(g.afterGC.heapSpaceStatistics);
      gc += g.cost;
    }
    young += Math.max(0, newSpaceUsedNow() - left);
    times.get(s.name)!.push({ wall, cpu: (c.user + c.system) / 1000, young, gc: gc / 1000 });
  }
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
type Round = { wall: number; cpu: number; young: number; gc: number };
const warm = (name: string, f: (t: Round) => number): number => median(times.get(name)!.slice(rounds > 1 ? 1 : 0).map(f));
const least = (name: string, f: (t: Round) => number): number => Math.min(...times.get(name)!.slice(rounds > 1 ? 1 : 0).map(f));
console.log(`${ledger} ledger, ${rounds} rounds each, alternating; warm = rounds 2..${rounds}`);
console.log('| side | steps per run | warm median wall s | warm median CPU s | least warm CPU s | young-gen MB per run | collector ms per run | every round (wall / CPU s) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const s of sides) {
  const all = times.get(s.name)!.map((t) => `${(t.wall / 1000).toFixed(2)} / ${(t.cpu / 1000).toFixed(2)}`).join(', ');
  console.log(`| ${s.name} | ${steps.get(s.name)!.toLocaleString('en')} | ${(warm(s.name, (t) => t.wall) / 1000).toFixed(2)} | ${(warm(s.name, (t) => t.cpu) / 1000).toFixed(2)} | ${(least(s.name, (t) => t.cpu) / 1000).toFixed(2)} | ${(warm(s.name, (t) => t.young) / 1e6).toFixed(0)} | ${warm(s.name, (t) => t.gc).toFixed(0)} | ${all} |`);
}
console.log(`base / this, warm medians: wall ${(warm('base', (t) => t.wall) / warm('this', (t) => t.wall)).toFixed(2)}, CPU ${(warm('base', (t) => t.cpu) / warm('this', (t) => t.cpu)).toFixed(2)}, young-gen bytes ${(warm('base', (t) => t.young) / warm('this', (t) => t.young)).toFixed(2)}; least warm CPU ${(least('base', (t) => t.cpu) / least('this', (t) => t.cpu)).toFixed(2)}`);
