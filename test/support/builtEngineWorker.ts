/**
 * The engine thread's module as `npm run build` makes it (dist/): tests run the ledger from the
 * TypeScript sources, whose worker module is not a file Node can start. Tests of the thread skip,
 * with this reason, where it is not built.
 */
import { it } from 'vitest';
import { engineWorkerAvailable } from '../../reference-server/src/ledger/engine/EngineWorker.js';

export const BUILT_ENGINE_WORKER = new URL('../../dist/reference-server/src/ledger/engine/engineWorkerMain.js', import.meta.url);
export const engineWorkerBuilt = engineWorkerAvailable(BUILT_ENGINE_WORKER);
export const NOT_BUILT = 'the engine thread is a built module: run `npm run build` first (npm ci does)';

/** Start options giving a server the engine thread as `serve` has it, where it is built (else none: the same answers, on the ledger's thread). */
export const SERVE_ENGINE_THREAD = engineWorkerBuilt ? { engineThread: { module: BUILT_ENGINE_WORKER } } : {};

/** For `describe.each`: the ledger's own thread, then the engine thread (its built module). */
export const ENGINE_THREADS = [['on the ledger\'s thread', undefined], ['on the engine thread', { module: BUILT_ENGINE_WORKER }]] as const;

/** Inside `describe.each(ENGINE_THREADS)`: declares the engine-thread case skipped, with its reason, where the module is not built (then return). */
export function skippedUnbuilt(engineWorker: (typeof ENGINE_THREADS)[number][1]): boolean {
  if (engineWorker === undefined || engineWorkerBuilt) return false;
  it.skip(`skipped: ${NOT_BUILT}`, () => undefined);
  return true;
}
