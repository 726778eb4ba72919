/**
 * Daml Script: the whole of Splice's splice-amulet-test-0.1.8 (50 scripts, each on a fresh
 * in-memory ledger), several rounds in one process: whole-run time, per-script times (median over
 * the rounds), evaluation steps per second (script code and ledger submissions), questions per
 * second. Round 1 also decodes the packages' value bodies (first use), the later rounds do not.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-script.js [rounds]
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ScriptResult } from '../reference-server/src/daml/script/runDarScripts.js';
import { loadDarScripts, runDarScripts } from '../reference-server/src/daml/script/runDarScripts.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');

const rounds = Number(process.argv[2] ?? 5);
const bytes = readFileSync(join(root, 'history/splice-amulet-test-0.1.8.dar'));
const t0 = performance.now();
const loaded = loadDarScripts(bytes);
if (!loaded.ok) throw new Error(loaded.message);
const decodeMs = performance.now() - t0;

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const runs: { ms: number; results: ScriptResult[] }[] = [];
for (let i = 0; i < rounds; i++) {
  const start = performance.now();
  const results = runDarScripts(loaded.loaded);
  runs.push({ ms: performance.now() - start, results });
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`round ${i + 1}: ${failed.map((r) => r.name).join(', ')} failed`);
}
// The floor, in the same process: the scripts that ask no question (pure Daml evaluation on the
// same evaluator), repeated; its steps/s is what evaluation alone gives on this machine now.
const pure = runs[0]!.results.filter((r) => r.questions === 0).map((r) => r.ref);
let pureSteps = 0;
const pureStart = performance.now();
for (let i = 0; i < 100; i++) for (const r of runDarScripts(loaded.loaded, pure)) pureSteps += r.steps;
const pureMs = performance.now() - pureStart;

const sum = (rs: ScriptResult[], f: (r: ScriptResult) => number) => rs.reduce((t, r) => t + f(r), 0);
const first = runs[0]!;
const warm = runs.slice(1);
const warmMs = warm.length > 0 ? median(warm.map((r) => r.ms)) : first.ms;
const scriptSteps = sum(first.results, (r) => r.steps);
const ledgerSteps = sum(first.results, (r) => r.ledgerSteps);
const questions = sum(first.results, (r) => r.questions);
console.log(`DAR decode (manifest, archives, hashes): ${decodeMs.toFixed(0)} ms`);
console.log(`whole run, 50 scripts: round 1 ${(first.ms / 1000).toFixed(2)} s; median of rounds 2..${rounds} ${(warmMs / 1000).toFixed(2)} s`);
console.log(`steps per run: ${scriptSteps} script + ${ledgerSteps} ledger = ${scriptSteps + ledgerSteps}; questions ${questions}`);
console.log(`warm: ${((scriptSteps + ledgerSteps) / (warmMs / 1000) / 1e6).toFixed(1)} M steps/s, ${(questions / (warmMs / 1000)).toFixed(0)} questions/s`);
const pureRate = pureSteps / (pureMs / 1000);
const runRate = (scriptSteps + ledgerSteps) / (warmMs / 1000);
console.log(`floor: ${pure.length} question-free scripts x 100: ${(pureRate / 1e6).toFixed(1)} M steps/s; the whole run reaches ${(100 * runRate / pureRate).toFixed(0)}% of it`);
console.log('\nper script (median ms over rounds 2..n; steps; questions):');
for (const [i, r] of first.results.entries()) {
  const ms = warm.length > 0 ? median(warm.map((w) => w.results[i]!.durationMs)) : r.durationMs;
  console.log(`${ms.toFixed(1).padStart(8)} ms  ${String(r.steps + r.ledgerSteps).padStart(9)}  ${String(r.questions).padStart(5)}  ${r.name}`);
}
