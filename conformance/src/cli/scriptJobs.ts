/**
 * `test --jobs N`: the selected scripts run on N worker threads. Each worker decodes the DAR and
 * makes its ledgers as a run on one thread does (`--ledger core` uploads the DAR to a participant
 * of its own), then claims the next script from a counter the threads share until none is left,
 * so a long script never holds a queue behind it. The main thread only collects: results come
 * out in the selection's order (a script's line waits for those before it), so output, reports
 * and coverage are those of a run on one thread but for the durations and step counts. Each
 * script still runs on a fresh ledger; a thread computes a top-level value once for its own
 * scripts (runDarScripts), so a script's steps depend on what its thread ran before it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { QualifiedName } from '../../../daml-engine/ast/Type.js';
import type { CoverageUsed, ScriptResult } from '../../../daml-engine/index.js';
import { scriptName } from '../../../daml-engine/index.js';

/** What a worker is started with. */
export interface ScriptWorkerData {
  readonly bytes: Uint8Array;
  readonly scripts: readonly QualifiedName[];
  readonly ledger: 'core' | 'memory';
  readonly stepBudget: number | undefined;
  readonly coverage: boolean;
  /** One Int32: the index of the next script to claim (`Atomics.add`). */
  readonly next: SharedArrayBuffer;
}

/** What a worker tells the main thread. */
export type ScriptWorkerMessage =
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'started'; readonly index: number }
  | { readonly kind: 'result'; readonly index: number; readonly result: ScriptResult }
  | { readonly kind: 'done'; readonly coverage: CoverageUsed | undefined };

export interface ScriptJobsOptions {
  readonly bytes: Uint8Array;
  readonly scripts: readonly QualifiedName[];
  readonly jobs: number;
  readonly ledger: 'core' | 'memory';
  readonly stepBudget: number | undefined;
  readonly coverage: boolean;
  /** Each result, in the selection's order. */
  readonly onResult?: (result: ScriptResult) => void;
  /** The worker's module (default: scriptWorker.js beside this one); tests give one of their own. */
  readonly worker?: URL;
}

export type ScriptJobsOutcome =
  | { readonly ok: true; readonly results: readonly ScriptResult[]; readonly coverage: readonly CoverageUsed[] }
  /** The DAR was refused (by the participant a worker uploaded it to): no script ran. */
  | { readonly ok: false; readonly refused: string };

const WORKER = new URL('./scriptWorker.js', import.meta.url);

/**
 * Whether worker threads can run here: the worker is a built module beside this one (`dist/`).
 * Run from the TypeScript sources (the repository's own tests), `test` stays on one thread.
 */
export function scriptWorkersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER));
}

/** Runs `options.scripts` on `options.jobs` worker threads; see the module's comment. */
export function runScriptJobs(options: ScriptJobsOptions): Promise<ScriptJobsOutcome> {
  const { scripts } = options;
  const next = new SharedArrayBuffer(4);
  const claim = new Int32Array(next);
  const results: (ScriptResult | undefined)[] = new Array<ScriptResult | undefined>(scripts.length);
  const coverage: CoverageUsed[] = [];
  let printed = 0;
  let refused: string | undefined;
  /** Why a worker stopped before it took any script (it cannot start): no other is started then. */
  let broken: string | undefined;
  let running = 0;

  return new Promise((resolve) => {
    const settle = (index: number, result: ScriptResult): void => {
      if (results[index] !== undefined) return;
      results[index] = result;
      for (; printed < scripts.length && results[printed] !== undefined; printed++) options.onResult?.(results[printed]!);
    };
    const failed = (index: number, message: string): ScriptResult => {
      const ref = scripts[index]!;
      return { name: scriptName(ref), ref, ok: false, failure: { kind: 'engine', message }, durationMs: 0, steps: 0, ledgerSteps: 0, questions: 0, trace: [] };
    };
    const finish = (): void => {
      if (refused !== undefined) return resolve({ ok: false, refused });
      // Scripts no worker could take (every worker stopped before taking one).
      for (let i = 0; i < scripts.length; i++) if (results[i] === undefined) settle(i, failed(i, `no worker thread could run it (${broken ?? 'none started'})`));
      resolve({ ok: true, results: results as ScriptResult[], coverage });
    };
    const start = (): void => {
      running++;
      const data: ScriptWorkerData = { bytes: options.bytes, scripts, ledger: options.ledger, stepBudget: options.stepBudget, coverage: options.coverage, next };
      const worker = new Worker(options.worker ?? WORKER, { workerData: data });
      let current: number | undefined;
      let took = false;
      let done = false;
      worker.on('message', (m: ScriptWorkerMessage) => {
        switch (m.kind) {
          case 'refused':
            refused ??= m.message;
            // No other worker needs to run anything: the run ends with the refusal.
            Atomics.store(claim, 0, scripts.length);
            return;
          case 'started': current = m.index; took = true; return;
          case 'result': current = undefined; return settle(m.index, m.result);
          case 'done':
            done = true;
            if (m.coverage) coverage.push(m.coverage);
            return;
        }
      });
      worker.on('error', (e) => stopped(`${e.message}`));
      worker.on('exit', (code) => stopped(`exit code ${code}`));
      let ended = false;
      // A worker that stops before it is done (out of memory, an internal error) fails the script it
      // was running, and another worker takes over what is left; one that stops before taking any
      // script cannot start, and is not replaced (another would stop the same way).
      function stopped(why: string): void {
        if (ended) return;
        ended = true;
        running--;
        if (!done && refused === undefined) {
          if (current !== undefined) settle(current, failed(current, `the worker thread running this script stopped (${why})`));
          if (!took) broken ??= why;
          else if (broken === undefined && Atomics.load(claim, 0) < scripts.length) return start();
        }
        if (running === 0) finish();
      }
    };
    const jobs = Math.max(1, Math.min(options.jobs, scripts.length));
    for (let i = 0; i < jobs; i++) start();
  });
}
