import type { CreateLedgerOptions } from '../reference-server/src/ledger/Ledger.js';

/**
 * The engine thread of a bench's ledger, as `serve` has it (`ENGINE_WORKER=0`: none, the
 * commands in slices on the server's thread). Its module is a built one: dist/'s, beside this
 * checkout (bench/out/build/bench/ -> the checkout).
 */
export function benchEngineWorker(): CreateLedgerOptions['engineWorker'] {
  return process.env.ENGINE_WORKER === '0' ? false : { module: new URL('../../../../dist/reference-server/src/ledger/engine/engineWorkerMain.js', import.meta.url) };
}
