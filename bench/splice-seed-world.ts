/**
 * The CPU time of seeding the default world on Splice's splice-amulet 0.1.22 (seedSpliceAppWorld:
 * the sample registry, Amulet, the test tokens where loaded, trade otc-1 and the round history),
 * the part of a `--splice-dars` start that seeds, without the upload before it.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/splice-seed-world.js [ROUNDS] [--root=DIR]
 *
 * `--root=DIR`: the modules of another checkout's bench build (DIR/bench/out/build), for an A/B
 * in separate processes. Each round is a fresh ledger on a SeedingClock, as `serve` seeds it.
 * Prints one JSON object.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as SeedingModule from '../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import type * as DarsModule from '../reference-server/src/apps/splice/spliceDars.js';
import type * as ClockModule from '../reference-server/src/apps/world/SeedingClock.js';
import type * as WorldModule from '../reference-server/src/apps/world/seedAppWorld.js';
import type * as LedgerModule from '../reference-server/src/ledger/index.js';

const here = fileURLToPath(new URL('../../../..', import.meta.url));
const root = process.argv.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? here;
const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const mod = async (path: string) => import(pathToFileURL(join(root, 'bench', 'out', 'build', 'reference-server', 'src', path)).href);

const { loadSpliceDars, seedSpliceAppWorld } = (await mod('apps/splice/seedSpliceAppWorld.js')) as typeof SeedingModule;
const { readSpliceDars } = (await mod('apps/splice/spliceDars.js')) as typeof DarsModule;
const { SeedingClock } = (await mod('apps/world/SeedingClock.js')) as typeof ClockModule;
const { APP_WORLD_TIME } = (await mod('apps/world/seedAppWorld.js')) as typeof WorldModule;
const { createLedger } = (await mod('ledger/index.js')) as typeof LedgerModule;

const dir = mkdtempSync(join(tmpdir(), 'splice-seed-'));
copyFileSync(join(here, '..', 'shared', 'upstream', 'daml', 'dars', 'splice', 'splice-amulet-0.1.22.dar'), join(dir, 'splice-amulet-0.1.22.dar'));
const set = readSpliceDars(dir);
rmSync(dir, { recursive: true });
if (!set.ok) throw new Error(set.error);

const cpuMs: number[] = [];
for (let i = 0; i < rounds; i++) {
  const ledger = createLedger({ clock: new SeedingClock(APP_WORLD_TIME) });
  const splice = loadSpliceDars(ledger, set.value);
  if (!splice.ok) throw new Error(splice.error);
  const before = process.cpuUsage();
  const world = seedSpliceAppWorld(ledger, splice.value);
  const used = process.cpuUsage(before);
  if (!world.ok) throw new Error(world.error.cause);
  cpuMs.push((used.user + used.system) / 1000);
}
const sorted = [...cpuMs].sort((a, b) => a - b);
console.log(JSON.stringify({ root, rounds, seedCpuMs: cpuMs.map((m) => Math.round(m)), medianCpuMs: Math.round(sorted[Math.floor(sorted.length / 2)]!) }));
