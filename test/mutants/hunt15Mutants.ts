import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type Upstream } from './mutantProxy.js';
import { cantonError, deep, is, isObject, ok200, onRequest, without, type Json } from './mutantKit.js';

/**
 * A fifteenth hunt: what the published clients (@canton-network/*: wallet-sdk, core-ledger-client,
 * core-acs-reader, core-tx-parser, core-token-standard-service) assume of the answers they read,
 * read from their compiled code: the request forms they send (a deprecated lookup with a
 * transactionFormat), the fields they match on without a fallback (a completion's userId), the
 * error codes they branch on (CONTRACT_EVENTS_NOT_FOUND), the orders and bounds their loops rely
 * on (limit a prefix, completions by offset).
 *
 * Left unenforced, as the clients' own over-assumptions a conformant server may break: a grant
 * answer without newlyGrantedRights when nothing was new (core-ledger-client's grantRights throws;
 * the benign omitted-defaults variant omits it), latest-pruned-offsets without its 0
 * (listHoldingTransactions then sends no beginExclusive), a registry's first listed instrument
 * taken as Amulet, and single-page reads of GET /v2/parties and the instrument list.
 */

/** The parties a transactionFormat reads as (its filtersByParty keys). */
const formatParties = (format: unknown): string[] =>
  isObject(format) && isObject(format.eventFormat) && isObject(format.eventFormat.filtersByParty) ? Object.keys(format.eventFormat.filtersByParty) : [];

/**
 * The deprecated lookup at `path` implemented in its legacy form only: a transactionFormat is
 * read for its parties and otherwise dropped, so the answer is the default (wildcard, verbose,
 * ACS delta) whatever shape and filters were asked for.
 */
const legacyLookupOnly = (path: string): Fault =>
  onRequest(new RegExp(`^${path}$`), (body) => {
    if (!isObject(body.transactionFormat) || Array.isArray(body.requestingParties)) return body;
    return { ...without(body, 'transactionFormat'), requestingParties: formatParties(body.transactionFormat) };
  });

/** A completion stream element's completion, or undefined. */
const completionOf = (o: Json): Json | undefined =>
  isObject(o.completionResponse) && isObject(o.completionResponse.Completion) && isObject(o.completionResponse.Completion.value) ? o.completionResponse.Completion.value : undefined;

/** Every completion of the completion list and stream without its userId (the request named the user already). */
const completionsWithoutUserId: Fault = (() => {
  const strip = (v: unknown) =>
    deep(v, (o) => {
      const c = completionOf(o);
      return c === undefined ? o : { ...o, completionResponse: { ...(o.completionResponse as Json), Completion: { value: without(c, 'userId') } } };
    });
  const onCompletions = (req: ProxyRequest) => pathOf(req.url) === '/v2/commands/completions';
  return {
    response: (req, res) => (onCompletions(req) ? ok200(res, strip) : res),
    wsResponse: (req, frame) => {
      const v = parse(frame);
      return [onCompletions(req) && v !== undefined ? JSON.stringify(strip(v)) : frame];
    },
  };
})();

/** Whether every cumulative filter of an events-by-contract-id request is an interface filter (core-tx-parser's lookup). */
function interfaceFiltersOnly(body: unknown): boolean {
  const format = isObject(body) && isObject(body.eventFormat) ? body.eventFormat : undefined;
  if (format === undefined) return false;
  const filters = [...Object.values(isObject(format.filtersByParty) ? format.filtersByParty : {}), format.filtersForAnyParty].filter(isObject);
  const cumulative = filters.flatMap((f) => (Array.isArray(f.cumulative) ? f.cumulative : []));
  return cumulative.length > 0 && cumulative.every((c) => isObject(c) && isObject(c.identifierFilter) && isObject(c.identifierFilter.InterfaceFilter));
}

/**
 * GET /v2/parties/{party} also answers, first, a party nobody asked for (the participant's first
 * listed party: a lookup that ORs in a default): core-ledger-client's checkIfPartyExists reads
 * partyDetails[0] as the asked party and never finds it, so waitForPartyAndGrantUserRights times out.
 */
const partyLookupAddsAParty: Fault = {
  async request(req, upstream: Upstream) {
    const path = pathOf(req.url);
    if (req.method !== 'GET' || !/^\/v2\/parties\/[^/]+$/.test(path) || path === '/v2/parties/participant-id') return req;
    const res = await upstream.send(req);
    const v = parse(res.body);
    if (res.status !== 200 || !isObject(v) || !Array.isArray(v.partyDetails) || v.partyDetails.length === 0) return res;
    const asked = new Set(v.partyDetails.filter(isObject).map((d) => d.party));
    const auth = typeof req.headers.authorization === 'string' ? { authorization: req.headers.authorization } : {};
    const listed = parse((await upstream.send({ method: 'GET', url: '/v2/parties?pageSize=20', headers: auth, body: '' })).body);
    const other = isObject(listed) && Array.isArray(listed.partyDetails) ? listed.partyDetails.find((d) => isObject(d) && !asked.has(d.party)) : undefined;
    return other === undefined ? res : { ...res, body: JSON.stringify({ ...v, partyDetails: [other, ...v.partyDetails] }) };
  },
};

export const HUNT15_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt15-transaction-by-id-ignores-format',
    description:
      "the deprecated transaction-by-id serves only its legacy form: a transactionFormat (wallet-sdk's getTransactionById sends LEDGER_EFFECTS with the token standard's interfaces) is read for its parties and answered as the default ACS delta, so the wallet's parser sees no exercise",
    caughtBy: 'ledger.transaction-lookups.transaction-format',
    fault: legacyLookupOnly('/v2/updates/transaction-by-id'),
  },
  {
    name: 'hunt15-transaction-by-offset-ignores-format',
    description: 'the deprecated transaction-by-offset answers the default ACS delta whatever transactionFormat it is given',
    caughtBy: 'ledger.transaction-lookups.transaction-format',
    fault: legacyLookupOnly('/v2/updates/transaction-by-offset'),
  },
  {
    name: 'hunt15-completions-without-user-id',
    description: "completions leave out userId (the request named the user): core-ledger-client's awaitCompletion matches completion.userId and never finds the command's",
    caughtBy: 'ledger.schema.post-v2-commands-completions',
    fault: completionsWithoutUserId,
  },
  {
    name: 'hunt15-events-unknown-contract-sibling-code',
    description: "events-by-contract-id refuses an unknown contract as CONTRACT_NOT_FOUND, the commands' code: core-tx-parser skips only CONTRACT_EVENTS_NOT_FOUND and throws on anything else",
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    fault: {
      response: (req, res) => {
        if (!is(req, 'POST', '/v2/events/events-by-contract-id') || res.status !== 404) return res;
        const v = parse(res.body);
        return isObject(v) && v.code === 'CONTRACT_EVENTS_NOT_FOUND' ? cantonError(404, 'CONTRACT_NOT_FOUND', String(v.cause ?? 'Contract could not be found'), 11) : res;
      },
    },
  },
  {
    name: 'hunt15-events-interface-filter-drops-archived',
    description:
      "events-by-contract-id applies an interface-only filter to the archive too and leaves it out: core-tx-parser looks up an archived holding that way and throws (an archival without its archive event)",
    caughtBy: 'registry.transfer-factory.kind-matches-outcome',
    history: 'judge.history.unparsable',
    fault: {
      response: (req, res) => (is(req, 'POST', '/v2/events/events-by-contract-id') && interfaceFiltersOnly(parse(req.body)) ? ok200(res, (v) => (isObject(v) ? without(v, 'archived') : v)) : res),
    },
  },
  {
    name: 'hunt15-updates-limit-keeps-newest',
    description: "POST /v2/updates?limit=N answers the newest N updates of the range, not the first N: core-acs-reader's walk to the ledger end skips what lies between",
    caughtBy: 'ledger.lists.size-bounds',
    fault: {
      async request(req, upstream) {
        if (!is(req, 'POST', '/v2/updates')) return req;
        const url = new URL(req.url, 'http://x');
        const limit = Number(url.searchParams.get('limit'));
        if (!(limit > 0)) return req;
        url.searchParams.delete('limit');
        const res = await upstream.send({ ...req, url: `${url.pathname}${url.search}` });
        return ok200(res, (v) => (Array.isArray(v) ? v.slice(-limit) : v));
      },
    },
  },
  {
    name: 'hunt15-completions-newest-first',
    description: "the completion list answers newest first: awaitCompletion reads on from the last element's offset, which is then the oldest",
    caughtBy: 'ledger.completions.websocket',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/commands/completions') ? ok200(res, (v) => (Array.isArray(v) ? [...v].reverse() : v)) : res) },
  },
  {
    name: 'hunt15-flats-ignore-update-format',
    description:
      "the deprecated updates/flats reads only its legacy filter: an updateFormat (wallet-sdk's listHoldingTransactions sends LEDGER_EFFECTS with the standard's interfaces) is answered as the ACS delta of its parties",
    caughtBy: 'ledger.flats.same-as-updates',
    fault: onRequest(/^\/v2\/updates\/flats$/, (body) => {
      const tx = isObject(body.updateFormat) && isObject(body.updateFormat.includeTransactions) ? body.updateFormat.includeTransactions : undefined;
      if (tx === undefined || !isObject(tx.eventFormat)) return body;
      return { ...without(body, 'updateFormat'), filter: without(tx.eventFormat, 'verbose'), verbose: tx.eventFormat.verbose ?? false };
    }),
  },
  {
    name: 'hunt15-party-lookup-adds-a-party',
    description: "GET /v2/parties/{party} answers, before the party asked for, another party it knows: core-ledger-client's checkIfPartyExists reads partyDetails[0] and never finds the party",
    caughtBy: 'ledger.parties.allocate-round-trip',
    fault: partyLookupAddsAParty,
  },
  {
    name: 'hunt15-legacy-filter-refused',
    description:
      "the update list and the active contract set serve only the format fields: the legacy filter/verbose form (core-acs-reader's reads, the wallet SDK's update stream) is refused as if update_format were mandatory, as only Canton 3.6 does",
    caughtBy: 'ledger.wire.legacy-filter-form',
    fault: {
      request: (req) => {
        const path = pathOf(req.url);
        const body = parse(req.body);
        if (req.method !== 'POST' || (path !== '/v2/updates' && path !== '/v2/state/active-contracts') || !isObject(body) || body.filter === undefined) return req;
        if (body.updateFormat !== undefined || body.eventFormat !== undefined) return req;
        const field = path === '/v2/updates' ? 'update_format' : 'event_format';
        return cantonError(400, 'MISSING_FIELD', `The submitted request is missing a mandatory field: ${field}`, 8);
      },
    },
  },
  {
    name: 'hunt15-legacy-filter-ledger-effects',
    description: 'the update list reads the legacy filter form as a LEDGER_EFFECTS format (the documented default is the ACS delta): a consuming exercise shows as its exercised event, not the archive a reader of the legacy form waits for',
    caughtBy: 'ledger.wire.legacy-filter-form',
    fault: onRequest(/^\/v2\/updates$/, (body) => {
      if (!isObject(body.filter) || body.updateFormat !== undefined) return body;
      const eventFormat = { ...body.filter, verbose: body.verbose ?? false };
      return { ...without(without(body, 'filter'), 'verbose'), updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } };
    }),
  },
  {
    name: 'hunt15-empty-idp-query-refused',
    description:
      "user and party lookups validate ?identity-provider-id= as an identifier and refuse the empty one (proto3's unset: the default identity provider), which wallet-sdk sends: its user creation stops at the lookup, as it branches only on USER_NOT_FOUND",
    caughtBy: 'ledger.users.get-unknown-404',
    fault: {
      request: (req) => {
        const [path, query = ''] = req.url.split('?');
        if (req.method !== 'GET' || !/^\/v2\/(users|parties)\/[^/]+$/.test(pathOf(path!)) || new URLSearchParams(query).get('identity-provider-id') !== '') return req;
        return cantonError(400, 'INVALID_ARGUMENT', 'The submitted request has invalid arguments: identity_provider_id must not be empty', 8);
      },
    },
  },
  {
    name: 'hunt15-ws-legacy-filter-ledger-effects',
    description:
      "the update WebSocket reads a legacy filter/verbose request frame as a LEDGER_EFFECTS format (the HTTP list reads it right): the wallet SDK's update stream, which sends that form, sees exercises where it waits for archives",
    caughtBy: 'ledger.wire.legacy-filter-form',
    fault: {
      wsRequest: (req, frame) => {
        const v = parse(frame);
        if (pathOf(req.url) !== '/v2/updates' || !isObject(v) || !isObject(v.filter) || v.updateFormat !== undefined) return frame;
        const eventFormat = { ...v.filter, verbose: v.verbose ?? false };
        return JSON.stringify({ ...without(without(v, 'filter'), 'verbose'), updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } });
      },
    },
  },
];
