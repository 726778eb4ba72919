import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type Upstream } from './mutantProxy.js';
import { isObject, type Json } from './mutantKit.js';
import { ASSET, History, WILDCARD, alike, archivedBefore, contractIdOf, entryOf, exercisesRedirected, filterTakes, latestArchive, onActiveContracts, staged, witnessesFor } from './hunt13Mutants.js';

/**
 * A fourteenth hunt: what hunt 13 left of a ledger whose own history contradicts itself. The
 * active contract set at the end of the history window against the window's creates and
 * archives, an input contract used after an archive the window does not show, a snapshot holding
 * a contract created after it. Each history is staged by the fault itself (hunt13's way), so the
 * bed does not depend on what ran before.
 */

const TARGET_HISTORY = 'ledger.reinterpret.target-history';

/** Posts JSON upstream with the request's credentials only (a WebSocket upgrade's other headers are no POST's). */
const poster = (upstream: Upstream, req: ProxyRequest) => async (url: string, json: Json): Promise<unknown> => {
  const auth = req.headers.authorization;
  const headers = { ...(typeof auth === 'string' ? { authorization: auth } : {}), 'content-type': 'application/json' };
  return parse((await upstream.send({ method: 'POST', url, headers, body: JSON.stringify(json) })).body);
};

/** A party of another application, and a way to submit as it (ledger effects, verbose). */
async function otherApp(upstream: Upstream, req: ProxyRequest, hint: string): Promise<{ party: string; submit: (command: Json) => Promise<Json[]> } | undefined> {
  const post = poster(upstream, req);
  const allocated = await post('/v2/parties', { partyIdHint: `${hint}-${Math.random().toString(36).slice(2, 8)}`, identityProviderId: '' });
  const party = isObject(allocated) && isObject(allocated.partyDetails) ? String(allocated.partyDetails.party) : undefined;
  if (party === undefined) return undefined;
  let n = 0;
  const submit = async (command: Json): Promise<Json[]> => {
    const v = await post('/v2/commands/submit-and-wait-for-transaction', {
      commands: { commands: [command], commandId: `${hint}-${n++}-${Math.random().toString(36).slice(2)}`, actAs: [party], userId: 'participant_admin' },
      transactionFormat: { eventFormat: { filtersByParty: { [party]: WILDCARD }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    });
    return isObject(v) && isObject(v.transaction) && Array.isArray(v.transaction.events) ? v.transaction.events.filter(isObject) : [];
  };
  return { party, submit };
}

const assetOf = (party: string) => ({ CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '10.0', observers: null } } });
const createdOf = (events: Json[]): Json | undefined => (isObject(events[0]?.CreatedEvent) ? events[0].CreatedEvent : undefined);

/** Updates the window the run re-reads (200 offsets back from its ledger end) leaves out, and more. */
const BEYOND_WINDOW = 210;

/**
 * Another application's history whose archive lies before the window: two alike assets, one
 * archived, then other updates (party allocations: topology updates the window's transaction read
 * skips) past the window's start, then the other described (a non-consuming choice) last.
 */
async function seedLongArchived(upstream: Upstream, req: ProxyRequest): Promise<string | undefined> {
  const app = await otherApp(upstream, req, 'hunt14-other-app');
  if (app === undefined) return undefined;
  const a = String(createdOf(await app.submit(assetOf(app.party)))?.contractId);
  const b = String(createdOf(await app.submit(assetOf(app.party)))?.contractId);
  await app.submit({ ExerciseCommand: { templateId: ASSET, contractId: a, choice: 'Archive', choiceArgument: {} } });
  const post = poster(upstream, req);
  for (let i = 0; i < BEYOND_WINDOW; i++) await post('/v2/parties', { partyIdHint: `hunt14-filler-${i}-${Math.random().toString(36).slice(2, 8)}`, identityProviderId: '' });
  await app.submit({ ExerciseCommand: { templateId: ASSET, contractId: b, choice: 'Describe', choiceArgument: {} } });
  return app.party;
}

/**
 * The active contract set at an offset (HTTP and WebSocket) holds another application's contract
 * that it creates only when the first snapshot is asked for: after the offset asked at. Its
 * created event is the one the stream will show (at its own offset).
 */
function snapshotsAhead(): Fault {
  // One contract per offset asked at (a later run of the bed asks at a later offset): created after it.
  const staged = new Map<number, Promise<Json | undefined>>();
  const stage = (upstream: Upstream, req: ProxyRequest, body: string) => {
    const q = parse(body);
    const at = isObject(q) && typeof q.activeAtOffset === 'number' ? q.activeAtOffset : undefined;
    if (at === undefined || staged.has(at)) return staged.get(at ?? -1);
    const p = (async () => {
      const app = await otherApp(upstream, req, 'hunt14-later-app');
      return app === undefined ? undefined : createdOf(await app.submit(assetOf(app.party)));
    })();
    staged.set(at, p);
    return p;
  };
  const isAcs = (req: ProxyRequest) => pathOf(req.url) === '/v2/state/active-contracts';
  const inner = onActiveContracts((entries, at, _h, req) => {
    const c = ahead.get(at);
    if (c === undefined || Number(c.offset) <= at || !filterTakes(req, c) || entries.some((e) => contractIdOf(e) === c.contractId)) return entries;
    return [...entries, entryOf(c, entries[0], witnessesFor(req, c))];
  });
  const ahead = new Map<number, Json>();
  const remember = async (p: Promise<Json | undefined> | undefined) => {
    const c = await p;
    if (c !== undefined) for (const [at, q] of staged) if ((await q) === c) ahead.set(at, c);
  };
  return {
    ...inner,
    async request(req, upstream) {
      if (isAcs(req)) await remember(stage(upstream, req, req.body));
      return inner.request ? inner.request(req, upstream) : req;
    },
    async wsRequest(req, frame, upstream) {
      if (isAcs(req)) await remember(stage(upstream, req, frame));
      return inner.wsRequest ? inner.wsRequest(req, frame, upstream) : frame;
    },
  };
}

export const HUNT14_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt14-acs-drops-others-recent',
    description: "the active contract set misses contracts of others' transactions created in the ten offsets before the one asked at (creates of transactions the participant did not submit applied late)",
    caughtBy: TARGET_HISTORY,
    fault: onActiveContracts((entries, at, h) => entries.filter((e) => {
      const c = h.created.get(contractIdOf(e) ?? '');
      return c === undefined || !staged(h, c) || c.offset <= at - 10 || c.offset > at;
    })),
  },
  {
    name: 'hunt14-history-exercises-long-archived',
    description: "in the target's history a non-consuming exercise is shown on a contract of the same template and stakeholders archived before the history window the run reads (an archived contract still used, its archive out of the reader's sight)",
    caughtBy: TARGET_HISTORY,
    fault: exercisesRedirected((x) => x.consuming === false, (x, h) => alike(h, x, archivedBefore(h, x), latestArchive(h)), new History(seedLongArchived)),
  },
  {
    name: 'hunt14-acs-holds-created-later',
    description: "the active contract set at an offset holds another application's contract created after that offset (a snapshot answered from the live contract store)",
    caughtBy: TARGET_HISTORY,
    judge: { invariant: 'judge.contracts.active-after-created' },
    fault: snapshotsAhead(),
  },
];
