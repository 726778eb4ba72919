import type { ActiveScope } from '../store/LedgerStore.js';
import type { StoredContract } from '../store/StoredContract.js';
import type { LedgerContext } from './context.js';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { EventQuery, Match, ResolvedFilter } from './filters.js';
import { matchEvent, resolveEventFormat } from './filters.js';
import { parseOffset } from './offsets.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { isPlainObject } from './values.js';
import type { GetActiveContractsRequest, JsGetActiveContractsResponse } from './wire.js';

export const BOTH_FORMATS =
  'Both filter/verbose and event_format is specified. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.';
export const NO_FORMAT = 'Either filter/verbose or event_format is required. Please use either backwards compatible arguments (filter and verbose) or event_format.';

/** Reads the event format of a request in either its current or its legacy form. */
export function eventQueryOf(
  ctx: LedgerContext,
  req: { eventFormat?: unknown; filter?: unknown; verbose?: unknown },
  formatField: string,
): Result<EventQuery, LedgerError> {
  if (req.verbose !== undefined && typeof req.verbose !== 'boolean') return fail('INVALID_ARGUMENT', 'verbose must be a boolean');
  // Canton cannot tell `verbose: false` from an absent verbose (proto3), so only `true` counts as legacy.
  const legacy = req.filter !== undefined || req.verbose === true;
  if (req.eventFormat !== undefined && legacy) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${BOTH_FORMATS}`);
  if (req.eventFormat !== undefined) return resolveEventFormat(ctx.catalogue, req.eventFormat as object, undefined, formatField);
  if (req.filter === undefined) return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${NO_FORMAT}`);
  return resolveEventFormat(ctx.catalogue, req.filter as object, req.verbose as boolean | undefined, 'filter');
}

/**
 * The active contract set at an offset, as a lazy iterable: nothing is rendered before the
 * consumer asks, so 100k contracts stream without building a 100k array of events.
 */
export function activeContracts(ctx: LedgerContext, req: GetActiveContractsRequest): Result<Iterable<JsGetActiveContractsResponse>, LedgerError> {
  if (!isPlainObject(req)) return fail('INVALID_ARGUMENT', 'The request must be an object');
  const at = parseOffset(req.activeAtOffset, 'active_at_offset', true);
  if (!at.ok) return at;
  const offset = at.value as number;
  const q = eventQueryOf(ctx, req, 'event_format');
  if (!q.ok) return q;
  const { store } = ctx;
  if (offset > store.ledgerEnd) {
    return fail('OFFSET_AFTER_LEDGER_END', `Requested active_at_offset (${offset}) is after the ledger end (${store.ledgerEnd})`, {
      context: { offset: String(offset), ledger_end: String(store.ledgerEnd) },
    });
  }
  if (offset === 0) return ok([]);
  if (offset < store.prunedUpTo) {
    return fail('PARTICIPANT_PRUNED_DATA_ACCESSED', `Active contracts request at active_at_offset ${offset} precedes pruned offset ${store.prunedUpTo}`, {
      context: { earliest_offset: String(store.prunedUpTo) },
    });
  }
  return ok(streamAcs(ctx, q.value, offset));
}

function* streamAcs(ctx: LedgerContext, q: EventQuery, at: number): Generator<JsGetActiveContractsResponse> {
  for (const v of visibleAt(ctx, q, at)) yield acsEntry(ctx, v, at);
}

/** A contract active at an offset, with what the query matched on it. */
export interface VisibleContract {
  readonly contract: StoredContract;
  readonly hit: { readonly witnesses: readonly string[]; readonly match: Match };
}

/** The contracts `q` sees in the active contract set at `at`, unrendered (pages sort them first). */
export function* visibleAt(ctx: LedgerContext, q: EventQuery, at: number): Generator<VisibleContract> {
  for (const c of candidates(ctx, q, at)) {
    if (!c.activeAt(at)) continue;
    const hit = matchEvent(q, c.stakeholders, c.template);
    if (hit) yield { contract: c, hit };
  }
}

/** One element of the active contract set as the wire carries it. */
export function acsEntry(ctx: LedgerContext, { contract: c, hit }: VisibleContract, at: number): JsGetActiveContractsResponse {
  const { renderer } = ctx;
  const loc = c.locationAt(at);
  const createdEvent = renderer.createdEvent(c, hit.witnesses, hit.match);
  if (loc.inFlight) {
    return {
      ...(ctx.config.shapes.emptyDefaults ? { workflowId: '' } : {}),
      contractEntry: {
        JsIncompleteUnassigned: { createdEvent, unassignedEvent: renderer.unassignedEvent(c, loc.inFlight, hit.witnesses) },
      },
    };
  }
  return {
    ...(ctx.config.shapes.emptyDefaults ? { workflowId: '' } : {}),
    contractEntry: {
      JsActiveContract: { createdEvent, synchronizerId: renderer.synchronizerId(loc.synchronizer), reassignmentCounter: loc.counter },
    },
  };
}

/**
 * The contracts worth looking at, from the indexes: per party or per template, whichever is
 * smaller, plus (for a past offset) the contracts archived since.
 */
function* candidates(ctx: LedgerContext, q: EventQuery, at: number): Generator<StoredContract> {
  const { store } = ctx;
  const scopes: ActiveScope[] = [];
  const templateScopes = (f: ResolvedFilter) => [...f.templates.keys()].map((template): ActiveScope => ({ kind: 'template', template }));
  let all = false;
  if (q.anyParty) {
    if (q.anyParty.wildcard || q.anyParty.interfaces.size > 0) all = true;
    else scopes.push(...templateScopes(q.anyParty));
  }
  if (!all) {
    for (const [party, f] of q.byParty) {
      const byParty: ActiveScope = { kind: 'party', party };
      if (f.wildcard || f.interfaces.size > 0) {
        scopes.push(byParty);
        continue;
      }
      const byTemplate = templateScopes(f);
      const templateTotal = byTemplate.reduce((n, s) => n + store.activeCount(s), 0);
      if (store.activeCount(byParty) <= templateTotal) scopes.push(byParty);
      else scopes.push(...byTemplate);
    }
  }
  const lists = all ? [store.activeSnapshot({ kind: 'all' })] : scopes.map((s) => store.activeSnapshot(s));
  if (at < store.ledgerEnd) lists.push(store.archivedAfter(at));
  if (lists.length === 1) {
    yield* lists[0] as StoredContract[];
    return;
  }
  const seen = new Set<StoredContract>();
  for (const list of lists) {
    for (const c of list) {
      if (seen.has(c)) continue;
      seen.add(c);
      yield c;
    }
  }
}
