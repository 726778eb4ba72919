import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { acsEntry, visibleAt } from './acs.js';
import type { EventQuery } from './filters.js';
import { matchEvent, resolveEventFormat } from './filters.js';
import type { StoredContract } from '../store/StoredContract.js';
import { parseOffset } from './offsets.js';
import { readPageSize } from './pageSizes.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { fingerprintOf, signPageToken, verifyPageToken } from './signedPageToken.js';
import { isPlainObject } from './values.js';
import type { GetActiveContractsPageRequest, JsGetActiveContractsPageResponse } from './wireReads.js';

/** Where a page ends: contracts are ordered by (creation offset, node id, contract id), stable at a fixed offset. */
type Position = readonly [offset: number, nodeId: number, contractId: string];

const positionOf = (c: StoredContract): Position => [c.createdOffset, c.createdNodeId, c.contractId];

function compare(a: Position, b: Position): number {
  return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

/**
 * One page of the active contract set at an offset. The first page pins the offset (the request's,
 * or the ledger end); its token carries that offset, the event format's fingerprint and the last
 * position served, so later pages read the same snapshot however far the ledger has moved since,
 * until pruning passes the offset.
 */
export function activeContractsPage(ctx: LedgerContext, req: GetActiveContractsPageRequest): Result<JsGetActiveContractsPageResponse, LedgerError> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  if (req.eventFormat === undefined || req.eventFormat === null) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: event_format', { context: { field_name: 'event_format' } });
  }
  const q = resolveEventFormat(ctx.catalogue, req.eventFormat, undefined, 'event_format');
  if (!q.ok) return q;
  const size = readPageSize(req.maxPageSize);
  if (!size.ok) return size;
  const requested = parseOffset(req.activeAtOffset, 'active_at_offset', false);
  if (!requested.ok) return requested;
  const format = fingerprintOf(req.eventFormat);
  const { store } = ctx;

  let at: number;
  let after: Position | undefined;
  if (req.pageToken !== undefined && req.pageToken !== '') {
    const token = readToken(ctx, req.pageToken);
    if (!token.ok) return token;
    if (token.value.format !== format) {
      return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: page_token was issued for a different event_format', { context: { field_name: 'page_token' } });
    }
    if (requested.value !== undefined && requested.value !== token.value.at) {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: page_token was issued for active_at_offset ${token.value.at}, not ${requested.value}`, {
        context: { field_name: 'page_token' },
      });
    }
    at = token.value.at;
    after = token.value.after;
  } else {
    at = requested.value ?? store.ledgerEnd;
  }
  if (at > store.ledgerEnd) {
    return fail('OFFSET_AFTER_LEDGER_END', `Requested active_at_offset (${at}) is after the ledger end (${store.ledgerEnd})`, {
      context: { offset: String(at), ledger_end: String(store.ledgerEnd) },
    });
  }
  if (at === 0) return ok({ activeContracts: [], activeAtOffset: 0 });
  if (at < store.prunedUpTo) {
    return fail('PARTICIPANT_PRUNED_DATA_ACCESSED', `Active contracts page at active_at_offset ${at} precedes pruned offset ${store.prunedUpTo}`, {
      context: { earliest_offset: String(store.prunedUpTo) },
    });
  }

  const sorted = snapshotOf(ctx, q.value, at, `${at}|${format}`);
  const start = after === undefined ? 0 : firstAfter(sorted, after);
  const page = sorted.slice(start, start + size.value);
  const last = page[page.length - 1];
  const more = start + page.length < sorted.length && last !== undefined;
  const entries = [];
  for (const contract of page) {
    const hit = matchEvent(q.value, contract.stakeholders, contract.template);
    if (hit) entries.push(acsEntry(ctx, { contract, hit }, at));
  }
  return ok({
    activeContracts: entries,
    activeAtOffset: at,
    ...(more ? { nextPageToken: signPageToken(ctx.config.blobKey, { k: 'acs', at, f: format, p: positionOf(last) }) } : {}),
  });
}

/**
 * The visible contracts at an offset in page order. A walk asks for the same snapshot once per
 * page, so the last few are kept per store (a snapshot at a fixed offset never changes; pruning
 * past it is refused before the cache is read): page N costs a binary search and N renders
 * instead of a scan and sort of the whole set. Only contract references are kept (8 bytes each);
 * what the format matched is worked out again for the page's contracts.
 */
const SNAPSHOTS_KEPT = 8;
const snapshots = new WeakMap<object, Map<string, readonly StoredContract[]>>();

function snapshotOf(ctx: LedgerContext, q: EventQuery, at: number, key: string): readonly StoredContract[] {
  let cache = snapshots.get(ctx.store);
  if (!cache) snapshots.set(ctx.store, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const list = Array.from(visibleAt(ctx, q, at), (v) => v.contract).sort(compareContracts);
  cache.set(key, list);
  if (cache.size > SNAPSHOTS_KEPT) cache.delete(cache.keys().next().value as string);
  return list;
}

function compareContracts(a: StoredContract, b: StoredContract): number {
  return a.createdOffset - b.createdOffset || a.createdNodeId - b.createdNodeId || (a.contractId < b.contractId ? -1 : a.contractId > b.contractId ? 1 : 0);
}

/** Index of the first contract strictly after `p`. */
function firstAfter(list: readonly StoredContract[], p: Position): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(positionOf(list[mid] as StoredContract), p) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function readToken(ctx: LedgerContext, raw: unknown): Result<{ at: number; format: string; after: Position }, LedgerError> {
  const t = verifyPageToken(ctx.config.blobKey, raw);
  if (!t.ok) return t;
  const { k, at, f, p } = t.value;
  const position = Array.isArray(p) && p.length === 3 && typeof p[0] === 'number' && typeof p[1] === 'number' && typeof p[2] === 'string' ? (p as unknown as Position) : undefined;
  if (k !== 'acs' || typeof at !== 'number' || typeof f !== 'string' || position === undefined) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: page_token is not an active contracts page token', { context: { field_name: 'page_token' } });
  }
  return ok({ at, format: f, after: position });
}
