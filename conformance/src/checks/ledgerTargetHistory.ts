/**
 * The target's own transactions re-run by the engine: not the suite's commands (the sweep of
 * `reinterpret/` re-runs those) but what the target's ledger held when the run began (its own
 * applications' transactions and anyone else's a reader sees), re-run from the top-level nodes a
 * reader sees, as a confirming participant re-runs the root action of each view; then the
 * interface views of the reader's active contracts. Read-only: it judges a participant whose
 * profile allows no writes by nothing but its own ledger and the packages it serves. What other
 * applications commit during the run is re-run at its end (`reinterpret/reinterpretFollowed.ts`).
 */
import { describeDifference } from '../reinterpret/compareTransaction.js';
import { httpLedgerSource, packageFetcher, type ArchiveMark, type LedgerSource } from '../reinterpret/ledgerSource.js';
import { viewDifferencesFrom } from '../reinterpret/compareViews.js';
import { shapeDifferences } from '../reinterpret/compareShapes.js';
import { parseTemplateId } from '../reinterpret/reinterpret.js';
import { lookupTemplate } from '../../../daml-engine/index.js';
import { MAX_SHOWN_EVENTS, reinterpretShown, witnessesOf } from '../reinterpret/reinterpretShown.js';
import { firstDifference, isObject, jsonEqual, type Json } from './support/expect.js';
import { eventFormat, ledgerEnd, listAfter, notBeforePruned, offsetOf, readActiveContracts, transactionJsonOf } from './support/ledger.js';
import { jsonOf, type AuthMode, type Exchange } from '../target/exchange.js';
import { readerAuth } from './crossGroup.js';
import { LedgerOp } from './ledgerOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** Offsets back from the ledger end the check reads (the target's recent history): as many transactions at most. */
const WINDOW = 200;

/**
 * The updates in the window, LEDGER_EFFECTS. Over the WebSocket where the target has one: a frame
 * per update, so one large transaction of the target's (thousands of events) is read whole
 * instead of cutting a page of the HTTP list short. Else the HTTP list, in small pages that double.
 */
async function window(
  ctx: CheckContext, request: Json & { readonly beginExclusive: number; readonly endInclusive: number }, party: string | undefined, auth: AuthMode | undefined,
): Promise<{ exchange: Exchange; items: readonly unknown[]; whole: boolean }> {
  const what = `the target's updates (${request.beginExclusive}, ${request.endInclusive}] in LEDGER_EFFECTS shape, as ${party ?? 'any party'}`;
  const as = auth === undefined ? {} : { auth };
  if (ctx.profile.ledger?.websocket !== false) {
    const ws = await ctx.http.stream('ledger', '/v2/updates', {
      request, operationId: LedgerOp.updates, idleMs: 3000, timeoutMs: Math.max(30_000, ctx.timeoutMs),
      until: (messages) => messages.some((m) => (offsetOf(m) ?? -1) >= request.endInclusive), ...as,
    });
    if (ws.rejectedStatus === 403 && party === undefined) forbidden(ctx);
    if (ws.rejectedStatus !== undefined) ctx.fail(`${what}: the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
    const errorFrame = ws.messages.find((m) => isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string');
    // Canton hides a refusal's cause (code NA) but keeps its gRPC code: 7, PERMISSION_DENIED.
    if (isObject(errorFrame) && party === undefined && (errorFrame.grpcCodeValue === 7 || errorFrame.code === 'PERMISSION_DENIED')) forbidden(ctx);
    if (errorFrame !== undefined) ctx.fail(`${what}: the stream sent an error frame: ${JSON.stringify(errorFrame).slice(0, 300)}`, ws.exchange);
    // Whole: the stream closed at its end, or showed an offset at or past it (nothing of the window left unread).
    return { exchange: ws.exchange, items: ws.messages, whole: ws.ended === 'closed' || ws.ended === 'until' };
  }
  const probe = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates', query: { limit: 1, stream_idle_timeout_ms: 300 }, json: request, ...as });
  if (party === undefined && probe.response?.status === 403) forbidden(ctx);
  const { e, items } = await listAfter(ctx, '/v2/updates', request, { what, idleMs: 1000, maxPages: WINDOW, enough: () => false, ...as });
  return { exchange: e, items, whole: false };
}

function forbidden(ctx: CheckContext): never {
  return ctx.skip(`profile '${ctx.profile.name}' names no ledger party, and neither the run's token nor auth.readerUser may read as any party (CanReadAsAnyParty): no history to re-run`);
}

/** Interfaces whose views it judges (those most of the reader's active contracts implement first), and active contracts per interface, at most. */
const MOST_INTERFACES = 16;
const MOST_VIEWS = 100;

/** Active contracts whose templates it looks at for the interfaces they implement, at most. */
const MOST_ACTIVE = 2_000;

/** The reader's active contract set at an offset, as far as `activeTemplates` read it. */
interface ActiveSet {
  readonly templates: Map<string, number>;
  /** Every contract id any entry names (active, and incomplete unassigned or assigned: in flight between synchronizers). */
  readonly contractIds: ReadonlySet<string>;
  /** The snapshot closed normally with every entry read (not cut at MOST_ACTIVE, no error frame). */
  readonly whole: boolean;
  readonly exchange?: Exchange;
}

/**
 * The templates of the reader's active contracts at `offset` (a WebSocket read, so a large ACS is
 * cut at MOST_ACTIVE instead of answering 413), beside the history's; and the contract ids of its entries.
 */
async function activeTemplates(ctx: CheckContext, party: string | undefined, auth: AuthMode | undefined, offset: number): Promise<ActiveSet> {
  const out = new Map<string, number>();
  const contractIds = new Set<string>();
  if (ctx.profile.ledger?.websocket === false) return { templates: out, contractIds, whole: false };
  const ws = await ctx.http.stream('ledger', '/v2/state/active-contracts', {
    request: { activeAtOffset: offset, eventFormat: eventFormat(party) }, operationId: 'postV2StateActive-contracts',
    idleMs: 3000, timeoutMs: Math.max(30_000, ctx.timeoutMs), maxMessages: MOST_ACTIVE, ...(auth === undefined ? {} : { auth }),
  });
  for (const m of ws.messages) {
    const active = isObject(m) && isObject(m.contractEntry) && isObject(m.contractEntry.JsActiveContract) ? m.contractEntry.JsActiveContract : undefined;
    const t = active !== undefined && isObject(active.createdEvent) ? active.createdEvent.templateId : undefined;
    if (typeof t === 'string') out.set(t, (out.get(t) ?? 0) + 1);
    if (isObject(m)) contractIdsIn(m.contractEntry, contractIds);
  }
  const errorFrame = ws.messages.some((m) => isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string');
  const whole = ws.ended === 'closed' && (ws.closeCode === undefined || ws.closeCode === 1000 || ws.closeCode === 1005) && !errorFrame && ws.messages.length < MOST_ACTIVE;
  return { templates: out, contractIds, whole, exchange: ws.exchange };
}

function contractIdsIn(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) contractIdsIn(x, out);
  else if (isObject(v)) {
    if (typeof v.contractId === 'string') out.add(v.contractId);
    for (const x of Object.values(v)) contractIdsIn(x, out);
  }
}

/**
 * The interface views of the reader's active contracts when the run began, for the interfaces
 * their templates (and the history's) implement: each view the target computes must be the
 * engine's (`judge.daml.view`). A wallet reads its holdings this way (the token standard's Holding view).
 */
async function judgeViews(
  ctx: CheckContext, source: LedgerSource, history: ReadonlySet<string>, active: ReadonlyMap<string, number>, party: string | undefined, auth: AuthMode | undefined, offset: number,
): Promise<{ compared: number; skipped: readonly string[] }> {
  const { need, getPackage } = packageFetcher(source);
  // Each interface with the number of the reader's active contracts that implement it.
  const interfaces = new Map<string, number>();
  for (const t of new Set([...history, ...active.keys()])) {
    const id = parseTemplateId(t);
    // A package the target cannot serve (a hand-written port) has no interface instances to judge.
    if (id === undefined || (await need(id.packageId)) !== undefined) continue;
    for (const impl of lookupTemplate(getPackage, id)?.implements.values() ?? []) {
      const key = `${impl.iface.packageId}:${impl.iface.module}:${impl.iface.name}`;
      interfaces.set(key, (interfaces.get(key) ?? 0) + (active.get(t) ?? 0));
    }
  }
  let compared = 0;
  const skipped: string[] = [];
  const order = [...interfaces].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
  for (const interfaceId of order.slice(0, MOST_INTERFACES)) {
    const filters = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] };
    const eventFormat = { ...(party === undefined ? { filtersForAnyParty: filters } : { filtersByParty: { [party]: filters } }), verbose: true };
    const { exchange, entries } = await readActiveContracts(ctx, { activeAtOffset: offset, eventFormat }, `the active contracts of ${interfaceId} at offset ${offset}, with their views`, auth === undefined ? {} : { auth });
    const events = entries.flatMap((e) => {
      const active = isObject(e) && isObject(e.contractEntry) && isObject(e.contractEntry.JsActiveContract) ? e.contractEntry.JsActiveContract : undefined;
      return active !== undefined && isObject(active.createdEvent) ? [{ CreatedEvent: active.createdEvent }] : [];
    }).slice(0, MOST_VIEWS);
    if (events.length === 0) continue;
    const r = await viewDifferencesFrom(source, events);
    if (typeof r === 'string') {
      skipped.push(`${interfaceId}: ${r}`);
      continue;
    }
    if (r.length > 0) ctx.fail(`the views of ${interfaceId} the target computes for its active contracts are not the engine's: ${r.map(describeDifference).join('; ')}`, exchange);
    compared += events.length;
  }
  return { compared, skipped };
}

/**
 * The same window in the ACS-delta shape (the same event format): each transaction as the
 * ledger-effects shape's acsDelta events imply it (`compareShapes.ts`), for every transaction read,
 * those the engine cannot re-run too. A wallet reads its holdings from one shape, trees from the other.
 */
async function judgeShapes(ctx: CheckContext, request: Json & { readonly beginExclusive: number; readonly endInclusive: number; readonly updateFormat: { readonly includeTransactions: Json } }, transactions: readonly Json[], party: string | undefined, auth: AuthMode | undefined): Promise<void> {
  const flatRequest = { ...request, updateFormat: { includeTransactions: { ...request.updateFormat.includeTransactions, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } };
  const read = await window(ctx, flatRequest, party, auth);
  const flat = new Map<string, Json>();
  for (const item of read.items) {
    const tx = transactionJsonOf(item);
    if (tx !== undefined && typeof tx.updateId === 'string') flat.set(tx.updateId, tx);
  }
  const problems: string[] = [];
  for (const tx of transactions) {
    const d = shapeDifferences(tx, flat.get(String(tx.updateId)));
    if (d.length > 0) problems.push(`transaction ${String(tx.updateId)} at offset ${String(tx.offset)}: ${d.join('; ')}`);
  }
  if (problems.length > 0) {
    ctx.fail(`the ACS-delta shape of ${problems.length} of the target's recent transactions is not what their ledger-effects shape says is part of it (acsDelta): ${problems.slice(0, 3).join(' | ')}`, read.exchange);
  }
}

/** Where the window shows each contract archived (an archived event, a consuming exercise): its transaction's offset and synchronizer. */
function archivesOf(transactions: readonly Json[]): Map<string, ArchiveMark> {
  const out = new Map<string, ArchiveMark>();
  for (const tx of transactions) {
    if (typeof tx.offset !== 'number') continue;
    for (const x of tx.events as unknown[]) {
      const cid = archivedBy(x);
      if (cid !== undefined && !out.has(cid)) out.set(cid, { offset: tx.offset, ...(typeof tx.synchronizerId === 'string' ? { synchronizerId: tx.synchronizerId } : {}) });
    }
  }
  return out;
}

/** The contract an event archives (an archived event, a consuming exercise), if any. */
function archivedBy(event: unknown): string | undefined {
  if (!isObject(event)) return undefined;
  const a = isObject(event.ArchivedEvent) ? event.ArchivedEvent : isObject(event.ExercisedEvent) && event.ExercisedEvent.consuming === true ? event.ExercisedEvent : undefined;
  return a !== undefined && typeof a.contractId === 'string' ? a.contractId : undefined;
}

/**
 * The source with the window's archives: an input contract whose created event the run remembers
 * (no lookup, so no archive with it) is still known archived where the window archived it.
 */
function withArchives(source: LedgerSource, archives: ReadonlyMap<string, ArchiveMark>): LedgerSource {
  return {
    ...source,
    async contract(contractId, parties, options) {
      const c = await source.contract(contractId, parties, options);
      const a = archives.get(contractId);
      return c === undefined || a === undefined || c.archivedAt !== undefined ? c : { ...c, archivedAt: a };
    },
  };
}

/** Contracts the active-set judgement names in its message, at most. */
const MOST_NAMED = 3;

/**
 * The active contract set at the window's end against the window: a contract the window shows
 * created as part of the ACS delta (acsDelta) and never archived is active at its end. A wallet
 * that reads its holdings from the ACS and follows the stream from there would never see it.
 * Judged only when both reads are whole (the window to its end, the snapshot not cut). A contract
 * in flight between synchronizers is an entry of another kind, which counts; one of a party whose
 * hosting the window revokes or changes (offboarding) may leave the set without an archive.
 */
async function judgeActiveSet(ctx: CheckContext, transactions: readonly Json[], active: ActiveSet, window: { begin: number; end: number }, party: string | undefined, auth: AuthMode | undefined): Promise<void> {
  const created = new Map<string, { offset: number; stakeholders: string[] }>();
  const archived = new Set<string>();
  for (const tx of transactions) {
    for (const x of tx.events as unknown[]) {
      if (!isObject(x)) continue;
      const c = isObject(x.CreatedEvent) ? x.CreatedEvent : undefined;
      if (c !== undefined && c.acsDelta === true && typeof c.contractId === 'string') {
        const stakeholders = [...(Array.isArray(c.signatories) ? c.signatories : []), ...(Array.isArray(c.observers) ? c.observers : [])].map(String);
        created.set(c.contractId, { offset: Number(tx.offset), stakeholders });
      }
      const gone = archivedBy(x);
      if (gone !== undefined) archived.add(gone);
    }
  }
  const missing = [...created].filter(([cid]) => !archived.has(cid) && !active.contractIds.has(cid));
  if (missing.length === 0) return;
  const moved = await partiesRehosted(ctx, window, party, auth);
  if (moved === undefined) return;
  const unexplained = missing.filter(([, c]) => !c.stakeholders.some((p) => moved.has(p)));
  if (unexplained.length === 0) return;
  const named = unexplained.slice(0, MOST_NAMED).map(([cid, c]) => `${cid} (created at offset ${c.offset})`).join(', ');
  ctx.fail(
    `the active contracts at offset ${window.end} (as ${party ?? 'any party'}) miss ${unexplained.length} contract(s) the target's updates (${window.begin}, ${window.end}] show created (acsDelta) and never archived: ${named}${unexplained.length > MOST_NAMED ? ', …' : ''}; a client that starts from the ACS and follows the stream never sees them`,
    active.exchange,
  );
}

/**
 * The parties whose hosting the window revokes or changes (participant authorization topology
 * events), or undefined when the target does not answer them (then nothing is judged).
 */
async function partiesRehosted(ctx: CheckContext, window: { begin: number; end: number }, party: string | undefined, auth: AuthMode | undefined): Promise<Set<string> | undefined> {
  const request = {
    beginExclusive: window.begin, endInclusive: window.end,
    updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: party === undefined ? [] : [party] } } },
  };
  const ws = await ctx.http.stream('ledger', '/v2/updates', {
    request, operationId: LedgerOp.updates, idleMs: 3000, timeoutMs: Math.max(30_000, ctx.timeoutMs), ...(auth === undefined ? {} : { auth }),
  });
  if (ws.ended !== 'closed' || ws.messages.some((m) => isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string')) return undefined;
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isObject(v)) {
      for (const kind of ['ParticipantAuthorizationRevoked', 'ParticipantAuthorizationChanged']) {
        const e = isObject(v[kind]) ? (isObject((v[kind] as Json).value) ? ((v[kind] as Json).value as Json) : (v[kind] as Json)) : undefined;
        if (e !== undefined && typeof e.partyId === 'string') out.add(e.partyId);
      }
      Object.values(v).forEach(visit);
    }
  };
  visit(ws.messages);
  return out;
}

/** The newest transactions of the window it reads again by update id, at most. */
const MOST_POINT_READS = 20;

/**
 * The newest transactions of the window read again by update id with the same format: the same
 * transaction as the stream showed. A client told of a transaction (a completion, a transfer
 * instruction) reads it this way, for transactions of other applications as much as its own.
 */
async function judgePointReads(ctx: CheckContext, updateFormat: Json, transactions: readonly Json[], auth: AuthMode | undefined): Promise<void> {
  for (const tx of transactions.slice(-MOST_POINT_READS)) {
    const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId: tx.updateId, updateFormat }, ...(auth === undefined ? {} : { auth }) });
    if (e.response?.status !== 200) {
      // A participant in service may prune while the run reads: a transaction pruned since is gone.
      if (typeof tx.offset === 'number' && (await notBeforePruned(ctx, 0)) >= tx.offset) continue;
      ctx.fail(`update-by-id of transaction ${String(tx.updateId)} (offset ${String(tx.offset)}), which the update stream showed, answered ${e.response ? `HTTP ${e.response.status}` : e.error?.message ?? 'nothing'}`, e);
    }
    const body = jsonOf(e);
    const byId = transactionJsonOf(body.ok ? body.value : undefined);
    if (byId === undefined || !jsonEqual(byId, tx)) {
      ctx.fail(`update-by-id of transaction ${String(tx.updateId)} (offset ${String(tx.offset)}) answers another transaction than the update stream showed with the same format, first at ${firstDifference(byId, tx) ?? '/'}`, e);
    }
  }
}

export const TARGET_HISTORY = 'ledger.reinterpret.target-history';

export const ledgerTargetHistoryChecks: readonly CheckDefinition[] = [
  {
    id: TARGET_HISTORY,
    title: "The target's recent transactions, re-run by the engine from the top-level nodes its reader sees, are what the target shows (nodes, payloads, parties, results, acsDelta), and their ACS-delta shape is what their ledger-effects shape says",
    group: 'ledger',
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'example',
    specRef: 'daml-lf-2.rst "Update interpretation"; transaction.rst "Projections" (a party that sees a node sees its subtree); Canton: confirming participants re-interpret the root action of each view; event.proto acs_delta (the event is part of the ACS_DELTA shape of the same read)',
    readsTargetState: 'it reads the target\'s history from before the run (its own and other applications\' transactions), which the reference never had; it judges each transaction by re-running it with the engine',
    async run(ctx) {
      const tally = ctx.reinterpretation;
      if (tally === undefined || tally.mode === 'none') return ctx.skip('re-interpretation is off (--reinterpret none)');
      // The profile's party: its own history. Without one, every party the token may read.
      const party = ctx.profile.ledger?.party;
      // The history the target had when the run began (the suite's own transactions are the sweep's).
      const end = tally.historyEnd ?? (await ledgerEnd(ctx)).offset;
      const begin = await notBeforePruned(ctx, Math.max(0, end - WINDOW));
      if (end <= begin) ctx.skip(`the target's ledger holds no update after offset ${begin} to re-run`);
      const request = {
        beginExclusive: begin,
        endInclusive: end,
        updateFormat: { includeTransactions: { eventFormat: eventFormat(party, { verbose: true }), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
      };
      // Any party: as the profile's reader (auth.readerUser), where it names one, else the run's token.
      const auth = party === undefined ? await readerAuth(ctx) : undefined;
      const read = await window(ctx, request, party, auth);
      const transactions: Json[] = [];
      for (const item of read.items) {
        const tx = transactionJsonOf(item);
        if (tx !== undefined && Array.isArray(tx.events) && tx.events.length > 0) transactions.push(tx);
      }
      const e = read.exchange;
      if (transactions.length === 0) ctx.skip(`the target's ledger shows no transaction in (${begin}, ${end}] to ${party ?? 'any party'}`);
      const source = withArchives(httpLedgerSource(ctx, auth), archivesOf(transactions));
      const skips = new Map<string, number>();
      const templates = new Set<string>();
      let agreed = 0;
      let large = 0;
      for (const tx of transactions) {
        const events = tx.events as unknown[];
        if (events.length > MAX_SHOWN_EVENTS) {
          large++;
          tally.recordHistory({ kind: 'skipped' });
          continue;
        }
        const parties = party === undefined ? witnessesOf(events) : [party];
        const r = await reinterpretShown(source, { parties, transaction: tx });
        tally.recordHistory(r);
        if (r.kind === 'agrees') {
          agreed++;
          for (const x of events) {
            const event = isObject(x) ? (isObject(x.CreatedEvent) ? x.CreatedEvent : isObject(x.ExercisedEvent) ? x.ExercisedEvent : undefined) : undefined;
            if (event !== undefined && typeof event.templateId === 'string') templates.add(event.templateId);
          }
        } else if (r.kind === 'skipped') skips.set(r.reason, (skips.get(r.reason) ?? 0) + 1);
        else {
          ctx.fail(`transaction ${String(tx.updateId)} at offset ${String(tx.offset)}, re-run from the top-level nodes ${parties.join(', ')} see, differs from what the target shows: ${r.differences.map(describeDifference).join('; ')}`, e);
        }
      }
      await judgeShapes(ctx, request, transactions, party, auth);
      await judgePointReads(ctx, request.updateFormat, transactions, auth);
      const active = await activeTemplates(ctx, party, auth, end);
      if (read.whole && active.whole) await judgeActiveSet(ctx, transactions, active, { begin, end }, party, auth);
      const views = await judgeViews(ctx, source, templates, active.templates, party, auth, end);
      tally.recordHistoryViews(views.compared);
      if (agreed === 0) {
        const reasons = [...skips].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([reason, n]) => `${n} x ${reason}`);
        if (large > 0) reasons.push(`${large} x more than ${MAX_SHOWN_EVENTS} events`);
        ctx.skip(`none of the target's ${transactions.length} latest transactions could be re-run: ${reasons.join('; ')}`);
      }
    },
  },
];
