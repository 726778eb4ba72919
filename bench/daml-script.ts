/**
 * Daml Script: the whole of Splice's splice-amulet-test-0.1.8 (50 scripts, each on a fresh
 * ledger) on both ledgers side by side, several rounds in one process (which ledger goes first
 * alternates): the reference's ledger core (`test --dar`'s default) and the in-memory one
 * (`--ledger memory`). Whole-run times and their ratio, per-script times (median over the rounds),
 * evaluation steps per second (script code and ledger submissions), questions per second.
 * Round 1 also decodes the packages' value bodies (first use), the later rounds do not.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-script.js [rounds]
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ScriptResult } from '../daml-engine/script/runDarScripts.js';
import type { ScriptLedgerFactory } from '../daml-engine/script/runDarScripts.js';
import { inMemoryScriptLedger, loadDarScripts, runDarScripts } from '../daml-engine/script/runDarScripts.js';
import { coreScriptLedgers } from '../reference-server/src/ledger/engine/CoreScriptLedger.js';

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

const uploadStart = performance.now();
const core = coreScriptLedgers(loaded.loaded);
if (!core.ok) throw new Error(core.error);
const uploadMs = performance.now() - uploadStart;

const ledgers: readonly { name: string; factory: ScriptLedgerFactory }[] = [
  { name: 'core', factory: core.value },
  { name: 'memory', factory: inMemoryScriptLedger },
];
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const runs = new Map<string, { ms: number; results: ScriptResult[] }[]>(ledgers.map((l) => [l.name, []]));
for (let i = 0; i < rounds; i++) {
  for (const l of i % 2 === 0 ? ledgers : [...ledgers].reverse()) {
    const start = performance.now();
    const results = await runDarScripts(loaded.loaded, undefined, { ledger: l.factory });
    runs.get(l.name)!.push({ ms: performance.now() - start, results });
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) throw new Error(`${l.name}, round ${i + 1}: ${failed.map((r) => r.name).join(', ')} failed`);
  }
}

const sum = (rs: ScriptResult[], f: (r: ScriptResult) => number) => rs.reduce((t, r) => t + f(r), 0);
const warmOf = (name: string) => { const r = runs.get(name)!; return r.length > 1 ? median(r.slice(1).map((x) => x.ms)) : r[0]!.ms; };
console.log(`DAR decode (manifest, archives, hashes): ${decodeMs.toFixed(0)} ms; upload to the ledger core (once): ${uploadMs.toFixed(0)} ms`);
for (const l of ledgers) {
  const first = runs.get(l.name)![0]!;
  const warmMs = warmOf(l.name);
  const scriptSteps = sum(first.results, (r) => r.steps);
  const ledgerSteps = sum(first.results, (r) => r.ledgerSteps);
  const questions = sum(first.results, (r) => r.questions);
  console.log(`\n${l.name}: whole run, 50 scripts: round 1 ${(first.ms / 1000).toFixed(2)} s; median of rounds 2..${rounds} ${(warmMs / 1000).toFixed(2)} s`);
  console.log(`${l.name}: steps per run: ${scriptSteps} script + ${ledgerSteps} ledger = ${scriptSteps + ledgerSteps}; questions ${questions}`);
  console.log(`${l.name}: warm: ${((scriptSteps + ledgerSteps) / (warmMs / 1000) / 1e6).toFixed(1)} M steps/s, ${(questions / (warmMs / 1000)).toFixed(0)} questions/s`);
}
console.log(`\nratio core / memory (medians of rounds 2..${rounds}): ${(warmOf('core') / warmOf('memory')).toFixed(2)}`);
console.log('\nper script (median ms over rounds 2..n, core and memory; steps; questions):');
const perScript = (name: string, i: number) => { const r = runs.get(name)!; return median((r.length > 1 ? r.slice(1) : r).map((w) => w.results[i]!.durationMs)); };
for (const [i, r] of runs.get('core')![0]!.results.entries()) {
  console.log(`${perScript('core', i).toFixed(1).padStart(8)} ms ${perScript('memory', i).toFixed(1).padStart(8)} ms  ${String(r.steps + r.ledgerSteps).padStart(9)}  ${String(r.questions).padStart(5)}  ${r.name}`);
}
