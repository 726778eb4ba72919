/**
 * What the real world's seeded round history (seedSpliceRoundHistory: five ticks of the DSO's
 * real round lifecycle) adds to `serve --splice-dars`'s start-up, in CPU time of this process.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/splice-round-history.js [ROUNDS]
 *
 * Each round builds a fresh ledger over splice-amulet 0.1.22 (../shared/upstream/daml/dars/splice)
 * and the default world on a clock the seeding cannot step (so no history), then lets the clock
 * step and seeds the history alone, timing only that. Prints one JSON object.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appsOf } from '../reference-server/src/apps/index.js';
import { loadSpliceDars, seedSpliceAppWorld } from '../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import { seedSpliceRoundHistory } from '../reference-server/src/apps/splice/seedSpliceRoundHistory.js';
import { readSpliceDars } from '../reference-server/src/apps/splice/spliceDars.js';
import { APP_WORLD_TIME } from '../reference-server/src/apps/world/seedAppWorld.js';
import { createLedger } from '../reference-server/src/ledger/index.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const dars = join(root, '..', 'shared', 'upstream', 'daml', 'dars', 'splice');
const rounds = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'splice-history-'));
copyFileSync(join(dars, 'splice-amulet-0.1.22.dar'), join(dir, 'splice-amulet-0.1.22.dar'));
const set = readSpliceDars(dir);
rmSync(dir, { recursive: true });
if (!set.ok) throw new Error(set.error);

const cpuMs: number[] = [];
for (let i = 0; i < rounds; i++) {
  // No `advance` while the world is seeded: canStep says no, so seedSpliceAppWorld makes no history.
  const clock: { t: number; now(): number; advance?: (ms: number) => void } = { t: APP_WORLD_TIME, now() { return this.t; } };
  const ledger = createLedger({ clock });
  const splice = loadSpliceDars(ledger, set.value);
  if (!splice.ok) throw new Error(splice.error);
  const world = seedSpliceAppWorld(ledger, splice.value);
  if (!world.ok) throw new Error(world.error.cause);
  if (world.value.rounds.earliestRound !== undefined) throw new Error('the world was seeded with history on a clock that cannot step');
  clock.advance = (ms) => void (clock.t += ms);
  const before = process.cpuUsage();
  const history = seedSpliceRoundHistory(ledger, appsOf(ledger).rounds, splice.value, world.value.parties.dso);
  const used = process.cpuUsage(before);
  if (!history.ok || history.value === undefined) throw new Error('no history');
  cpuMs.push((used.user + used.system) / 1000);
}
const sorted = [...cpuMs].sort((a, b) => a - b);
console.log(JSON.stringify({ rounds, historyCpuMs: cpuMs.map((m) => Math.round(m)), medianCpuMs: Math.round(sorted[Math.floor(sorted.length / 2)]!) }));
