/**
 * Where a Daml Script run's bytes are allocated, by function: one warm run of the whole of
 * splice-amulet-test-0.1.8 on the in-memory ledger under V8's sampling heap profiler, counting
 * objects the collector has already freed too (the young generation's garbage is what a run
 * allocates), so the self bytes per function add up to what the run allocated. Sampled (one
 * sample per `interval` bytes, default 4096): read the large lines, not the small ones.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/daml-script-alloc.js [lines] [interval]
 */
import { readFileSync, statSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { inMemoryScriptLedger, loadDarScripts, runDarScripts } from '../daml-engine/script/runDarScripts.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
const root = candidates.find((c) => { try { return statSync(c).isDirectory(); } catch { return false; } });
if (!root) throw new Error('no shared/upstream/daml/dars beside the checkout');

const lines = Number(process.argv[2] ?? 30);
const interval = Number(process.argv[3] ?? 4096);
const loaded = loadDarScripts(readFileSync(join(root, 'history/splice-amulet-test-0.1.8.dar')));
if (!loaded.ok) throw new Error(loaded.message);
const runOnce = async (): Promise<number> => {
  const results = await runDarScripts(loaded.loaded, undefined, { ledger: inMemoryScriptLedger });
  return results.reduce((t, r) => t + r.steps + r.ledgerSteps, 0);
};
await runOnce(); // the first run also decodes value bodies: profile a warm one

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: ProfileNode[] }
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
// The two `include...` flags keep samples of freed objects (Node 20's V8 has them; the typings may not).
await session.post('HeapProfiler.startSampling', {
  samplingInterval: interval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
} as never);
const steps = await runOnce();
const { profile } = await session.post('HeapProfiler.stopSampling') as unknown as { profile: { head: ProfileNode } };
session.disconnect();

const bySite = new Map<string, number>();
let total = 0;
// Iterative walk: the profile's tree is as deep as the run's JS stack.
const todo: ProfileNode[] = [profile.head];
for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
  const f = n.callFrame;
  const site = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
  total += n.selfSize;
  todo.push(...n.children);
}
console.log(`steps ${steps.toLocaleString('en-US')}, sampled allocation ${(total / 1e6).toFixed(0)} MB (interval ${interval} B)`);
console.log('| MB | % | function (file:line of the compiled JS) |\n|---:|---:|---|');
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, lines)) {
  console.log(`| ${(bytes / 1e6).toFixed(1)} | ${(100 * bytes / total).toFixed(1)} | ${site} |`);
}
