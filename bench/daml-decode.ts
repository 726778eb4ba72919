/**
 * Decode time of every reference DAR (../shared/upstream/daml/dars, recursively), cold (empty
 * package cache) and warm (cache filled by a previous decode), and the heap the loaded
 * splice-amulet 0.1.22 packages hold.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node --expose-gc bench/out/build/bench/daml-decode.js
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { decodeDar } from '../daml-engine/decode/decodeDar.js';

const here = fileURLToPath(new URL('.', import.meta.url));
// From bench/out/build/bench/ (compiled) or bench/ (source) up to the checkout's sibling shared/.
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error(`no shared/upstream/daml/dars beside the checkout (looked in ${candidates.join(', ')})`);

function dars(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? dars(p) : p.endsWith('.dar') ? [p] : [];
  }).sort();
}

const gc = (globalThis as { gc?: () => void }).gc;
const rounds = 3;
const rows: string[] = [];
for (const file of dars(root)) {
  const bytes = readFileSync(file);
  const cold: number[] = [];
  let packages = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const result = decodeDar(bytes);
    cold.push(performance.now() - t0);
    if (!result.ok) throw new Error(`${file}: ${result.failure.message}`);
    packages = result.value.packages.length;
  }
  const cache = new Map();
  decodeDar(bytes, cache);
  const t0 = performance.now();
  decodeDar(bytes, cache);
  const warm = performance.now() - t0;
  rows.push(`| ${relative(root, file)} | ${packages} | ${(bytes.length / 1024).toFixed(0)} KiB | ${Math.min(...cold).toFixed(0)} ms (first ${cold[0]!.toFixed(0)}) | ${warm.toFixed(0)} ms |`);
}
console.log('| DAR | DALFs | size | cold decode, best of 3 (first) | warm (cached) |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);

const amulet = readFileSync(join(root, 'splice/splice-amulet-0.1.22.dar'));
gc?.();
const before = process.memoryUsage().heapUsed;
const held = decodeDar(amulet);
gc?.();
const after = process.memoryUsage().heapUsed;
if (held.ok) console.log(`\nsplice-amulet-0.1.22: ${held.value.packages.length} packages hold ${((after - before) / 1048576).toFixed(1)} MiB of heap${gc ? '' : ' (run with --expose-gc for an exact figure)'}`);
