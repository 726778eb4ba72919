/**
 * The engine thread's module as `npm run build` makes it (dist/): tests run the ledger from the
 * TypeScript sources, whose worker module is not a file Node can start. Tests of the thread skip,
 * with this reason, where it is not built.
 */
import { engineWorkerAvailable } from '../../reference-server/src/ledger/engine/EngineWorker.js';

export const BUILT_ENGINE_WORKER = new URL('../../dist/reference-server/src/ledger/engine/engineWorkerMain.js', import.meta.url);
export const engineWorkerBuilt = engineWorkerAvailable(BUILT_ENGINE_WORKER);
export const NOT_BUILT = 'the engine thread is a built module: run `npm run build` first (npm ci does)';
