import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type Upstream } from './mutantProxy.js';
import { cantonError, deep, is, isObject, ok200, submittedCommands, withJson, type Json } from './mutantKit.js';

/**
 * Faults found by hunting for rules clients rely on that no mutant broke yet: offsets across
 * endpoints, pages that repeat an element, filters that leak other parties' contracts, interface
 * views a wallet looks up by id, WebSocket streams that drop or repeat a frame, registry contexts
 * whose disclosures contradict themselves. Each is a bug a real server plausibly ships.
 */

const hasQuery = (req: ProxyRequest, name: string) => new RegExp(`[?&]${name}=`).test(req.url);

async function ledgerEndOf(upstream: Upstream): Promise<number> {
  const v = parse((await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: {}, body: '' })).body);
  return isObject(v) && typeof v.offset === 'number' ? v.offset : 0;
}

/** The ledger end answered `delta` away from the truth (never below 0). */
const ledgerEndShifted = (delta: number): Fault => ({
  response: (req, res) => (is(req, 'GET', '/v2/state/ledger-end') ? ok200(res, (v) => (isObject(v) && typeof v.offset === 'number' && v.offset + delta >= 0 ? { ...v, offset: v.offset + delta } : v)) : res),
});

/**
 * Every `filtersByParty` read as a filter for any party (the first party's filter kept): the
 * server forgets which party asked and answers what the participant hosts.
 */
const forAnyParty = (body: Json): Json =>
  deep(body, (x) => {
    if (!isObject(x.filtersByParty)) return x;
    const first = Object.values(x.filtersByParty)[0];
    const { filtersByParty: _byParty, ...rest } = x;
    return { ...rest, filtersForAnyParty: isObject(first) ? first : {} };
  }) as Json;
const readsForAnyParty = (method: string, path: string): Fault => ({
  request: (req) => {
    const body = parse(req.body);
    return is(req, method, path) && isObject(body) ? { ...req, body: JSON.stringify(forAnyParty(body)) } : req;
  },
});

/**
 * A page resumed from its token starts with the last element of the page before (a token that
 * names the last element served, read as inclusive). `list` picks the elements of an answer.
 */
function pagesRepeatLast(matches: (req: ProxyRequest) => boolean, continued: (req: ProxyRequest) => boolean, key: string): Fault {
  let last: unknown;
  return {
    response(req, res) {
      if (!matches(req) || res.status !== 200) return res;
      return withJson(res, (v) => {
        if (!isObject(v) || !Array.isArray(v[key])) return v;
        const items = v[key] as unknown[];
        const out = continued(req) && last !== undefined && items.length > 0 ? [last, ...items] : items;
        last = items.length > 0 ? items[items.length - 1] : last;
        return { ...v, [key]: out };
      });
    },
  };
}
const bodyHasPageToken = (req: ProxyRequest) => {
  const b = parse(req.body);
  return (isObject(b) && typeof b.pageToken === 'string' && b.pageToken !== '') || hasQuery(req, 'pageToken');
};

/** On WebSocket path `path`: the first frame `pick` selects is repeated (`twice`) or dropped. */
function wsFrame(path: string, pick: (v: Json) => boolean, mode: 'twice' | 'drop'): Fault {
  return {
    wsResponse(req, frame) {
      const v = parse(frame);
      // One fault per socket would need per-socket state; every matching frame keeps it simple and deterministic.
      if (pathOf(req.url) !== path || !isObject(v) || !pick(v)) return [frame];
      return mode === 'twice' ? [frame, frame] : [];
    },
  };
}
const isTransactionFrame = (v: Json) => isObject(v.update) && 'Transaction' in v.update;
const isContractFrame = (v: Json) => isObject(v.contractEntry) && 'JsActiveContract' in v.contractEntry;

/** Each created event's interface views named by the template's id instead of the interface's. */
const viewsNamedByTemplate = (v: unknown): unknown =>
  deep(v, (x) => (Array.isArray(x.interfaceViews) && typeof x.templateId === 'string' ? { ...x, interfaceViews: x.interfaceViews.map((iv) => (isObject(iv) ? { ...iv, interfaceId: x.templateId } : iv)) } : x));

/** Rotates the template ids of a context's disclosed contracts by one (a join that pairs rows by position). */
const rotateDisclosedTemplates = (v: unknown): unknown =>
  deep(v, (x) => {
    const d = x.disclosedContracts;
    if (!Array.isArray(d) || d.length < 2 || !d.every(isObject)) return x;
    const ids = (d as Json[]).map((c) => c.templateId);
    if (new Set(ids).size < 2) return x;
    return { ...x, disclosedContracts: (d as Json[]).map((c, i) => ({ ...c, templateId: ids[(i + 1) % ids.length] })) };
  });

/** The offset of an update element ({update: {Transaction: {value: {offset}}}} and the other kinds), or undefined. */
const offsetOf = (el: unknown): number | undefined => {
  if (!isObject(el) || !isObject(el.update)) return undefined;
  const inner = Object.values(el.update)[0];
  return isObject(inner) && isObject(inner.value) && typeof inner.value.offset === 'number' ? inner.value.offset : undefined;
};

/** Strings that read as Daml Int64 or Numeric, as JSON numbers (a codec mapping them to BigDecimal/Long). */
const numbersUnquoted = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(numbersUnquoted) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbersUnquoted(x)])) : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
const DAML_VALUES = ['createArgument', 'viewValue', 'exerciseResult', 'choiceArgument'];

/**
 * Command deduplication keyed on the command id alone: a command id seen before under other actAs
 * parties (or another user) is refused as a duplicate, though its change id differs.
 */
function dedupOnCommandIdOnly(): Fault {
  const seen = new Map<string, string>();
  return {
    request(req) {
      const c = submittedCommands(req)?.commands;
      if (c === undefined || typeof c.commandId !== 'string') return req;
      const key = JSON.stringify([c.userId ?? '', c.actAs ?? []]);
      const before = seen.get(c.commandId);
      if (before !== undefined && before !== key) return cantonError(409, 'DUPLICATE_COMMAND', `A command with the given command id ${c.commandId} has already been successfully processed`, 10);
      seen.set(c.commandId, key);
      return req;
    },
  };
}

/**
 * On the /v2/updates WebSocket: an OffsetCheckpoint one past each transaction, sent before it and
 * capped at the request's endInclusive (so only the order, not the range, is wrong).
 */
function wsCheckpointAhead(): Fault {
  const ends = new WeakMap<ProxyRequest, number>();
  return {
    wsRequest(req, frame) {
      const v = parse(frame);
      if (isObject(v) && typeof v.endInclusive === 'number') ends.set(req, v.endInclusive);
      return frame;
    },
    wsResponse(req, frame) {
      const v = parse(frame);
      if (pathOf(req.url) !== '/v2/updates' || !isObject(v) || !isTransactionFrame(v)) return [frame];
      const tx = isObject(v.update) && isObject(v.update.Transaction) && isObject(v.update.Transaction.value) ? v.update.Transaction.value : undefined;
      if (tx === undefined || typeof tx.offset !== 'number') return [frame];
      const offset = Math.min(tx.offset + 1, ends.get(req) ?? Number.MAX_SAFE_INTEGER);
      const checkpoint = { update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [{ synchronizerId: tx.synchronizerId, recordTime: tx.recordTime }] } } } };
      return [JSON.stringify(checkpoint), frame];
    },
  };
}

export const HUNT_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt-ledger-end-lags-one',
    description: 'GET /v2/state/ledger-end answers one below the last committed offset (the index end minus the offset being written): a just-completed command lies past the ledger end',
    caughtBy: 'ledger.ledger-end.advances-on-commit',
    fault: ledgerEndShifted(-1),
  },
  {
    name: 'hunt-ledger-end-ahead-one',
    description: 'GET /v2/state/ledger-end answers the next offset to be allocated, one past the last committed one: reads at the ledger end are refused as past it',
    caughtBy: 'ledger.ledger-end.advances-on-commit',
    fault: ledgerEndShifted(1),
  },
  {
    name: 'hunt-updates-by-party-for-any-party',
    description: 'POST /v2/updates reads filtersByParty as filtersForAnyParty: a party sees transactions it is no stakeholder of',
    caughtBy: 'ledger.visibility.stakeholders-only',
    fault: readsForAnyParty('POST', '/v2/updates'),
  },
  {
    name: 'hunt-update-by-id-for-any-party',
    description: 'update-by-id ignores the requesting parties of its format: it answers a transaction to a party that sees none of it instead of 404',
    caughtBy: 'ledger.visibility.point-reads-stakeholders-only',
    fault: readsForAnyParty('POST', '/v2/updates/update-by-id'),
  },
  {
    name: 'hunt-events-by-contract-id-for-any-party',
    description: 'events-by-contract-id answers the events of a contract to any requesting party, stakeholder or not',
    caughtBy: 'ledger.visibility.point-reads-stakeholders-only',
    fault: readsForAnyParty('POST', '/v2/events/events-by-contract-id'),
  },
  {
    name: 'hunt-contract-by-id-drops-querying-parties',
    description: 'contract-by-id drops queryingParties (read as empty: any party), so it answers the payload to a party that is no stakeholder',
    caughtBy: 'ledger.visibility.point-reads-stakeholders-only',
    fault: {
      request: (req) => {
        const body = parse(req.body);
        if (!is(req, 'POST', '/v2/contracts/contract-by-id') || !isObject(body)) return req;
        const { queryingParties: _dropped, ...rest } = body;
        return { ...req, body: JSON.stringify(rest) };
      },
    },
  },
  {
    name: 'hunt-user-rights-of-caller',
    description: "GET /v2/users/{id}/rights answers the rights of the authenticated user (participant_admin), not of the user in the path",
    caughtBy: 'ledger.users.rights-list',
    fault: { request: (req) => (req.method === 'GET' && /^\/v2\/users\/[^/]+\/rights$/.test(pathOf(req.url)) ? { ...req, url: '/v2/users/participant_admin/rights' } : req) },
  },
  {
    name: 'hunt-user-pages-repeat-last',
    description: 'GET /v2/users resumed from a page token starts with the last user of the page before (the token read as inclusive)',
    caughtBy: 'ledger.lists.complete-on-every-page',
    fault: pagesRepeatLast((req) => is(req, 'GET', '/v2/users'), (req) => hasQuery(req, 'pageToken'), 'users'),
  },
  {
    name: 'hunt-updates-page-repeats-last',
    description: 'get-updates-page resumed from its token starts with the last update of the page before',
    caughtBy: 'ledger.updates-page.walk-equals-list',
    fault: pagesRepeatLast((req) => is(req, 'POST', '/v2/updates/get-updates-page'), bodyHasPageToken, 'updates'),
  },
  {
    name: 'hunt-acs-page-repeats-last',
    description: 'GET active-contracts-page resumed from its token starts with the last contract of the page before',
    caughtBy: 'ledger.acs-page.walk-equals-list',
    fault: pagesRepeatLast((req) => is(req, 'GET', '/v2/state/active-contracts-page'), bodyHasPageToken, 'activeContracts'),
  },
  {
    name: 'hunt-interface-view-named-by-template',
    description: "interface views carry the template's id as interfaceId: a wallet looking up the Holding view by interface id finds none",
    caughtBy: 'ledger.daml.own-package',
    fault: { response: (req, res) => (pathOf(req.url).startsWith('/v2/') ? ok200(res, viewsNamedByTemplate) : res) },
  },
  {
    name: 'hunt-updates-drop-interface-views',
    description: 'the HTTP update list leaves out the interface views its interface filter asked for (includeInterfaceView honoured by active contracts only)',
    caughtBy: 'ledger.filters.updates',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/updates') ? ok200(res, (v) => deep(v, (x) => (Array.isArray(x.interfaceViews) ? { ...x, interfaceViews: [] } : x))) : res) },
  },
  {
    name: 'hunt-acs-created-offset-is-snapshot',
    description: "active contracts stamp each created event with the snapshot's offset (activeAtOffset), not the offset that created it",
    caughtBy: 'ledger.acs.active-at-offset',
    fault: {
      request: async (req, upstream) => {
        if (!is(req, 'POST', '/v2/state/active-contracts')) return req;
        const body = parse(req.body);
        const at = isObject(body) && typeof body.activeAtOffset === 'number' && body.activeAtOffset > 0 ? body.activeAtOffset : await ledgerEndOf(upstream);
        const res = await upstream.send(req);
        return ok200({ ...res, raw: undefined }, (v) => (Array.isArray(v) ? v.map((e) => deep(e, (x) => (isObject(x.createdEvent) ? { ...x, createdEvent: { ...x.createdEvent, offset: at } } : x))) : v));
      },
    },
  },
  {
    name: 'hunt-ws-updates-frame-twice',
    description: 'the /v2/updates WebSocket sends every transaction twice (a resend buffer replayed after each flush)',
    caughtBy: 'ledger.updates.websocket-matches-http',
    fault: wsFrame('/v2/updates', isTransactionFrame, 'twice'),
  },
  {
    name: 'hunt-ws-acs-drops-contracts',
    description: 'the active-contracts WebSocket drops the contract entries (only the HTTP form serves them)',
    caughtBy: 'ledger.acs.websocket-equals-http',
    fault: wsFrame('/v2/state/active-contracts', isContractFrame, 'drop'),
  },
  {
    name: 'hunt-disclosed-template-ids-rotated',
    description: 'registry choice contexts pair disclosed contracts with the template id of the next one (a join by position): each disclosure names a template its blob is not of',
    caughtBy: 'registry.cross-group.disclosed-match-ledger',
    fault: { response: (req, res) => (req.method === 'POST' && pathOf(req.url).startsWith('/registry/') ? ok200(res, rotateDisclosedTemplates) : res) },
  },
  {
    name: 'hunt-round-times-swapped',
    description: "Scan answers each open round's opensAt and targetClosesAt swapped (a serializer that maps them the wrong way round)",
    caughtBy: 'scan.rounds.open-round-now',
    needs: 'scan',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v0/open-and-issuing-mining-rounds')
          ? ok200(res, (v) => deep(v, (x) => (typeof x.opensAt === 'string' && typeof x.targetClosesAt === 'string' ? { ...x, opensAt: x.targetClosesAt, targetClosesAt: x.opensAt } : x)))
          : res,
    },
  },
  {
    name: 'hunt-utf8-read-as-latin1',
    description: 'JSON request bodies are decoded as ISO-8859-1 (a charset default for bodies without one): non-ASCII text, such as party annotations, is stored double-encoded',
    caughtBy: 'ledger.parties.update-resource-version',
    fault: {
      request: (req) => {
        const json = String(req.headers['content-type'] ?? '').startsWith('application/json');
        if (!['POST', 'PATCH'].includes(req.method) || !pathOf(req.url).startsWith('/v2/') || !json || req.raw === undefined) return req;
        return { ...req, body: req.raw.bytes.toString('latin1'), raw: undefined };
      },
    },
  },
  {
    name: 'hunt-ledger-end-cacheable',
    description: 'GET /v2/state/ledger-end answers Cache-Control: public, max-age=60 (a gateway default): a browser wallet re-reads a stale ledger end for a minute',
    caughtBy: 'ledger.wire.state-reads-not-cacheable',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/state/ledger-end') ? { ...res, headers: { ...res.headers, 'cache-control': 'public, max-age=60' } } : res) },
  },
  {
    name: 'hunt-updates-page-lower-bound-inclusive',
    description: "get-updates-page answers lowestPageOffsetExclusive as the offset of the page's first update (an inclusive bound where the API says exclusive)",
    caughtBy: 'ledger.updates-page.walk-equals-list',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/updates/get-updates-page')
          ? ok200(res, (v) => {
              if (!isObject(v) || !Array.isArray(v.updates)) return v;
              const offsets = v.updates.map(offsetOf).filter((o): o is number => o !== undefined);
              return offsets.length === 0 ? v : { ...v, lowestPageOffsetExclusive: Math.min(...offsets) };
            })
          : res,
    },
  },
  {
    name: 'hunt-updates-checkpoint-ahead',
    description: 'the update list opens with an OffsetCheckpoint at the offset of its last transaction: a client restarting from the checkpoint skips every transaction after it',
    caughtBy: 'ledger.updates.ordered',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/updates')
          ? ok200(res, (v) => {
              if (!Array.isArray(v) || v.length < 2) return v;
              const last = v[v.length - 1];
              const offset = offsetOf(last);
              const tx = isObject(last) && isObject(last.update) && isObject(last.update.Transaction) && isObject(last.update.Transaction.value) ? last.update.Transaction.value : undefined;
              if (offset === undefined || tx === undefined) return v;
              return [{ update: { OffsetCheckpoint: { value: { offset, synchronizerTimes: [{ synchronizerId: tx.synchronizerId, recordTime: tx.recordTime }] } } } }, ...v];
            })
          : res,
    },
  },
  {
    name: 'hunt-acs-every-contract-twice',
    description: 'active contracts list every contract twice, over HTTP and the WebSocket alike (a join over two synchronizer tables)',
    caughtBy: 'ledger.filters.active-contracts',
    fault: {
      response: (req, res) => (is(req, 'POST', '/v2/state/active-contracts') ? ok200(res, (v) => (Array.isArray(v) ? v.flatMap((e) => (isObject(e) && isContractFrame(e) ? [e, e] : [e])) : v)) : res),
      ...wsFrame('/v2/state/active-contracts', isContractFrame, 'twice'),
    },
  },
  {
    name: 'hunt-daml-numbers-unquoted',
    description: "Daml Int64 and Numeric values are rendered as JSON numbers instead of strings (the JSON API's encoding), so large or precise amounts lose digits in clients",
    caughtBy: 'ledger.acs.verbose-values',
    fault: {
      response: (req, res) =>
        pathOf(req.url).startsWith('/v2/') ? ok200(res, (v) => deep(v, (x) => Object.fromEntries(Object.entries(x).map(([k, y]) => [k, DAML_VALUES.includes(k) ? numbersUnquoted(y) : y])))) : res,
    },
  },
  {
    name: 'hunt-update-by-offset-for-any-party',
    description: 'update-by-offset ignores the requesting parties of its format: it answers the transaction at an offset to a party that sees none of it instead of 404',
    caughtBy: 'ledger.visibility.point-reads-stakeholders-only',
    fault: readsForAnyParty('POST', '/v2/updates/update-by-offset'),
  },
  {
    name: 'hunt-dedup-on-command-id-only',
    description: 'command deduplication keys on the command id alone: the same command id under other actAs parties is refused as DUPLICATE_COMMAND although its change id (userId, actAs, commandId) is new',
    caughtBy: 'ledger.dedup.new-command-id-accepted',
    fault: dedupOnCommandIdOnly(),
  },
  {
    name: 'hunt-duplicate-command-retryable',
    description: 'DUPLICATE_COMMAND is filed as contention (errorCategory 2, ABORTED, HTTP 409): clients retry a duplicate instead of looking up its first completion',
    caughtBy: 'ledger.errors.metadata-agree',
    fault: {
      response: (req, res) => {
        const v = parse(res.body);
        return res.status === 409 && isObject(v) && v.code === 'DUPLICATE_COMMAND' ? { ...res, body: JSON.stringify({ ...v, errorCategory: 2, grpcCodeValue: 10 }), raw: undefined } : res;
      },
    },
  },
  {
    name: 'hunt-registry-admin-other-party',
    description: "registry info names the participant's own admin party as adminId instead of the instruments' admin (a validator-local registry default)",
    caughtBy: 'registry.transfer-factory.context-v1',
    fault: {
      request: async (req, upstream) => {
        if (!is(req, 'GET', '/registry/metadata/v1/info')) return req;
        const res = await upstream.send(req);
        const pid = parse((await upstream.send({ method: 'GET', url: '/v2/parties/participant-id', headers: req.headers, body: '' })).body);
        const participant = isObject(pid) && typeof pid.participantId === 'string' ? pid.participantId : undefined;
        const ns = participant?.split('::')[1];
        return ns === undefined ? res : ok200({ ...res, raw: undefined }, (v) => (isObject(v) ? { ...v, adminId: `participant-admin::${ns}` } : v));
      },
    },
  },
  {
    name: 'hunt-updates-drop-reassignments',
    description: 'the HTTP update list is read from the transactions table only: unassignments and assignments never appear',
    caughtBy: 'ledger.reassignment.unassign-assign',
    judge: { invariant: 'judge.writes.answer-is-committed' },
    fault: { response: (req, res) => (is(req, 'POST', '/v2/updates') ? ok200(res, (v) => (Array.isArray(v) ? v.filter((e) => !(isObject(e) && isObject(e.update) && 'Reassignment' in e.update)) : v)) : res) },
  },
  {
    name: 'hunt-completions-without-update-id',
    description: 'successful completions on the completion list carry no updateId, so a client cannot find the transaction its command made',
    caughtBy: 'ledger.ids.agree-across-apis',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/commands/completions')
          ? ok200(res, (v) => deep(v, (x) => (typeof x.commandId === 'string' && typeof x.updateId === 'string' ? Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'updateId')) : x)))
          : res,
    },
  },
  {
    name: 'hunt-events-by-contract-id-created-offset-latest',
    description: "events-by-contract-id dates the created event by the contract's latest event (its archival, once archived), not by its creation",
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/events/events-by-contract-id')
          ? ok200(res, (v) => {
              if (!isObject(v) || !isObject(v.created) || !isObject(v.created.createdEvent) || !isObject(v.archived) || !isObject(v.archived.archivedEvent)) return v;
              return { ...v, created: { ...v.created, createdEvent: { ...v.created.createdEvent, offset: v.archived.archivedEvent.offset } } };
            })
          : res,
    },
  },
  {
    name: 'hunt-user-list-omits-deactivated',
    description: 'GET /v2/users lists active users only: a deactivated user vanishes from the list although it exists',
    caughtBy: 'ledger.users.list-includes-created',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/users') ? ok200(res, (v) => (isObject(v) && Array.isArray(v.users) ? { ...v, users: v.users.filter((u) => !(isObject(u) && u.isDeactivated === true)) } : v)) : res) },
  },
  {
    name: 'hunt-ws-checkpoint-ahead',
    description: 'the /v2/updates WebSocket announces an OffsetCheckpoint one past each transaction (never past endInclusive) before sending it (the checkpoint taken from the index head during catch-up): a client resuming from it skips the transaction',
    caughtBy: 'ledger.updates.websocket-matches-http',
    fault: wsCheckpointAhead(),
  },
  {
    name: 'hunt-acs-page-offset-of-read',
    description: 'active-contracts-page resumed from its token serves the first snapshot but names the ledger end at the time of the read as activeAtOffset: a client resuming updates from it skips what happened in between',
    caughtBy: 'ledger.acs-page.walk-equals-list',
    fault: {
      request: async (req, upstream) => {
        if (!is(req, 'GET', '/v2/state/active-contracts-page') || !bodyHasPageToken(req)) return req;
        const res = await upstream.send(req);
        const end = await ledgerEndOf(upstream);
        return ok200({ ...res, raw: undefined }, (v) => (isObject(v) ? { ...v, activeAtOffset: end } : v));
      },
    },
  },
];
