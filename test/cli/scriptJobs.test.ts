/**
 * The thread pool of `test --jobs` (conformance/src/cli/scriptJobs.ts) with workers of the test's
 * own: results in the selection's order whatever order they finish in, and a worker that stops
 * in the middle of a script fails that script, while another worker takes what is left.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { runScriptJobs } from '../../conformance/src/cli/scriptJobs.js';
import type { QualifiedName, ScriptResult } from '../../daml-engine/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cc-script-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A worker speaking scriptWorker.ts's protocol without an engine: each script it claims passes
 * (named `fail…`: fails; `crash…`: the thread exits while running it). The one that claims the
 * first script holds its result until another thread has finished all of its own (that thread's
 * last claim moves the shared counter past the end), so results arrive out of order, always.
 */
const fake = join(dir, 'fakeWorker.mjs');
writeFileSync(fake, `
import { parentPort, workerData } from 'node:worker_threads';
const claim = new Int32Array(workerData.next);
const n = workerData.scripts.length;
for (let i = Atomics.add(claim, 0, 1); i < n; i = Atomics.add(claim, 0, 1)) {
  const ref = workerData.scripts[i];
  parentPort.postMessage({ kind: 'started', index: i });
  if (ref.name.startsWith('crash')) process.exit(7);
  if (i === 0) for (let c = Atomics.load(claim, 0); c < n + 1; c = Atomics.load(claim, 0)) Atomics.wait(claim, 0, c);
  const ok = !ref.name.startsWith('fail');
  parentPort.postMessage({ kind: 'result', index: i, result: { name: ref.module + ':' + ref.name, ref, ok, failure: ok ? undefined : { kind: 'userError', message: 'failed' },
    durationMs: 1, steps: i, ledgerSteps: 0, questions: 0, trace: [] } });
}
Atomics.notify(claim, 0);
parentPort.postMessage({ kind: 'done', coverage: { created: [], exercised: [], interfaces: [] } });
`);

/** A worker that cannot start (its module throws as it loads). */
const unloadable = join(dir, 'unloadableWorker.mjs');
writeFileSync(unloadable, `throw new Error('cannot load the engine');\n`);

const ref = (name: string): QualifiedName => ({ packageId: 'p', module: 'Main', name });

/** The pool over the fake worker: what it printed, in order, and its outcome. */
async function pool(names: string[], jobs: number, worker = fake) {
  const printed: ScriptResult[] = [];
  const outcome = await runScriptJobs({
    bytes: new Uint8Array(), scripts: names.map(ref), jobs, ledger: 'memory', stepBudget: undefined, coverage: true,
    onResult: (r) => printed.push(r), worker: pathToFileURL(worker),
  });
  return { outcome, printed };
}

describe('the test --jobs thread pool', () => {
  it('gives results in the selection\'s order, each once, whatever order they finish in', async () => {
    const names = ['a', 'b', 'failC', 'd', 'e', 'f'];
    const { outcome, printed } = await pool(names, 3);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.results.map((r) => r.name)).toEqual(names.map((n) => `Main:${n}`));
    expect(printed.map((r) => r.name)).toEqual(names.map((n) => `Main:${n}`));
    expect(outcome.results.map((r) => r.ok)).toEqual([true, true, false, true, true, true]);
    expect(outcome.results.map((r) => r.steps)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(outcome.coverage).toHaveLength(3);
  });

  it('a worker that stops during a script fails that script; a new worker runs the rest', async () => {
    const names = ['a', 'b', 'crashC', 'd', 'e'];
    const { outcome, printed } = await pool(names, 2);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(printed.map((r) => r.name)).toEqual(names.map((n) => `Main:${n}`));
    const crashed = outcome.results[2]!;
    expect(crashed).toMatchObject({ ok: false, failure: { kind: 'engine', message: 'the worker thread running this script stopped (exit code 7)' } });
    expect(outcome.results.filter((r) => r.ok).map((r) => r.name)).toEqual(['Main:a', 'Main:b', 'Main:d', 'Main:e']);
  });

  it('workers that cannot start are not started again: every script fails, saying why, and the run ends', async () => {
    const { outcome, printed } = await pool(['a', 'b', 'c'], 2, unloadable);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(printed.map((r) => r.name)).toEqual(['Main:a', 'Main:b', 'Main:c']);
    for (const r of outcome.results) expect(r).toMatchObject({ ok: false, failure: { kind: 'engine', message: 'no worker thread could run it (cannot load the engine)' } });
  });
});
