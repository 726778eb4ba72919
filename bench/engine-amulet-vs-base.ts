/**
 * Real Amulet transfers (`AmuletRules_Transfer` of splice-amulet 0.1.8, set up as
 * `engine-commands.ts` sets them up: AmuletRules with the test DAR's default config schedule, the
 * bootstrap rounds, a DevNet tap) through `submitAndWaitForTransaction` without HTTP, with this
 * checkout's build and a base build side by side in one process: two sides in short slices (PER
 * transfers each, SLICES times, the order reversed every other slice), so both see the same
 * machine load. Reports each side's median CPU microseconds per transfer (this process's CPU,
 * collector threads included) and the median over slices of base / this. The base is another
 * commit compiled with `npx tsc -p bench/tsconfig.bench.json` (its `bench/out/build`),
 * bench/out/base by default. The engine's part of issue 34's transfers over HTTP, alone.
 *
 *   npx tsc -p bench/tsconfig.bench.json && SLICES=20 PER=40 node bench/out/build/bench/engine-amulet-vs-base.js [base build dir]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as LedgerIndex from '../reference-server/src/ledger/index.js';
import type * as ReadDar from '../reference-server/src/ledger/packages/readDar.js';
import type { Side } from './alternateSlices.js';
import { abBuilds, alternateSlices, median } from './alternateSlices.js';
import { amuletTransferRound } from './amuletTransferRound.js';

const { darsRoot: root, baseDir, thisDir } = abBuilds(import.meta.url);

const SLICES = Number(process.env.SLICES ?? 20);
const PER = Number(process.env.PER ?? 40);
const dar = readFileSync(join(root, 'history/splice-amulet-test-0.1.8.dar'));

async function sideOf(label: string, dir: string): Promise<Side> {
  const { createLedger } = await import(pathToFileURL(join(dir, 'reference-server/src/ledger/index.js')).href) as typeof LedgerIndex;
  const { readDar } = await import(pathToFileURL(join(dir, 'reference-server/src/ledger/packages/readDar.js')).href) as typeof ReadDar;
  return { name: label, round: amuletTransferRound(createLedger, readDar, dar) };
}

const sides = [await sideOf('base', baseDir), await sideOf('this', thisDir)];
for (const s of sides) for (let i = 0; i < 40; i++) s.round(); // warm-up
const perSlice = alternateSlices(sides, SLICES, PER);
const slices = (name: string): number[] => perSlice.get(name)!;
console.log(JSON.stringify({
  at: new Date().toISOString(), load: (await import('node:os')).loadavg().map((l) => +l.toFixed(1)), slices: SLICES, transfersPerSlice: PER,
  cpuMicrosPerTransfer: Object.fromEntries(sides.map((s) => [s.name, +median(slices(s.name)).toFixed(0)])),
  speedUp: +median(slices('base').map((x, i) => x / slices('this')[i]!)).toFixed(3),
}, null, 1));
