import fc from 'fast-check';
import { readerAuth } from './crossGroup.js';
import { viewDifferencesFrom } from '../reinterpret/compareViews.js';
import { describeDifference } from '../reinterpret/compareTransaction.js';
import { httpLedgerSource } from '../reinterpret/ledgerSource.js';
import { createContract, createOf, fill, freshParty, ledgerEnd, listAfter, readActiveContracts, secondCreateCommand, transactionsOf } from './support/ledger.js';
import { bodyOf, expectCantonError, expectStatus, isObject, qualifiedName, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { sameDamlValue } from './support/values.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import { LedgerReadOp } from './ledgerReadOps.js';
import type { AuthMode, Exchange } from '../target/exchange.js';
import type { CheckContext, CheckDefinition } from './types.js';

const check = (c: Omit<CheckDefinition, 'group'>): CheckDefinition => ({ group: 'ledger', ...c });
const FILTERS = `${UPSTREAM_B}: EventFormat (filters_by_party: each party's own filters, filters_for_any_party; TemplateFilter, InterfaceFilter with include_interface_view, WildcardFilter; include_created_event_blob)`;

type FilterKind = 'template' | 'second' | 'interface' | 'interface-view' | 'wildcard';
type Scope = 'party' | 'any';
type Where = 'acs' | 'updates' | 'websocket';

interface Query {
  readonly kind: FilterKind;
  readonly scope: Scope;
  readonly blob: boolean;
  readonly where: Where;
}

/** The contracts the filter checks read back: two templates for one party, the first template for another. */
interface World {
  readonly party: string;
  readonly other: string;
  readonly begin: number;
  readonly end: number;
  /** contract id -> what it is. */
  readonly contracts: ReadonlyMap<string, { template: 'first' | 'second'; owner: string }>;
  /** The contract `other` created alone: `party` is no stakeholder of it, nor an informee of its transaction. */
  readonly othersCreate: { readonly contractId: string; readonly updateId: string; readonly offset: number };
}

function world(ctx: CheckContext): Promise<World> {
  return ctx.shared('filters-world', async () => {
    const t = ctx.profile.ledger?.template ?? ctx.skip(`profile '${ctx.profile.name}' names no template the suite may create (ledger.template)`);
    if (!t.interfaceId) ctx.skip(`profile '${ctx.profile.name}' names no interface of its template (ledger.template.interfaceId)`);
    const party = await freshParty(ctx, 'cc-filter-a');
    const other = await freshParty(ctx, 'cc-filter-b');
    secondCreateCommand(ctx, party); // skips early without a second template
    const begin = (await ledgerEnd(ctx)).offset;
    const a = await createContract(ctx, party);
    const s = await createOf(ctx, party, secondCreateCommand(ctx, party));
    const b = await createContract(ctx, other);
    const end = (await ledgerEnd(ctx)).offset;
    return {
      party,
      other,
      begin,
      end,
      othersCreate: { contractId: b.contractId, updateId: b.updateId, offset: b.completionOffset },
      contracts: new Map([
        [a.contractId, { template: 'first' as const, owner: party }],
        [s.contractId, { template: 'second' as const, owner: party }],
        [b.contractId, { template: 'first' as const, owner: other }],
      ]),
    };
  });
}

function identifierFilter(ctx: CheckContext, q: Query): Json {
  const t = ctx.profile.ledger!.template!;
  const blob = { includeCreatedEventBlob: q.blob };
  switch (q.kind) {
    case 'template':
      return { TemplateFilter: { value: { templateId: t.templateId, ...blob } } };
    case 'second':
      return { TemplateFilter: { value: { templateId: ctx.profile.ledger!.secondTemplate!.templateId, ...blob } } };
    case 'interface':
    case 'interface-view':
      return { InterfaceFilter: { value: { interfaceId: t.interfaceId!, includeInterfaceView: q.kind === 'interface-view', ...blob } } };
    case 'wildcard':
      return { WildcardFilter: { value: blob } };
  }
}

function eventFormatOf(ctx: CheckContext, w: World, q: Query): Json {
  const filters = { cumulative: [{ identifierFilter: identifierFilter(ctx, q) }] };
  return { ...(q.scope === 'party' ? { filtersByParty: { [w.party]: filters } } : { filtersForAnyParty: filters }), verbose: true };
}

/** What the filter must return of the world's contracts. */
function expected(w: World, q: Query): string[] {
  return [...w.contracts]
    .filter(([, c]) => q.scope === 'any' || c.owner === w.party)
    .filter(([, c]) => (q.kind === 'wildcard' ? true : q.kind === 'second' ? c.template === 'second' : c.template === 'first'))
    .map(([id]) => id)
    .sort();
}

/** Created events the query returns, from the ACS or the update stream (HTTP or WebSocket). */
async function read(ctx: CheckContext, w: World, q: Query, auth: AuthMode | undefined, format?: Json): Promise<{ e: Exchange; events: Json[] }> {
  const eventFormat = format ?? eventFormatOf(ctx, w, q);
  const a = auth ? { auth } : {};
  if (q.where === 'acs') {
    // For any party a busy participant answers 413 (readActiveContracts then reads the WebSocket
    // form); the world's fresh parties have three contracts, so for them a 413 is a fault.
    const { exchange, entries } = await readActiveContracts(ctx, { activeAtOffset: w.end, eventFormat }, `active contracts (${describe(q)})`, { ...a, small: q.scope === 'party' });
    const events = entries.map((i) => (isObject(i) && isObject(i.contractEntry) && isObject(i.contractEntry.JsActiveContract) ? i.contractEntry.JsActiveContract.createdEvent : undefined)).filter(isObject);
    return { e: exchange, events };
  }
  const request = { beginExclusive: w.begin, endInclusive: w.end, updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } };
  const createdOf = (items: readonly unknown[]) => transactionsOf(items).flatMap((t) => t.events.map((ev) => ev.CreatedEvent).filter(isObject));
  if (q.where === 'updates') {
    // In pages: for any party, the window holds every other application's transactions too.
    const { e, items } = await listAfter(ctx, '/v2/updates', request, { what: `updates (${describe(q)})`, idleMs: 1000, maxPages: 200, ...a });
    return { e, events: createdOf(items) };
  }
  const ws = await ctx.http.stream('ledger', '/v2/updates', { request, operationId: LedgerOp.updates, idleMs: 1500, until: (m) => transactionsOf(m).some((t) => t.offset >= w.end), ...a });
  if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
  return { e: ws.exchange, events: createdOf(ws.messages) };
}

const describe = (q: Query) => `${q.kind} filter, ${q.scope === 'party' ? 'by party' : 'for any party'}, blob ${q.blob}, ${q.where}`;

async function judge(ctx: CheckContext, w: World, q: Query, auth: AuthMode | undefined): Promise<void> {
  const { e, events } = await read(ctx, w, q, auth);
  const mine = events.filter((ev) => w.contracts.has(String(ev.contractId)));
  const got = mine.map((ev) => String(ev.contractId)).sort();
  const want = expected(w, q);
  if (got.join() !== want.join()) {
    const extra = got.filter((x) => !want.includes(x));
    const missing = want.filter((x) => !got.includes(x));
    // The same set answered with repeats: a reader would count those contracts (holdings) twice.
    const repeated = [...new Set(got.filter((x, i) => got.indexOf(x) !== i))];
    const problems = [extra.length ? `returns ${extra.join(', ')} it must leave out` : '', missing.length ? `lacks ${missing.join(', ')}` : '', repeated.length ? `returns ${repeated.join(', ')} more than once` : ''];
    ctx.fail(`${describe(q)}: ${problems.filter((p) => p !== '').join('; ')}`, e);
  }
  const t = ctx.profile.ledger!.template!;
  for (const ev of mine) {
    const blob = typeof ev.createdEventBlob === 'string' && ev.createdEventBlob !== '';
    if (blob !== q.blob) ctx.fail(`${describe(q)}: contract ${String(ev.contractId)} ${q.blob ? 'lacks' : 'carries'} a createdEventBlob`, e);
    const views = Array.isArray(ev.interfaceViews) ? ev.interfaceViews.filter(isObject) : [];
    if (q.kind !== 'interface-view') {
      if (views.length > 0) ctx.fail(`${describe(q)}: contract ${String(ev.contractId)} carries interfaceViews although no filter asked for a view`, e);
      continue;
    }
    const view = views.find((v) => qualifiedName(String(v.interfaceId)) === qualifiedName(t.interfaceId!));
    if (!view) return ctx.fail(`${describe(q)}: contract ${String(ev.contractId)} has no interface view of ${t.interfaceId!}`, e);
    const status = isObject(view.viewStatus) ? view.viewStatus.code ?? 0 : 0;
    if (status !== 0) ctx.fail(`${describe(q)}: the view of ${String(ev.contractId)} failed with status ${JSON.stringify(view.viewStatus)}`, e);
    if (t.interfaceView) {
      const owner = w.contracts.get(String(ev.contractId))!.owner;
      const want = fill(t.interfaceView, { party: owner, amount: '10.0' });
      if (!sameDamlValue(view.viewValue, want)) ctx.fail(`${describe(q)}: the view of ${String(ev.contractId)} is ${JSON.stringify(view.viewValue)}, expected ${JSON.stringify(want)}`, e);
    }
  }
  if (q.kind === 'interface-view') await judgeViews(ctx, q, mine, e, auth);
}

/**
 * Each view is the template's interface instance evaluated on that contract's own payload, as the
 * engine computes it from the target's package (judge.daml.view): whatever the profile says of
 * the view (a vendor's profile may say nothing), a server that hands one contract's view to
 * another, or computes it from stale data, fails.
 */
async function judgeViews(ctx: CheckContext, q: Query, events: readonly Json[], e: Exchange, auth: AuthMode | undefined): Promise<void> {
  if (ctx.reinterpretation?.mode === 'none' || events.length === 0) return;
  // The view the filter asked for; a view of another interface is the judge's (judge.events.views-requested).
  const asked = qualifiedName(ctx.profile.ledger!.template!.interfaceId!);
  const requested = events.map((ev) => ({ CreatedEvent: { ...ev, interfaceViews: (Array.isArray(ev.interfaceViews) ? ev.interfaceViews : []).filter((v) => isObject(v) && qualifiedName(String(v.interfaceId)) === asked) } }));
  const r = await viewDifferencesFrom(httpLedgerSource(ctx, auth), requested);
  if (typeof r === 'string') ctx.warn(`${describe(q)}: views not recomputed by the engine: ${r}`);
  else if (r.length > 0) ctx.fail(`${describe(q)}: the interface views are not the engine's evaluation of each contract's own payload: ${r.map(describeDifference).join('; ')}`, e);
}

async function anyPartyAuth(ctx: CheckContext): Promise<AuthMode | undefined> {
  return ctx.profile.auth?.required ? readerAuth(ctx) : undefined;
}

function queryArb(where: readonly Where[]): fc.Arbitrary<Query> {
  return fc.record({
    kind: fc.constantFrom<FilterKind>('template', 'second', 'interface', 'interface-view', 'wildcard'),
    scope: fc.constantFrom<Scope>('party', 'any'),
    blob: fc.boolean(),
    where: fc.constantFrom(...where),
  });
}

/**
 * Two parties in one request, each with its own filter: `party` asks for the second template only,
 * `other` for every template. Each party's filter applies to its own contracts: `party`'s contract
 * of the first template stays out (a server that builds one filter for the whole request shows it).
 */
async function judgeFiltersPerParty(ctx: CheckContext, w: World, where: Where): Promise<void> {
  const q: Query = { kind: 'second', scope: 'party', blob: false, where };
  const filters = (f: Json) => ({ cumulative: [{ identifierFilter: f }] });
  const format = { filtersByParty: { [w.party]: filters(identifierFilter(ctx, q)), [w.other]: filters({ WildcardFilter: { value: { includeCreatedEventBlob: false } } }) }, verbose: true };
  const { e, events } = await read(ctx, w, q, undefined, format);
  const got = new Set(events.map((ev) => String(ev.contractId)));
  const want = [...w.contracts].filter(([, c]) => c.owner === w.other || c.template === 'second').map(([id]) => id);
  const leaked = [...w.contracts].filter(([id, c]) => c.owner === w.party && c.template === 'first' && got.has(id)).map(([id]) => id);
  const missing = want.filter((id) => !got.has(id));
  const what = `filtersByParty with ${w.party} asking for the second template and ${w.other} for every template (${where})`;
  if (leaked.length > 0) ctx.fail(`${what}: returns ${leaked.join(', ')}, ${w.party}'s contract of the first template, which its own filter leaves out (each party's filter applies to that party only)`, e);
  if (missing.length > 0) ctx.fail(`${what}: lacks ${missing.join(', ')}`, e);
}

/** Every filter kind once in each scope, then random combinations (blob, where); then two parties' filters in one request. */
async function filterProperty(ctx: CheckContext, where: readonly Where[]): Promise<void> {
  const w = await world(ctx);
  const auth = await anyPartyAuth(ctx);
  if (ctx.profile.auth?.required && auth === undefined) ctx.skip('reading for any party needs a read-as-any-party user on a secured target (auth.readerUser with auth.signing)');
  await forAll(ctx, queryArb(where), (q) => judge(ctx, w, q, q.scope === 'any' ? auth : undefined), Math.max(ctx.runs, 20));
  for (const x of where) {
    await judgeFiltersPerParty(ctx, w, x);
    await judgeCumulative(ctx, w, x);
  }
}

export const ledgerFilterChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.filters.active-contracts',
    title: 'Active contracts honour template, interface (with and without its view) and wildcard filters, by party (each party its own, in one request) and for any party, several filters of one party as their union, and includeCreatedEventBlob (property)',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'property',
    specRef: FILTERS,
    requires: { writes: true },
    async run(ctx) {
      await filterProperty(ctx, ['acs']);
    },
  }),
  check({
    id: 'ledger.filters.updates',
    title: 'The update stream (HTTP and WebSocket) honours template, interface and wildcard filters, by party (each party its own, in one request) and for any party (property)',
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'property',
    specRef: FILTERS,
    requires: { writes: true },
    async run(ctx) {
      await filterProperty(ctx, ctx.profile.ledger?.websocket === false ? ['updates'] : ['updates', 'websocket']);
    },
  }),
  check({
    id: 'ledger.acs.verbose-values',
    title: 'createArgument is the labelled record of the command (fields by name, Numerics by value) with verbose true and with verbose false',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: values are rendered from the template's Daml type (JSON API SchemaProcessors: records as objects keyed by field name, whatever verbose says)`,
    requires: { writes: true },
    async run(ctx) {
      const party = await freshParty(ctx, 'cc-verbose');
      const created = await createContract(ctx, party);
      const sent = ((created.body.commands as Json[])[0]!.CreateCommand as Json).createArguments;
      for (const verbose of [true, false]) {
        const e = await ctx.http.request('ledger', {
          method: 'POST',
          path: '/v2/state/active-contracts',
          json: { activeAtOffset: created.completionOffset, eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose } },
        });
        expectStatus(ctx, e, 200, `active contracts with verbose ${verbose}`);
        const list = bodyOf(ctx, e, 'active contracts');
        const ev = Array.isArray(list) ? list.map((i) => (isObject(i) && isObject(i.contractEntry) && isObject(i.contractEntry.JsActiveContract) ? i.contractEntry.JsActiveContract.createdEvent : undefined)).find((c) => isObject(c) && c.contractId === created.contractId) : undefined;
        if (!isObject(ev)) return ctx.fail(`contract ${created.contractId} is missing (verbose ${verbose})`, e);
        if (!isObject(ev.createArgument)) ctx.fail(`with verbose ${verbose} createArgument is ${JSON.stringify(ev.createArgument).slice(0, 120)}, not a record keyed by field name`, e);
        if (!sameDamlValue(ev.createArgument, sent)) ctx.fail(`with verbose ${verbose} createArgument ${JSON.stringify(ev.createArgument).slice(0, 200)} differs from the command's ${JSON.stringify(sent).slice(0, 200)}`, e);
      }
    },
  }),
  check({
    id: 'ledger.visibility.stakeholders-only',
    title: "A party reads only contracts it is a stakeholder of: never another party's, in active contracts or updates (property)",
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    kind: 'property',
    specRef: `${UPSTREAM_B}: visibility (a party sees the contracts it is a signatory or observer of); ${FILTERS}`,
    requires: { writes: true },
    async run(ctx) {
      const w = await world(ctx);
      const readers = [w.party, w.other];
      await forAll(ctx, fc.record({ reader: fc.constantFrom(0, 1), where: fc.constantFrom<Where>('acs', 'updates'), kind: fc.constantFrom<FilterKind>('template', 'interface', 'wildcard') }), async ({ reader, where, kind }) => {
        const party = readers[reader]!;
        const view: World = { ...w, party };
        const { e, events } = await read(ctx, view, { kind, scope: 'party', blob: false, where }, undefined);
        for (const ev of events) {
          const stakeholders = [...(Array.isArray(ev.signatories) ? ev.signatories : []), ...(Array.isArray(ev.observers) ? ev.observers : [])];
          if (!stakeholders.includes(party)) ctx.fail(`${party} reads contract ${String(ev.contractId)} whose stakeholders are [${stakeholders.join(', ')}]`, e);
        }
        const foreign = events.filter((ev) => w.contracts.get(String(ev.contractId))?.owner !== undefined && w.contracts.get(String(ev.contractId))!.owner !== party);
        if (foreign.length > 0) ctx.fail(`${party} reads ${foreign.map((ev) => String(ev.contractId)).join(', ')}, created by and for another party (${where}, ${kind} filter)`, e);
      }, Math.min(ctx.runs, 12));
    },
  }),
  check({
    id: 'ledger.visibility.point-reads-stakeholders-only',
    title: "Point reads keep visibility: update-by-id, update-by-offset, events-by-contract-id, contract-by-id and the deprecated transaction-by-id and transaction-by-offset answer 404 to a party that sees nothing of what is asked",
    operationId: LedgerReadOp.updateById,
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: GetUpdateById/GetUpdateByOffset (UPDATE_NOT_FOUND: not found, or not visible to the requesting parties), GetEventsByContractId (CONTRACT_EVENTS_NOT_FOUND), GetContract (querying_parties; CONTRACT_PAYLOAD_NOT_FOUND), GetTransactionById/GetTransactionByOffset (deprecated; requesting_parties)`,
    requires: { writes: true },
    async run(ctx) {
      // `party` reads what `other` created alone: a lookup must not leak what the lists hide.
      const w = await world(ctx);
      const theirs = w.othersCreate;
      const asParty = { filtersByParty: { [w.party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: true };
      const updateFormat = { includeTransactions: { eventFormat: asParty, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } };
      const refused = async (path: string, json: Json, what: string, code: string) => {
        const e = await ctx.http.request('ledger', { method: 'POST', path, json });
        expectStatus(ctx, e, 404, `${what} as ${w.party}, who is no stakeholder`);
        expectCantonError(ctx, e, what, [code]);
      };
      await refused('/v2/updates/update-by-id', { updateId: theirs.updateId, updateFormat }, `update-by-id of ${theirs.updateId}`, 'UPDATE_NOT_FOUND');
      await refused('/v2/updates/update-by-offset', { offset: theirs.offset, updateFormat }, `update-by-offset of ${theirs.offset}`, 'UPDATE_NOT_FOUND');
      await refused('/v2/events/events-by-contract-id', { contractId: theirs.contractId, eventFormat: asParty }, `events-by-contract-id of ${theirs.contractId}`, 'CONTRACT_EVENTS_NOT_FOUND');
      // Alpha in 3.5, absent from 3.4: judged where the line has it.
      if (!ctx.lacks(LedgerReadOp.contractById)) await refused('/v2/contracts/contract-by-id', { contractId: theirs.contractId, queryingParties: [w.party] }, `contract-by-id of ${theirs.contractId}`, 'CONTRACT_PAYLOAD_NOT_FOUND');
      // The deprecated lookups (wallet-sdk's), by their requesting parties: the same visibility.
      const deprecated = async (path: string, operationId: string, json: Json, what: string) => {
        if (ctx.lacks(operationId)) return;
        const e = await ctx.http.request('ledger', { method: 'POST', path, operationId, json });
        expectStatus(ctx, e, 404, `${what} as ${w.party}, who is no stakeholder`);
        expectCantonError(ctx, e, what, ['UPDATE_NOT_FOUND', 'TRANSACTION_NOT_FOUND']);
      };
      await deprecated('/v2/updates/transaction-by-id', LedgerReadOp.transactionById, { updateId: theirs.updateId, requestingParties: [w.party] }, `transaction-by-id (deprecated) of ${theirs.updateId}`);
      await deprecated('/v2/updates/transaction-by-offset', LedgerReadOp.transactionByOffset, { offset: theirs.offset, requestingParties: [w.party] }, `transaction-by-offset (deprecated) of ${theirs.offset}`);
    },
  }),
];

/**
 * One party's cumulative list of several filters is their union (Canton's EventProjectionProperties:
 * a contract carries a blob when any filter matching it asks for one, and the views of every
 * interface a matching filter asks a view of). A wallet reads its holdings and its other contracts
 * in one query, blobs for the holdings only, and asks an interface twice when two of its parts do.
 */
async function judgeCumulative(ctx: CheckContext, w: World, where: Where): Promise<void> {
  const t = ctx.profile.ledger!.template!;
  const mine = [...w.contracts].filter(([, c]) => c.owner === w.party);
  const interfaceFilter = (includeInterfaceView: boolean, includeCreatedEventBlob: boolean): Json => ({ InterfaceFilter: { value: { interfaceId: t.interfaceId!, includeInterfaceView, includeCreatedEventBlob } } });
  const cases: readonly { readonly what: string; readonly filters: readonly Json[]; readonly blobOn: 'first' | 'none'; readonly viewOn: 'first' | 'none' }[] = [
    { what: 'a wildcard without blobs and the interface with blobs', filters: [{ WildcardFilter: { value: { includeCreatedEventBlob: false } } }, interfaceFilter(false, true)], blobOn: 'first', viewOn: 'none' },
    {
      what: 'the second template, the interface without its view, and the interface with its view',
      filters: [identifierFilter(ctx, { kind: 'second', scope: 'party', blob: false, where }), interfaceFilter(false, false), interfaceFilter(true, false)],
      blobOn: 'none', viewOn: 'first',
    },
  ];
  for (const c of cases) {
    const format = { filtersByParty: { [w.party]: { cumulative: c.filters.map((identifierFilter) => ({ identifierFilter })) } }, verbose: true };
    const { e, events } = await read(ctx, w, { kind: 'wildcard', scope: 'party', blob: false, where }, undefined, format);
    const what = `${w.party}'s cumulative filters, ${c.what} (${where})`;
    const got = new Map(events.filter((ev) => w.contracts.has(String(ev.contractId))).map((ev) => [String(ev.contractId), ev]));
    const missing = mine.filter(([id]) => !got.has(id)).map(([id]) => id);
    if (missing.length > 0) ctx.fail(`${what}: lacks ${missing.join(', ')}; the filters of one list add up (one of them matches each)`, e);
    for (const [id, { template }] of mine) {
      const ev = got.get(id);
      if (ev === undefined) continue;
      const blob = typeof ev.createdEventBlob === 'string' && ev.createdEventBlob !== '';
      const wantBlob = c.blobOn === 'first' && template === 'first';
      if (blob !== wantBlob) ctx.fail(`${what}: contract ${id} (${template} template) ${wantBlob ? 'lacks a createdEventBlob, which the interface filter matching it asks for' : 'carries a createdEventBlob, which no filter matching it asks for'}`, e);
      const viewed = (Array.isArray(ev.interfaceViews) ? ev.interfaceViews.filter(isObject) : []).some((v) => qualifiedName(String(v.interfaceId)) === qualifiedName(t.interfaceId!));
      const wantView = c.viewOn === 'first' && template === 'first';
      if (viewed !== wantView) ctx.fail(`${what}: contract ${id} (${template} template) ${wantView ? `has no view of ${t.interfaceId!}, which one of the filters matching it asks for` : `carries a view of ${t.interfaceId!}, which no filter asked for`}`, e);
    }
  }
}
