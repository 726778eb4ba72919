/**
 * What the ledger's thread and its engine thread (EngineWorker.ts, engineWorkerMain.ts) say to
 * each other. Everything here is plain data: it crosses threads by structured clone.
 */
import type { Update } from '../../../../daml-engine/ast/Expr.js';
import type { TraceCommand } from '../../../../daml-engine/update/InterpretationTrace.js';
import type { LedgerContract, SubmissionResult } from '../../../../daml-engine/update/UpdateEngine.js';
import type { MessagePort } from 'node:worker_threads';
import type { EngineLimits } from './engineLimits.js';

/** Given to the worker at its start. */
export interface EngineWorkerData {
  readonly limits: EngineLimits;
  /** The port the worker asks its questions on, answered while it waits (`Atomics.wait` on `answered`). */
  readonly questions: MessagePort;
  /** One Int32: set to 1 by the ledger's thread once an answer is on `questions`. */
  readonly answered: SharedArrayBuffer;
  /** Contracts the worker keeps between runs (the least recently used go first). */
  readonly keptContracts: number;
}

/** One engine run: what `UpdateEngine.submitSliced` takes, without the contract callback. */
export interface RunRequest {
  readonly kind: 'run';
  readonly id: number;
  readonly update: Update;
  readonly command?: TraceCommand;
  readonly submitters: readonly string[];
  readonly transactionSeed: Uint8Array;
  readonly preparationTime: bigint;
  readonly ledgerTime: bigint;
}

/** Decode these packages now (a server warms its thread up once it listens; the first run then pays nothing). */
export interface PrepareRequest {
  readonly kind: 'prepare';
  readonly packageIds: readonly string[];
}

/** A run's outcome (its transaction as plain data, seeds included) and the contracts it took from the worker's own copies. */
export interface RunDone {
  readonly kind: 'done';
  readonly id: number;
  readonly outcome: SubmissionResult;
  /**
   * Contract ids the run read from the worker's copies, without asking: the ledger's thread checks
   * each is still one the submission may use, as its own look-up would have answered.
   */
  readonly unasked: readonly string[];
  /** `trace` / `debug` output of the run, in order. */
  readonly traces: readonly string[];
}

/** A run the worker could not finish or send back (an engine defect, a value that does not clone): the ledger's thread runs it itself. */
export interface RunFailed {
  readonly kind: 'failed';
  readonly id: number;
  readonly reason: string;
}

/** A question the worker waits on: a contract a run reads, or a package's payload. */
export type Question =
  | { readonly kind: 'contract'; readonly run: number; readonly contractId: string }
  | { readonly kind: 'package'; readonly run: number; readonly packageId: string };

export type Answer =
  | { readonly kind: 'contract'; readonly contract: LedgerContract | undefined }
  | { readonly kind: 'package'; readonly payload: Uint8Array | undefined };
