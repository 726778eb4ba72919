import type { Exchange } from '../target/exchange.js';
import { bodyOf, expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { completionsOf, createContract, freshParty, listAfter, notBeforePruned, offsetOf, eventFormat, jsCommands, ledgerEnd, readActiveContracts, readParty, streamRetryingStale, submitAndWait, createCommand, suiteParty, userIdOf, updatesRequest } from './support/ledger.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import { LedgerReadOp } from './ledgerReadOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Bounds the JSON Ledger API promises and clients size their reads by: `limit` and page sizes
 * are upper bounds, a list walked page by page is the whole list, a completion stream starts
 * strictly after `beginExclusive`, a bounded WebSocket stream stops at its end and closes, and a
 * WebSocket snapshot is the HTTP answer at the same offset. All of them also run read-only,
 * over whatever the target holds; with writes they first add data of their own.
 */
const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });
const UPSTREAM_35 = `${UPSTREAM_B} (Canton 3.5)`;
const MAX_PAGES = 500;

/** A JSON array answer of a list endpoint. */
async function listOf(ctx: CheckContext, path: string, query: Record<string, number>, json: Json, what: string, operationId: string): Promise<{ e: Exchange; items: unknown[] }> {
  const e = await ctx.http.request('ledger', { method: 'POST', path, query: { stream_idle_timeout_ms: 500, ...query }, json, operationId });
  expectStatus(ctx, e, 200, what);
  const items = bodyOf(ctx, e, what);
  return Array.isArray(items) ? { e, items } : ctx.fail(`${what} must answer a JSON array`, e);
}

/** Three contracts of the suite's own when the profile may write, so every list has more than one element. */
async function ownData(ctx: CheckContext): Promise<void> {
  if (!ctx.profile.writes || !(ctx.profile.ledger?.allocateParties || ctx.profile.ledger?.party)) return;
  const party = await suiteParty(ctx);
  for (let i = 0; i < 3; i++) await createContract(ctx, party);
}

interface Walk {
  readonly items: unknown[];
  readonly pages: number;
  readonly last: Exchange;
  readonly first: Json;
}

/**
 * Follows nextPageToken from the first page; every page must hold at most `size` items. `limit`
 * pages at most: the walk stops there (complete: false) when only the bound is judged.
 */
async function walk(ctx: CheckContext, what: string, size: number, send: (token: string | undefined) => Promise<Exchange>, itemsOf: (b: Json) => unknown, limit = MAX_PAGES): Promise<Walk & { complete: boolean }> {
  const items: unknown[] = [];
  let token: string | undefined;
  let first: Json | undefined;
  let last: Exchange | undefined;
  let previous: { token: string | undefined; page: unknown[] } | undefined;
  for (let pages = 1; pages <= limit; pages++) {
    last = await send(token);
    expectStatus(ctx, last, 200, `${what}, page ${pages}`);
    const b = objectBody(ctx, last, `${what}, page ${pages}`);
    first ??= b;
    // Every list here is a repeated field, which proto3's JSON leaves out when empty (a last page past the end).
    const page = itemsOf(b) ?? [];
    if (!Array.isArray(page)) return ctx.fail(`${what}, page ${pages}: the list in the answer is not a list`, last);
    if (page.length > size) ctx.fail(`${what}, page ${pages} holds ${page.length} elements; the page size asked for is ${size}`, last);
    // A page that answers the token it was asked with, whose token then serves the same elements
    // again, is a loop: the walk never ends, which would otherwise leave it unjudged.
    if (previous !== undefined && token !== undefined && previous.token === token && page.length > 0 && jsonEqual(previous.page, page)) {
      ctx.fail(`${what}: page ${pages - 1} answers as its nextPageToken the token it was asked with, and that token serves the same ${page.length} element(s) again: a client following nextPageToken never reaches the end of the list`, last);
    }
    previous = { token, page };
    items.push(...page);
    token = typeof b.nextPageToken === 'string' && b.nextPageToken !== '' ? b.nextPageToken : undefined;
    if (token === undefined) return { items, pages, last, first, complete: true };
  }
  return { items, pages: limit, last: last!, first: first!, complete: false };
}

const partyPages = (ctx: CheckContext, size: number) => (token: string | undefined) => ctx.http.request('ledger', { method: 'GET', path: '/v2/parties', query: { pageSize: size, ...(token ? { pageToken: token } : {}) }, operationId: LedgerOp.listParties });
const userPages = (ctx: CheckContext, size: number) => (token: string | undefined) => ctx.http.request('ledger', { method: 'GET', path: '/v2/users', query: { pageSize: size, ...(token ? { pageToken: token } : {}) }, operationId: LedgerOp.listUsers });
const partyIds = (items: readonly unknown[]) => items.map((p) => (isObject(p) ? String(p.party) : '?'));
const userIds = (items: readonly unknown[]) => items.map((u) => (isObject(u) ? String(u.id) : '?'));
const contractIdsOf = (items: readonly unknown[]) =>
  items.map((i) => (isObject(i) && isObject(i.contractEntry) ? (Object.values(i.contractEntry)[0] as unknown) : undefined)).map((x) => (isObject(x) && isObject(x.createdEvent) ? String(x.createdEvent.contractId) : '?'));

/**
 * Walks in order, with different page sizes, over a list that only grows: each lists every
 * element once, and none loses an element an earlier walk listed.
 */
function noneLost(ctx: CheckContext, what: string, walks: readonly { size: number; ids: string[]; last: Exchange }[]): void {
  walks.forEach((w, i) => {
    const dup = w.ids.find((id, j) => w.ids.indexOf(id) !== j);
    if (dup !== undefined) ctx.fail(`${what} walked with pages of ${w.size}: ${dup} is listed twice`, w.last);
    const earlier = walks[i - 1];
    if (earlier === undefined) return;
    const lost = earlier.ids.filter((x) => !w.ids.includes(x));
    if (lost.length > 0) ctx.fail(`${what}: walked with pages of ${earlier.size} it lists ${earlier.ids.length}, then with pages of ${w.size} ${w.ids.length}, without ${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ` and ${lost.length - 3} more` : ''}`, w.last);
  });
}

const noWebSocket = (ctx: CheckContext) => ctx.profile.ledger?.websocket === false && ctx.skip(`profile '${ctx.profile.name}' says the target has no WebSocket (ledger.websocket: false)`);

export const ledgerBoundChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.lists.size-bounds',
    title: '`limit` and page sizes are bounds: lists answer at most `limit` elements (the first ones), every page at most maxPageSize / pageSize',
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: limit on the list endpoints (maximum number of elements to return), GetUpdatesPageRequest.max_page_size, GetActiveContractsPageRequest.max_page_size, ListKnownPartiesRequest.page_size, ListUsersRequest.page_size`,
    readsTargetState: 'it reads bounded slices of the whole update history, parties and users, whose elements depend on everything the target did before (checks not replayed, other clients); it judges the bounds itself',
    async run(ctx) {
      await ownData(ctx);
      const party = await readParty(ctx);
      const end = (await ledgerEnd(ctx)).offset;
      const from = await notBeforePruned(ctx, Math.max(0, end - 8));
      // ?limit on the lists: at most that many, and a prefix of the same list with a larger limit.
      const window = updatesRequest(party, from, end);
      const one = await listOf(ctx, '/v2/updates', { limit: 1 }, window, 'updates with limit 1', LedgerOp.updates);
      const two = await listOf(ctx, '/v2/updates', { limit: 2 }, window, 'updates with limit 2', LedgerOp.updates);
      if (one.items.length > 1) ctx.fail(`POST /v2/updates?limit=1 answered ${one.items.length} elements`, one.e);
      if (two.items.length > 2) ctx.fail(`POST /v2/updates?limit=2 answered ${two.items.length} elements`, two.e);
      if (two.items.length > 0 && one.items.length === 0) ctx.fail('limit 2 found updates, limit 1 none', one.e);
      if (!jsonEqual(one.items, two.items.slice(0, one.items.length))) ctx.fail(`limit 1 answered another first update than limit 2, at ${firstDifference(one.items, two.items.slice(0, 1))}`, one.e);
      const acs = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', query: { limit: 1 }, json: { activeAtOffset: end, eventFormat: eventFormat(party) }, operationId: LedgerOp.activeContracts });
      if (acs.response?.status === 403 && party === undefined) ctx.skip('reading as any party is forbidden to the run user (give ledger.party, or allow writes)');
      expectStatus(ctx, acs, 200, 'active contracts with limit 1');
      const acsItems = bodyOf(ctx, acs, 'active contracts');
      if (!Array.isArray(acsItems) || acsItems.length > 1) ctx.fail(`POST /v2/state/active-contracts?limit=1 answered ${Array.isArray(acsItems) ? acsItems.length : 'no list of'} elements`, acs);
      const userId = userIdOf(ctx);
      if (party !== undefined && userId !== undefined) {
        const c = await listOf(ctx, '/v2/commands/completions', { limit: 1 }, { userId, parties: [party], beginExclusive: from }, 'completions with limit 1', LedgerOp.completions);
        if (c.items.length > 1) ctx.fail(`POST /v2/commands/completions?limit=1 answered ${c.items.length} elements`, c.e);
      }
      // Page sizes: the first pages of every paged read the judged line has (3.4 has neither), each within its size.
      const format = eventFormat(party);
      if (!ctx.lacks(LedgerReadOp.activeContractsPage)) {
        await walk(ctx, 'active-contracts-page with maxPageSize 1', 1, (token) => ctx.http.request('ledger', { method: 'GET', path: '/v2/state/active-contracts-page', json: { eventFormat: format, maxPageSize: 1, ...(token ? { pageToken: token } : {}) } }), (b) => b.activeContracts, 3);
      }
      const updatesPage = { beginOffsetExclusive: from, endOffsetInclusive: end, maxPageSize: 1, updateFormat: window.updateFormat };
      if (!ctx.lacks(LedgerReadOp.updatesPage)) {
        await walk(ctx, 'get-updates-page with maxPageSize 1', 1, (token) => ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/get-updates-page', json: { ...updatesPage, ...(token ? { pageToken: token } : {}) } }), (b) => b.updates, 3);
      }
      // Listing parties and users is the participant admin's: a run's user without it reads no page of them.
      const parties = await partyPages(ctx, 1)(undefined);
      if (parties.response?.status !== 403) await walk(ctx, 'GET /v2/parties with pageSize 1', 1, partyPages(ctx, 1), (b) => b.partyDetails, 3);
      const users = await userPages(ctx, 1)(undefined);
      if (users.response?.status !== 403) await walk(ctx, 'GET /v2/users with pageSize 1', 1, userPages(ctx, 1), (b) => b.users, 3);
    },
  }),
  check({
    id: 'ledger.lists.complete-on-every-page',
    title: 'A list walked page by page is the whole list whatever the page size: parties and users (what the suite just made included, nothing an earlier walk listed missing), active contracts and updates (the one-shot list)',
    operationId: LedgerOp.listParties,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: ListKnownParties / ListUsers (page_token, next_page_token), GetActiveContractsPage, GetUpdatesPage: consecutive pages continue the list`,
    readsTargetState: 'it walks whole party and user lists page by page; pages of a target that holds more than the run wrote hold other elements, and the check judges completeness itself',
    async run(ctx) {
      await ownData(ctx);
      const party = await readParty(ctx);
      // Parties: the suite's own party on every walk; nothing a walk listed is missing from a later one
      // (parties are never removed, while other clients may allocate meanwhile).
      // Small pages cross many page boundaries; on a participant with many parties they grow so a
      // walk still ends within MAX_PAGES (an unfinished walk proves nothing about what it missed).
      const partyWalks: { size: number; ids: string[]; last: Exchange }[] = [];
      for (const size of [1000, 2, 3]) {
        const known = partyWalks[0]?.ids.length ?? 0;
        const pageSize = size === 1000 ? size : Math.max(size, Math.ceil((2 * known) / MAX_PAGES) + size - 2);
        const w = await walk(ctx, `GET /v2/parties with pageSize ${pageSize}`, pageSize, partyPages(ctx, pageSize), (b) => b.partyDetails);
        if (!w.complete) continue;
        const ids = partyIds(w.items);
        if (party !== undefined && !ids.includes(party)) ctx.fail(`GET /v2/parties walked with pages of ${pageSize} (${w.pages} pages, ${ids.length} parties) never lists ${party}`, w.last);
        partyWalks.push({ size: pageSize, ids, last: w.last });
      }
      noneLost(ctx, 'GET /v2/parties', partyWalks);
      // Users: a user of the suite's own, created before the walks, on every walk (others may come and go).
      const probe = await userPages(ctx, 1)(undefined);
      if (probe.response?.status !== 403) {
        let own: string | undefined;
        if (ctx.profile.writes) {
          own = ctx.unique('cc-pages').replace(/[^a-zA-Z0-9_-]/g, '-');
          const created = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id: own, isDeactivated: false, identityProviderId: '' }, rights: [] }, operationId: LedgerOp.createUser });
          expectStatus(ctx, created, 200, `creating user ${own}`);
        }
        try {
          let known = 0;
          for (const size of [1000, 2]) {
            const pageSize = size === 1000 ? size : Math.max(size, Math.ceil((2 * known) / MAX_PAGES));
            const w = await walk(ctx, `GET /v2/users with pageSize ${pageSize}`, pageSize, userPages(ctx, pageSize), (b) => b.users);
            if (!w.complete) continue;
            const ids = userIds(w.items);
            known = ids.length;
            const dup = ids.find((id, i) => ids.indexOf(id) !== i);
            if (dup !== undefined) ctx.fail(`GET /v2/users walked with pages of ${pageSize}: ${dup} is listed twice`, w.last);
            if (own !== undefined && !ids.includes(own)) ctx.fail(`GET /v2/users walked with pages of ${pageSize} never lists the user ${own} just created`, w.last);
          }
        } finally {
          if (own !== undefined) await ctx.http.request('ledger', { method: 'DELETE', path: `/v2/users/${encodeURIComponent(own)}` });
        }
      }
      // Active contracts: the walk equals the one-shot set at the first page's offset (on lines that page them).
      if (!ctx.lacks(LedgerReadOp.activeContractsPage)) {
        const format = eventFormat(party);
        const acsPages = await walk(ctx, 'active-contracts-page with maxPageSize 2', 2, (token) => ctx.http.request('ledger', { method: 'GET', path: '/v2/state/active-contracts-page', json: { eventFormat: format, maxPageSize: 2, ...(token ? { pageToken: token } : {}) } }), (b) => b.activeContracts, 100);
        const at = acsPages.first.activeAtOffset;
        if (acsPages.complete && typeof at === 'number') {
          const got = contractIdsOf(acsPages.items);
          const want = contractIdsOf((await readActiveContracts(ctx, { activeAtOffset: at, eventFormat: format }, `active contracts at ${at}`)).entries);
          if (!jsonEqual([...got].sort(), [...want].sort())) ctx.fail(`the active-contracts-page walk (${acsPages.pages} pages of 2) lists ${got.length} contracts, the active contract set at ${at} ${want.length}; only in the set: ${want.filter((x) => !got.includes(x)).slice(0, 3).join(', ') || 'none'}`, acsPages.last);
        }
      }
      // Updates: the walk over the last offsets equals the list of the same range (on lines that page them).
      if (!ctx.lacks(LedgerReadOp.updatesPage)) {
        const end = (await ledgerEnd(ctx)).offset;
        const range = updatesRequest(party, await notBeforePruned(ctx, Math.max(0, end - 6)), end);
        const list = await listOf(ctx, '/v2/updates', {}, range, 'updates', LedgerOp.updates);
        const pages = await walk(ctx, 'get-updates-page with maxPageSize 2', 2, (token) => ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/get-updates-page', json: { beginOffsetExclusive: range.beginExclusive, endOffsetInclusive: end, maxPageSize: 2, updateFormat: range.updateFormat, ...(token ? { pageToken: token } : {}) } }), (b) => b.updates, 20);
        const txOffsets = (items: readonly unknown[]) => items.filter((i) => isObject(i) && isObject(i.update) && isObject(i.update.Transaction)).map(offsetOf);
        const [got, want] = [txOffsets(pages.items), txOffsets(list.items)];
        if (pages.complete && !jsonEqual(got, want)) ctx.fail(`the get-updates-page walk over (${String(range.beginExclusive)}, ${end}] yields transactions at offsets [${got.join(', ')}], the list [${want.join(', ')}]`, pages.last);
      }
    },
  }),
  check({
    id: 'ledger.completions.strictly-after-begin',
    title: 'Completions start strictly after beginExclusive: the completion at that offset is not sent again, the next one is',
    operationId: LedgerOp.completions,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: CompletionStreamRequest.begin_exclusive (completions after this offset; exclusive)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const userId = userIdOf(ctx) ?? ctx.skip(`profile '${ctx.profile.name}' names no ledger.userId to read completions for`);
      const first = await submitAndWait(ctx, jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }), 'the first command');
      const second = await submitAndWait(ctx, jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }), 'the second command');
      const { e, items } = await listAfter(ctx, '/v2/commands/completions', { userId, parties: [party], beginExclusive: first.completionOffset }, {
        what: `completions after ${first.completionOffset}`, operationId: LedgerOp.completions, idleMs: 500,
        enough: (xs) => xs.some((i) => (offsetOf(i) ?? 0) >= second.completionOffset),
      });
      const early = items.map(offsetOf).filter((o): o is number => o !== undefined && o <= first.completionOffset);
      if (early.length > 0) ctx.fail(`completions asked for after offset ${first.completionOffset} include offset(s) ${early.join(', ')}: beginExclusive is exclusive`, e);
      if (!items.some((i) => offsetOf(i) === second.completionOffset)) ctx.fail(`the completion of the next command (offset ${second.completionOffset}) is missing`, e);
    },
  }),
  check({
    id: 'ledger.completions.websocket',
    title: "The completions WebSocket delivers each of the party's completions once, in offset order, with the offset and update its command was answered with, as the HTTP list does, and no other party's",
    operationId: LedgerOp.completions,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: AsyncAPI channel /v2/commands/completions (a CompletionStreamRequest frame, then CompletionStreamResponse elements: one Completion per command, in offset order, after begin_exclusive); CompletionStreamRequest.parties (only commands for which one of the act_as parties is in the set); Completion.act_as (filtered to the requested parties), update_id and offset`,
    requires: { writes: true },
    async run(ctx) {
      noWebSocket(ctx);
      const party = await suiteParty(ctx);
      const userId = userIdOf(ctx) ?? ctx.skip(`profile '${ctx.profile.name}' names no ledger.userId to read completions for`);
      const begin = (await ledgerEnd(ctx)).offset;
      const mine: { commandId: string; offset: number; updateId: string }[] = [];
      // Between them, a command of the same user for another party, whose completion the party's stream leaves out.
      const stranger = ctx.profile.ledger?.allocateParties ? await freshParty(ctx, 'cc-completions-other') : undefined;
      for (let i = 0; i < 3; i++) {
        const body = jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) });
        const s = await submitAndWait(ctx, body, `command ${i + 1} of 3`);
        mine.push({ commandId: String(body.commandId), offset: s.completionOffset, updateId: s.updateId });
        if (i === 0 && stranger !== undefined) await submitAndWait(ctx, jsCommands(ctx, stranger, { CreateCommand: createCommand(ctx, stranger) }), `a command acting as ${stranger}`);
      }
      const request = { userId, parties: [party], beginExclusive: begin };
      const ws = await ctx.http.stream('ledger', '/v2/commands/completions', {
        request, operationId: LedgerOp.completions, idleMs: 2_000, timeoutMs: Math.max(10_000, ctx.timeoutMs),
        until: (messages) => mine.every((m) => completionsOf(messages).some((c) => c.commandId === m.commandId)),
      });
      ctx.setEvidence(ws.exchange);
      if (ws.rejectedStatus !== undefined) return ctx.fail(`the WebSocket upgrade of /v2/commands/completions was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
      const got = completionsOf(ws.messages);
      // Each completion is of a command acting as a requested party, and names only those.
      const foreign = got.find((c) => !Array.isArray(c.actAs) || c.actAs.length === 0 || c.actAs.some((p) => p !== party));
      if (foreign) ctx.fail(`the WebSocket for ${party}'s completions delivered command ${String(foreign.commandId)} acting as ${JSON.stringify(foreign.actAs)}: a completion stream shows only commands acting as one of its parties, and names only those`, ws.exchange);
      for (const m of mine) {
        const seen = got.filter((c) => c.commandId === m.commandId);
        if (seen.length === 0) return ctx.fail(`the WebSocket delivered no completion of command ${m.commandId} (committed at offset ${m.offset}) among ${got.length} after offset ${begin}`, ws.exchange);
        if (seen.length > 1) ctx.fail(`the WebSocket delivered the completion of command ${m.commandId} ${seen.length} times`, ws.exchange);
        const c = seen[0]!;
        if (c.offset !== m.offset || c.updateId !== m.updateId) ctx.fail(`the WebSocket's completion of ${m.commandId} names update ${String(c.updateId)} at offset ${String(c.offset)}; submit-and-wait answered ${m.updateId} at ${m.offset}`, ws.exchange);
      }
      // Offsets only grow: a completion repeated or delivered out of order shows here even when it is another command's.
      const offsets = got.map((c) => c.offset);
      const bad = offsets.findIndex((o, i) => typeof o !== 'number' || o <= begin || (i > 0 && o <= (offsets[i - 1] as number)));
      if (bad >= 0) ctx.fail(`the WebSocket's completions are not strictly after beginExclusive ${begin} and increasing: offsets [${offsets.map(String).join(', ')}] (at element ${bad})`, ws.exchange);
      // The HTTP list of the same request holds the same completions up to the last of ours.
      const last = Math.max(...mine.map((m) => m.offset));
      const { e, items } = await listAfter(ctx, '/v2/commands/completions', request, {
        what: `completions after ${begin}`, operationId: LedgerOp.completions, idleMs: 500,
        enough: (xs) => xs.some((i) => (offsetOf(i) ?? 0) >= last),
      });
      const listed = completionsOf(items).filter((c) => typeof c.offset === 'number' && c.offset <= last).map((c) => `${String(c.commandId)}@${String(c.offset)}`);
      const streamed = got.filter((c) => typeof c.offset === 'number' && c.offset <= last).map((c) => `${String(c.commandId)}@${String(c.offset)}`);
      const listedForeign = completionsOf(items).find((c) => !Array.isArray(c.actAs) || c.actAs.length === 0 || c.actAs.some((p) => p !== party));
      if (listedForeign) ctx.fail(`the HTTP list of ${party}'s completions holds command ${String(listedForeign.commandId)} acting as ${JSON.stringify(listedForeign.actAs)}: a completion stream shows only commands acting as one of its parties, and names only those`, e);
      if (bad < 0 && !jsonEqual(listed, streamed)) ctx.fail(`up to offset ${last} the HTTP list has completions [${listed.join(', ')}], the WebSocket [${streamed.join(', ')}]`, e);
    },
  }),
  check({
    id: 'ledger.updates.websocket-bounded-closes',
    title: 'A WebSocket on /v2/updates with endInclusive sends nothing past that offset, then the server closes it',
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GetUpdatesRequest.end_inclusive (the stream completes once it reaches this offset; absent: it follows the ledger)`,
    async run(ctx) {
      noWebSocket(ctx);
      await ownData(ctx);
      const party = await readParty(ctx);
      let end = (await ledgerEnd(ctx)).offset;
      // Something past the end the stream is bounded by, so a stream that runs on has more to send.
      if (ctx.profile.writes && party !== undefined) await createContract(ctx, party);
      else end -= 1;
      if (end < 1) ctx.skip('the ledger is empty: no bounded range to stream');
      const begin = await notBeforePruned(ctx, Math.max(0, end - 4));
      if (begin >= end) ctx.skip(`the participant has pruned up to offset ${begin}: no bounded range to stream`);
      const ws = await ctx.http.stream('ledger', '/v2/updates', { request: updatesRequest(party, begin, end), operationId: LedgerOp.updates, idleMs: 3000, timeoutMs: Math.max(10_000, ctx.timeoutMs) });
      if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
      const past = ws.messages.map(offsetOf).filter((o): o is number => o !== undefined && o > end);
      if (past.length > 0) ctx.fail(`the stream bounded by endInclusive ${end} sent offset(s) ${past.slice(0, 5).join(', ')}`, ws.exchange);
      if (ws.ended !== 'closed') ctx.fail(`the stream bounded by endInclusive ${end} was not closed by the server after its last element (it ended: ${ws.ended})`, ws.exchange);
      ctx.setEvidence(ws.exchange);
    },
  }),
  check({
    id: 'ledger.acs.websocket-equals-http',
    title: 'The active contract set over the WebSocket equals the HTTP answer at the same activeAtOffset, contract for contract, though the ledger moved on',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: GetActiveContractsRequest.active_at_offset (HTTP list and WebSocket forms of StateService.GetActiveContracts answer the same snapshot)`,
    async run(ctx) {
      noWebSocket(ctx);
      await ownData(ctx);
      const party = await readParty(ctx);
      const at = (await ledgerEnd(ctx)).offset;
      // The ledger moves on after the snapshot offset: both forms must still answer that offset.
      if (ctx.profile.writes && party !== undefined) await createContract(ctx, party);
      const request = { activeAtOffset: at, eventFormat: eventFormat(party, { verbose: true }) };
      const http = await readActiveContracts(ctx, request, `active contracts at ${at}`);
      const ws = await streamRetryingStale(ctx, '/v2/state/active-contracts', { request, operationId: LedgerOp.activeContracts, idleMs: 3000, timeoutMs: Math.max(30_000, ctx.timeoutMs), maxMessages: 1_000_000 });
      if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
      const key = (x: unknown) => JSON.stringify(x);
      const a = [...http.entries].map(key).sort();
      const b = [...ws.messages].map(key).sort();
      if (!jsonEqual(a, b)) {
        const onlyHttp = contractIdsOf(http.entries).filter((id) => !contractIdsOf(ws.messages).includes(id));
        const onlyWs = contractIdsOf(ws.messages).filter((id) => !contractIdsOf(http.entries).includes(id));
        ctx.fail(`at offset ${at} HTTP answered ${a.length} entries, the WebSocket ${b.length}; only over HTTP: ${onlyHttp.slice(0, 3).join(', ') || 'none'}; only on the WebSocket: ${onlyWs.slice(0, 3).join(', ') || 'none'}${onlyHttp.length + onlyWs.length === 0 ? ' (the same contracts, answered differently)' : ''}`, ws.exchange);
      }
      ctx.setEvidence(ws.exchange);
    },
  }),
];
