/**
 * The ledger's engine thread (`createLedger({ engineWorker: true })`, on by default in `serve`):
 * the command service's engine runs, made ahead of their commit, and the runs interactive prepare
 * and execute capture (`inSlicesTwice`), run there instead of in slices on the ledger's thread,
 * which meanwhile parses, answers and commits other requests. On two cores
 * this is what lets real Amulet transfers over HTTP use both (bench/RESULTS.md).
 *
 * The thread holds no ledger state. It asks for the packages and contracts a run reads
 * (engineWorkerMain.ts), and this side answers each question from the ledger's own look-up,
 * recording the read as a run on this thread does; contracts the thread kept from earlier runs are
 * checked here when the outcome arrives (`unasked`). The commit then goes as for any pre-run: it
 * takes the outcome only if everything it read is unchanged, else runs the commands itself.
 * A run the thread cannot do (it stopped, or failed to send its outcome) is answered as not made:
 * the caller runs it on this thread in slices, as without a thread: a broken worker costs speed,
 * never an answer.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

import type { LedgerContract, SubmissionResult } from '../../../../daml-engine/update/UpdateEngine.js';
import type { EngineLimits } from './engineLimits.js';
import type { Answer, EngineWorkerData, PrepareRequest, Question, RenderedOutcome, RunDone, RunFailed, RunRequest } from './engineWorkerProtocol.js';

export interface EngineWorkerOptions {
  /** The worker's module (default: engineWorkerMain.js beside this one, in `dist/`); tests run the built one. */
  readonly module?: URL;
  /** Contracts the worker keeps copies of between runs (default 4,096: the recently used; any other is asked for). */
  readonly keptContracts?: number;
  /** Times the thread may stop (crash) before the ledger stops using one (default 3). */
  readonly restarts?: number;
}

/** What the ledger gives the thread: the payload of an uploaded package, which the thread decodes itself. */
export interface EngineWorkerSource {
  packagePayload(packageId: string): Uint8Array | undefined;
}

/** A run the thread made: its outcome, the contracts it read from its own copies, its trace output. */
export interface WorkerRun {
  /** Rendered, or the engine's own for a `raw` request. */
  readonly outcome: RenderedOutcome | SubmissionResult;
  readonly unasked: readonly string[];
  readonly traces: readonly string[];
}

const WORKER_MODULE = new URL('./engineWorkerMain.js', import.meta.url);

/** Whether the worker's module is there to start (it is a built module: `dist/`, not the TypeScript sources). */
export function engineWorkerAvailable(module: URL = WORKER_MODULE): boolean {
  return module.protocol === 'file:' && existsSync(fileURLToPath(module));
}

interface Pending {
  readonly lookup: (contractId: string) => LedgerContract | undefined;
  readonly resolution: ((packageName: string) => string | undefined) | undefined;
  readonly resolve: (run: WorkerRun | undefined) => void;
  /** An answer could not be sent as it was (it did not clone): the outcome is not taken. */
  spoiled: boolean;
}

interface Thread {
  readonly worker: Worker;
  readonly questions: MessagePort;
}

export class EngineWorker {
  readonly #module: URL;
  readonly #available: boolean;
  readonly #keptContracts: number;
  readonly #restarts: number;
  readonly #answered = new SharedArrayBuffer(4);
  readonly #flag = new Int32Array(this.#answered);
  readonly #pending = new Map<number, Pending>();
  #thread: Thread | undefined;
  #next = 0;
  #stops = 0;
  #closed = false;
  /**
   * Runs the thread made; runs handed back to the caller (the thread could not make them); runs
   * made that read a copy the ledger's look-up no longer gives the submission (the caller counts
   * these, and makes the run again on its own thread).
   */
  readonly counts = { made: 0, handedBack: 0, stale: 0 };

  constructor(readonly source: EngineWorkerSource, readonly limits: EngineLimits, options: EngineWorkerOptions = {}) {
    this.#module = options.module ?? WORKER_MODULE;
    this.#keptContracts = options.keptContracts ?? 4_096;
    this.#restarts = options.restarts ?? 3;
    this.#available = engineWorkerAvailable(this.#module);
  }

  /** Whether runs go to the thread: not once closed, nor after it stopped more often than allowed. */
  get usable(): boolean {
    return this.#available && !this.#closed && this.#stops <= this.#restarts;
  }

  /**
   * Runs `request` on the thread; `lookup` answers the contracts it reads (the ledger's look-up
   * for the submission, recording each read). Undefined when the thread could not make the run.
   */
  run(
    request: Omit<RunRequest, 'kind' | 'id'>, lookup: (contractId: string) => LedgerContract | undefined,
    resolution?: (packageName: string) => string | undefined,
  ): Promise<WorkerRun | undefined> {
    if (!this.usable) return Promise.resolve(undefined);
    const thread = this.#thread ?? this.#start();
    const id = ++this.#next;
    return new Promise((resolve) => {
      this.#pending.set(id, { lookup, resolution, resolve, spoiled: false });
      if (this.#pending.size === 1) thread.worker.ref();
      try {
        thread.worker.postMessage({ ...request, kind: 'run', id } satisfies RunRequest);
      } catch {
        // A command that does not clone: this thread runs it.
        this.#settle(id, undefined);
      }
    });
  }

  /**
   * Starts the thread and has it decode `packageIds` meanwhile (on the other core): the first run
   * then waits for neither. The thread asks for each payload as a run would.
   */
  prepare(packageIds: readonly string[]): void {
    if (!this.usable) return;
    const thread = this.#thread ?? this.#start();
    thread.worker.postMessage({ kind: 'prepare', packageIds } satisfies PrepareRequest);
  }

  /** Stops the thread; later runs are handed back. */
  async close(): Promise<void> {
    this.#closed = true;
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread === undefined) return;
    // A thread waiting for an answer wakes to none (its run fails, and is handed back).
    Atomics.store(this.#flag, 0, 1);
    Atomics.notify(this.#flag, 0);
    await thread.worker.terminate();
  }

  #start(): Thread {
    const channel = new MessageChannel();
    const data: EngineWorkerData = { limits: this.limits, questions: channel.port2, answered: this.#answered, keptContracts: this.#keptContracts };
    const worker = new Worker(this.#module, { workerData: data, transferList: [channel.port2] });
    const questions = channel.port1;
    const thread: Thread = { worker, questions };
    this.#thread = thread;
    // Idle, the thread keeps no process alive; a run in progress does (see `run`).
    worker.unref();
    questions.unref();
    questions.on('message', (q: Question) => this.#answer(questions, q));
    worker.on('message', (m: RunDone | RunFailed) => {
      if (m.kind === 'failed') return this.#settle(m.id, undefined);
      const pending = this.#pending.get(m.id);
      this.#settle(m.id, pending === undefined || pending.spoiled ? undefined : { outcome: m.outcome, unasked: m.unasked, traces: m.traces });
    });
    // An outcome this thread cannot read back (the thread's stack is larger: a list of some
    // thousands of cells serializes there and overflows here) names no run: every run pending is
    // handed back and made here, their outcomes, when they come, ignored. Never a run left waiting.
    worker.on('messageerror', () => this.#handBackAll());
    // An uncaught error stops the thread: its 'exit' follows.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.#thread === thread) this.#thread = undefined;
      if (!this.#closed) this.#stops++;
      this.#handBackAll();
    });
    return thread;
  }

  /** Every run pending answered as not made (their outcomes, should they come, are ignored). */
  #handBackAll(): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id, undefined);
  }

  #settle(id: number, run: WorkerRun | undefined): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    if (run === undefined) this.counts.handedBack++;
    else this.counts.made++;
    if (this.#pending.size === 0) this.#thread?.worker.unref();
    pending.resolve(run);
  }

  /** Answers a question the thread waits on, then wakes it. */
  #answer(port: MessagePort, q: Question): void {
    let answer: Answer;
    const pending = this.#pending.get(q.run);
    try {
      answer = q.kind === 'contract'
        ? { kind: 'contract', contract: pending?.lookup(q.contractId) }
        : q.kind === 'resolve'
          ? { kind: 'resolve', packageId: pending?.resolution?.(q.packageName) }
          : { kind: 'package', payload: this.source.packagePayload(q.packageId) };
      port.postMessage(answer);
    } catch {
      // The look-up threw or its answer does not clone: the thread gets none, and its outcome is not taken.
      if (pending !== undefined) pending.spoiled = true;
      port.postMessage(q.kind === 'contract' ? { kind: 'contract', contract: undefined } : q.kind === 'resolve' ? { kind: 'resolve', packageId: undefined } : { kind: 'package', payload: undefined });
    }
    Atomics.store(this.#flag, 0, 1);
    Atomics.notify(this.#flag, 0);
  }
}
