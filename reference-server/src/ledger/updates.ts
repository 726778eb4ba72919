import type { LogEntry } from '../store/LogEntry.js';
import { eventQueryOf } from './acs.js';
import { toTimestamp } from './clock.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { EventQuery } from './filters.js';
import { queryParties, resolveEventFormat } from './filters.js';
import { parseOffset } from './offsets.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import type { PartyInterest, PassEnd } from './tail.js';
import { checkpointAtEnd } from './tail.js';
import { isPlainObject } from './values.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse, OffsetCheckpoint, TransactionShape, Update, UpdateFormat } from './wire.js';

/** An UpdateFormat resolved: which kinds of update, seen by whom. */
export interface UpdateQuery {
  readonly transactions: { readonly q: EventQuery; readonly shape: TransactionShape } | undefined;
  readonly reassignments: EventQuery | undefined;
  /** Parties whose topology events are wanted; `null` = all parties. */
  readonly topology: ReadonlySet<string> | null | undefined;
}

const SHAPES: readonly TransactionShape[] = ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'];

export function resolveUpdateFormat(ctx: LedgerContext, format: UpdateFormat, where = 'update_format'): Result<UpdateQuery, LedgerError> {
  if (!isPlainObject(format)) return fail('INVALID_ARGUMENT', `${where} must be an object`);
  let transactions: UpdateQuery['transactions'];
  if (format.includeTransactions !== undefined && format.includeTransactions !== null) {
    const tf = format.includeTransactions;
    if (!isPlainObject(tf) || !isPlainObject(tf.eventFormat)) return fail('MISSING_FIELD', `The submitted request is missing a mandatory field: ${where}.include_transactions.event_format`);
    if (!SHAPES.includes(tf.transactionShape as TransactionShape)) {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${where}.include_transactions.transaction_shape must be TRANSACTION_SHAPE_ACS_DELTA or TRANSACTION_SHAPE_LEDGER_EFFECTS`);
    }
    const q = resolveEventFormat(ctx.catalogue, tf.eventFormat, undefined, `${where}.include_transactions.event_format`);
    if (!q.ok) return q;
    transactions = { q: q.value, shape: tf.transactionShape as TransactionShape };
  }
  let reassignments: EventQuery | undefined;
  if (format.includeReassignments !== undefined && format.includeReassignments !== null) {
    const q = resolveEventFormat(ctx.catalogue, format.includeReassignments, undefined, `${where}.include_reassignments`);
    if (!q.ok) return q;
    reassignments = q.value;
  }
  let topology: UpdateQuery['topology'];
  const tp = format.includeTopologyEvents;
  if (tp !== undefined && tp !== null) {
    if (!isPlainObject(tp)) return fail('INVALID_ARGUMENT', `${where}.include_topology_events must be an object`);
    const pa = tp.includeParticipantAuthorizationEvents;
    if (pa !== undefined && pa !== null) {
      const parties = (pa as { parties?: unknown }).parties ?? [];
      if (!Array.isArray(parties) || parties.some((p) => typeof p !== 'string' || !isValidPartyId(p))) {
        return fail('INVALID_ARGUMENT', `${where}.include_topology_events.include_participant_authorization_events.parties must be party ids`);
      }
      topology = parties.length === 0 ? null : new Set(parties as string[]);
    }
  }
  return ok({ transactions, reassignments, topology });
}

/** A GetUpdatesRequest's format, current or legacy (legacy: ACS delta + reassignments + topology of its parties). */
export function updateQueryOf(ctx: LedgerContext, req: GetUpdatesRequest): Result<UpdateQuery, LedgerError> {
  if (req.updateFormat !== undefined && req.updateFormat !== null) {
    // verbose: false is the protobuf default, indistinguishable from unset on the participant (wallet-sdk sends it with update_format).
    if (req.filter !== undefined || (req.verbose !== undefined && req.verbose !== false)) {
      return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Both filter/verbose and update_format is specified. Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.');
    }
    return resolveUpdateFormat(ctx, req.updateFormat);
  }
  if (req.filter === undefined) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format.');
  }
  const q = eventQueryOf(ctx, { filter: req.filter, verbose: req.verbose }, 'filter');
  if (!q.ok) return q;
  const parties = queryParties(q.value);
  return ok({
    transactions: { q: q.value, shape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    reassignments: q.value,
    topology: parties === undefined ? null : new Set(parties),
  });
}

/**
 * The parties whose commits can show in a stream under this query ('all' for a filter on any
 * party). Topology events wake every stream (see `partiesTouchedBy`), so they need no entry here.
 */
export function updateInterest(uq: UpdateQuery): PartyInterest {
  const parties = new Set<string>();
  for (const q of [uq.transactions?.q, uq.reassignments]) {
    if (q === undefined) continue;
    const of = queryParties(q);
    if (of === undefined) return 'all';
    for (const p of of) parties.add(p);
  }
  return parties;
}

/** The update an entry becomes under a query, or undefined when the query does not see it. */
export function renderUpdate(ctx: LedgerContext, e: LogEntry, uq: UpdateQuery): Update | undefined {
  switch (e.kind) {
    case 'transaction': {
      if (!uq.transactions) return undefined;
      const tx = ctx.renderer.transaction(e, uq.transactions.q, uq.transactions.shape);
      return tx.events.length ? { Transaction: { value: tx } } : undefined;
    }
    case 'reassignment': {
      if (!uq.reassignments) return undefined;
      const r = ctx.renderer.reassignment(e, uq.reassignments);
      return r ? { Reassignment: { value: r } } : undefined;
    }
    case 'topology':
      if (uq.topology === undefined || (uq.topology !== null && !uq.topology.has(e.party))) return undefined;
      return { TopologyTransaction: { value: ctx.renderer.topology(e) } };
    case 'rejection':
      return undefined;
  }
}

export function checkpointAt(ctx: LedgerContext, offset: number, now: number): OffsetCheckpoint {
  const e = ctx.store.entryAt(offset);
  const sync = ctx.renderer.synchronizerId(e?.synchronizer ?? 0);
  return { offset, synchronizerTimes: [{ synchronizerId: sync, recordTime: toTimestamp(e?.recordTime ?? now) }] };
}

/** Validates the offsets of a range request against ledger end and pruning. */
export function validateRange(
  ctx: LedgerContext,
  beginRaw: unknown,
  endRaw: unknown,
  what: string,
): Result<{ begin: number; end: number | undefined }, LedgerError> {
  const b = parseOffset(beginRaw, 'begin_exclusive', false);
  if (!b.ok) return b;
  const e = parseOffset(endRaw, 'end_inclusive', false);
  if (!e.ok) return e;
  const begin = b.value ?? 0;
  const end = e.value;
  const { ledgerEnd, prunedUpTo } = ctx.store;
  if (begin > ledgerEnd) {
    return fail('OFFSET_AFTER_LEDGER_END', `Begin offset (${begin}) is after ledger end (${ledgerEnd})`, {
      context: { offset: String(begin), ledger_end: String(ledgerEnd) },
    });
  }
  if (end !== undefined && end > ledgerEnd) {
    return fail('OFFSET_AFTER_LEDGER_END', `End offset (${end}) is after ledger end (${ledgerEnd})`, {
      context: { offset: String(end), ledger_end: String(ledgerEnd) },
    });
  }
  if (end !== undefined && begin > end) {
    return fail('OFFSET_OUT_OF_RANGE', `Begin offset ${begin} is after end offset ${end}`, { context: { begin: String(begin), end: String(end) } });
  }
  if (begin < prunedUpTo) {
    return fail('PARTICIPANT_PRUNED_DATA_ACCESSED', `${what} request from ${begin} precedes pruned offset ${prunedUpTo}`, {
      context: { earliest_offset: String(prunedUpTo) },
    });
  }
  return ok({ begin, end });
}

/**
 * Updates for fromExclusive < offset <= toInclusive, then an OffsetCheckpoint at toInclusive
 * if the last update shown was before it (where `end` lets one be sent), so a client learns how
 * far it has read.
 */
export function updatesRange(ctx: LedgerContext, uq: UpdateQuery, fromExclusive: number, toInclusive: number, now: () => number, end: PassEnd = checkpointAtEnd()): Generator<JsGetUpdatesResponse> {
  return updatesOf(ctx, uq, ctx.store.entries(fromExclusive, toInclusive), fromExclusive, toInclusive, now, end);
}

/** Like `updatesRange`, reading only the commits at `offsets` (those that may concern the query). */
export function updatesAt(ctx: LedgerContext, uq: UpdateQuery, offsets: readonly number[], fromExclusive: number, toInclusive: number, now: () => number, end: PassEnd): Generator<JsGetUpdatesResponse> {
  return updatesOf(ctx, uq, entriesAt(ctx, offsets), fromExclusive, toInclusive, now, end);
}

/** The entries at these offsets, skipping any pruned meanwhile. */
export function* entriesAt(ctx: LedgerContext, offsets: readonly number[]): Generator<LogEntry> {
  for (const offset of offsets) {
    const e = ctx.store.entryAt(offset);
    if (e) yield e;
  }
}

function* updatesOf(ctx: LedgerContext, uq: UpdateQuery, entries: Iterable<LogEntry>, fromExclusive: number, toInclusive: number, now: () => number, end: PassEnd): Generator<JsGetUpdatesResponse> {
  let last = fromExclusive;
  for (const e of entries) {
    const update = renderUpdate(ctx, e, uq);
    if (!update) continue;
    last = e.offset;
    yield { update };
  }
  if (last < toInclusive) {
    if (end.due) yield { update: { OffsetCheckpoint: { value: checkpointAt(ctx, toInclusive, now()) } } };
    else end.owed = true;
  }
}

/** Descending order (3.5): newest first, no checkpoints. */
export function* updatesDescending(ctx: LedgerContext, uq: UpdateQuery, fromExclusive: number, toInclusive: number): Generator<JsGetUpdatesResponse> {
  for (let o = toInclusive; o > Math.max(fromExclusive, ctx.store.prunedUpTo); o--) {
    const e = ctx.store.entryAt(o);
    const update = e && renderUpdate(ctx, e, uq);
    if (update) yield { update };
  }
}
