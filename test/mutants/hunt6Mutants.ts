import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest } from './mutantProxy.js';
import { deadlinesMovedOn, deep, everywhere, is, isObject, ok200, onBody, type Json } from './mutantKit.js';

/**
 * A sixth hunt, judging a target by its own ledger: what a `#name` template filter matches when a
 * package name has two versions, filters of two parties in one request, the user a deprecated
 * completion stream is read for, the offset an archive is read at, the parties a list leaves out,
 * observers against signatories, checkpoints' synchronizer times, the template an interface
 * exercise names, the kind of a granted right, the synchronizers of a reassignment, the deprecated
 * lookups' requesting parties, the parties a completion stream is read for, and an allocation's
 * deadline. Most are consistent faults (the same rewrite on every answer and frame).
 *
 * Found and not caught then, caught now:
 * - archived and consuming exercised events without implementedInterfaces, and an active-contracts
 *   page token that keeps the offset but not the filter: hunt7Mutants.ts
 *   (ledger.updates.transaction-shape reads the archive back through the interface; the page walks
 *   walk with a template filter over a party holding two templates).
 * - interface views computed once per template in an answer: the filter checks now recompute each
 *   view they read with the engine (viewMutants.ts, views-once-per-template, caught whatever the
 *   profile says of the view).
 */

const isCreatedEvent = (o: Json) => typeof o.contractId === 'string' && 'createArgument' in o && Array.isArray(o.signatories);
const isExercisedEvent = (o: Json) => typeof o.contractId === 'string' && typeof o.choice === 'string' && 'choiceArgument' in o;

/** A request body's or a WebSocket request frame's JSON rewritten by `f` on the paths matching `pattern`. */
function requestsAndFrames(pattern: RegExp, f: (v: Json) => Json): Fault {
  return {
    request: (req) => {
      const v = parse(req.body);
      return req.method !== 'POST' || !pattern.test(pathOf(req.url)) || !isObject(v) ? req : { ...req, body: JSON.stringify(f(v)) };
    },
    wsRequest: (req, frame) => {
      const v = parse(frame);
      return !pattern.test(pathOf(req.url)) || !isObject(v) ? frame : JSON.stringify(f(v));
    },
  };
}
const READS = /^\/v2\/(updates|state\/active-contracts|events\/events-by-contract-id)/;

/**
 * A `#name:Module:Entity` template filter resolved to one package id of that name (the one the
 * participant's package-name cache last resolved: the package of the newest created event of that
 * name it served), so contracts created from another version of the package are left out.
 */
function packageNameFilterResolvesToOne(): Fault {
  const latest = new Map<string, string>();
  const learn = (v: unknown) => deep(v, (o) => {
    if (isCreatedEvent(o) && typeof o.packageName === 'string' && typeof o.templateId === 'string' && /^[0-9a-f]{64}:/.test(o.templateId)) latest.set(o.packageName, o.templateId.slice(0, 64));
    return o;
  });
  const resolve = (v: Json): Json => deep(v, (o) => {
    const t = isObject(o.TemplateFilter) && isObject(o.TemplateFilter.value) ? o.TemplateFilter.value : undefined;
    const m = typeof t?.templateId === 'string' ? /^#([^:]+):(.+)$/.exec(t.templateId) : null;
    const id = m ? latest.get(m[1]!) : undefined;
    return id === undefined ? o : { ...o, TemplateFilter: { ...o.TemplateFilter as Json, value: { ...t, templateId: `${id}:${m![2]}` } } };
  }) as Json;
  const base = requestsAndFrames(READS, resolve);
  return {
    ...base,
    response: (_req, res) => {
      if (res.status === 200) learn(parse(res.body));
      return res;
    },
    wsResponse: (_req, frame) => {
      learn(parse(frame));
      return [frame];
    },
  };
}

/** Every party of a filtersByParty map given the union of all its parties' filters (one filter set built for the whole query). */
const mergeFiltersByParty = (v: Json): Json => deep(v, (o) => {
  if (!isObject(o.filtersByParty)) return o;
  const byParty = o.filtersByParty;
  const parties = Object.keys(byParty);
  if (parties.length < 2) return o;
  const all = parties.flatMap((p) => (isObject(byParty[p]) && Array.isArray(byParty[p].cumulative) ? (byParty[p].cumulative as unknown[]) : []));
  return { ...o, filtersByParty: Object.fromEntries(parties.map((p) => [p, { cumulative: all }])) };
}) as Json;

/**
 * The deprecated completion stream served by GetCompletions' core without its user: every
 * completion of the parties, whichever user submitted the command.
 */
const deprecatedCompletionsForEveryUser: Fault = {
  request: (req: ProxyRequest) => {
    const v = parse(req.body);
    if (!is(req, 'POST', '/v2/commands/completions') || !isObject(v)) return req;
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const { userId: _user, ...rest } = v;
    return { ...req, url: `/v2/commands/command-completions${query}`, body: JSON.stringify(rest) };
  },
};

/** The parties an external allocation answered, left out of GET /v2/parties (listed from the table of parties allocated by POST /v2/parties). */
function externalPartiesUnlisted(): Fault {
  const external = new Set<string>();
  return {
    response: (req, res) => {
      if (res.status !== 200) return res;
      if (is(req, 'POST', '/v2/parties/external/allocate')) {
        const v = parse(res.body);
        if (isObject(v) && typeof v.partyId === 'string') external.add(v.partyId);
        return res;
      }
      if (!is(req, 'GET', '/v2/parties')) return res;
      return ok200(res, (v) => (isObject(v) && Array.isArray(v.partyDetails) ? { ...v, partyDetails: v.partyDetails.filter((d) => !(isObject(d) && external.has(String(d.party)))) } : v));
    },
  };
}

/**
 * Checkpoints' synchronizer times frozen at the first record time the participant learned of each
 * synchronizer (the time its connection began, captured once): every checkpoint says time on the
 * synchronizer has reached only that.
 */
function checkpointTimesFrozen(): Fault {
  const firstTime = new Map<string, string>();
  const learn = (o: Json): Json => {
    if (typeof o.synchronizerId === 'string' && typeof o.recordTime === 'string' && !firstTime.has(o.synchronizerId)) firstTime.set(o.synchronizerId, o.recordTime);
    return o;
  };
  const freeze = (o: Json): Json => {
    if (!(typeof o.offset === 'number' && Array.isArray(o.synchronizerTimes) && !('updateId' in o))) return o;
    return { ...o, synchronizerTimes: o.synchronizerTimes.map((t) => (isObject(t) && typeof t.synchronizerId === 'string' && firstTime.has(t.synchronizerId) ? { ...t, recordTime: firstTime.get(t.synchronizerId) } : t)) };
  };
  const both = (o: Json): Json => freeze(learn(o));
  return everywhere(both);
}

const swapRightKind = (v: unknown): unknown => deep(v, (o) => (isObject(o.CanActAs) ? { ...o, CanActAs: undefined, CanReadAs: o.CanActAs } as Json : o));

/** The deprecated transaction reads answering any party: requestingParties (and the tree's ?parties=) dropped for a wildcard over every party. */
const deprecatedReadsForAnyParty: Fault = {
  request: (req) => {
    if (is(req, 'POST', /^\/v2\/updates\/transaction-by-(id|offset)$/)) {
      const v = parse(req.body);
      if (!isObject(v) || !Array.isArray(v.requestingParties)) return req;
      const { requestingParties: _parties, ...rest } = v;
      return { ...req, body: JSON.stringify({ ...rest, transactionFormat: { eventFormat: { filtersForAnyParty: { cumulative: [] }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } }) };
    }
    return req;
  },
};

/**
 * Completions filtered by user only: the `parties` of a completion request (HTTP and WebSocket)
 * widened to every party the participant allocated, so an application reading its completions for
 * one party gets those of the commands it submitted for every other party.
 */
function completionsIgnoreParties(): Fault {
  const known = new Set<string>();
  const widen = (v: Json): Json => (Array.isArray(v.parties) && v.parties.length > 0 ? { ...v, parties: [...new Set([...(v.parties as string[]), ...known])] } : v);
  const base = requestsAndFrames(/^\/v2\/commands\/completions$/, widen);
  return {
    ...base,
    response: (req, res) => {
      if (res.status === 200 && is(req, 'POST', '/v2/parties')) {
        const v = parse(res.body);
        if (isObject(v) && isObject(v.partyDetails) && typeof v.partyDetails.party === 'string') known.add(v.partyDetails.party);
      }
      return res;
    },
  };
}

/**
 * A ledger that does not hold allocations to their deadline: AllocationFactory_Allocate whose
 * allocateBefore has passed runs as if it had an hour left (the deadline moved on before it runs).
 */
const allocationDeadlineIgnored = deadlinesMovedOn('allocateBefore', 'settleBefore');

export const HUNT6_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt6-package-name-filter-one-version',
    description: "a #name template filter resolves to one package id of that name (the one last resolved), not to every version: contracts a client created from the package's other version vanish from its reads",
    caughtBy: 'ledger.commands.package-selection',
    fault: packageNameFilterResolvesToOne(),
  },
  {
    name: 'hunt6-filters-merged-across-parties',
    description: "filtersByParty with two parties gives each the union of both parties' filters (one template set for the whole query): a party asking for one template gets every template another party of the request asked for",
    caughtBy: 'ledger.filters.active-contracts',
    fault: requestsAndFrames(READS, mergeFiltersByParty),
  },
  {
    name: 'hunt6-deprecated-completions-every-user',
    description: "the deprecated completion stream (POST /v2/commands/completions) is served by GetCompletions' core without its userId: an application reading its completions gets every other application's for the same party",
    caughtBy: 'ledger.async.submit-then-completion',
    fault: deprecatedCompletionsForEveryUser,
  },
  {
    name: 'hunt6-events-archive-at-create-offset',
    description: "events-by-contract-id answers the archived event at the offset of the create (the index row joined by contract id): a client resuming the update stream after the archive's offset reads the archive again",
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    fault: onBody(/^\/v2\/events\/events-by-contract-id$/, (v) => {
      const created = isObject(v.created) && isObject(v.created.createdEvent) ? v.created.createdEvent : undefined;
      const archived = isObject(v.archived) && isObject(v.archived.archivedEvent) ? v.archived.archivedEvent : undefined;
      return created && archived ? { ...v, archived: { ...v.archived as Json, archivedEvent: { ...archived, offset: created.offset } } } : v;
    }),
  },
  {
    name: 'hunt6-external-parties-unlisted',
    description: 'GET /v2/parties leaves out external parties (listed from the table POST /v2/parties writes), while the lookup finds them: a party picker never offers the external parties the participant hosts',
    caughtBy: 'ledger.parties.external-allocate',
    fault: externalPartiesUnlisted(),
  },
  {
    name: 'hunt6-observers-include-signatories',
    description: 'created events list the signatories among the observers (the stakeholders written as observers, the same everywhere): a client counting who observes a contract counts its signatories twice',
    caughtBy: 'ledger.daml.own-package',
    reinterpret: 'judge.daml.observers',
    fault: everywhere((o) => (isCreatedEvent(o) && Array.isArray(o.observers) ? { ...o, observers: [...new Set([...(o.signatories as string[]), ...(o.observers as string[])])] } : o)),
  },
  {
    name: 'hunt6-checkpoint-times-frozen',
    description: "offset checkpoints carry, for each synchronizer, the first record time the participant learned of it (captured once, when it connected): a client waiting on checkpoints for a deadline to pass waits forever",
    caughtBy: 'ledger.updates.ordered',
    fault: checkpointTimesFrozen(),
  },
  {
    name: 'hunt6-interface-exercise-names-interface-as-template',
    description: "an exercise through an interface names the interface as its templateId (the same everywhere): a client decoding the contract by its template finds no such template",
    caughtBy: 'ledger.daml.own-package',
    reinterpret: 'judge.daml.template',
    fault: everywhere((o) => (isExercisedEvent(o) && typeof o.interfaceId === 'string' ? { ...o, templateId: o.interfaceId } : o)),
  },
  {
    name: 'hunt6-act-as-rights-read-as',
    description: 'a CanActAs right is stored and answered as CanReadAs (grant, list and user creation alike): an application provisioned to submit as its party is refused',
    caughtBy: 'ledger.users.rights-list',
    fault: { response: (req, res) => (/^\/v2\/users/.test(pathOf(req.url)) ? ok200(res, swapRightKind) : res) },
  },
  {
    name: 'hunt6-assigned-source-is-target',
    description: 'assigned events name the target synchronizer as their source too (the same everywhere): a client tracing where a contract came from sees it reassigned to where it already was',
    caughtBy: 'ledger.reassignment.unassign-assign',
    fault: everywhere((o) => (typeof o.reassignmentId === 'string' && typeof o.source === 'string' && typeof o.target === 'string' && isObject(o.createdEvent) ? { ...o, source: o.target } : o)),
  },
  {
    name: 'hunt6-deprecated-transaction-reads-for-any-party',
    description: 'the deprecated transaction-by-id and transaction-by-offset ignore requestingParties and answer the transaction as a wildcard over every party: a party reads, by id, a transaction it is no stakeholder of',
    caughtBy: 'ledger.visibility.point-reads-stakeholders-only',
    fault: deprecatedReadsForAnyParty,
  },
  {
    name: 'hunt6-completions-ignore-parties',
    description: "the completion stream (HTTP and WebSocket) filters by user only, not by the requested parties: an application reading one party's completions learns the command ids of every other party it submits for",
    caughtBy: 'ledger.completions.websocket',
    fault: completionsIgnoreParties(),
  },
  {
    name: 'hunt6-allocation-deadline-ignored',
    description: 'the ledger runs AllocationFactory_Allocate past the settlement’s allocateBefore (the deadline not enforced): a venue’s trade is allocated after the time its parties agreed',
    caughtBy: 'registry.factories.ids-work-on-ledger',
    fault: allocationDeadlineIgnored,
  },
];
