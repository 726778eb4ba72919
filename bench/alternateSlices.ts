import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs sides in short slices (`per` rounds each, `slices` times, the order reversed every other
 * slice), so every side sees the same machine load, and keeps each slice's CPU microseconds per
 * round (this process's CPU, collector threads included). For the A/B benches that load a base
 * build beside this one.
 */
export interface Side { readonly name: string; round(): void }

export function alternateSlices(sides: readonly Side[], slices: number, per: number): Map<string, number[]> {
  const perSlice = new Map<string, number[]>(sides.map((s) => [s.name, []]));
  for (let slice = 0; slice < slices; slice++) {
    for (const s of slice % 2 === 0 ? sides : [...sides].reverse()) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < per; i++) s.round();
      const c = process.cpuUsage(c0);
      perSlice.get(s.name)!.push((c.user + c.system) / per);
    }
  }
  return perSlice;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Where an A/B bench compiled into `bench/out/build/bench/` finds its inputs: the shared DARs
 * beside the checkout, the base build (argv[2], else `bench/out/base`) and this build.
 */
export function abBuilds(benchUrl: string): { readonly darsRoot: string; readonly baseDir: string; readonly thisDir: string } {
  const here = fileURLToPath(new URL('.', benchUrl));
  const candidates = [join(here, '../../../../../shared/upstream/daml/dars'), join(here, '../../shared/upstream/daml/dars')];
  const darsRoot = candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isDirectory());
  if (!darsRoot) throw new Error('no shared/upstream/daml/dars beside the checkout');
  const baseDir = process.argv[2] ?? join(here, '../../base');
  if (!statSync(join(baseDir, 'reference-server/src/ledger/index.js'), { throwIfNoEntry: false })?.isFile()) throw new Error(`no base build in ${baseDir} (see bench/RESULTS.md)`);
  return { darsRoot, baseDir, thisDir: join(here, '..') };
}
