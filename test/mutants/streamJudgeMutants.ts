import type { Mutant } from './mutants.js';
import { pathOf, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import { isObject, onBody, withJson } from './mutantKit.js';

/**
 * Faults only the judge's reading of the update stream and the completions catches
 * (conformance/src/judge/streamFollower.ts): the check named never reads the stream or the
 * completions itself and passes with `--judge none`; with the judge on, the stream read after the
 * check's write (or the completions read at the end of the run) contradicts its answers.
 */
const is = (req: ProxyRequest, method: string, path: string) => req.method === method && pathOf(req.url) === path;
const laterBy = (t: string, ms: number) => new Date(Date.parse(t) + ms).toISOString();
/** Rewrites every update of a `POST /v2/updates` list (the HTTP form only: WebSocket frames pass). */
const onUpdates = (f: (items: unknown[]) => unknown[]) => ({
  response: (req: ProxyRequest, res: ProxyResponse) => (is(req, 'POST', '/v2/updates') && res.status === 200 ? withJson(res, (v) => (Array.isArray(v) ? f(v) : v)) : res),
});
const eventsOf = (item: unknown): unknown[] => {
  const u = isObject(item) && isObject(item.update) ? item.update : {};
  const tx = isObject(u.Transaction) ? (isObject(u.Transaction.value) ? u.Transaction.value : u.Transaction) : {};
  return Array.isArray(tx.events) ? tx.events : [];
};
const mapEvents = (items: unknown[], f: (kind: string, e: Record<string, unknown>) => Record<string, unknown>) =>
  items.map((item) => {
    const events = eventsOf(item);
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (!isObject(e)) continue;
      const [kind] = Object.keys(e);
      if (kind !== undefined && isObject(e[kind])) events[i] = { [kind]: f(kind, e[kind]) };
    }
    return item;
  });

export const STREAM_JUDGE_MUTANTS: readonly Mutant[] = [
  {
    name: 'stream-created-at-ingest-time',
    description: 'the update list answers createdAt as the time its index ingested the event (a second later), not the ledger time the transaction answered',
    caughtBy: 'ledger.submit.visible-in-acs',
    judge: { invariant: 'judge.facts.reread-equal' },
    fault: onUpdates((items) => mapEvents(items, (kind, e) => (kind === 'CreatedEvent' && typeof e.createdAt === 'string' ? { ...e, createdAt: laterBy(e.createdAt, 1000) } : e))),
  },
  {
    name: 'stream-submit-offset-before-commit',
    description: "submit-and-wait answers as completionOffset the ledger end before the commit (one less than the offset the update stream shows the transaction at)",
    caughtBy: 'ledger.dedup.new-command-id-accepted',
    judge: { invariant: 'judge.writes.answer-is-committed' },
    fault: onBody(/^\/v2\/commands\/submit-and-wait$/, (v) => (typeof v.completionOffset === 'number' ? { ...v, completionOffset: v.completionOffset - 1 } : v)),
  },
  {
    name: 'stream-update-repeated-at-page-end',
    description: 'the update list sends its last transaction twice (the element at the resume point repeated)',
    caughtBy: 'ledger.dedup.duplicate-409',
    judge: { invariant: 'judge.stream.offsets-increase' },
    fault: onUpdates((items) => {
      const last = items.findLast((i) => eventsOf(i).length > 0);
      return last === undefined ? items : [...items, last];
    }),
  },
  {
    name: 'stream-event-offset-of-previous-update',
    description: "the update list gives each event the offset before its transaction's (an archive then predates an active-contracts snapshot that held the contract)",
    caughtBy: 'ledger.archive.removed-at-new-end',
    judge: { invariant: 'judge.contracts.archived-stays-archived' },
    fault: onUpdates((items) => mapEvents(items, (_kind, e) => (typeof e.offset === 'number' ? { ...e, offset: e.offset - 1 } : e))),
  },
  {
    name: 'stream-completion-delivered-twice',
    description: 'the completion list delivers every completion twice (at-least-once delivery from its buffer)',
    caughtBy: 'ledger.submit.visible-in-acs',
    judge: { invariant: 'judge.completions.once-per-command' },
    fault: {
      response: (req, res) => (is(req, 'POST', '/v2/commands/completions') && res.status === 200 ? withJson(res, (v) => (Array.isArray(v) ? v.flatMap((c) => [c, c]) : v)) : res),
    },
  },
  {
    name: 'rights-list-misses-latest-grant',
    description: "GET /v2/users/{id}/rights answers from a projection that misses the latest grant (the run's own user, which the run did not create, lacks the rights just granted over its new party)",
    caughtBy: 'ledger.submit.visible-in-acs',
    judge: { invariant: 'judge.writes.visible-after' },
    // The secured reference itself: the run's user (participant_admin) is real and is granted rights by the run.
    server: { http: {} },
    fault: {
      response: (req, res) =>
        req.method === 'GET' && /^\/v2\/users\/[^/]+\/rights$/.test(pathOf(req.url)) && res.status === 200
          ? withJson(res, (v) => (isObject(v) && Array.isArray(v.rights) ? { ...v, rights: v.rights.slice(0, -1) } : v))
          : res,
    },
  },
  {
    name: 'stream-exercise-acting-parties-dropped',
    description: "the update list answers exercised events without their acting parties (the submission's own answer names them)",
    caughtBy: 'ledger.exercise.result-and-events',
    judge: { invariant: 'judge.writes.answer-is-committed' },
    fault: onUpdates((items) => mapEvents(items, (kind, e) => (kind === 'ExercisedEvent' && Array.isArray(e.actingParties) ? { ...e, actingParties: [] } : e))),
  },
];
