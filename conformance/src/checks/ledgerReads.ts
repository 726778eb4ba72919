import type { Exchange } from '../target/exchange.js';
import { activeContracts, archiveContract, createCommand, createContract, createOf, eventFormat, freshParty, jsCommands, ledgerEnd, readActiveContracts, secondCreateCommand, suiteParty, offsetOf } from './support/ledger.js';
import { bodyOf, expectCantonError, expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { LedgerReadOp } from './ledgerReadOps.js';
import { SD_B, UPSTREAM_3510, UPSTREAM_B } from './ledgerOps.js';
import { needsCanton } from './support/targetVersion.js';
import { pageWalk } from './support/pageWalk.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Point reads, pages and the deprecated forms Canton 3.5 still serves, each judged against what the
 * update stream or the active contract set shows for the same offsets: a lookup must answer the
 * element the stream showed, a page walk the one-shot list.
 */
const check = (c: CheckDefinition): CheckDefinition => c;
const UPSTREAM_35 = `${UPSTREAM_B} (Canton 3.5)`;

const shapeFormat = (party: string, shape: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS') => ({
  includeTransactions: { eventFormat: eventFormat(party, { verbose: true }), transactionShape: shape },
});

/** Three fresh contracts of the suite party, and the offset range holding them. */
async function written(ctx: CheckContext): Promise<{ party: string; begin: number; end: number }> {
  const party = await suiteParty(ctx);
  const begin = (await ledgerEnd(ctx)).offset;
  for (let i = 0; i < 3; i++) await createContract(ctx, party);
  return { party, begin, end: (await ledgerEnd(ctx)).offset };
}

/**
 * As `written`, with a contract archived at the end: a consuming exercise, the one event whose
 * LEDGER_EFFECTS form (an exercised event) differs from its ACS delta (an archived event).
 */
async function writtenAndArchived(ctx: CheckContext): Promise<{ party: string; begin: number; end: number }> {
  const w = await written(ctx);
  await archiveContract(ctx, w.party, await createContract(ctx, w.party));
  return { ...w, end: (await ledgerEnd(ctx)).offset };
}

/** A list endpoint's JSON array (POST with a closed range). */
async function list(ctx: CheckContext, path: string, body: Json, operationId: string): Promise<{ exchange: Exchange; items: unknown[] }> {
  const exchange = await ctx.http.request('ledger', { method: 'POST', path, query: { stream_idle_timeout_ms: 1000 }, json: body, operationId });
  expectStatus(ctx, exchange, 200, `POST ${path}`);
  const items = bodyOf(ctx, exchange, path);
  if (!Array.isArray(items)) return ctx.fail(`POST ${path} must answer a JSON array`, exchange);
  return { exchange, items };
}

/** The stream's transaction elements ({update: {Transaction}}) over a range, in one shape. */
async function streamTransactions(ctx: CheckContext, party: string, begin: number, end: number, shape: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS'): Promise<Json[]> {
  const { exchange, items } = await list(ctx, '/v2/updates', { beginExclusive: begin, endInclusive: end, updateFormat: shapeFormat(party, shape) }, 'postV2Updates');
  const txs = items.filter((i): i is Json => isObject(i) && isObject(i.update) && isObject(i.update.Transaction));
  if (txs.length === 0) ctx.fail(`the update stream shows no transaction in (${begin}, ${end}] for ${party}`, exchange);
  return txs;
}

const txOf = (element: Json): Json => ((element.update as Json).Transaction as Json).value as Json;

/** A transaction's events keyed by node id, as a tree answer must carry them. */
function eventsByNode(tx: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of (tx.events as Json[]) ?? []) {
    const ev = (e.CreatedEvent ?? e.ExercisedEvent) as Json | undefined;
    if (ev) out[String(ev.nodeId)] = { [e.CreatedEvent ? 'CreatedTreeEvent' : 'ExercisedTreeEvent']: { value: ev } };
  }
  return out;
}

function expectSame(ctx: CheckContext, got: unknown, want: unknown, what: string, e: Exchange): void {
  if (!jsonEqual(got, want)) ctx.fail(`${what} differs from what the update stream showed at ${firstDifference(got, want)}`, e);
}

/** A tree answer ({transaction} or {transactionTree}) against the ledger-effects stream element. */
function expectTree(ctx: CheckContext, tree: unknown, tx: Json, what: string, e: Exchange): void {
  if (!isObject(tree) || !isObject(tree.eventsById)) return ctx.fail(`${what}: no transaction tree with eventsById`, e);
  if (tree.updateId !== tx.updateId || tree.offset !== tx.offset) ctx.fail(`${what}: tree of update ${String(tree.updateId)} at ${String(tree.offset)}, expected ${String(tx.updateId)} at ${String(tx.offset)}`, e);
  expectSame(ctx, tree.eventsById, eventsByNode(tx), `${what}: eventsById (keyed by node id, ledger effects)`, e);
}

/** The created event of an active-contracts entry (JsActiveContract), if it is one. */
const activeCreatedEvent = (entry: unknown): Json | undefined => {
  const c = isObject(entry) && isObject(entry.contractEntry) && isObject(entry.contractEntry.JsActiveContract) ? entry.contractEntry.JsActiveContract.createdEvent : undefined;
  return isObject(c) ? c : undefined;
};

/**
 * A party of the walk's own holding contracts of two templates, interleaved (first, second, first,
 * second), so that in any order some contract of each template lies past the first page of 1.
 */
function twoTemplateHolder(ctx: CheckContext): Promise<{ party: string; first: readonly string[]; second: readonly string[]; templateId: string }> {
  return ctx.shared('acs-page-two-templates', async () => {
    const party = await freshParty(ctx, 'cc-acs-page-filter');
    const first: string[] = [];
    const second: string[] = [];
    for (let i = 0; i < 2; i++) {
      first.push((await createContract(ctx, party)).contractId);
      second.push((await createOf(ctx, party, secondCreateCommand(ctx, party))).contractId);
    }
    return { party, first, second, templateId: ctx.profile.ledger!.template!.templateId };
  });
}

/**
 * A walk with a template filter over a party holding contracts of two templates: the page token
 * carries the filter as well as the offset, so every page holds contracts of that template only,
 * and the walk is the one-shot list with the same filter.
 */
async function filteredAcsPageWalk(ctx: CheckContext, method: 'GET' | 'POST'): Promise<void> {
  const h = await twoTemplateHolder(ctx);
  const format = eventFormat(h.party, { templateId: h.templateId, verbose: true });
  const what = `the walk with a TemplateFilter ${h.templateId} over ${h.party}, who holds contracts of two templates`;
  const walk = await pageWalk(
    ctx,
    (token) => ctx.http.request('ledger', { method, path: '/v2/state/active-contracts-page', json: { eventFormat: format, maxPageSize: 1, ...(token ? { pageToken: token } : {}) } }),
    (body) => (Array.isArray(body.activeContracts) ? body.activeContracts : []),
    {
      onPage: (_body, page, e) => {
        const others = page.map(activeCreatedEvent).filter((c): c is Json => c !== undefined && h.second.includes(String(c.contractId)));
        if (others.length > 0) ctx.fail(`${what}: a page holds ${others.map((c) => `${String(c.contractId)} (${String(c.templateId)})`).join(', ')}, of the other template, which the filter leaves out (the page token must keep the filter, not only the offset)`, e);
      },
      followEmpty: true,
    },
  );
  const at = walk.first.activeAtOffset;
  if (typeof at !== 'number' || !walk.complete) return;
  const ids = (items: readonly unknown[]) => items.map((i) => String(activeCreatedEvent(i)?.contractId ?? '?'));
  const got = ids(walk.items);
  const want = ids((await readActiveContracts(ctx, { activeAtOffset: at, eventFormat: format }, `active contracts at ${at} (${h.templateId})`, { small: true })).entries);
  if (new Set(got).size !== got.length) ctx.fail(`${what}: the walk returned a contract twice (${got.join(', ')})`, walk.last);
  if (!jsonEqual([...got].sort(), [...want].sort())) ctx.fail(`${what} (${walk.pages} page(s) of 1) yields [${got.join(', ')}], the one-shot list with the same filter at ${at} [${want.join(', ')}]`, walk.last);
  const missing = h.first.filter((id) => !got.includes(id));
  if (missing.length > 0) ctx.fail(`${what} lacks ${missing.join(', ')}, which the party holds of that template`, walk.last);
}

/**
 * The page walk of active-contracts-page, for either method: Canton 3.5.7+ serves it as a POST and
 * keeps the GET-with-body form of 3.5.0-3.5.6, deprecated, with the same answers.
 */
function acsPageWalk(id: string, method: 'GET' | 'POST', operationId: string, specRef: string): CheckDefinition {
  return check({
    id,
    title: `A walk over ${method} active-contracts-page equals the one-shot active contract set at the offset of its first page, every page naming that offset, though the ledger moves on between pages; with a template filter over a party holding two templates, every page honours the filter`,
    group: 'ledger',
    operationId,
    level: 'MUST',
    kind: 'example',
    specRef,
    requires: { writes: true },
    async run(ctx) {
      await needsCanton(ctx, method === 'POST' ? '3.5.7' : '3.5.0', `${method} /v2/state/active-contracts-page`);
      const w = await written(ctx);
      const format = eventFormat(w.party, { verbose: true });
      // Pages of 2 where the party holds few contracts; on a target where others hold many for it,
      // pages big enough that the walk ends within its bound of 200 pages.
      const held = (await readActiveContracts(ctx, { activeAtOffset: w.end, eventFormat: format }, `active contracts at ${w.end}`)).entries.length;
      const pageSize = Math.max(2, Math.ceil((2 * held) / 200));
      let moved = false;
      let snapshot: unknown;
      const walk = await pageWalk(
        ctx,
        async (token) => {
          // Commit between the first and second page: the token must keep reading the first page's snapshot.
          if (token !== undefined && !moved) {
            moved = true;
            await createContract(ctx, w.party);
          }
          return ctx.http.request('ledger', { method, path: '/v2/state/active-contracts-page', json: { eventFormat: format, maxPageSize: pageSize, ...(token ? { pageToken: token } : {}) } });
        },
        (body) => (Array.isArray(body.activeContracts) ? body.activeContracts : []),
        {
          // Every page is of the first page's snapshot: a client resumes the update stream from the offset a page names.
          onPage: (body, _page, e) => {
            if (snapshot === undefined) snapshot = body.activeAtOffset;
            else if (body.activeAtOffset !== snapshot) ctx.fail(`a later page names activeAtOffset ${JSON.stringify(body.activeAtOffset)}, the first ${JSON.stringify(snapshot)}: the pages of one walk are one snapshot`, e);
          },
        },
      );
      const at = walk.first.activeAtOffset;
      if (typeof at !== 'number') return ctx.fail('the first page names no activeAtOffset', walk.last);
      // A server may answer fewer than maxPageSize a page: a walk that has not ended is not judged.
      if (!walk.complete) return ctx.skip(`the page walk had not ended after ${walk.pages} pages of at most ${pageSize} (${walk.items.length} contracts of about ${held}); it is not judged`);
      if (at < w.end) ctx.fail(`the first page is at offset ${at}, before the ledger end ${w.end} it was asked at`, walk.last);
      const ids = (items: readonly unknown[]) =>
        items.map((i) => (isObject(i) && isObject(i.contractEntry) ? (Object.values(i.contractEntry)[0] as Json | undefined) : undefined)).map((x) => (isObject(x) && isObject(x.createdEvent) ? String(x.createdEvent.contractId) : '?'));
      const got = ids(walk.items);
      const want = ids((await readActiveContracts(ctx, { activeAtOffset: at, eventFormat: format }, `active contracts at ${at}`)).entries);
      if (new Set(got).size !== got.length) ctx.fail(`the page walk returned a contract twice (${got.length} entries, ${new Set(got).size} distinct)`, walk.last);
      if (!jsonEqual([...got].sort(), [...want].sort())) {
        ctx.fail(`the page walk (${walk.pages} page(s) of ${pageSize}) yields ${got.length} contract(s), the active contract set at ${at} ${want.length}; only in the walk: ${got.filter((x) => !want.includes(x)).slice(0, 3).join(', ') || 'none'}; only in the set: ${want.filter((x) => !got.includes(x)).slice(0, 3).join(', ') || 'none'}`, walk.last);
      }
      const forged = await ctx.http.request('ledger', { method, path: '/v2/state/active-contracts-page', json: { eventFormat: format, pageToken: 'forged.token' } });
      expectStatus(ctx, forged, 400, 'a page token the server did not issue');
      expectCantonError(ctx, forged, 'a page token the server did not issue', ['INVALID_ARGUMENT']);
      // A party of the walk's own with two templates: judged where the profile names a second template and allows allocation.
      if (ctx.profile.ledger?.secondTemplate && ctx.profile.ledger.allocateParties) await filteredAcsPageWalk(ctx, method);
    },
  });
}

export const ledgerReadChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.update-by-id.matches-stream',
    title: 'update-by-id answers, for each update id, the element the update stream showed; an unknown id is 404 UPDATE_NOT_FOUND',
    group: 'ledger',
    operationId: LedgerReadOp.updateById,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/update-by-id (UPDATE_NOT_FOUND when absent or filtered out)`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      for (const element of await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')) {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: txOf(element).updateId, updateFormat: shapeFormat(w.party, 'TRANSACTION_SHAPE_LEDGER_EFFECTS') } });
        expectStatus(ctx, e, 200, `update-by-id ${String(txOf(element).updateId)}`);
        expectSame(ctx, bodyOf(ctx, e, 'update-by-id'), element, `update-by-id ${String(txOf(element).updateId)}`, e);
      }
      const unknown = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: `1220${'0'.repeat(64)}`, updateFormat: shapeFormat(w.party, 'TRANSACTION_SHAPE_ACS_DELTA') } });
      expectStatus(ctx, unknown, 404, 'update-by-id of an unknown id');
      expectCantonError(ctx, unknown, 'update-by-id of an unknown id', ['UPDATE_NOT_FOUND']);
    },
  }),
  check({
    id: 'ledger.update-by-offset.matches-stream',
    title: 'update-by-offset answers, at each offset, the element the update stream showed there',
    group: 'ledger',
    operationId: LedgerReadOp.updateByOffset,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/update-by-offset`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      for (const element of await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_ACS_DELTA')) {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-offset', json: { offset: txOf(element).offset, updateFormat: shapeFormat(w.party, 'TRANSACTION_SHAPE_ACS_DELTA') } });
        expectStatus(ctx, e, 200, `update-by-offset ${String(txOf(element).offset)}`);
        expectSame(ctx, bodyOf(ctx, e, 'update-by-offset'), element, `update-by-offset ${String(txOf(element).offset)}`, e);
      }
    },
  }),
  check({
    id: 'ledger.transaction-by-id.acs-delta',
    title: 'transaction-by-id (deprecated) answers {transaction}: the ACS delta the stream showed for the requesting parties',
    group: 'ledger',
    operationId: LedgerReadOp.transactionById,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/transaction-by-id (requesting parties: wildcard, verbose, ACS delta)`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      for (const element of await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_ACS_DELTA')) {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/transaction-by-id', json: { updateId: txOf(element).updateId, requestingParties: [w.party] } });
        expectStatus(ctx, e, 200, 'transaction-by-id');
        expectSame(ctx, objectBody(ctx, e, 'transaction-by-id').transaction, txOf(element), 'transaction-by-id .transaction', e);
      }
    },
  }),
  check({
    id: 'ledger.transaction-lookups.transaction-format',
    title: "transaction-by-id and transaction-by-offset (deprecated) asked with a transactionFormat answer the transaction in that format, as the update stream shows it (wallet-sdk's getTransactionById asks for LEDGER_EFFECTS)",
    group: 'ledger',
    operationId: LedgerReadOp.transactionById,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: GetTransactionByIdRequest, GetTransactionByOffsetRequest (transaction_format; requesting_parties only for backwards compatibility, then the format unset)`,
    requires: { writes: true },
    async run(ctx) {
      const w = await writtenAndArchived(ctx);
      // Not the legacy default (verbose, ACS delta): a lookup that drops the format answers another transaction.
      const transactionFormat = { eventFormat: eventFormat(w.party, { verbose: false }), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
      const { items } = await list(ctx, '/v2/updates', { beginExclusive: w.begin, endInclusive: w.end, updateFormat: { includeTransactions: transactionFormat } }, 'postV2Updates');
      const txs = items.filter((i): i is Json => isObject(i) && isObject(i.update) && isObject(i.update.Transaction)).map(txOf);
      if (txs.length === 0) return ctx.fail(`the update stream shows no transaction in (${w.begin}, ${w.end}] for ${w.party}`);
      for (const tx of txs) {
        const byId = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/transaction-by-id', operationId: LedgerReadOp.transactionById, json: { updateId: tx.updateId, transactionFormat } });
        expectStatus(ctx, byId, 200, 'transaction-by-id with a transactionFormat');
        expectSame(ctx, objectBody(ctx, byId, 'transaction-by-id').transaction, tx, `transaction-by-id ${String(tx.updateId)} asked for LEDGER_EFFECTS, not verbose,`, byId);
        const byOffset = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/transaction-by-offset', operationId: LedgerReadOp.transactionByOffset, json: { offset: tx.offset, transactionFormat } });
        expectStatus(ctx, byOffset, 200, 'transaction-by-offset with a transactionFormat');
        expectSame(ctx, objectBody(ctx, byOffset, 'transaction-by-offset').transaction, tx, `transaction-by-offset ${String(tx.offset)} asked for LEDGER_EFFECTS, not verbose,`, byOffset);
      }
    },
  }),
  check({
    id: 'ledger.transaction-by-offset.acs-delta',
    title: 'transaction-by-offset (deprecated) answers {transaction}: the ACS delta the stream showed at that offset',
    group: 'ledger',
    operationId: LedgerReadOp.transactionByOffset,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/transaction-by-offset`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      for (const element of await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_ACS_DELTA')) {
        const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/transaction-by-offset', json: { offset: txOf(element).offset, requestingParties: [w.party] } });
        expectStatus(ctx, e, 200, 'transaction-by-offset');
        expectSame(ctx, objectBody(ctx, e, 'transaction-by-offset').transaction, txOf(element), 'transaction-by-offset .transaction', e);
      }
    },
  }),
  check({
    id: 'ledger.transaction-tree-by-id.ledger-effects',
    title: 'transaction-tree-by-id (deprecated) agrees with the LEDGER_EFFECTS stream: the same events, keyed by node id',
    group: 'ledger',
    operationId: LedgerReadOp.treeById,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: GET /v2/updates/transaction-tree-by-id/{update-id}`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      for (const element of await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')) {
        const tx = txOf(element);
        const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/updates/transaction-tree-by-id/${encodeURIComponent(String(tx.updateId))}`, query: { parties: w.party } });
        expectStatus(ctx, e, 200, 'transaction-tree-by-id');
        expectTree(ctx, objectBody(ctx, e, 'transaction-tree-by-id').transaction, tx, 'transaction-tree-by-id', e);
      }
    },
  }),
  check({
    id: 'ledger.transaction-tree-by-offset.ledger-effects',
    title: 'transaction-tree-by-offset (deprecated) agrees with the LEDGER_EFFECTS stream at that offset',
    group: 'ledger',
    operationId: LedgerReadOp.treeByOffset,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: GET /v2/updates/transaction-tree-by-offset/{offset}`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      for (const element of await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')) {
        const tx = txOf(element);
        const e = await ctx.http.request('ledger', { method: 'GET', path: `/v2/updates/transaction-tree-by-offset/${String(tx.offset)}`, query: { parties: w.party } });
        expectStatus(ctx, e, 200, 'transaction-tree-by-offset');
        expectTree(ctx, objectBody(ctx, e, 'transaction-tree-by-offset').transaction, tx, 'transaction-tree-by-offset', e);
      }
    },
  }),
  check({
    id: 'ledger.flats.same-as-updates',
    title: 'updates/flats (deprecated, used by wallet-sdk) answers a closed range exactly as /v2/updates does, verbose:false beside updateFormat included',
    group: 'ledger',
    operationId: LedgerReadOp.flats,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/flats (same request and elements as /v2/updates)`,
    requires: { writes: true },
    async run(ctx) {
      // With an archive in the range: wallet-sdk's holdings history reads the exercises of LEDGER_EFFECTS here.
      const w = await writtenAndArchived(ctx);
      const body = { beginExclusive: w.begin, endInclusive: w.end, updateFormat: shapeFormat(w.party, 'TRANSACTION_SHAPE_LEDGER_EFFECTS') };
      const updates = await list(ctx, '/v2/updates', body, 'postV2Updates');
      const flats = await list(ctx, '/v2/updates/flats', { ...body, verbose: false }, LedgerReadOp.flats);
      expectSame(ctx, flats.items, updates.items, 'the flats list', flats.exchange);
    },
  }),
  check({
    id: 'ledger.trees.agree-with-ledger-effects',
    title: 'updates/trees (deprecated) answers each transaction of the range as the tree of its LEDGER_EFFECTS events',
    group: 'ledger',
    operationId: LedgerReadOp.trees,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/trees (legacy filter; JsTransactionTree elements)`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      const flat = await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
      const filter = { filtersByParty: { [w.party]: { cumulative: [] } } };
      const trees = await list(ctx, '/v2/updates/trees', { beginExclusive: w.begin, endInclusive: w.end, filter, verbose: true }, LedgerReadOp.trees);
      const got = trees.items.filter((i): i is Json => isObject(i) && isObject(i.update) && isObject(i.update.TransactionTree)).map((i) => ((i.update as Json).TransactionTree as Json).value);
      if (got.length !== flat.length) ctx.fail(`the trees list holds ${got.length} transaction tree(s), the LEDGER_EFFECTS stream ${flat.length} transaction(s)`, trees.exchange);
      flat.forEach((element, i) => expectTree(ctx, got[i], txOf(element), `tree ${i + 1}`, trees.exchange));
    },
  }),
  check({
    id: 'ledger.updates-page.walk-equals-list',
    title: 'A walk over get-updates-page, ascending and descending, yields the transactions of the /v2/updates list, each once, each page within its own bounds',
    group: 'ledger',
    operationId: LedgerReadOp.updatesPage,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/updates/get-updates-page (nextPageToken, descending_order; lowest_page_offset_exclusive and highest_page_offset_inclusive bound the page)`,
    requires: { writes: true },
    async run(ctx) {
      const w = await written(ctx);
      const want = (await streamTransactions(ctx, w.party, w.begin, w.end, 'TRANSACTION_SHAPE_ACS_DELTA')).map((e) => txOf(e).updateId);
      for (const descendingOrder of [false, true]) {
        const request = { beginOffsetExclusive: w.begin, endOffsetInclusive: w.end, maxPageSize: 2, descendingOrder, updateFormat: shapeFormat(w.party, 'TRANSACTION_SHAPE_ACS_DELTA') };
        const walk = await pageWalk(
          ctx,
          (token) => ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/get-updates-page', json: { ...request, ...(token ? { pageToken: token } : {}) } }),
          (body) => (Array.isArray(body.updates) ? body.updates : []),
          {
            // A client resumes or deduplicates by the page's bounds: each update on it lies within (lowest, highest].
            onPage: (body, page, e) => {
              const low = body.lowestPageOffsetExclusive;
              const high = body.highestPageOffsetInclusive;
              for (const u of page) {
                const offset = offsetOf(u);
                if (offset === undefined || typeof low !== 'number' || typeof high !== 'number') continue;
                if (!(low < offset && offset <= high)) ctx.fail(`${descendingOrder ? 'a descending' : 'an ascending'} page holds an update at offset ${offset} outside its bounds (lowestPageOffsetExclusive ${low}, highestPageOffsetInclusive ${high}]`, e);
              }
            },
          },
        );
        const got = walk.items.filter((u): u is Json => isObject(u) && isObject(u.update) && isObject(u.update.Transaction)).map((u) => txOf(u).updateId);
        const expected = descendingOrder ? [...want].reverse() : want;
        if (!jsonEqual(got, expected)) ctx.fail(`the ${descendingOrder ? 'descending' : 'ascending'} page walk (${walk.pages} page(s) of 2) yields ${got.length} transaction(s) [${got.slice(0, 4).join(', ')}], the list ${expected.length} [${expected.slice(0, 4).join(', ')}]`, walk.last);
      }
    },
  }),
  check({
    id: 'ledger.events-by-contract-id.create-then-archive',
    title: 'events-by-contract-id answers the created event of a new contract, then created and archived once it is archived, each at its own offset; unknown ids are 404 CONTRACT_EVENTS_NOT_FOUND',
    group: 'ledger',
    operationId: LedgerReadOp.eventsByContractId,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/events/events-by-contract-id (CONTRACT_EVENTS_NOT_FOUND)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const created = await createContract(ctx, party);
      const ask = (contractId: string) => ctx.http.request('ledger', { method: 'POST', path: '/v2/events/events-by-contract-id', json: { contractId, eventFormat: eventFormat(party, { verbose: true }) } });
      const live = await ask(created.contractId);
      expectStatus(ctx, live, 200, 'events of an active contract');
      const lb = objectBody(ctx, live, 'events of an active contract');
      if (!isObject(lb.created) || !isObject(lb.created.createdEvent) || lb.created.createdEvent.contractId !== created.contractId) ctx.fail(`no created.createdEvent for ${created.contractId}`, live);
      if (lb.archived !== undefined) ctx.fail('an active contract is reported archived', live);
      const archive = await archiveContract(ctx, party, created);
      const gone = await ask(created.contractId);
      expectStatus(ctx, gone, 200, 'events of an archived contract');
      // Each event keeps the offset of its own transaction (a reader dates the contract's life by them).
      for (const [e, when] of [[live, 'while active'], [gone, 'once archived']] as const) {
        const c = objectBody(ctx, e, 'events by contract id').created;
        const offset = isObject(c) && isObject(c.createdEvent) ? c.createdEvent.offset : undefined;
        if (offset !== created.completionOffset) ctx.fail(`${when}, the created event of ${created.contractId} reports offset ${JSON.stringify(offset)}; it was created at offset ${created.completionOffset}`, e);
      }
      const archived = objectBody(ctx, gone, 'events of an archived contract').archived;
      if (!isObject(archived) || !isObject(archived.archivedEvent) || archived.archivedEvent.contractId !== created.contractId || archived.archivedEvent.offset !== archive.completionOffset) {
        ctx.fail(`after archiving at offset ${archive.completionOffset}, no archived.archivedEvent of ${created.contractId} at that offset`, gone);
      }
      const unknown = await ask(`00${'ab'.repeat(33)}`);
      expectStatus(ctx, unknown, 404, 'events of an unknown contract');
      expectCantonError(ctx, unknown, 'events of an unknown contract', ['CONTRACT_EVENTS_NOT_FOUND']);
    },
  }),
  check({
    id: 'ledger.contract-by-id.payload',
    title: 'contract-by-id answers the payload of a contract to its stakeholders; unknown ids are 404 CONTRACT_PAYLOAD_NOT_FOUND',
    group: 'ledger',
    operationId: LedgerReadOp.contractById,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/contracts/contract-by-id (alpha; CONTRACT_PAYLOAD_NOT_FOUND)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const created = await createContract(ctx, party);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/contracts/contract-by-id', json: { contractId: created.contractId, queryingParties: [party] } });
      expectStatus(ctx, e, 200, 'contract-by-id');
      const ev = objectBody(ctx, e, 'contract-by-id').createdEvent;
      const acs = await activeContracts(ctx, party, created.completionOffset);
      const listed = acs.contracts.find((c) => c.createdEvent.contractId === created.contractId);
      if (!isObject(ev) || ev.contractId !== created.contractId) return ctx.fail(`contract-by-id answered no createdEvent of ${created.contractId}`, e);
      if (listed && !jsonEqual(ev.createArgument, listed.createdEvent.createArgument)) ctx.fail(`contract-by-id's createArgument differs from the active contract set's at ${firstDifference(ev.createArgument, listed.createdEvent.createArgument)}`, e);
      const unknown = await ctx.http.request('ledger', { method: 'POST', path: '/v2/contracts/contract-by-id', json: { contractId: `00${'cd'.repeat(33)}`, queryingParties: [party] } });
      expectStatus(ctx, unknown, 404, 'contract-by-id of an unknown contract');
      expectCantonError(ctx, unknown, 'contract-by-id of an unknown contract', ['CONTRACT_PAYLOAD_NOT_FOUND']);
    },
  }),
  acsPageWalk('ledger.acs-page.walk-equals-list', 'GET', LedgerReadOp.activeContractsPage, `${UPSTREAM_35}: GET /v2/state/active-contracts-page (page_token; same active_at_offset and event_format: every page of a walk is filtered by it; deprecated since 3.5.7)`),
  acsPageWalk('ledger.acs-page-post.walk-equals-list', 'POST', LedgerReadOp.activeContractsPagePost, `${UPSTREAM_3510}: POST /v2/state/active-contracts-page (added in 3.5.7; page_token; same active_at_offset and event_format: every page of a walk is filtered by it)`),
  check({
    id: 'ledger.submit-tree.agrees-with-ledger-effects',
    title: 'submit-and-wait-for-transaction-tree (deprecated) answers the tree of the committed transaction, as update-by-id shows it in LEDGER_EFFECTS',
    group: 'ledger',
    operationId: LedgerReadOp.submitAndWaitForTree,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_35}: POST /v2/commands/submit-and-wait-for-transaction-tree; ${SD_B}: submission`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction-tree', json: jsCommands(ctx, party, { CreateCommand: createCommand(ctx, party) }) });
      expectStatus(ctx, e, 200, 'submit-and-wait-for-transaction-tree');
      const tree = objectBody(ctx, e, 'submit-and-wait-for-transaction-tree').transactionTree;
      if (!isObject(tree) || typeof tree.updateId !== 'string') return ctx.fail('no transactionTree.updateId in the answer', e);
      const byId = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: tree.updateId, updateFormat: shapeFormat(party, 'TRANSACTION_SHAPE_LEDGER_EFFECTS') } });
      expectStatus(ctx, byId, 200, `update-by-id ${tree.updateId}`);
      const element = objectBody(ctx, byId, 'update-by-id');
      if (!isObject(element.update) || !isObject(element.update.Transaction)) return ctx.fail('update-by-id answered no Transaction', byId);
      expectTree(ctx, tree, txOf(element), 'the submission answer', e);
    },
  }),
];
