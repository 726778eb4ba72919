/**
 * The upload check (daml-engine/check) over every reference DAR (../shared/upstream/daml/dars,
 * recursively): each must pass; the time to decode and check splice-amulet 0.1.22 with its
 * dependencies (cold: fresh decode, every package checked).
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-check.js
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkPackages } from '../daml-engine/check/checkPackage.js';
import { describeCheckFailure } from '../daml-engine/check/CheckFailure.js';
import { decodeDar } from '../daml-engine/decode/decodeDar.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error(`no shared/upstream/daml/dars beside the checkout (looked in ${candidates.join(', ')})`);

function dars(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? dars(p) : p.endsWith('.dar') ? [p] : [];
  }).sort();
}

const cpuMs = (since: NodeJS.CpuUsage): number => { const c = process.cpuUsage(since); return (c.user + c.system) / 1000; };

/** Decode (value bodies forced: they decode lazily), then check; wall and CPU time of each. */
function decodeAndCheck(bytes: Uint8Array): { decodeMs: number; checkMs: number; checkCpuMs: number; totalCpuMs: number; packages: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const dar = decodeDar(bytes);
  if (!dar.ok) throw new Error(dar.failure.message);
  for (const p of dar.value.packages) for (const m of p.modules.values()) for (const v of m.values.values()) void v.expr;
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  const byId = new Map(dar.value.packages.map((p) => [p.id, p]));
  const checked = checkPackages(dar.value.packages, (id) => byId.get(id));
  const t2 = performance.now();
  const checkCpuMs = cpuMs(c1);
  if (!checked.ok) throw new Error(describeCheckFailure(checked.failure));
  return { decodeMs: t1 - t0, checkMs: t2 - t1, checkCpuMs, totalCpuMs: cpuMs(c0), packages: dar.value.packages.length };
}

console.log('| DAR | DALFs | decode (all bodies) | check | decode + check |');
console.log('|---|---|---|---|---|');
for (const file of dars(root)) {
  const r = decodeAndCheck(readFileSync(file));
  console.log(`| ${relative(root, file)} | ${r.packages} | ${r.decodeMs.toFixed(0)} ms | ${r.checkMs.toFixed(0)} ms | ${(r.decodeMs + r.checkMs).toFixed(0)} ms |`);
}
const amulet = readFileSync(join(root, 'splice/splice-amulet-0.1.22.dar'));
const runs = [0, 1, 2, 3, 4].map(() => decodeAndCheck(amulet));
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[2]!;
console.log(`\nsplice-amulet-0.1.22 with its ${runs[0]!.packages} packages, 5 runs (fresh decode each):`);
console.log(`  check alone: median ${median(runs.map((r) => r.checkMs)).toFixed(0)} ms wall, ${median(runs.map((r) => r.checkCpuMs)).toFixed(0)} ms CPU (first run ${runs[0]!.checkCpuMs.toFixed(0)} ms CPU)`);
console.log(`  decode + check: median ${median(runs.map((r) => r.decodeMs + r.checkMs)).toFixed(0)} ms wall, ${median(runs.map((r) => r.totalCpuMs)).toFixed(0)} ms CPU`);
