import { jsonOf, type AuthMode, type Exchange } from '../../target/exchange.js';
import type { StreamOptions, StreamResult } from '../../target/websocket.js';
import type { CheckContext } from '../types.js';
import { expectStatus, isObject, objectBody, bodyOf, type Json } from './expect.js';
import { patienceMs, poll } from './poll.js';

/** Read helpers and the suite's own writes on a JSON Ledger API v2 target. All go through ctx.http (recorded). */

export interface CreatedEventView {
  readonly contractId: string;
  readonly templateId: string;
  readonly offset?: number;
  readonly createArgument?: unknown;
  readonly createdEventBlob?: string;
  readonly createdAt?: string;
  readonly signatories?: readonly string[];
}

export interface ActiveContract {
  readonly createdEvent: CreatedEventView;
  readonly synchronizerId?: string;
}

export async function ledgerEnd(ctx: CheckContext): Promise<{ offset: number; exchange: Exchange }> {
  const exchange = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/ledger-end' });
  expectStatus(ctx, exchange, 200, 'GET /v2/state/ledger-end');
  const body = objectBody(ctx, exchange, 'ledger end');
  const offset = body.offset ?? 0;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) ctx.fail(`ledger end offset must be a non-negative integer, got ${JSON.stringify(body.offset)}`, exchange);
  return { offset, exchange };
}

/**
 * `begin` moved up to where the participant's history starts: a production participant prunes, and
 * a read from before its pruning offset is refused (PARTICIPANT_PRUNED_DATA_ACCESSED). Read
 * afresh each time (pruning can run during a run); a target that does not answer it leaves
 * `begin` as it is.
 */
export async function notBeforePruned(ctx: CheckContext, begin: number): Promise<number> {
  const e = await ctx.http.request('ledger', { method: 'GET', path: '/v2/state/latest-pruned-offsets' });
  const body = e.response?.status === 200 ? jsonOf(e) : undefined;
  const pruned = body?.ok && isObject(body.value) ? body.value.participantPrunedUpToInclusive : undefined;
  return typeof pruned === 'number' && pruned > begin ? pruned : begin;
}

/** userId for submissions: the profile's, else none (a user token implies it). */
export const userIdOf = (ctx: CheckContext): string | undefined => ctx.profile.ledger?.userId;

/**
 * The party the suite acts as. With `allocateParties` it allocates one per run (its contracts are
 * then isolated from everything else on the target); otherwise the profile's `ledger.party`.
 */
export function suiteParty(ctx: CheckContext): Promise<string> {
  const ledger = ctx.profile.ledger;
  if (ledger?.allocateParties && ctx.profile.writes) {
    return ctx.shared('suite-party', async () => {
      const hint = ctx.unique('cc-suite').replace(/[^a-zA-Z0-9_-]/g, '-');
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties', json: { partyIdHint: hint, identityProviderId: '' } });
      expectStatus(ctx, e, 200, 'allocating the suite party (POST /v2/parties)');
      const details = objectBody(ctx, e, 'party allocation').partyDetails;
      if (!isObject(details) || typeof details.party !== 'string') ctx.fail('POST /v2/parties: no partyDetails.party in the answer', e);
      const party = details.party;
      const userId = userIdOf(ctx);
      if (ctx.profile.auth?.required && userId !== undefined) {
        const grant = await ctx.http.request('ledger', {
          method: 'POST',
          path: `/v2/users/${encodeURIComponent(userId)}/rights`,
          json: { userId, rights: [{ kind: { CanActAs: { value: { party } } } }, { kind: { CanReadAs: { value: { party } } } }], identityProviderId: '' },
        });
        expectStatus(ctx, grant, 200, `granting the run's user rights over the suite party`);
      }
      return party;
    });
  }
  if (ledger?.party) return Promise.resolve(ledger.party);
  return ctx.skip(`profile '${ctx.profile.name}' names no ledger party (ledger.party) and does not allow party allocation (ledger.allocateParties)`);
}

/**
 * A party to read as: the suite's own when it may write, else the profile's, else none (any
 * party, which a secured participant grants only to read-as-any-party users).
 */
export async function readParty(ctx: CheckContext): Promise<string | undefined> {
  if (ctx.profile.writes && (ctx.profile.ledger?.allocateParties || ctx.profile.ledger?.party)) return suiteParty(ctx);
  return ctx.profile.ledger?.party;
}

/** A profile value with `{{party}}`, `{{amount}}` and `{{unique}}` filled in. */
export function fill(v: unknown, vars: { party: string; amount: string; unique?: string }): unknown {
  if (typeof v === 'string') return v.replace(/\{\{party\}\}/g, vars.party).replace(/\{\{amount\}\}/g, vars.amount).replace(/\{\{unique\}\}/g, vars.unique ?? '');
  if (Array.isArray(v)) return v.map((x) => fill(x, vars));
  return isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, vars)])) : v;
}

/** The template the suite may create, with placeholders filled in. */
export function createCommand(ctx: CheckContext, party: string, amount = '10.0'): { templateId: string; createArguments: Json } {
  const t = ctx.profile.ledger?.template;
  if (!t) return ctx.skip(`profile '${ctx.profile.name}' names no template the suite may create (ledger.template)`);
  return { templateId: t.templateId, createArguments: fill(t.createArguments, { party, amount, unique: ctx.unique('cc') }) as Json };
}

/** The profile's second template (template filters must tell two apart), filled in. */
export function secondCreateCommand(ctx: CheckContext, party: string): { templateId: string; createArguments: Json } {
  const t = ctx.profile.ledger?.secondTemplate;
  if (!t) return ctx.skip(`profile '${ctx.profile.name}' names no second template (ledger.secondTemplate), so filters cannot be told apart`);
  return { templateId: t.templateId, createArguments: fill(t.createArguments, { party, amount: '1.0', unique: ctx.unique('cc') }) as Json };
}

/**
 * A party of the check's own (allocated, and on a secured target granted to the run's user), so
 * what it sees is exactly what the check did. Skips unless the profile allows party allocation.
 */
export async function freshParty(ctx: CheckContext, hint = 'cc-party', annotations?: Readonly<Record<string, string>>): Promise<string> {
  if (!ctx.profile.writes || !ctx.profile.ledger?.allocateParties) return ctx.skip(`profile '${ctx.profile.name}' does not allow party allocation (ledger.allocateParties)`);
  const localMetadata = annotations === undefined ? {} : { localMetadata: { resourceVersion: '', annotations } };
  const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties', json: { partyIdHint: ctx.unique(hint).replace(/[^a-zA-Z0-9_-]/g, '-'), identityProviderId: '', ...localMetadata } });
  expectStatus(ctx, e, 200, 'allocating a party (POST /v2/parties)');
  const d = objectBody(ctx, e, 'party allocation').partyDetails;
  if (!isObject(d) || typeof d.party !== 'string') return ctx.fail('POST /v2/parties: no partyDetails.party in the answer', e);
  const userId = userIdOf(ctx);
  if (ctx.profile.auth?.required && userId !== undefined) {
    const g = await ctx.http.request('ledger', { method: 'POST', path: `/v2/users/${encodeURIComponent(userId)}/rights`, json: { userId, rights: [{ kind: { CanActAs: { value: { party: d.party } } } }, { kind: { CanReadAs: { value: { party: d.party } } } }], identityProviderId: '' } });
    expectStatus(ctx, g, 200, `granting the run's user rights over ${d.party}`);
  }
  return d.party;
}

export interface Submitted {
  readonly exchange: Exchange;
  readonly updateId: string;
  readonly completionOffset: number;
}

/** JsCommands for one command acting as `party`. */
export function jsCommands(ctx: CheckContext, party: string, command: Json, commandId = ctx.unique('cc-cmd')): Json {
  const userId = userIdOf(ctx);
  return { commands: [command], commandId, actAs: [party], ...(userId === undefined ? {} : { userId }) };
}

/** POST /v2/commands/submit-and-wait, expecting success. */
export async function submitAndWait(ctx: CheckContext, body: Json, what: string): Promise<Submitted> {
  const exchange = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: body });
  expectStatus(ctx, exchange, 200, what);
  const b = objectBody(ctx, exchange, what);
  if (typeof b.updateId !== 'string' || typeof b.completionOffset !== 'number') ctx.fail(`${what}: submit-and-wait must answer {updateId, completionOffset}`, exchange);
  return { exchange, updateId: b.updateId, completionOffset: b.completionOffset };
}

export interface Created extends Submitted {
  readonly contractId: string;
  readonly templateId: string;
  readonly commandId: string;
  readonly body: Json;
}

/** Creates one contract of the profile's template; the contract id comes from the transaction. */
export function createContract(ctx: CheckContext, party: string, commandId = ctx.unique('cc-create')): Promise<Created> {
  return createOf(ctx, party, createCommand(ctx, party), commandId);
}

/** Creates one contract of any template through submit-and-wait-for-transaction. */
export async function createOf(ctx: CheckContext, party: string, create: { templateId: string; createArguments: Json }, commandId = ctx.unique('cc-create')): Promise<Created> {
  const body = jsCommands(ctx, party, { CreateCommand: create }, commandId);
  const exchange = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', json: { commands: body } });
  expectStatus(ctx, exchange, 200, 'creating a contract (submit-and-wait-for-transaction)');
  const tx = objectBody(ctx, exchange, 'submit-and-wait-for-transaction').transaction;
  if (!isObject(tx) || typeof tx.updateId !== 'string' || typeof tx.offset !== 'number' || !Array.isArray(tx.events)) {
    return ctx.fail('submit-and-wait-for-transaction must answer {transaction: {updateId, offset, events}}', exchange);
  }
  const created = tx.events.map((e) => (isObject(e) && isObject(e.CreatedEvent) ? e.CreatedEvent : undefined)).find((e) => e !== undefined);
  if (!created || typeof created.contractId !== 'string' || typeof created.templateId !== 'string') {
    return ctx.fail('the transaction of a create holds no CreatedEvent with contractId and templateId', exchange);
  }
  return { exchange, updateId: tx.updateId, completionOffset: tx.offset, contractId: created.contractId, templateId: created.templateId, commandId, body };
}

/** Archives a contract (consuming `Archive`, or the profile's archive choice). */
export async function archiveContract(ctx: CheckContext, party: string, contract: { contractId: string; templateId: string }): Promise<Submitted> {
  const choice = ctx.profile.ledger?.template?.archiveChoice ?? 'Archive';
  const body = jsCommands(ctx, party, { ExerciseCommand: { templateId: ctx.profile.ledger?.template?.templateId ?? contract.templateId, contractId: contract.contractId, choice, choiceArgument: {} } });
  return submitAndWait(ctx, body, `archiving ${contract.contractId}`);
}

/** eventFormat reading as `party` (or any party), optionally one template, optionally with blobs. */
export function eventFormat(party: string | undefined, o: { templateId?: string; blob?: boolean; verbose?: boolean } = {}): Json {
  const identifierFilter = o.templateId
    ? { TemplateFilter: { value: { templateId: o.templateId, includeCreatedEventBlob: o.blob === true } } }
    : { WildcardFilter: { value: { includeCreatedEventBlob: o.blob === true } } };
  const filters = { cumulative: [{ identifierFilter }] };
  return { ...(party === undefined ? { filtersForAnyParty: filters } : { filtersByParty: { [party]: filters } }), verbose: o.verbose ?? false };
}

/** POST /v2/state/active-contracts at an offset; the JsActiveContract entries. */
export async function activeContracts(
  ctx: CheckContext,
  party: string | undefined,
  activeAtOffset: number,
  o: { templateId?: string; blob?: boolean; auth?: AuthMode; skipIfForbidden?: string } = {},
): Promise<{ exchange: Exchange; contracts: ActiveContract[] }> {
  const { exchange, entries } = await readActiveContracts(ctx, { activeAtOffset, eventFormat: eventFormat(party, o) }, `active contracts at offset ${activeAtOffset}`, o);
  const contracts: ActiveContract[] = [];
  for (const item of entries) {
    const entry = isObject(item) && isObject(item.contractEntry) ? item.contractEntry : undefined;
    const active = entry && isObject(entry.JsActiveContract) ? entry.JsActiveContract : undefined;
    if (!active) continue;
    if (!isObject(active.createdEvent) || typeof active.createdEvent.contractId !== 'string') ctx.fail('a JsActiveContract entry has no createdEvent.contractId', exchange);
    contracts.push({ createdEvent: active.createdEvent as unknown as CreatedEventView, ...(typeof active.synchronizerId === 'string' ? { synchronizerId: active.synchronizerId } : {}) });
  }
  return { exchange, contracts };
}

/**
 * Whether a stream ended on Canton's STALE_STREAM_AUTHORIZATION frame ("Retry quickly"): the
 * user's rights changed while it ran (a party allocated for it, by another check or client), and
 * the participant cut it short, as it must. What it sent is a prefix, not the answer.
 */
export function endedStale(messages: readonly unknown[]): boolean {
  const last = messages.at(-1);
  return isObject(last) && last.code === 'STALE_STREAM_AUTHORIZATION';
}

/**
 * `ctx.http.stream`, made again (at most twice more, at once, as the error asks) when it ended
 * stale; still stale after that, the check skips: the run's user's rights kept changing.
 */
export async function streamRetryingStale(ctx: CheckContext, path: string, options: StreamOptions): Promise<StreamResult> {
  for (let attempt = 1; ; attempt++) {
    const ws = await ctx.http.stream('ledger', path, options);
    if (!endedStale(ws.messages)) return ws;
    if (attempt === 3) return ctx.skip(`${path} over the WebSocket ended with STALE_STREAM_AUTHORIZATION three times in a row: the run user's rights kept changing while it ran (other checks allocate parties for it), so no whole answer could be read`);
  }
}

/**
 * `POST /v2/state/active-contracts` with `request`: its entries, and the exchange that carried
 * them. A participant answers 413 once the result passes its http-list-max-elements-limit (any
 * busy party, any read for all parties); the entries then come from the WebSocket form the 413
 * points clients to, so checks judge what they ask about, not the size of the target's ledger.
 */
export async function readActiveContracts(
  ctx: CheckContext,
  request: Json,
  what: string,
  o: { auth?: AuthMode; skipIfForbidden?: string; small?: boolean } = {},
): Promise<{ exchange: Exchange; entries: readonly unknown[] }> {
  const auth = o.auth ? { auth: o.auth } : {};
  const exchange = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: request, ...auth });
  if (o.skipIfForbidden !== undefined && exchange.response?.status === 403) ctx.skip(o.skipIfForbidden);
  // `small`: the read can only match a few contracts (a fresh party's), so a 413 is the server's fault.
  if (exchange.response?.status === 413 && o.small !== true) {
    if (ctx.profile.ledger?.websocket === false) ctx.skip(`${what} answers 413 (more than http-list-max-elements-limit) and profile '${ctx.profile.name}' has no WebSocket to read them with`);
    const ws = await streamRetryingStale(ctx, '/v2/state/active-contracts', { request, operationId: 'postV2StateActive-contracts', idleMs: 5000, timeoutMs: Math.max(60_000, ctx.timeoutMs), maxMessages: 10_000_000, ...auth });
    if (ws.rejectedStatus !== undefined) ctx.fail(`${what} answered 413 over HTTP and the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
    return { exchange: ws.exchange, entries: ws.messages };
  }
  expectStatus(ctx, exchange, 200, what);
  const list = bodyOf(ctx, exchange, what);
  if (!Array.isArray(list)) return ctx.fail('POST /v2/state/active-contracts must answer a JSON array', exchange);
  return { exchange, entries: list };
}

export interface TransactionView {
  readonly updateId: string;
  readonly offset: number;
  readonly events: readonly Json[];
}

/** The update list (HTTP) between two offsets as `party`: every element, plus the transactions. */
export function updatesRequest(party: string | undefined, beginExclusive: number, endInclusive: number): Json {
  return {
    beginExclusive,
    endInclusive,
    updateFormat: { includeTransactions: { eventFormat: eventFormat(party, { verbose: true }), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
  };
}

/** The updates in (beginExclusive, endInclusive] as `party`, in pages (a party others write for may have many there). */
export async function updates(ctx: CheckContext, party: string | undefined, beginExclusive: number, endInclusive: number): Promise<{ exchange: Exchange; items: unknown[]; transactions: TransactionView[] }> {
  const request = updatesRequest(party, beginExclusive, endInclusive) as Json & { beginExclusive: number };
  const { e: exchange, items } = await listAfter(ctx, '/v2/updates', request, { what: `updates (${beginExclusive}, ${endInclusive}]`, idleMs: 1000, maxPages: 200 });
  return { exchange, items, transactions: transactionsOf(items) };
}

/**
 * The id of a contract that never existed, for commands that must be refused as CONTRACT_NOT_FOUND:
 * suffixed as the global ids a participant hands out (0x00, a 32-byte discriminator, then a suffix:
 * here Canton's 0xca12 version and 32 bytes). A command naming a non-suffixed V1 id is refused
 * before any look-up (the engine's IllegalContractId: COMMAND_PREPROCESSING_FAILED, 400).
 */
export const neverExistedContractId = (fill: string): string => `00${fill.repeat(32)}ca12${fill.repeat(32)}`;

/** The offset of an update list or completion element, whatever its kind (transaction, checkpoint, ...). */
export function offsetOf(item: unknown): number | undefined {
  const holder = isObject(item) ? (isObject(item.update) ? item.update : isObject(item.completionResponse) ? item.completionResponse : undefined) : undefined;
  const inner = holder ? Object.values(holder)[0] : undefined;
  const value = isObject(inner) && isObject(inner.value) ? inner.value : inner;
  return isObject(value) && typeof value.offset === 'number' ? value.offset : undefined;
}

/** The Completion values of a completions list (CompletionStreamResponse elements, HTTP or WebSocket frames); checkpoints left out. */
export function completionsOf(items: unknown): Json[] {
  return (Array.isArray(items) ? items : []).flatMap((item) => {
    const c = isObject(item) && isObject(item.completionResponse) ? item.completionResponse.Completion : undefined;
    const value = isObject(c) && isObject(c.value) ? c.value : c;
    return isObject(value) ? [value] : [];
  });
}

/**
 * Elements the suite asks for per page of a list read after an offset: within the participant's
 * default http-list-max-elements-limit (200). Without a limit, or with one above that bound, a
 * busy participant answers 413 LIST_TOO_LARGE to "everything after this offset".
 */
export const LIST_PAGE = 100;

/**
 * A list endpoint with `beginExclusive` (completions, updates) read page by page: each page asks
 * for up to LIST_PAGE elements and the next starts after the last offset the page reached (a
 * checkpoint's included), until a page comes back short or reaches `endInclusive`, `enough` holds for what
 * was read, or `maxPages` pages. A target whose own bound is below the page answers 413; the page then halves. The
 * exchange is the last page's.
 */
export async function listAfter(
  ctx: CheckContext,
  path: string,
  request: Json & { readonly beginExclusive: number },
  o: { readonly what: string; readonly operationId?: string; readonly idleMs?: number; readonly enough?: (items: readonly unknown[]) => boolean; readonly maxPages?: number; readonly auth?: AuthMode },
): Promise<{ e: Exchange; items: unknown[] }> {
  const items: unknown[] = [];
  let begin = request.beginExclusive;
  // Looking for one element, which is usually among the first: small pages first, doubling. A
  // page ends when full or after the idle timeout, and a participant that sends checkpoints
  // more often than that keeps a large page open until it fills.
  let limit = o.enough === undefined ? LIST_PAGE : 8;
  let cap = LIST_PAGE;
  for (let page = 0; ; ) {
    const e = await ctx.http.request('ledger', {
      method: 'POST', path, query: { limit, stream_idle_timeout_ms: o.idleMs ?? 300 }, json: { ...request, beginExclusive: begin },
      ...(o.operationId === undefined ? {} : { operationId: o.operationId }), ...(o.auth === undefined ? {} : { auth: o.auth }),
    });
    if (e.response?.status === 413 && limit > 1) {
      limit = cap = Math.floor(limit / 2);
      continue;
    }
    expectStatus(ctx, e, 200, o.what);
    const list = bodyOf(ctx, e, o.what);
    if (!Array.isArray(list)) return ctx.fail(`${o.what}: POST ${path} must answer a JSON array`, e);
    items.push(...list);
    const last = list.map(offsetOf).filter((x): x is number => x !== undefined && x > begin).reduce((a, b) => Math.max(a, b), begin);
    const reachedEnd = typeof request.endInclusive === 'number' && last >= request.endInclusive;
    if (list.length < limit || last === begin || reachedEnd || ++page >= (o.maxPages ?? 50) || o.enough?.(items) === true) return { e, items };
    begin = last;
    limit = Math.min(cap, limit * 2);
  }
}

/**
 * The completion of `commandId` on POST /v2/commands/completions (the run's user, `party`, after
 * `begin`), polled until it appears; fails after max(10 s, the run's timeout). Each poll reads on
 * from where the last one ended.
 */
export async function completionOf(ctx: CheckContext, party: string, begin: number, commandId: string, what = 'the command'): Promise<{ e: Exchange; completion: Json }> {
  const userId = userIdOf(ctx);
  let from = begin;
  return poll(ctx, 200, async (lastTry) => {
    const found = (items: readonly unknown[]) => completionsOf(items).find((c) => c.commandId === commandId);
    const { e, items } = await listAfter(ctx, '/v2/commands/completions', { ...(userId === undefined ? {} : { userId }), parties: [party], beginExclusive: from }, { what: 'completions', enough: (xs) => found(xs) !== undefined });
    const completion = found(items);
    if (completion) return { e, completion };
    if (lastTry) return ctx.fail(`no completion for ${what} (command ${commandId}) after offset ${begin} within ${patienceMs(ctx) / 1000} s`, e);
    from = items.map(offsetOf).reduce<number>((a, b) => (b !== undefined && b > a ? b : a), from);
    return undefined;
  });
}

/** The transaction of one element of an update list (an HTTP element or a WebSocket frame), whole; undefined for another update. */
export function transactionJsonOf(item: unknown): Json | undefined {
  const update = isObject(item) && isObject(item.update) ? item.update : undefined;
  return update && isObject(update.Transaction) ? (isObject(update.Transaction.value) ? update.Transaction.value : update.Transaction) : undefined;
}

/** The Transaction updates of an update list (HTTP elements or WebSocket frames). */
export function transactionsOf(items: readonly unknown[]): TransactionView[] {
  const out: TransactionView[] = [];
  for (const item of items) {
    const tx = transactionJsonOf(item);
    if (tx && typeof tx.updateId === 'string' && typeof tx.offset === 'number') out.push({ updateId: tx.updateId, offset: tx.offset, events: Array.isArray(tx.events) ? (tx.events.filter(isObject) as Json[]) : [] });
  }
  return out;
}

/** Created and archived contract ids of a transaction's events. */
export function eventsOf(tx: TransactionView): { created: string[]; archived: string[] } {
  const created: string[] = [];
  const archived: string[] = [];
  for (const e of tx.events) {
    if (isObject(e.CreatedEvent) && typeof e.CreatedEvent.contractId === 'string') created.push(e.CreatedEvent.contractId);
    if (isObject(e.ArchivedEvent) && typeof e.ArchivedEvent.contractId === 'string') archived.push(e.ArchivedEvent.contractId);
    if (isObject(e.ExercisedEvent) && e.ExercisedEvent.consuming === true && typeof e.ExercisedEvent.contractId === 'string') archived.push(e.ExercisedEvent.contractId);
  }
  return { created, archived };
}
