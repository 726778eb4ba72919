/**
 * The work of a `serve --splice-dars <release>` start without module loading and HTTP: the ledger
 * `openLedger` opens (default fixtures, the release folder's DARs read, decoded, checked and
 * uploaded, the world seeded), in this fresh process; the main thread's and the process's CPU.
 * Run one process per measure, alternating builds (a start is cold: the JIT state is the measure).
 *
 *   npm run build && npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/splice-startup-ledger.js [--root=DIR]
 *
 * `--root=DIR`: another checkout's built dist/ (beside the same ../shared). Prints one JSON line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const built = process.argv.find((a) => a.startsWith('--root='))?.slice('--root='.length) ?? root;
const release = join(root, '..', 'shared', 'upstream', 'daml', 'dars', 'splice');
if (!existsSync(release)) throw new Error(`needs ${release}`);

/** CPU ms of this thread (the main thread here), from /proc (USER_HZ 100: 10 ms steps). */
function mainThreadMs(): number {
  const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
const processMs = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

type OpenLedger = (options: { fixtures: undefined; spliceDars: string }) => { ledger: unknown };
const { openLedger } = (await import(join(built, 'dist/reference-server/src/startReferenceServer.js'))) as { openLedger: OpenLedger };
const m0 = mainThreadMs();
const c0 = processMs();
const t0 = performance.now();
openLedger({ fixtures: undefined, spliceDars: release });
console.log(JSON.stringify({ root: built, wallMs: Math.round(performance.now() - t0), mainThreadCpuMs: mainThreadMs() - m0, cpuMs: Math.round(processMs() - c0) }));
