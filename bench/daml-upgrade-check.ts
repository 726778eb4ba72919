/**
 * The upgrade check (daml-engine/check/checkUpgrade.ts) on Splice's splice-amulet lineage:
 * 0.1.0 → 0.1.9 → 0.1.14 → 0.1.22, each pair as a vetting change checks it (signatures only).
 * Median and p95 of 200 rounds of the three pairs, after 20 warm-up rounds.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-upgrade-check.js
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Package } from '../daml-engine/ast/Package.js';
import { checkUpgrade } from '../daml-engine/check/checkUpgrade.js';
import { decodeDar } from '../daml-engine/decode/decodeDar.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error(`no shared/upstream/daml/dars beside the checkout (looked in ${candidates.join(', ')})`);

const lineage = ['splice/splice-amulet-0.1.0.dar', 'history/splice-amulet-0.1.9.dar', 'splice-amulet-0.1.14.dar', 'splice/splice-amulet-0.1.22.dar'];
const all = new Map<string, Package>();
const mains = lineage.map((f) => {
  const dar = decodeDar(readFileSync(join(root, f)));
  if (!dar.ok) throw new Error(`${f}: ${dar.failure.message}`);
  for (const p of dar.value.packages) all.set(p.id, p);
  return dar.value.main;
});
const meta = (id: string) => {
  const m = all.get(id)?.metadata;
  return m === undefined ? undefined : { name: m.name, version: m.version };
};

const round = (): number => {
  const t0 = performance.now();
  for (let i = 1; i < mains.length; i++) {
    const problem = checkUpgrade(mains[i - 1] as Package, mains[i] as Package, meta);
    if (problem) throw new Error(`${lineage[i]} does not upgrade ${lineage[i - 1]}: ${problem.message}`);
  }
  return performance.now() - t0;
};
for (let i = 0; i < 20; i++) round();
const times = Array.from({ length: 200 }, round).sort((a, b) => a - b);
const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(3);
console.log(`splice-amulet lineage, ${mains.length - 1} pairs (${lineage.map((f) => f.replace(/^.*splice-amulet-|\.dar$/g, '')).join(' → ')}): median ${at(0.5)} ms, p95 ${at(0.95)} ms per round`);
