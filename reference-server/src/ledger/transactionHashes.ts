import type { LogEntry } from '../store/LogEntry.js';
import { completionOf, type CompletionQuery } from './completions.js';
import type { LedgerContext } from './context.js';
import { fail, type LedgerError } from './errors.js';
import { ok, type Result } from './result.js';
import type { GetCompletionByHashResponse } from './wire.js';

/**
 * How many rejected completions a lookup by hash answers at most (newest first): the participant
 * "may truncate this list if there are too many entries".
 */
export const MAX_REJECTED_BY_HASH = 20;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The offsets of the commits (transactions and rejections) of externally signed submissions, by the
 * prepared-transaction hash they carry. Fed by every commit, recovery from --data-dir included.
 */
export class TransactionHashIndex {
  readonly #offsets = new Map<string, number[]>();

  add(entry: LogEntry): void {
    const hash = hashOf(entry);
    if (hash === undefined) return;
    const list = this.#offsets.get(hash);
    if (list === undefined) this.#offsets.set(hash, [entry.offset]);
    else list.push(entry.offset);
  }

  /** Ascending (commits arrive in offset order). */
  offsets(hash: string): readonly number[] {
    return this.#offsets.get(hash) ?? [];
  }
}

function hashOf(entry: LogEntry): string | undefined {
  if (entry.kind === 'transaction') return entry.externalTransactionHash ?? entry.submission?.transactionHash;
  if (entry.kind === 'rejection') return entry.submission.transactionHash;
  return undefined;
}

/**
 * The hash of a by-hash request, canonical base64 (how the hashes are kept): Canton refuses an
 * empty one as a missing field; bytes that are not base64 cannot be decoded.
 */
export function requestedHash(raw: unknown): Result<string, LedgerError> {
  if (raw === undefined || raw === null || raw === '') {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Missing field: transaction_hash', { context: { field_name: 'transaction_hash' } });
  }
  if (typeof raw !== 'string' || !BASE64.test(raw) || raw.length % 4 === 1) {
    return fail('INVALID_FIELD', 'The submitted request has a field with invalid value: Invalid field transaction_hash: not base64', { context: { field_name: 'transaction_hash' } });
  }
  return ok(Buffer.from(raw, 'base64').toString('base64'));
}

/**
 * GetCompletionByHash (Canton 3.6): the accepted completion of the transaction with that hash and
 * the latest rejected ones, as the caller's parties see them (actAs narrowed to them, as on the
 * completion streams); COMPLETION_NOT_FOUND when none is visible. `parties` is `'all'` for a caller
 * who reads as any party.
 */
export function completionByHash(ctx: LedgerContext, index: TransactionHashIndex, rawHash: unknown, parties: CompletionQuery['parties']): Result<GetCompletionByHashResponse, LedgerError> {
  const hash = requestedHash(rawHash);
  if (!hash.ok) return hash;
  const q: CompletionQuery = { parties };
  let accepted: GetCompletionByHashResponse['acceptedCompletion'];
  const rejected: NonNullable<GetCompletionByHashResponse['lastRejectedCompletions']> = [];
  const offsets = index.offsets(hash.value);
  for (let i = offsets.length - 1; i >= 0; i--) {
    // Pruned commits are gone from the store: their completions are no longer visible.
    const e = ctx.store.entryAt(offsets[i] as number);
    if (e === undefined) continue;
    const c = completionOf(ctx, e, q);
    if (c === undefined) continue;
    if (e.kind === 'rejection') {
      if (rejected.length < MAX_REJECTED_BY_HASH) rejected.push(c);
    } else accepted ??= c;
  }
  if (accepted === undefined && rejected.length === 0) {
    return fail('COMPLETION_NOT_FOUND', 'No completion with this transaction hash is visible to the requesting user', { context: { transaction_hash: hash.value } });
  }
  return ok({ ...(accepted === undefined ? {} : { acceptedCompletion: accepted }), lastRejectedCompletions: rejected });
}
