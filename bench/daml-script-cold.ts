/**
 * Where a cold `test --dar splice-amulet-test-0.1.8.dar` spends the time its warm runs do not:
 * one process reads the DAR and uploads it as the CLI does (package checks remembered), runs the
 * 50 scripts on the ledger core (the cold run), then alternates warm runs of two kinds:
 * - "same": the same decoded DAR and participant factory again (everything warm);
 * - "fresh": the DAR decoded and uploaded afresh, so every definition is decoded, compiled and
 *   resolved again on first use, while V8's code is warm.
 * cold - fresh is then what warming V8's code costs; fresh - same what first uses cost.
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-script-cold.js [pairs]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { readTestDar } from '../conformance/src/cli/readTestDar.js';
import type { ScriptLedgerFactory } from '../daml-engine/index.js';
import { runDarScripts } from '../daml-engine/index.js';
import { coreScriptLedgers } from '../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { defaultPassedChecks } from '../reference-server/src/ledger/packages/passedChecksIn.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const DAR = join(root, '..', 'shared', 'upstream', 'daml', 'dars', 'history', 'splice-amulet-test-0.1.8.dar');
if (!existsSync(DAR)) throw new Error(`needs ${DAR}`);
const pairs = Number(process.argv[2] ?? 4);
const bytes = readFileSync(DAR);

interface Prepared { readonly loaded: Extract<ReturnType<typeof readTestDar>['loaded'], { ok: true }>['loaded']; readonly factory: ScriptLedgerFactory }

/** Reads and uploads the DAR as `test --dar` does; returns the milliseconds it took. */
function prepare(): { prepared: Prepared; ms: number } {
  const started = performance.now();
  const { loaded, inflated } = readTestDar(bytes);
  if (!loaded.ok) throw new Error(loaded.message);
  const core = coreScriptLedgers(loaded.loaded, { passedChecks: defaultPassedChecks(), inflated });
  if (!core.ok) throw new Error(core.error);
  return { prepared: { loaded: loaded.loaded, factory: core.value }, ms: performance.now() - started };
}

async function run(p: Prepared): Promise<number> {
  const started = performance.now();
  const results = await runDarScripts(p.loaded, p.loaded.scripts, { ledger: p.factory });
  if (results.some((r) => !r.ok)) throw new Error('a script failed');
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const cold = prepare();
const coldRun = await run(cold.prepared);
const same: number[] = [];
const fresh: number[] = [];
const freshPrepare: number[] = [];
for (let i = 0; i < pairs; i++) {
  same.push(await run(cold.prepared));
  const again = prepare();
  freshPrepare.push(again.ms);
  fresh.push(await run(again.prepared));
}
const ms = (x: number) => Math.round(x);
console.log(JSON.stringify({
  pairs,
  cold: { readAndUploadMs: ms(cold.ms), runMs: ms(coldRun) },
  fresh: { readAndUploadMs: ms(median(freshPrepare)), runMs: ms(median(fresh)), runs: fresh.map(ms) },
  same: { runMs: ms(median(same)), runs: same.map(ms) },
  v8WarmUpMs: ms(coldRun - median(fresh)),
  firstUsesMs: ms(median(fresh) - median(same)),
}, null, 2));
