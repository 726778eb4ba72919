import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type Upstream } from './mutantProxy.js';
import { isObject, transactionsIn, type Json } from './mutantKit.js';

/**
 * A thirteenth hunt: a ledger whose own history contradicts itself (a contract used after its
 * archive or before its create, consumed twice, active in a snapshot that its stream says it is
 * not). Each fault is a participant whose index resolves contract ids wrongly in its reads of
 * others' transactions (the target's history), consistently in every read of a transaction (both
 * shapes, the stream over HTTP and WebSocket, point reads), so that nothing but the life cycle
 * shows it. The fault learns the history from the upstream's own update stream (read once, any
 * party) and from what passes: no id of the reference is named. The history it rewrites is staged
 * by the fault itself (`seedHistory`), so the bed does not depend on what ran before.
 *
 * Tried and left (the session's report says why): the active contract set missing contracts of
 * others' transactions created in the ten offsets before the one asked at. Nothing compares the
 * ACS at the end of the history window with the window's creates and archives yet (a contract the
 * window shows created, acsDelta, and never archived must be active at its end).
 */

export const WILDCARD = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };

export interface Created {
  readonly offset: number;
  /** Template, signatories and observers: a contract the engine re-runs the same choice on alike. */
  readonly kind: string;
  readonly event: Json;
  /** The transaction's other events archive it (a transient contract). */
  readonly transient: boolean;
}

export interface Archived {
  readonly offset: number;
  readonly nodeId: number;
  readonly choice: string | undefined;
}

const sortedText = (v: unknown) => JSON.stringify(Array.isArray(v) ? [...v].map(String).sort() : []);
export const kindOf = (c: Json) => `${String(c.templateId)} ${sortedText(c.signatories)} ${sortedText(c.observers)}`;
export const inner = (e: Json): Json | undefined => (isObject(e.CreatedEvent) ? e.CreatedEvent : isObject(e.ExercisedEvent) ? e.ExercisedEvent : isObject(e.ArchivedEvent) ? e.ArchivedEvent : undefined);

export const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

/**
 * Another application's activity before the run (the target's history the run re-reads), staged
 * once at the fault's first request, before the run reads the ledger end it starts from: assets of
 * one party of its own (alike: the same issuer, owner and amount), one archived, the others
 * described (a non-consuming choice) after that archive, one more created after them, one created
 * and archived in one transaction, and an archive last. Conformant: only the fault's reads lie.
 */
export async function seedHistory(upstream: Upstream, req: ProxyRequest): Promise<string | undefined> {
  const post = async (url: string, json: Json): Promise<unknown> => parse((await upstream.send({ method: 'POST', url, headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify(json) })).body);
  const allocated = await post('/v2/parties', { partyIdHint: `hunt13-other-app-${Math.random().toString(36).slice(2, 8)}`, identityProviderId: '' });
  const party = isObject(allocated) && isObject(allocated.partyDetails) ? String(allocated.partyDetails.party) : undefined;
  if (party === undefined) return undefined;
  let n = 0;
  const submit = async (command: Json): Promise<Json[]> => {
    const v = await post('/v2/commands/submit-and-wait-for-transaction', {
      commands: { commands: [command], commandId: `hunt13-other-app-${n++}-${Math.random().toString(36).slice(2)}`, actAs: [party], userId: 'participant_admin' },
      transactionFormat: { eventFormat: { filtersByParty: { [party]: WILDCARD }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    });
    return isObject(v) && isObject(v.transaction) && Array.isArray(v.transaction.events) ? v.transaction.events.filter(isObject) : [];
  };
  const create = async () => {
    const c = (await submit({ CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '10.0', observers: null } } }))[0];
    return isObject(c?.CreatedEvent) ? String(c.CreatedEvent.contractId) : '';
  };
  const exercise = (contractId: string, choice: string) => submit({ ExerciseCommand: { templateId: ASSET, contractId, choice, choiceArgument: {} } });
  const [a, b, c] = [await create(), await create(), await create()];
  await exercise(a, 'Archive');
  await exercise(b, 'Describe');
  await exercise(c, 'Describe');
  const d = await create();
  await submit({ CreateAndExerciseCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '10.0', observers: null }, choice: 'Archive', choiceArgument: {} } });
  await exercise(d, 'Describe');
  await exercise(c, 'Archive');
  return party;
}

/** The history as the upstream's own transactions show it: creates and archives by contract id. */
export class History {
  /** `seed` stages the history the fault rewrites (hunt13's by default). */
  constructor(private readonly seed: (upstream: Upstream, req: ProxyRequest) => Promise<string | undefined> = seedHistory) {}

  readonly created = new Map<string, Created>();
  readonly archived = new Map<string, Archived>();
  private loading: Promise<void> | undefined;
  /** The staged application's party: only its contracts are rewritten (the bed's own history stays as it is). */
  party: string | undefined;

  learn(tx: Json): void {
    const events = (tx.events as unknown[]).filter(isObject);
    const consumed = new Set(events.map((e) => (isObject(e.ExercisedEvent) && e.ExercisedEvent.consuming === true ? String(e.ExercisedEvent.contractId) : '')));
    for (const e of events) {
      const x = inner(e);
      if (x === undefined || typeof x.contractId !== 'string' || typeof x.offset !== 'number') continue;
      if (isObject(e.CreatedEvent) && !this.created.has(x.contractId)) this.created.set(x.contractId, { offset: x.offset, kind: kindOf(x), event: x, transient: consumed.has(x.contractId) });
      const consuming = isObject(e.ArchivedEvent) || (isObject(e.ExercisedEvent) && x.consuming === true);
      if (consuming && !this.archived.has(x.contractId)) this.archived.set(x.contractId, { offset: x.offset, nodeId: Number(x.nodeId), choice: typeof x.choice === 'string' ? x.choice : undefined });
    }
  }

  /** Reads the upstream's whole update stream once (any party, ledger effects), in pages. */
  load(upstream: Upstream, req: ProxyRequest): Promise<void> {
    this.loading ??= (async () => {
      this.party = await this.seed(upstream, req);
      const end = parse((await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: req.headers, body: '' })).body);
      const to = isObject(end) && typeof end.offset === 'number' ? end.offset : 0;
      // The staged history is the newest: the window the run re-reads (200 offsets) lies within this.
      let from = Math.max(0, to - 300);
      while (from < to) {
        const body = { beginExclusive: from, endInclusive: to, updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: WILDCARD, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } };
        const res = await upstream.send({ method: 'POST', url: '/v2/updates?limit=100&stream_idle_timeout_ms=300', headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const items = parse(res.body);
        if (!Array.isArray(items) || items.length === 0) break;
        const txs = transactionsIn(items);
        for (const tx of txs) this.learn(tx);
        const top = Math.max(from, ...items.map((i) => Number(JSON.stringify(i).match(/"offset":(\d+)/)?.[1] ?? from)));
        if (top <= from) break;
        from = top;
      }
    })();
    return this.loading;
  }
}

const READS = /^\/v2\/updates/;

/**
 * `rewrite` on every transaction of every read of transactions (HTTP answers and WebSocket frames
 * of /v2/updates*), after the history is known: the same transaction is rewritten alike in every read.
 */
export function onHistory(rewrite: (tx: Json, h: History) => void, h: History = new History()): Fault {
  const apply = (v: unknown) => {
    for (const tx of transactionsIn(v)) h.learn(structuredClone(tx));
    for (const tx of transactionsIn(v)) rewrite(tx, h);
    return v;
  };
  return {
    async request(req, upstream) {
      await h.load(upstream, req);
      return req;
    },
    response(req, res) {
      if (req.method !== 'POST' || !READS.test(pathOf(req.url)) || res.status !== 200) return res;
      const v = parse(res.body);
      return v === undefined ? res : { ...res, body: JSON.stringify(apply(v)) };
    },
    async wsRequest(req, frame, upstream) {
      if (READS.test(pathOf(req.url))) await h.load(upstream, req);
      return frame;
    },
    wsResponse(req, frame) {
      if (!READS.test(pathOf(req.url))) return [frame];
      const v = parse(frame);
      return [v === undefined ? frame : JSON.stringify(apply(v))];
    },
  };
}

/** Whether `x` is an event on `contractId` whose contract the history knows, with the contract's kind. */
const kindOfContract = (h: History, contractId: unknown): string | undefined => (typeof contractId === 'string' ? h.created.get(contractId)?.kind : undefined);

/**
 * The index resolves the contract of some exercises to another contract of the same template and
 * stakeholders: `pick` chooses it (undefined: none) from the exercised one and the event.
 */
export function exercisesRedirected(which: (x: Json, h: History) => boolean, pick: (x: Json, h: History) => string | undefined, history?: History): Fault {
  return onHistory((tx, h) => {
    for (const e of (tx.events as unknown[]).filter(isObject)) {
      const x = inner(e);
      if (x === undefined || isObject(e.CreatedEvent) || !which(x, h)) continue;
      const other = pick(x, h);
      if (other !== undefined) x.contractId = other;
    }
  }, history);
}

/** Among contracts of the kind of `x`'s contract, those `keep` takes, the one `best` orders first. */
export function alike(h: History, x: Json, keep: (id: string, c: Created) => boolean, best: (a: [string, Created], b: [string, Created]) => number): string | undefined {
  const kind = kindOfContract(h, x.contractId);
  if (kind === undefined || h.party === undefined || !kind.includes(h.party)) return undefined;
  return [...h.created].filter(([id, c]) => id !== x.contractId && c.kind === kind && keep(id, c)).sort(best)[0]?.[0];
}

/** A contract of the staged application's party. */
export const staged = (h: History, c: Created) => h.party !== undefined && c.kind.includes(h.party);
export const archivedBefore = (h: History, x: Json) => (id: string) => (h.archived.get(id)?.offset ?? Infinity) < Number(x.offset);
export const latestArchive = (h: History) => (a: [string, Created], b: [string, Created]) => h.archived.get(b[0])!.offset - h.archived.get(a[0])!.offset;

/**
 * The active contract set (HTTP, WebSocket and pages) with `f` applied to its entries, given the
 * history and the offset it is asked at.
 */
export function onActiveContracts(f: (entries: Json[], at: number, h: History, req: Json) => Json[]): Fault {
  const h = new History();
  const atOf = (req: Json, body: unknown) => (typeof req.activeAtOffset === 'number' ? req.activeAtOffset : isObject(body) && typeof body.activeAtOffset === 'number' ? body.activeAtOffset : undefined);
  const wsRequests = new WeakMap<ProxyRequest, Json>();
  const wsFirst = new WeakSet<ProxyRequest>();
  return {
    async request(req, upstream) {
      await h.load(upstream, req);
      return req;
    },
    response(req, res) {
      const path = pathOf(req.url);
      if (res.status !== 200 || !path.startsWith('/v2/state/active-contracts')) return res;
      const q = parse(req.body);
      const v = parse(res.body);
      const at = atOf(isObject(q) ? q : {}, v);
      if (at === undefined || !isObject(q)) return res;
      if (Array.isArray(v)) return { ...res, body: JSON.stringify(f(v.filter(isObject), at, h, q)) };
      if (isObject(v) && Array.isArray(v.activeContracts) && (v.nextPageToken === undefined || v.nextPageToken === '' || v.nextPageToken === null)) {
        return { ...res, body: JSON.stringify({ ...v, activeContracts: f(v.activeContracts.filter(isObject), at, h, q) }) };
      }
      return res;
    },
    async wsRequest(req, frame, upstream) {
      if (pathOf(req.url).startsWith('/v2/state/active-contracts')) {
        await h.load(upstream, req);
        const q = parse(frame);
        if (isObject(q)) wsRequests.set(req, q);
      }
      return frame;
    },
    wsResponse(req, frame) {
      const q = wsRequests.get(req);
      const v = parse(frame);
      if (q === undefined || typeof q.activeAtOffset !== 'number' || !isObject(v)) return [frame];
      // Frames one by one: what `f` adds goes with the first frame; of later frames only their own entry is kept (or dropped).
      const first = !wsFirst.has(req);
      wsFirst.add(req);
      const cid = contractIdOf(v);
      return f([v], q.activeAtOffset, h, q).filter((e) => first || contractIdOf(e) === cid).map((e) => JSON.stringify(e));
    },
  };
}

export const contractIdOf = (entry: Json): string | undefined => {
  const a = isObject(entry.contractEntry) && isObject(entry.contractEntry.JsActiveContract) ? entry.contractEntry.JsActiveContract : undefined;
  return a !== undefined && isObject(a.createdEvent) && typeof a.createdEvent.contractId === 'string' ? a.createdEvent.contractId : undefined;
};

/** Whether the read's filter takes a created event: by a wildcard or its template, for a party of the filter among its stakeholders (or any party). */
export function filterTakes(req: Json, c: Json): boolean {
  const f = isObject(req.eventFormat) ? req.eventFormat : {};
  const takes = (pf: unknown) => (isObject(pf) && Array.isArray(pf.cumulative) ? pf.cumulative : []).some((x) => {
    const i = isObject(x) && isObject(x.identifierFilter) ? x.identifierFilter : {};
    return isObject(i.WildcardFilter) || (isObject(i.TemplateFilter) && isObject(i.TemplateFilter.value) && i.TemplateFilter.value.templateId === c.templateId);
  });
  if (isObject(f.filtersForAnyParty)) return takes(f.filtersForAnyParty);
  const byParty = isObject(f.filtersByParty) ? f.filtersByParty : {};
  return [...(Array.isArray(c.signatories) ? c.signatories : []), ...(Array.isArray(c.observers) ? c.observers : [])].some((p) => takes(byParty[String(p)]));
}

export const entryOf = (c: Json, like: Json | undefined, parties: string[]): Json => {
  const a = like !== undefined && isObject(like.contractEntry) && isObject(like.contractEntry.JsActiveContract) ? like.contractEntry.JsActiveContract : {};
  return { workflowId: '', contractEntry: { JsActiveContract: { createdEvent: { ...c, witnessParties: parties, acsDelta: true }, synchronizerId: a.synchronizerId ?? '', reassignmentCounter: 0 } } };
};

export const witnessesFor = (req: Json, c: Json): string[] => {
  const f = isObject(req.eventFormat) ? req.eventFormat : {};
  const stake = [...(Array.isArray(c.signatories) ? c.signatories : []), ...(Array.isArray(c.observers) ? c.observers : [])].map(String);
  return isObject(f.filtersByParty) ? stake.filter((p) => Object.keys(f.filtersByParty as Json).includes(p)) : Array.isArray(c.witnessParties) ? c.witnessParties.map(String) : stake;
};

const TARGET_HISTORY = 'ledger.reinterpret.target-history';

export const HUNT13_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt13-history-archive-respent',
    description: "in the target's history an Archive is shown consuming a contract of the same template and stakeholders that an earlier transaction already archived (a double spend the index shows)",
    caughtBy: TARGET_HISTORY,
    fault: exercisesRedirected(
      (x, h) => {
        const a = typeof x.contractId === 'string' ? h.archived.get(x.contractId) : undefined;
        return a !== undefined && a.offset === x.offset && a.nodeId === x.nodeId && a.choice === 'Archive';
      },
      (x, h) => alike(h, x, archivedBefore(h, x), latestArchive(h)),
    ),
  },
  {
    name: 'hunt13-history-nonconsuming-on-archived',
    description: "in the target's history a non-consuming exercise is shown on a contract of the same template and stakeholders archived before it (an archived contract still exercised)",
    caughtBy: TARGET_HISTORY,
    // The re-run itself refuses it (hunt 14): the window shows the input's archive before the exercise.
    fault: exercisesRedirected((x) => x.consuming === false, (x, h) => alike(h, x, archivedBefore(h, x), latestArchive(h))),
  },
  {
    name: 'hunt13-history-exercised-before-created',
    description: "in the target's history a non-consuming exercise is shown on a contract of the same template and stakeholders that a later transaction creates (a contract used before it exists)",
    caughtBy: TARGET_HISTORY,
    judge: { invariant: 'judge.contracts.used-while-active' },
    fault: exercisesRedirected((x) => x.consuming === false, (x, h) => alike(h, x, (_id, c) => c.offset > Number(x.offset), (a, b) => a[1].offset - b[1].offset)),
  },
  {
    name: 'hunt13-acs-archives-lag',
    description: 'the active contract set applies an archive only once it is older than the offset asked at: at the offset of its archive a contract is still active',
    caughtBy: TARGET_HISTORY,
    judge: { invariant: 'judge.contracts.archived-stays-archived' },
    fault: onActiveContracts((entries, at, h, req) => {
      const present = new Set(entries.map(contractIdOf));
      const lagging = [...h.archived].filter(([id, a]) => a.offset === at && !present.has(id) && h.created.get(id) !== undefined && !h.created.get(id)!.transient && staged(h, h.created.get(id)!) && filterTakes(req, h.created.get(id)!.event));
      return [...entries, ...lagging.map(([id]) => entryOf(h.created.get(id)!.event, entries[0], witnessesFor(req, h.created.get(id)!.event)))];
    }),
  },
  {
    name: 'hunt13-acs-transient-active',
    description: 'the active contract set holds contracts created and archived in one transaction (the projection adds every create and removes only archives of contracts it already held)',
    caughtBy: TARGET_HISTORY,
    judge: { invariant: 'judge.contracts.archived-stays-archived' },
    fault: onActiveContracts((entries, at, h, req) => {
      const present = new Set(entries.map(contractIdOf));
      const transient = [...h.created].filter(([id, c]) => c.transient && c.offset <= at && !present.has(id) && staged(h, c) && filterTakes(req, c.event));
      return [...entries, ...transient.map(([, c]) => entryOf(c.event, entries[0], witnessesFor(req, c.event)))];
    }),
  },
  {
    name: 'hunt13-acs-keeps-archived-of-others',
    description: "the active contract set keeps contracts of others' transactions archived in the ten offsets before the one asked at (archives of transactions the participant did not submit applied late)",
    caughtBy: TARGET_HISTORY,
    judge: { invariant: 'judge.contracts.archived-stays-archived' },
    fault: onActiveContracts((entries, at, h, req) => {
      const present = new Set(entries.map(contractIdOf));
      const late = [...h.archived].filter(([id, a]) => a.offset < at && a.offset > at - 10 && !present.has(id) && h.created.get(id) !== undefined && !h.created.get(id)!.transient && staged(h, h.created.get(id)!) && filterTakes(req, h.created.get(id)!.event));
      return [...entries, ...late.map(([id]) => entryOf(h.created.get(id)!.event, entries[0], witnessesFor(req, h.created.get(id)!.event)))];
    }),
  },
];
