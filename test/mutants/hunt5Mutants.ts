import { createHash } from 'node:crypto';
import type { Mutant } from './mutants.js';
import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';
import { cantonError, deep, everywhere, is, isObject, ok200, onBody, onRequest, without, type Json } from './mutantKit.js';

/**
 * A fifth hunt: what a filter asks for beyond the contracts (the created-event blob of an
 * interface or wildcard filter), what a transaction keeps (its command id, its synchronizer, the
 * interface a choice was exercised through), parties and users (isLocal, the id hint, page sizes
 * and the last page's token, rights of an unknown user), bounded streams, past snapshots and
 * events of a contract, rejected completions, the contracts a registry discloses and the APIs an
 * instrument announces, repeated uploads and Scan's newest round. Most are consistent faults (the
 * same rewrite on every answer and frame), which only a rule or the engine's re-interpretation can
 * catch. Found and not caught (no rule that a conformant server could not break): record times an
 * hour before their transactions' ledger time everywhere (the tolerance is the synchronizer's).
 */

/** Request bodies and WebSocket request frames with every `key` filter's includeCreatedEventBlob off: a codec that drops the field of that filter kind. */
function filterDropsBlob(key: 'InterfaceFilter' | 'WildcardFilter'): Fault {
  const rewrite = (v: unknown) => deep(v, (o) => (isObject(o[key]) && isObject(o[key].value) ? { ...o, [key]: { ...o[key], value: { ...o[key].value, includeCreatedEventBlob: false } } } : o));
  return {
    ...onRequest(/^\/v2\/(updates|state\/active-contracts|events\/events-by-contract-id)/, (v) => rewrite(v) as Json),
    wsRequest: (_req, frame) => {
      const v = parse(frame);
      return v === undefined ? frame : JSON.stringify(rewrite(v));
    },
  };
}

const isTransaction = (o: Json) => typeof o.updateId === 'string' && Array.isArray(o.events) && typeof o.effectiveAt === 'string';
const isCompletion = (o: Json) => typeof o.commandId === 'string' && isObject(o.status) && Array.isArray(o.actAs);

/** The offset of the update a stream frame carries (a transaction, reassignment or checkpoint), if any. */
function frameOffset(v: unknown): number | undefined {
  if (!isObject(v) || !isObject(v.update)) return undefined;
  for (const kind of Object.values(v.update)) {
    if (isObject(kind) && isObject(kind.value) && typeof kind.value.offset === 'number') return kind.value.offset;
  }
  return undefined;
}

/** The bounded /v2/updates WebSocket sends every update but the one at endInclusive (a `<` where `<=` belongs), then closes. */
function wsBoundedDropsLast(): Fault {
  const ends = new WeakMap<ProxyRequest, number>();
  return {
    wsRequest: (req, frame) => {
      const v = parse(frame);
      if (pathOf(req.url) === '/v2/updates' && isObject(v) && typeof v.endInclusive === 'number') ends.set(req, v.endInclusive);
      return frame;
    },
    wsResponse: (req, frame) => {
      const end = ends.get(req);
      return end !== undefined && frameOffset(parse(frame)) === end ? [] : [frame];
    },
  };
}

const getJson = async (upstream: Upstream, req: ProxyRequest, url: string): Promise<unknown> => parse((await upstream.send({ method: 'GET', url, headers: req.headers, body: '' })).body);

/**
 * Active contracts at a past offset leave out the contracts archived since: the snapshot is the
 * current active set filtered by creation offset, not the set as it was (an index without
 * archival offsets).
 */
const acsPastDropsArchivedSince: Fault = {
  request: async (req, upstream) => {
    const body = parse(req.body);
    if (!is(req, 'POST', '/v2/state/active-contracts') || !isObject(body) || typeof body.activeAtOffset !== 'number') return req;
    const end = await getJson(upstream, req, '/v2/state/ledger-end');
    if (!isObject(end) || typeof end.offset !== 'number' || body.activeAtOffset >= end.offset) return req;
    const past = await upstream.send(req);
    const now = await upstream.send({ ...req, raw: undefined, body: JSON.stringify({ ...body, activeAtOffset: end.offset }) });
    const pastEntries = parse(past.body);
    const nowEntries = parse(now.body);
    if (past.status !== 200 || now.status !== 200 || !Array.isArray(pastEntries) || !Array.isArray(nowEntries)) return past;
    const cid = (x: unknown): unknown => (isObject(x) && isObject(x.contractEntry) && isObject(x.contractEntry.JsActiveContract) && isObject(x.contractEntry.JsActiveContract.createdEvent) ? x.contractEntry.JsActiveContract.createdEvent.contractId : undefined);
    const active = new Set(nowEntries.map(cid));
    return { ...past, raw: undefined, body: JSON.stringify(pastEntries.filter((x) => cid(x) === undefined || active.has(cid(x)))) };
  },
};

/** The contract ids of a disclosed-contract list rotated by one (each entry keeps its blob and template): an index mismatch when zipping ids with blobs. */
const rotateDisclosed = (v: Json): Json => {
  if (!Array.isArray(v.disclosedContracts) || v.disclosedContracts.length < 2) return v;
  const list = v.disclosedContracts as unknown[];
  const ids = list.map((d) => (isObject(d) ? d.contractId : undefined));
  return { ...v, disclosedContracts: list.map((d, i) => (isObject(d) ? { ...d, contractId: ids[(i + 1) % ids.length] } : d)) };
};

/** The last page of a list (GET `path`) answers, as its nextPageToken, the token it was asked with: a client walking the list loops on its last page. */
const lastPageLoops = (path: string): Fault => ({
  response: (req, res) => {
    if (!is(req, 'GET', path)) return res;
    const token = new URL(req.url, 'http://x').searchParams.get('pageToken');
    return token ? ok200(res, (v) => (isObject(v) && (v.nextPageToken === '' || v.nextPageToken === undefined) ? { ...v, nextPageToken: token } : v)) : res;
  },
});

/** The round number of a Scan contract-with-state entry (`contract.payload.round.number`). */
const roundOf = (x: unknown): number => {
  const c = isObject(x) && isObject(x.contract) ? x.contract : undefined;
  const n = c && isObject(c.payload) && isObject(c.payload.round) ? Number(c.payload.round.number) : Number.NaN;
  return Number.isFinite(n) ? n : -1;
};
/** Scan's open rounds (a map by contract id, or a list) without the one of the highest round number. */
const withoutNewestRound = (rounds: unknown): unknown => {
  if (Array.isArray(rounds)) {
    const newest = Math.max(...rounds.map(roundOf));
    return rounds.filter((x) => roundOf(x) !== newest);
  }
  if (!isObject(rounds)) return rounds;
  const newest = Math.max(...Object.values(rounds).map(roundOf));
  return Object.fromEntries(Object.entries(rounds).filter(([, x]) => roundOf(x) !== newest));
};

/** A DAR uploaded a second time, byte for byte, is refused as a duplicate instead of being the no-op Canton makes it. */
function reuploadRefused(): Fault {
  const seen = new Set<string>();
  return {
    request: (req) => {
      if (req.method !== 'POST' || !/^\/v2\/(packages|dars)$/.test(pathOf(req.url))) return req;
      const digest = createHash('sha256').update(req.raw?.bytes ?? Buffer.from(req.body)).digest('hex');
      if (seen.has(digest)) return cantonError(409, 'KNOWN_DAR_VERSION', 'A DAR with the same main package has already been uploaded', 10);
      seen.add(digest);
      return req;
    },
  };
}

/** Granting rights to a user that does not exist creates the user (an upsert) instead of answering 404 USER_NOT_FOUND. */
const grantCreatesUser: Fault = {
  request: async (req, upstream) => {
    const m = /^\/v2\/users\/([^/]+)\/rights$/.exec(pathOf(req.url));
    if (req.method !== 'POST' || !m) return req;
    const first = await upstream.send(req);
    if (first.status !== 404) return first;
    const userId = decodeURIComponent(m[1]!);
    await upstream.send({ method: 'POST', url: '/v2/users', headers: { ...req.headers, 'content-type': 'application/json' }, body: JSON.stringify({ user: { id: userId, isDeactivated: false, identityProviderId: '' }, rights: [] }) });
    return upstream.send(req);
  },
};

/** GET /v2/users ignores pageSize: every user comes in one page. */
const userPageSizeIgnored: Fault = {
  request: (req) => {
    if (!is(req, 'GET', '/v2/users')) return req;
    const url = new URL(req.url, 'http://x');
    if (!url.searchParams.has('pageSize')) return req;
    url.searchParams.set('pageSize', '1000');
    return { ...req, url: `${url.pathname}${url.search}` };
  },
};

/**
 * Every ledger read (updates, completions, checkpoints, active contracts, events) names the global
 * synchronizer by the id it had before a hard migration: the index kept the old id, while the
 * synchronizer connection and the topology (connected synchronizers, package vetting) name the
 * current one. The registry and Scan, other applications, are right.
 */
const staleSynchronizer = ((): Fault => {
  // The current id is the first synchronizer the participant says it is connected to (learned
  // from that answer, which the fault leaves alone), so the fault holds on any node's identity.
  let current: string | undefined;
  const learn = (res: ProxyResponse) => {
    const body = parse(res.body);
    const list = isObject(body) ? body.connectedSynchronizers : undefined;
    const first = Array.isArray(list) && isObject(list[0]) ? list[0].synchronizerId : undefined;
    if (typeof first === 'string') current ??= first;
  };
  const stale = (id: string) => id.replace('::', '-before-migration::');
  return {
    response: (req, res) => {
      const path = pathOf(req.url);
      if (path === '/v2/state/connected-synchronizers') learn(res);
      const now = current;
      if (now === undefined || !path.startsWith('/v2/') || /^\/v2\/(state\/connected-synchronizers|package-vetting|packages|interactive-submission)/.test(path)) return res;
      return ok200(res, (v) => deep(v, (o) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, x === now ? stale(now) : x]))));
    },
    wsResponse: (_req, frame) => [current === undefined ? frame : frame.split(current).join(stale(current))],
  };
})();

export const HUNT5_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt5-interface-filter-drops-blob',
    description: "an InterfaceFilter's includeCreatedEventBlob is dropped by the JSON codec (TemplateFilter's kept): a wallet reading its holdings through the Holding interface gets no blob to disclose them with",
    caughtBy: 'ledger.filters.active-contracts',
    fault: filterDropsBlob('InterfaceFilter'),
  },
  {
    name: 'hunt5-wildcard-filter-drops-blob',
    description: "a WildcardFilter's includeCreatedEventBlob is dropped by the JSON codec: a client reading every contract of a party gets no blob to disclose any of them with",
    caughtBy: 'ledger.acs.created-event-blob',
    fault: filterDropsBlob('WildcardFilter'),
  },
  {
    name: 'hunt5-transactions-without-command-id',
    description: 'transactions carry no commandId, for the submitting party too (the same everywhere): a client matching the transactions of its own commands on the update stream never finds them',
    caughtBy: 'ledger.exercise.result-and-events',
    fault: everywhere((o) => (isTransaction(o) && typeof o.commandId === 'string' && o.commandId !== '' ? { ...o, commandId: '' } : o)),
  },
  {
    name: 'hunt5-updates-name-stale-synchronizer',
    description: "the participant's index names, in every update, completion, checkpoint and active contract, the id its synchronizer had before a hard migration (connected synchronizers and vetting name the current one): a client submitting to the synchronizer its contract is on is refused",
    caughtBy: 'ledger.synchronizers.connected',
    fault: staleSynchronizer,
  },
  {
    name: 'hunt5-parties-not-local',
    description: 'every party answer says isLocal false, for the parties the participant hosts too (the same everywhere): a wallet picking the parties it can submit for finds none',
    caughtBy: 'ledger.parties.allocate-round-trip',
    fault: everywhere((o) => (typeof o.party === 'string' && o.isLocal === true ? { ...o, isLocal: false } : o)),
  },
  {
    name: 'hunt5-party-hint-ignored',
    description: 'POST /v2/parties ignores partyIdHint and allocates a party of its own name: a client allocating "alice" finds no alice:: party',
    caughtBy: 'ledger.parties.allocate-round-trip',
    fault: onRequest(/^\/v2\/parties$/, (v) => without(v, 'partyIdHint')),
  },
  {
    name: 'hunt5-user-list-page-size-ignored',
    description: 'GET /v2/users ignores pageSize and answers every user in one page: a client paging with a small page gets a page of hundreds',
    caughtBy: 'ledger.lists.size-bounds',
    fault: userPageSizeIgnored,
  },
  {
    name: 'hunt5-exercise-interface-id-dropped',
    description: 'exercised events of a choice exercised through an interface carry no interfaceId (the same everywhere): a client decoding the choice argument by the template finds no such choice',
    caughtBy: 'ledger.daml.own-package',
    reinterpret: 'judge.daml.interface',
    fault: everywhere((o) => (typeof o.choice === 'string' && typeof o.interfaceId === 'string' ? without(o, 'interfaceId') : o)),
  },
  {
    name: 'hunt5-ws-bounded-drops-last',
    description: 'the bounded /v2/updates WebSocket sends the updates before endInclusive but not the one at it (a < where <= belongs), then closes normally: a client reading up to an offset misses its last update',
    caughtBy: 'ledger.updates.websocket-matches-http',
    fault: wsBoundedDropsLast(),
  },
  {
    name: 'hunt5-acs-past-offset-drops-archived-since',
    description: 'active contracts at a past offset leave out the contracts archived since (the current set filtered by creation offset): a client pairing the snapshot with the updates after it sees archives of contracts it never had',
    caughtBy: 'ledger.archive.removed-at-new-end',
    fault: acsPastDropsArchivedSince,
  },
  {
    name: 'hunt5-rejected-completion-with-update-id',
    description: "rejected commands' completions carry an update id (derived from the command, as for an accepted one): a client that takes a completion with an update id for committed reports its rejected command as done",
    caughtBy: 'ledger.async.rejection-completes',
    fault: everywhere((o) => (isCompletion(o) && isObject(o.status) && typeof o.status.code === 'number' && o.status.code !== 0 ? { ...o, updateId: `1220${createHash('sha256').update(o.commandId as string).digest('hex')}` } : o)),
  },
  {
    name: 'hunt5-disclosed-contract-ids-rotated',
    description: "the registry's disclosed contracts carry each the contract id of the next one (ids zipped with blobs off by one): the ledger refuses the disclosures of a wallet's accept",
    caughtBy: 'registry.cross-group.transfer-contexts-let-reject-withdraw-succeed',
    fault: onBody(/^\/registry\//, rotateDisclosed),
  },
  {
    name: 'hunt5-party-last-page-token-loops',
    description: "the party list's last page answers, as its nextPageToken, the token it was asked with: a client walking the parties loops on the last page forever",
    caughtBy: 'ledger.lists.complete-on-every-page',
    fault: lastPageLoops('/v2/parties'),
  },
  {
    name: 'hunt5-reupload-refused',
    description: 'a DAR uploaded again, byte for byte, is refused 409 as already known (Canton makes it a no-op): an application uploading its DAR at every start fails its second start',
    caughtBy: 'ledger.packages.same-name-and-version-refused',
    fault: reuploadRefused(),
  },
  {
    name: 'hunt5-grant-creates-unknown-user',
    description: 'granting rights to a user that does not exist creates it (an upsert) instead of answering 404 USER_NOT_FOUND: a typo in a provisioning script makes a user nobody asked for',
    caughtBy: 'ledger.users.rights-model',
    fault: grantCreatesUser,
  },
  {
    name: 'hunt5-instruments-announce-no-transfers',
    description: "instruments (list and lookup) leave the transfer-instruction API out of their supportedApis while the registry serves transfers of them: a wallet choosing what to offer by an instrument's supportedApis offers no transfer",
    caughtBy: 'registry.metadata.instrument-lists-transfer-api',
    fault: onBody(/^\/registry\/metadata\/v1\/instruments/, (v) => deep(v, (o) => (isObject(o.supportedApis) ? { ...o, supportedApis: Object.fromEntries(Object.entries(o.supportedApis).filter(([k]) => !k.includes('transfer-instruction'))) } : o)) as Json),
  },
  {
    name: 'hunt5-instruments-announce-unserved-v2',
    description: "a registry that announces the v2 factory APIs in its instruments' supportedApis (metadata copied from a v2 registry) but serves v1 only: the v2 factories answer 404, so a wallet that picks the newest announced version cannot transfer or allocate",
    caughtBy: 'registry.metadata.instrument-apis-served',
    fault: {
      request: (req) => (/^\/registry\/(transfer|allocation)-instruction\/v2\//.test(pathOf(req.url)) ? jsonResponse(404, { error: 'Not found' }) : req),
    },
  },
  {
    name: 'hunt5-user-last-page-token-loops',
    description: "the user list's last page answers, as its nextPageToken, the token it was asked with: an admin tool walking the users loops on the last page forever",
    caughtBy: 'ledger.lists.complete-on-every-page',
    fault: lastPageLoops('/v2/users'),
  },
  {
    name: 'hunt5-events-of-archived-contract-without-create',
    description: 'events-by-contract-id of an archived contract answers the archive alone, without its create (the created event looked up among active contracts only): a client cannot show what the contract was',
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    fault: onBody(/^\/v2\/events\/events-by-contract-id$/, (v) => (isObject(v.archived) ? without(v, 'created') : v)),
  },
  {
    name: 'hunt5-events-of-unknown-contract-empty',
    description: 'events-by-contract-id of a contract the party never saw answers 200 with no events instead of 404 CONTRACT_EVENTS_NOT_FOUND: a client cannot tell an unknown id from an answer without events',
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/events/events-by-contract-id') && res.status === 404 ? jsonResponse(200, {}) : res) },
  },
  {
    name: 'hunt5-scan-latest-open-round-omitted',
    description: 'Scan and its proxy leave the newest open mining round out of open_mining_rounds (an off-by-one in the round window): wallets pay the fees of an older round and, once it closes, have none',
    caughtBy: 'scan.rounds.open-round-now',
    fault: onBody(/^\/v0\/(scan-proxy\/)?open-and-issuing-mining-rounds$/, (v) => ('open_mining_rounds' in v ? { ...v, open_mining_rounds: withoutNewestRound(v.open_mining_rounds) } : v)),
  },
];
