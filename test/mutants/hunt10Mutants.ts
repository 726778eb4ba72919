import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { isObject, ok200, transactionsIn, type Json } from './mutantKit.js';
import { seedHistory } from './hunt13Mutants.js';

/**
 * A tenth hunt: the target judged by its own ledger, its transactions re-run by the engine. Each
 * fault is a participant whose interpretation or projection is subtly wrong in some reads only
 * (the update stream, one transaction shape, one of the WebSocket reads) or only for the
 * transactions it did not answer a submission of (its history, other applications'). No id of the
 * reference is named: each fault learns what it needs from the answers.
 *
 * Tried and left out (the session's report says why): a keyed template's contractKey built from
 * the wrong field in the update stream only (the engine does not compute keys of created events
 * yet); for others' transactions only, created events without their observers, a Transfer's new
 * asset observed by the old owner, creates under an exercise without the ancestors' informees as
 * witnesses, and a Deposit's result replaced by its argument in the stream: the engine compares
 * each of these fields, but the bed's history window (the last 200 offsets of the control's run)
 * holds no such transaction of the sample templates to re-run.
 */

// ---------------------------------------------------------------------------------------------
// Shared helpers

type Shape = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';

/** The transaction shape a read's request asks for (a submit-and-wait-for-transaction without a format answers ACS_DELTA). */
function shapeOf(path: string, body: unknown): Shape | undefined {
  if (!isObject(body)) return undefined;
  const shapeIn = (f: unknown): Shape | undefined => (isObject(f) && (f.transactionShape === 'TRANSACTION_SHAPE_ACS_DELTA' || f.transactionShape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS') ? f.transactionShape : undefined);
  if (path === '/v2/commands/submit-and-wait-for-transaction') return isObject(body.transactionFormat) ? shapeIn(body.transactionFormat) : 'TRANSACTION_SHAPE_ACS_DELTA';
  if (path.startsWith('/v2/updates')) {
    if (isObject(body.updateFormat)) return shapeIn(body.updateFormat.includeTransactions);
    if (isObject(body.transactionFormat)) return shapeIn(body.transactionFormat);
  }
  return undefined;
}

const eventsOf = (tx: Json): Json[] => (tx.events as unknown[]).filter(isObject);
const inner = (e: Json): Json | undefined => (isObject(e.CreatedEvent) ? e.CreatedEvent : isObject(e.ExercisedEvent) ? e.ExercisedEvent : isObject(e.ArchivedEvent) ? e.ArchivedEvent : undefined);
const isStream = (path: string) => path === '/v2/updates' || path === '/v2/updates/flats' || path === '/v2/updates/trees';

/**
 * `f` on every transaction of the reads `where` selects (by path and shape), HTTP answers and
 * WebSocket frames alike (a frame's shape is that of the request frame of its connection).
 */
function onTransactions(where: (path: string, shape: Shape | undefined) => boolean, f: (tx: Json, shape: Shape | undefined) => void): Fault {
  const wsShape = new WeakMap<ProxyRequest, Shape | undefined>();
  const rewrite = (v: unknown, shape: Shape | undefined) => {
    for (const tx of transactionsIn(v)) f(tx, shape);
    return v;
  };
  return {
    response: (req: ProxyRequest, res: ProxyResponse) => {
      const path = pathOf(req.url);
      const shape = shapeOf(path, parse(req.body));
      return req.method === 'POST' && where(path, shape) ? ok200(res, (v) => rewrite(v, shape)) : res;
    },
    wsRequest: (req, frame) => {
      wsShape.set(req, shapeOf(pathOf(req.url), parse(frame)));
      return frame;
    },
    wsResponse: (req, frame) => {
      const path = pathOf(req.url);
      const shape = wsShape.get(req);
      const v = parse(frame);
      return [v === undefined || !where(path, shape) ? frame : JSON.stringify(rewrite(v, shape))];
    },
  };
}

/**
 * As `onTransactions`, for the transactions of submissions this participant did not answer (its
 * history before the run, other applications'): a participant whose indexer writes the events of
 * transactions it only confirmed (or replayed at start-up) on another path than those it submitted.
 */
function onOthersTransactions(where: (path: string, shape: Shape | undefined) => boolean, f: (tx: Json, shape: Shape | undefined) => void): Fault {
  const ours = new Set<string>();
  const base = onTransactions(where, (tx, shape) => {
    if (!ours.has(String(tx.updateId))) f(tx, shape);
  });
  // Other applications' transactions among the newest of the window the run re-reads, whatever
  // ran in the bed before (another mutant's hundreds of allocations may fill it): staged once, at
  // the fault's first request, before the run reads the ledger end it starts from.
  let staged: Promise<unknown> | undefined;
  return {
    ...base,
    async request(req, upstream) {
      staged ??= seedHistory(upstream, req);
      await staged;
      return base.request ? base.request(req, upstream) : req;
    },
    response: (req, res) => {
      if (req.method === 'POST' && pathOf(req.url).startsWith('/v2/commands/submit-and-wait') && res.status === 200) {
        const v = parse(res.body);
        const id = !isObject(v) ? undefined : typeof v.updateId === 'string' ? v.updateId : isObject(v.transaction) ? v.transaction.updateId : isObject(v.transactionTree) ? v.transactionTree.updateId : undefined;
        if (typeof id === 'string') ours.add(id);
      }
      return base.response!(req, res);
    },
  };
}


// ---------------------------------------------------------------------------------------------

export const HUNT10_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt10-consuming-exercise-acs-delta-false',
    description: 'ledger-effects reads mark every consuming exercise acsDelta false (as if the archive were never part of the ACS delta): a client tracking active contracts from a ledger-effects stream never sees them archived',
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onTransactions(() => true, (tx) => {
      for (const e of eventsOf(tx)) if (isObject(e.ExercisedEvent) && e.ExercisedEvent.consuming === true && e.ExercisedEvent.acsDelta === true) e.ExercisedEvent.acsDelta = false;
    }),
  },
  {
    name: 'hunt10-stream-last-descendant-short',
    description: "the update stream's exercised events end their subtree one node early (lastDescendantNodeId one less), point reads are right: a client building the tree from the stream takes the exercise's last create for a top-level one",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onTransactions((p, s) => isStream(p) && s === 'TRANSACTION_SHAPE_LEDGER_EFFECTS', (tx) => {
      for (const e of eventsOf(tx)) {
        const x = e.ExercisedEvent;
        if (isObject(x) && typeof x.lastDescendantNodeId === 'number' && typeof x.nodeId === 'number' && x.lastDescendantNodeId > x.nodeId) x.lastDescendantNodeId -= 1;
      }
    }),
  },
  {
    name: 'hunt10-stream-split-result-swapped',
    description: "the update stream's Split exercises report the result's two contract ids swapped (the event writer fills the result record in the wrong order), point reads are right",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onTransactions((p) => isStream(p), (tx) => {
      for (const e of eventsOf(tx)) {
        const x = e.ExercisedEvent;
        const r = isObject(x) && x.choice === 'Split' && isObject(x.exerciseResult) ? x.exerciseResult : undefined;
        if (r !== undefined && typeof r.splitCid === 'string' && typeof r.remainderCid === 'string') (x as Json).exerciseResult = { ...r, splitCid: r.remainderCid, remainderCid: r.splitCid };
      }
    }),
  },
  {
    name: 'hunt10-others-flat-drops-consequence-creates',
    description: "for the transactions of others, the ACS-delta shape keeps only the creates of top-level commands, not those a choice made (a Split shows the input archived and neither part created): a wallet reading its holdings from the ACS-delta stream loses them",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onOthersTransactions((_p, s) => s === 'TRANSACTION_SHAPE_ACS_DELTA', (tx) => {
      const events = eventsOf(tx);
      if (!events.some((e) => isObject(e.ArchivedEvent))) return;
      tx.events = events.filter((e) => !isObject(e.CreatedEvent) || e.CreatedEvent.nodeId === 0);
    }),
  },
  {
    name: 'hunt10-flat-node-ids-compacted',
    description: 'the ACS-delta shape numbers its events 0, 1, 2 by position instead of carrying the node ids the ledger-effects shape gives them: the same created event has two ids (offset and node id) depending on the read',
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onTransactions((_p, s) => s === 'TRANSACTION_SHAPE_ACS_DELTA', (tx) => {
      for (const [i, e] of eventsOf(tx).entries()) {
        const x = inner(e);
        if (x !== undefined && typeof x.nodeId === 'number') x.nodeId = i;
      }
    }),
  },
  {
    name: 'hunt10-ws-acs-holding-view-amount',
    description: 'the active contracts read over the WebSocket carry a Holding view computed with another amount (a stale view cache the HTTP read does not use)',
    caughtBy: 'ledger.reinterpret.target-history',
    fault: {
      wsResponse: (req, frame) => {
        if (pathOf(req.url) !== '/v2/state/active-contracts') return [frame];
        const v = parse(frame);
        const c = isObject(v) && isObject(v.contractEntry) && isObject(v.contractEntry.JsActiveContract) && isObject(v.contractEntry.JsActiveContract.createdEvent) ? v.contractEntry.JsActiveContract.createdEvent : undefined;
        if (c === undefined || !Array.isArray(c.interfaceViews)) return [frame];
        c.interfaceViews = c.interfaceViews.map((x) => (isObject(x) && isObject(x.viewValue) && typeof x.viewValue.amount === 'string' ? { ...x, viewValue: { ...x.viewValue, amount: `${x.viewValue.amount}1` } } : x));
        return [JSON.stringify(v)];
      },
    },
  },
  {
    name: 'hunt10-others-by-id-events-post-order',
    description: "update-by-id of the transactions of others lists an exercise's events after its consequences (post-order), the stream in node order: a client that reads a transaction it was told of by id gets its tree upside down",
    caughtBy: 'ledger.reinterpret.target-history',
    fault: onOthersTransactions((p, s) => (p === '/v2/updates/update-by-id' || p === '/v2/updates/update-by-offset') && s === 'TRANSACTION_SHAPE_LEDGER_EFFECTS', (tx) => {
      tx.events = [...eventsOf(tx)].reverse();
    }),
  },
];
