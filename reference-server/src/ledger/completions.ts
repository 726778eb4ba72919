import type { LogEntry, SubmissionInfo } from '../store/LogEntry.js';
import { toTimestamp } from './clock.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { errorClassOf, GrpcCode, fail } from './errors.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import type { PassEnd } from './tail.js';
import { checkpointAtEnd } from './tail.js';
import { checkpointAt, entriesAt } from './updates.js';
import { isValidUserId } from './users.js';
import { isPlainObject, show } from './values.js';
import type { Completion, CompletionStreamRequest, CompletionStreamResponse, GetCompletionsRequest, JsStatus } from './wire.js';

/**
 * Whose completions a stream reads. The deprecated stream names one user and its parties; the
 * 3.5.7+ GetCompletions stream names no user (every user's commands) and, with no parties, every
 * party (`'all'`).
 */
export interface CompletionQuery {
  readonly userId?: string;
  readonly parties: ReadonlySet<string> | 'all';
}

export function completionQueryOf(req: CompletionStreamRequest): Result<CompletionQuery, LedgerError> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  if (req.userId === undefined || req.userId === null || req.userId === '') {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: user_id', { context: { field_name: 'user_id' } });
  }
  if (typeof req.userId !== 'string' || !isValidUserId(req.userId)) {
    return fail('INVALID_FIELD', 'The submitted request has a field with invalid value: Invalid field user_id', { context: { field_name: 'user_id' } });
  }
  if (!Array.isArray(req.parties) || req.parties.length === 0) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: parties', { context: { field_name: 'parties' } });
  }
  for (const p of req.parties) {
    if (typeof p !== 'string' || !isValidPartyId(p)) {
      return fail('INVALID_FIELD', `The submitted request has a field with invalid value: Invalid field parties: '${show(p)}' is not a party id`, {
        context: { field_name: 'parties' },
      });
    }
  }
  return ok({ userId: req.userId, parties: new Set(req.parties) });
}

/** The query of a GetCompletions request (Canton 3.5.7+): parties only, empty meaning all. */
export function getCompletionsQueryOf(req: GetCompletionsRequest): Result<CompletionQuery, LedgerError> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  const parties: unknown = req.parties ?? [];
  if (!Array.isArray(parties)) {
    return fail('INVALID_FIELD', 'The submitted request has a field with invalid value: Invalid field parties', { context: { field_name: 'parties' } });
  }
  for (const p of parties) {
    if (typeof p !== 'string' || !isValidPartyId(p)) {
      return fail('INVALID_FIELD', `The submitted request has a field with invalid value: Invalid field parties: '${show(p)}' is not a party id`, {
        context: { field_name: 'parties' },
      });
    }
  }
  return ok({ parties: parties.length === 0 ? 'all' : new Set(parties as string[]) });
}

export function statusOf(error: LedgerError): JsStatus {
  const def = errorClassOf(error);
  return { code: GrpcCode[def.grpc], message: `${error.code}(${def.category},0): ${error.cause}`, details: [] };
}

function submissionOf(e: LogEntry): SubmissionInfo | undefined {
  return e.kind === 'topology' ? undefined : e.submission;
}

/** The completion an entry yields for a query, if it was submitted by that user for those parties. */
export function completionOf(ctx: LedgerContext, e: LogEntry, q: CompletionQuery): Completion | undefined {
  const sub = submissionOf(e);
  if (!sub || (q.userId !== undefined && sub.userId !== q.userId)) return undefined;
  const { parties } = q;
  const actAs = parties === 'all' ? [...sub.actAs] : sub.actAs.filter((p) => parties.has(p));
  if (actAs.length === 0) return undefined;
  return {
    commandId: sub.commandId,
    status: e.kind === 'rejection' ? statusOf(e.error) : { code: 0, message: '', details: [] },
    ...(e.kind !== 'rejection' ? { updateId: e.updateId } : ctx.config.shapes.emptyDefaults ? { updateId: '' } : {}),
    userId: sub.userId,
    actAs,
    ...(sub.submissionId !== undefined ? { submissionId: sub.submissionId } : ctx.config.shapes.emptyDefaults ? { submissionId: '' } : {}),
    deduplicationPeriod: sub.deduplicationPeriod,
    offset: e.offset,
    synchronizerTime: { synchronizerId: ctx.renderer.synchronizerId(e.synchronizer), recordTime: toTimestamp(e.recordTime) },
    ...(ctx.config.shapes.transactionHash && sub.transactionHash !== undefined ? { transactionHash: sub.transactionHash } : {}),
  };
}

export function completionsRange(ctx: LedgerContext, q: CompletionQuery, fromExclusive: number, toInclusive: number, now: () => number, end: PassEnd = checkpointAtEnd()): Generator<CompletionStreamResponse> {
  return completionsOf(ctx, q, ctx.store.entries(fromExclusive, toInclusive), fromExclusive, toInclusive, now, end);
}

/** Like `completionsRange`, reading only the commits at `offsets` (those that may concern the query). */
export function completionsAt(ctx: LedgerContext, q: CompletionQuery, offsets: readonly number[], fromExclusive: number, toInclusive: number, now: () => number, end: PassEnd): Generator<CompletionStreamResponse> {
  return completionsOf(ctx, q, entriesAt(ctx, offsets), fromExclusive, toInclusive, now, end);
}

function* completionsOf(ctx: LedgerContext, q: CompletionQuery, entries: Iterable<LogEntry>, fromExclusive: number, toInclusive: number, now: () => number, end: PassEnd): Generator<CompletionStreamResponse> {
  let last = fromExclusive;
  for (const e of entries) {
    const c = completionOf(ctx, e, q);
    if (!c) continue;
    last = e.offset;
    yield { completionResponse: { Completion: { value: c } } };
  }
  if (last < toInclusive) {
    if (end.due) yield { completionResponse: { OffsetCheckpoint: { value: checkpointAt(ctx, toInclusive, now()) } } };
    else end.owed = true;
  }
}
