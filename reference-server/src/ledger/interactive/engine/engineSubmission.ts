import { createHmac } from 'node:crypto';
import type { PreparedTransaction } from '@canton-network/core-ledger-proto';
import type { Update } from '../../../../../daml-engine/ast/Expr.js';
import type { EvalError } from '../../../../../daml-engine/eval/EvalResult.js';
import { deriveTransactionSeed } from '../../../../../daml-engine/update/seeds.js';
import type { Transaction } from '../../../../../daml-engine/update/Transaction.js';
import type { LedgerContract, SubmissionResult, UpdateEngine } from '../../../../../daml-engine/update/UpdateEngine.js';
import type { Value } from '../../../../../daml-engine/value/Value.js';
import { hashPreparedTransaction, type HashingScheme } from '../preparedTransactionHash.js';
import { engineTransactionOfPrepared, type SignedEngineTransaction } from './engineTransactionOfPrepared.js';
import { preparedTransactionOfEngine, type EnginePreparation, type PrepareFailure } from './preparedTransactionOfEngine.js';
import { commandsUpdate, rootCommandsOf } from './rootCommands.js';

/**
 * Prepare and execute of engine transactions as two pure steps the ledger core calls:
 *
 * - prepare runs the commands with the engine (seeded from the transaction UUID, so execute can
 *   seed it again) and encodes the transaction with `preparedTransactionOfEngine`;
 * - execute reads the signed transaction back, runs its root nodes' commands again with the same
 *   seed and preparation time at the execution's ledger time, encodes that, and admits it only
 *   when its hash is the signed hash: the signer picks the commands, never the effects, contract
 *   ids or input contracts. What it commits is the transaction of that run.
 */

/**
 * The submission seed of an interactive transaction: an HMAC of its UUID under a key only the
 * participant holds, so execute derives the seed prepare used without the client carrying it.
 */
export function submissionSeedOf(participantKey: string, transactionUuid: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', participantKey).update(`interactive-submission|${transactionUuid}`).digest());
}

/** What a run of the engine needs besides the commands. */
export interface EngineRun {
  readonly engine: UpdateEngine;
  readonly participantId: string;
  /** `submissionSeedOf(key, transactionUuid)`. */
  readonly submissionSeed: Uint8Array;
  /** What `get_time` answers: the preparation time at prepare, the ledger time chosen at execute. */
  readonly ledgerTime: bigint;
  /** Active contracts and the command's disclosed ones. */
  readonly getContract: (contractId: string) => LedgerContract | undefined;
}

export type EnginePrepareResult =
  | { readonly ok: true; readonly prepared: PreparedTransaction; readonly transaction: Transaction; readonly result: Value }
  | { readonly ok: false; readonly reason: 'interpretation'; readonly error: EvalError }
  | { readonly ok: false; readonly reason: 'encoding'; readonly failure: PrepareFailure };

/** Runs commands as one transaction, seeded as `run` says, at the given preparation time. */
export function runEngineCommands(commands: readonly Update[], run: EngineRun, actAs: readonly string[], preparationTime: bigint): SubmissionResult {
  return run.engine.submit({
    update: commandsUpdate(commands),
    submitters: actAs,
    transactionSeed: deriveTransactionSeed(run.submissionSeed, run.participantId, preparationTime),
    preparationTime,
    ledgerTime: run.ledgerTime,
    getContract: run.getContract,
  });
}

/** Prepare: interpret the commands and encode the transaction they make. */
export function prepareEngineCommands(commands: readonly Update[], run: EngineRun, facts: Omit<EnginePreparation, 'transaction'>): EnginePrepareResult {
  const submitted = runEngineCommands(commands, run, facts.actAs, facts.preparationTime);
  if (!submitted.ok) return { ok: false, reason: 'interpretation', error: submitted.error };
  const prepared = preparedTransactionOfEngine({ ...facts, transaction: submitted.transaction });
  if (!prepared.ok) return { ok: false, reason: 'encoding', failure: prepared.failure };
  return { ok: true, prepared: prepared.value, transaction: submitted.transaction, result: submitted.result };
}

/**
 * How execute runs the signed transaction's root commands again: as the signers (`actAs`), at
 * the signed preparation time (contract ids depend on it), with the seed prepare used and the
 * ledger time execute chose. The ledger core may pass its own command runner; `rerunWith` is
 * the one over `runEngineCommands`.
 */
export type Rerun = (commands: readonly Update[], actAs: readonly string[], preparationTime: bigint) => SubmissionResult;

export const rerunWith = (run: EngineRun): Rerun => (commands, actAs, preparationTime) => runEngineCommands(commands, run, actAs, preparationTime);

export type ExecuteCheck =
  | { readonly ok: true; readonly transaction: Transaction; readonly result: Value; readonly signed: SignedEngineTransaction }
  | { readonly ok: false; readonly problem: string };

/**
 * Execute: the signed transaction, interpreted again, must hash (under the signed scheme) to
 * what was signed. `signedHash` is the hash the signatures were checked against.
 */
export function reinterpretSigned(
  p: PreparedTransaction,
  signedHash: Uint8Array,
  scheme: HashingScheme,
  rerun: Rerun,
  lookups: Pick<EnginePreparation, 'getPackage' | 'inputContract'>,
): ExecuteCheck {
  const signed = engineTransactionOfPrepared(p, lookups.getPackage);
  if (!signed.ok) return signed;
  const roots = rootCommandsOf(signed.value.transaction);
  if (!roots.ok) return roots;
  const facts = signed.value.facts;
  const again = rerun(roots.commands, facts.actAs, facts.preparationTime);
  if (!again.ok) return { ok: false, problem: `its commands fail on the current ledger (${again.error.kind})` };
  const encoded = preparedTransactionOfEngine({ ...facts, ...lookups, transaction: again.transaction });
  if (!encoded.ok) return { ok: false, problem: `its transaction cannot be encoded (${encoded.failure.kind})` };
  if (!Buffer.from(hashPreparedTransaction(encoded.value, scheme)).equals(Buffer.from(signedHash))) {
    return { ok: false, problem: 'the prepared transaction is not what its commands yield on the current ledger: it was altered after preparation, or the contracts it uses changed' };
  }
  return { ok: true, transaction: again.transaction, result: again.result, signed: signed.value };
}
