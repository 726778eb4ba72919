import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { parseOffset } from './offsets.js';
import { readPageSize } from './pageSizes.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { fingerprintOf, signPageToken, verifyPageToken } from './signedPageToken.js';
import { renderUpdate, resolveUpdateFormat } from './updates.js';
import { isPlainObject } from './values.js';
import type { Update } from './wire.js';
import type { GetUpdatesPageRequest, JsGetUpdatesPageResponse } from './wireReads.js';

/**
 * One page of updates. The token carries where the next page starts and, for a closed or
 * descending walk, the upper bound fixed by the first page; an ascending walk without an end always
 * gets a token, so a client can poll it to follow the ledger.
 */
export function updatesPage(ctx: LedgerContext, req: GetUpdatesPageRequest): Result<JsGetUpdatesPageResponse, LedgerError> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  if (req.updateFormat === undefined || req.updateFormat === null) {
    return fail('MISSING_FIELD', 'The submitted request is missing a mandatory field: update_format', { context: { field_name: 'update_format' } });
  }
  const uq = resolveUpdateFormat(ctx, req.updateFormat);
  if (!uq.ok) return uq;
  const size = readPageSize(req.maxPageSize);
  if (!size.ok) return size;
  const b = parseOffset(req.beginOffsetExclusive, 'begin_offset_exclusive', false);
  if (!b.ok) return b;
  const e = parseOffset(req.endOffsetInclusive, 'end_offset_inclusive', false);
  if (!e.ok) return e;
  if (req.descendingOrder !== undefined && typeof req.descendingOrder !== 'boolean') return fail('INVALID_ARGUMENT', 'descending_order must be a boolean');
  const descending = req.descendingOrder === true;
  const { store } = ctx;
  const begin = b.value ?? 0;
  const end = e.value;
  if (begin > store.ledgerEnd) return afterEnd('begin_offset_exclusive', begin, store.ledgerEnd);
  if (end !== undefined && end > store.ledgerEnd) return afterEnd('end_offset_inclusive', end, store.ledgerEnd);
  if (end !== undefined && begin > end) {
    return fail('OFFSET_OUT_OF_RANGE', `Begin offset ${begin} is after end offset ${end}`, { context: { begin: String(begin), end: String(end) } });
  }
  if (begin > 0 && begin < store.prunedUpTo) return pruned(begin, store.prunedUpTo);
  const request = fingerprintOf({ begin, end, format: req.updateFormat, descending });

  // The page covers (low, high]: ascending moves low up, descending moves high down.
  let low = Math.max(begin, store.prunedUpTo);
  let high = end ?? store.ledgerEnd;
  if (req.pageToken !== undefined && req.pageToken !== '') {
    const t = verifyPageToken(ctx.config.blobKey, req.pageToken);
    if (!t.ok) return t;
    const { k, f, low: tLow, high: tHigh } = t.value;
    if (k !== 'updates' || typeof tLow !== 'number' || (typeof tHigh !== 'number' && tHigh !== null)) {
      return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: page_token is not an updates page token', { context: { field_name: 'page_token' } });
    }
    if (f !== request) {
      return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: page_token was issued for a different begin_offset_exclusive, end_offset_inclusive, update_format or descending_order', {
        context: { field_name: 'page_token' },
      });
    }
    low = tLow;
    high = tHigh ?? store.ledgerEnd;
    if (low < store.prunedUpTo) return pruned(low, store.prunedUpTo);
  }

  const updates: { update: Update }[] = [];
  if (!descending) {
    let last = low;
    for (const entry of store.entries(low, high)) {
      const update = renderUpdate(ctx, entry, uq.value);
      if (!update) continue;
      updates.push({ update });
      last = entry.offset;
      if (updates.length === size.value) break;
    }
    const full = updates.length === size.value && last < high;
    const highest = full ? last : high;
    // Ascending without an end: always a token, to poll for what commits next.
    const next = full || end === undefined ? signPageToken(ctx.config.blobKey, { k: 'updates', f: request, low: highest, high: end === undefined ? null : high }) : undefined;
    return ok({ updates, lowestPageOffsetExclusive: low, highestPageOffsetInclusive: highest, ...(next === undefined ? {} : { nextPageToken: next }) });
  }
  let lowest = low;
  for (let o = high; o > low; o--) {
    const entry = store.entryAt(o);
    const update = entry && renderUpdate(ctx, entry, uq.value);
    if (!update) continue;
    updates.push({ update });
    if (updates.length === size.value) {
      lowest = o - 1;
      break;
    }
  }
  const next = lowest > low ? signPageToken(ctx.config.blobKey, { k: 'updates', f: request, low, high: lowest }) : undefined;
  return ok({ updates, lowestPageOffsetExclusive: lowest, highestPageOffsetInclusive: high, ...(next === undefined ? {} : { nextPageToken: next }) });
}

function afterEnd(field: string, offset: number, ledgerEnd: number): Result<never, LedgerError> {
  return fail('OFFSET_AFTER_LEDGER_END', `Requested ${field} (${offset}) is after the ledger end (${ledgerEnd})`, { context: { offset: String(offset), ledger_end: String(ledgerEnd) } });
}

function pruned(offset: number, prunedUpTo: number): Result<never, LedgerError> {
  return fail('PARTICIPANT_PRUNED_DATA_ACCESSED', `Updates page request from ${offset} precedes pruned offset ${prunedUpTo}`, { context: { earliest_offset: String(prunedUpTo) } });
}
