import type { LogEntry } from '../store/LogEntry.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { EventQuery } from './filters.js';
import { resolveEventFormat } from './filters.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { resolveUpdateFormat, type UpdateQuery } from './updates.js';
import type { JsGetUpdatesResponse, JsTransaction, TransactionFormat, TransactionShape } from './wire.js';
import type { JsGetUpdateTreesResponse, JsTransactionTree, TreeEvent } from './wireReads.js';

/**
 * The forms Canton 3.5 keeps for backwards compatibility: transaction trees (a ledger-effects
 * transaction keyed by node id) and lookups by requesting parties instead of a format.
 */

/** A ledger-effects transaction as the legacy tree: its events by node id. */
export function treeOf(tx: JsTransaction): JsTransactionTree {
  const eventsById: Record<string, TreeEvent> = {};
  for (const e of tx.events) {
    if ('CreatedEvent' in e) eventsById[String(e.CreatedEvent.nodeId)] = { CreatedTreeEvent: { value: e.CreatedEvent } };
    else if ('ExercisedEvent' in e) eventsById[String(e.ExercisedEvent.nodeId)] = { ExercisedTreeEvent: { value: e.ExercisedEvent } };
  }
  return {
    updateId: tx.updateId,
    ...(tx.commandId === undefined ? {} : { commandId: tx.commandId }),
    ...(tx.workflowId === undefined ? {} : { workflowId: tx.workflowId }),
    effectiveAt: tx.effectiveAt,
    offset: tx.offset,
    eventsById,
    synchronizerId: tx.synchronizerId,
    recordTime: tx.recordTime,
  };
}

/** A flat update stream element as the trees stream carries it (topology events have no tree form). */
export function treeElementOf(element: JsGetUpdatesResponse): JsGetUpdateTreesResponse | undefined {
  const u = element.update;
  if ('Transaction' in u) return { update: { TransactionTree: { value: treeOf(u.Transaction.value) } } };
  if ('Reassignment' in u) return { update: { Reassignment: u.Reassignment } };
  if ('OffsetCheckpoint' in u) return { update: { OffsetCheckpoint: u.OffsetCheckpoint } };
  return undefined;
}

export function* treesOf(elements: Iterable<JsGetUpdatesResponse>): Generator<JsGetUpdateTreesResponse> {
  for (const e of elements) {
    const t = treeElementOf(e);
    if (t) yield t;
  }
}

/** The update query of the trees stream: ledger effects and reassignments of the legacy filter, no topology. */
export function treesQuery(uq: UpdateQuery): UpdateQuery {
  return {
    transactions: uq.transactions ? { q: uq.transactions.q, shape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } : undefined,
    reassignments: uq.reassignments,
    topology: undefined,
  };
}

/**
 * The format of a legacy lookup: an explicit transaction format, or template wildcards for the
 * requesting parties, verbose, in the lookup's default shape (never both forms).
 */
export function legacyLookupFormat(
  ctx: LedgerContext,
  requestingParties: unknown,
  transactionFormat: TransactionFormat | undefined,
  defaultShape: TransactionShape,
): Result<{ q: EventQuery; shape: TransactionShape }, LedgerError> {
  const parties = requestingParties ?? [];
  if (!Array.isArray(parties) || parties.some((p) => typeof p !== 'string')) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: requesting_parties must be a list of party ids');
  }
  const hasFormat = transactionFormat !== undefined && transactionFormat !== null;
  if (hasFormat && parties.length > 0) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Both requesting_parties and transaction_format are set. Please use either backwards compatible arguments (requesting_parties) or transaction_format, but not both.');
  }
  if (hasFormat) {
    const r = resolveUpdateFormat(ctx, { includeTransactions: transactionFormat }, 'transaction_format');
    if (!r.ok) return r;
    return r.value.transactions ? ok(r.value.transactions) : fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: transaction_format');
  }
  if (parties.length === 0) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: requesting_parties', { context: { field_name: 'requesting_parties' } });
  }
  const bad = (parties as string[]).find((p) => !isValidPartyId(p));
  if (bad !== undefined) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: Invalid party id '${bad.slice(0, 80)}' in requesting_parties`, { context: { party: bad } });
  const filtersByParty = Object.fromEntries((parties as string[]).map((p) => [p, {}]));
  const q = resolveEventFormat(ctx.catalogue, { filtersByParty, verbose: true }, true, 'requesting_parties');
  return q.ok ? ok({ q: q.value, shape: defaultShape }) : q;
}

/** The transaction at an entry as a format sees it, or undefined (not a transaction, or nothing visible). */
export function visibleTransaction(ctx: LedgerContext, e: LogEntry | undefined, format: { q: EventQuery; shape: TransactionShape }): JsTransaction | undefined {
  if (e?.kind !== 'transaction') return undefined;
  const tx = ctx.renderer.transaction(e, format.q, format.shape);
  return tx.events.length > 0 ? tx : undefined;
}

