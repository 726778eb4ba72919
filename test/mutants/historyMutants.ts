import { pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { isObject, withJson, type Json } from './mutantKit.js';
import type { Mutant } from './mutants.js';

/**
 * Faults in the token-standard history a wallet reads (`POST /v2/updates` with the standard's
 * interface filters): each leaves every answer the checks judge themselves alone, so only the
 * history judge (`history`: the judge.history.* id it fails with) catches them; with
 * `--history none` the same check passes.
 */
const CHECK = 'registry.transfer-factory.kind-matches-outcome';

/** Rewrites the events of every transaction in `/v2/updates` answers. */
function onHistory(f: (events: Json[]) => Json[]): Fault {
  return {
    response(req: ProxyRequest, res: ProxyResponse) {
      if (req.method !== 'POST' || pathOf(req.url) !== '/v2/updates' || res.status !== 200) return res;
      return withJson(res, (v) => {
        if (!Array.isArray(v)) return v;
        for (const u of v) {
          const tx = isObject(u) && isObject(u.update) && isObject(u.update.Transaction) && isObject(u.update.Transaction.value) ? u.update.Transaction.value : undefined;
          if (tx && Array.isArray(tx.events)) tx.events = f(tx.events as Json[]);
        }
        return v;
      });
    },
  };
}

const exercised = (e: Json): Json | undefined => (isObject(e.ExercisedEvent) ? e.ExercisedEvent : undefined);
const isTransfer = (e: Json) => exercised(e)?.choice === 'TransferFactory_Transfer';
/** The node range of each transfer exercise, to find what happened beneath it. */
const transferRanges = (events: Json[]) => events.flatMap((e) => (isTransfer(e) ? [[Number(exercised(e)!.nodeId), Number(exercised(e)!.lastDescendantNodeId), exercised(e)!] as const] : []));
const beneath = (events: Json[], node: unknown) => transferRanges(events).find(([from, to]) => Number(node) > from && Number(node) <= to)?.[2];

export const HISTORY_MUTANTS: readonly Mutant[] = [
  {
    name: 'history-transfer-exercise-missing',
    description: 'the update stream leaves out the TransferFactory_Transfer exercise, so the holdings it archived and created stand under no token-standard choice',
    caughtBy: CHECK, history: 'judge.history.unexplained',
    fault: onHistory((events) => events.filter((e) => !isTransfer(e))),
  },
  {
    name: 'history-receiver-amount-wrong',
    description: "the Holding view of the receiver's new holding shows twice the transferred amount (the view computed from the wrong field)",
    caughtBy: CHECK, history: 'judge.history.transfer-outcome',
    fault: onHistory((events) => {
      for (const e of events) {
        const c = isObject(e.CreatedEvent) ? e.CreatedEvent : undefined;
        const transfer = c ? beneath(events, c.nodeId) : undefined;
        const t = transfer && isObject(transfer.choiceArgument) && isObject(transfer.choiceArgument.transfer) ? transfer.choiceArgument.transfer : undefined;
        const receiver = t && (typeof t.receiver === 'string' ? t.receiver : isObject(t.receiver) ? t.receiver.owner : undefined);
        for (const v of c && Array.isArray(c.interfaceViews) ? (c.interfaceViews as Json[]) : []) {
          const view = isObject(v.viewValue) ? v.viewValue : undefined;
          if (view && view.owner === receiver && typeof view.amount === 'string' && receiver !== (isObject(t?.sender) ? t.sender.owner : t?.sender)) view.amount = (Number(view.amount) * 2).toFixed(10);
        }
      }
      return events;
    }),
  },
  {
    name: 'history-input-archive-not-shown',
    description: "the update stream drops the consuming exercise on a transfer's input holding: the holding is archived (its own events say so) but the history shows no archive",
    caughtBy: CHECK, history: 'judge.history.unseen',
    fault: onHistory((events) => events.filter((e) => !(exercised(e)?.choice === 'Archive' && exercised(e)?.consuming === true && beneath(events, exercised(e)!.nodeId) !== undefined))),
  },
];
