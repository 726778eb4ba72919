/**
 * A worker thread of `test --jobs N` (see scriptJobs.ts): decodes the DAR, makes the ledger kind
 * it is given, and runs the scripts it claims from the shared counter, one at a time, each on a
 * fresh ledger, posting each result; then what its scripts covered.
 */
import { parentPort, workerData } from 'node:worker_threads';

import type { ScriptLedgerFactory } from '../../../daml-engine/index.js';
import { ScriptCoverage, inMemoryScriptLedger, runDarScripts } from '../../../daml-engine/index.js';
import { coreScriptLedgers } from '../../../reference-server/src/ledger/engine/CoreScriptLedger.js';
import { defaultPassedChecks } from '../../../reference-server/src/ledger/packages/passedChecksIn.js';
import { readTestDar } from './readTestDar.js';
import type { ScriptWorkerData, ScriptWorkerMessage } from './scriptJobs.js';

const data = workerData as ScriptWorkerData;
const port = parentPort!;
const post = (m: ScriptWorkerMessage): void => port.postMessage(m);

async function work(): Promise<void> {
  const claim = new Int32Array(data.next);
  const { loaded, inflated } = readTestDar(data.bytes);
  if (!loaded.ok) return post({ kind: 'refused', message: loaded.message });
  let ledger: ScriptLedgerFactory = inMemoryScriptLedger;
  if (data.ledger === 'core') {
    const core = coreScriptLedgers(loaded.loaded, { passedChecks: defaultPassedChecks(), inflated });
    if (!core.ok) return post({ kind: 'refused', message: core.error });
    ledger = core.value;
  }
  const coverage = data.coverage ? new ScriptCoverage() : undefined;
  for (let index = Atomics.add(claim, 0, 1); index < data.scripts.length; index = Atomics.add(claim, 0, 1)) {
    post({ kind: 'started', index });
    const [result] = await runDarScripts(loaded.loaded, [data.scripts[index]!], { stepBudget: data.stepBudget, ledger, coverage });
    post({ kind: 'result', index, result: result! });
  }
  post({ kind: 'done', coverage: coverage?.used() });
}

await work();
