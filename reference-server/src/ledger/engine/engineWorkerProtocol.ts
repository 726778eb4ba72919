/**
 * What the ledger's thread and its engine thread (EngineWorker.ts, engineWorkerMain.ts) say to
 * each other. Everything here is plain data: it crosses threads by structured clone.
 */
import type { Update } from '../../../../daml-engine/ast/Expr.js';
import type { Type } from '../../../../daml-engine/ast/Type.js';
import type { EvalError } from '../../../../daml-engine/eval/EvalResult.js';
import type { CreateNode, ExerciseNode, FetchNode, NodeId, RollbackNode } from '../../../../daml-engine/update/Transaction.js';
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
  readonly submitters: readonly string[];
  readonly transactionSeed: Uint8Array;
  readonly preparationTime: bigint;
  readonly ledgerTime: bigint;
  /** The type of each command's result (undefined: rendered by its shape), for their JSON. */
  readonly resultTypes: readonly (Type | undefined)[];
  /**
   * Answer the engine's own outcome (its values, and node seeds as hex) instead of its rendering:
   * interactive submission builds the prepared transaction's protobuf from the values.
   */
  readonly raw?: boolean;
}

/** Decode these packages now (a server warms its thread up once it listens; the first run then pays nothing). */
export interface PrepareRequest {
  readonly kind: 'prepare';
  readonly packageIds: readonly string[];
}

/**
 * The engine's transaction with each value as its JSON API text, rendered on the thread by the
 * packages' types (what the ledger would render when the value is first read): text crosses
 * threads as one copy, where a value's many small objects each cost a clone, and the ledger
 * parses only the values it shows.
 */
export interface RenderedTransaction {
  readonly nodes: readonly RenderedNode[];
  readonly roots: readonly NodeId[];
  readonly archived: readonly string[];
}

/**
 * A node as the store needs it: fetch nodes only hold their place (the store shows none), and no
 * node seeds cross (the command service's transactions never show them; interactive submission,
 * which does, asks for its runs `raw`).
 */
export type RenderedNode =
  | (Omit<CreateNode, 'argument'> & { readonly argument: string })
  | (Omit<ExerciseNode, 'choiceArgument' | 'exerciseResult'> & { readonly choiceArgument: string; readonly exerciseResult: string | undefined })
  | Pick<FetchNode, 'kind' | 'nodeId'>
  | RollbackNode;

/** A run's outcome as it crosses: a rendered transaction and results, or the engine's failure. */
export type RenderedOutcome =
  | {
      readonly ok: true; readonly rendered: RenderedTransaction;
      /** Each command's result as JSON text. */
      readonly results: readonly string[];
      readonly steps: number; readonly readsLedgerTime: boolean;
    }
  | { readonly ok: false; readonly error: EvalError; readonly steps: number };

/** A run's outcome and the contracts it took from the worker's own copies. */
export interface RunDone {
  readonly kind: 'done';
  readonly id: number;
  /** Rendered, or the engine's own (a plain transaction: its node seeds as hex) when the request was `raw`. */
  readonly outcome: RenderedOutcome | SubmissionResult;
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
}

/** A question the worker waits on: a contract a run reads, a package's payload, or a package name's package. */
export type Question =
  | { readonly kind: 'contract'; readonly run: number; readonly contractId: string }
  | { readonly kind: 'package'; readonly run: number; readonly packageId: string }
  /** The package a package name runs as in this run's submission (`Submission.packageResolution`). */
  | { readonly kind: 'resolve'; readonly run: number; readonly packageName: string };

export type Answer =
  | { readonly kind: 'contract'; readonly contract: LedgerContract | undefined }
  | { readonly kind: 'package'; readonly payload: Uint8Array | undefined }
  | { readonly kind: 'resolve'; readonly packageId: string | undefined };
