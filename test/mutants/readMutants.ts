import type { Mutant } from './mutants.js';
import { parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/** Mutants of the point reads, pages and legacy forms: each a fault a real implementation might have. */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const is = (req: ProxyRequest, method: string, path: string) => req.method === method && pathOf(req.url) === path;
const withJson = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: JSON.stringify(f(v)) };
};
/** Rewrites a 200 JSON answer of one operation. */
const answer = (method: string, path: string | ((p: string) => boolean), f: (v: Json) => unknown): Fault => ({
  response: (req, res) => (res.status === 200 && req.method === method && (typeof path === 'string' ? pathOf(req.url) === path : path(pathOf(req.url))) ? withJson(res, (v) => (isObject(v) ? f(v) : v)) : res),
});
/** Rewrites the JSON body of one operation's requests. */
const asking = (method: string, path: string, f: (v: Json) => Json): Fault => ({
  request: (req) => {
    const body = parse(req.body);
    return is(req, method, path) && isObject(body) ? { ...req, body: JSON.stringify(f(body)) } : req;
  },
});
const previousOffset = (body: Json): Json => (typeof body.offset === 'number' && body.offset > 1 ? { ...body, offset: body.offset - 1 } : body);

function staleUpdateById(): Fault {
  let first: string | undefined;
  return {
    response(req, res) {
      if (!is(req, 'POST', '/v2/updates/update-by-id') || res.status !== 200) return res;
      first ??= res.body;
      return { ...res, body: first };
    },
  };
}

export const READ_MUTANTS: readonly Mutant[] = [
  {
    name: 'update-by-id-stale-cache',
    description: 'update-by-id caches by format, not by id: every lookup answers the first update it ever served',
    caughtBy: 'ledger.update-by-id.matches-stream',
    fault: staleUpdateById(),
  },
  {
    name: 'update-by-offset-off-by-one',
    description: 'update-by-offset reads the offset before the one asked for (an exclusive/inclusive mix-up)',
    caughtBy: 'ledger.update-by-offset.matches-stream',
    fault: asking('POST', '/v2/updates/update-by-offset', previousOffset),
  },
  {
    name: 'transaction-by-id-update-envelope',
    description: 'transaction-by-id answers update-by-id\'s envelope {update: {Transaction: {value}}} instead of {transaction}',
    caughtBy: 'ledger.transaction-by-id.acs-delta',
    fault: answer('POST', '/v2/updates/transaction-by-id', (v) => ({ update: { Transaction: { value: v.transaction } } })),
  },
  {
    name: 'transaction-by-offset-off-by-one',
    description: 'transaction-by-offset reads the offset before the one asked for',
    caughtBy: 'ledger.transaction-by-offset.acs-delta',
    fault: asking('POST', '/v2/updates/transaction-by-offset', previousOffset),
  },
  {
    name: 'tree-by-id-one-based-keys',
    description: 'transaction-tree-by-id numbers eventsById from 1 instead of by node id',
    caughtBy: 'ledger.transaction-tree-by-id.ledger-effects',
    fault: answer('GET', (p) => p.startsWith('/v2/updates/transaction-tree-by-id/'), (v) => {
      const tx = v.transaction as Json;
      const events = Object.values((tx.eventsById as Json | undefined) ?? {});
      return { transaction: { ...tx, eventsById: Object.fromEntries(events.map((e, i) => [String(i + 1), e])) } };
    }),
  },
  {
    name: 'tree-by-offset-off-by-one',
    description: 'transaction-tree-by-offset reads the offset before the one in the path',
    caughtBy: 'ledger.transaction-tree-by-offset.ledger-effects',
    fault: {
      request: (req) => {
        const m = /^\/v2\/updates\/transaction-tree-by-offset\/(\d+)(\?.*)?$/.exec(req.url);
        return req.method === 'GET' && m && Number(m[1]) > 1 ? { ...req, url: `/v2/updates/transaction-tree-by-offset/${Number(m[1]) - 1}${m[2] ?? ''}` } : req;
      },
    },
  },
  {
    name: 'flats-drops-last',
    description: 'updates/flats loses the last element of a closed range',
    caughtBy: 'ledger.flats.same-as-updates',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/updates/flats') && res.status === 200 ? withJson(res, (v) => (Array.isArray(v) ? v.slice(0, -1) : v)) : res) },
  },
  {
    name: 'trees-answer-flat-transactions',
    description: 'updates/trees answers flat Transaction elements (an events list) instead of TransactionTree',
    caughtBy: 'ledger.trees.agree-with-ledger-effects',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/updates/trees') && res.status === 200
          ? withJson(res, (v) =>
              Array.isArray(v)
                ? v.map((x) => {
                    const tree = isObject(x) && isObject(x.update) && isObject(x.update.TransactionTree) ? (x.update.TransactionTree.value as Json) : undefined;
                    if (!tree) return x;
                    const { eventsById, ...rest } = tree;
                    return { update: { Transaction: { value: { ...rest, events: Object.values((eventsById as Json) ?? {}).map((e) => Object.fromEntries(Object.entries(e as Json).map(([k, w]) => [k.replace('TreeEvent', 'Event'), (w as Json).value]))) } } } };
                  })
                : v,
            )
          : res,
    },
  },
  {
    name: 'updates-page-drops-page-end',
    description: 'get-updates-page leaves out the last update of every page that has a next page',
    caughtBy: 'ledger.updates-page.walk-equals-list',
    fault: answer('POST', '/v2/updates/get-updates-page', (v) => (typeof v.nextPageToken === 'string' && Array.isArray(v.updates) ? { ...v, updates: v.updates.slice(0, -1) } : v)),
  },
  {
    name: 'events-never-archived',
    description: 'events-by-contract-id never reports the archive event of an archived contract',
    caughtBy: 'ledger.events-by-contract-id.create-then-archive',
    fault: answer('POST', '/v2/events/events-by-contract-id', (v) => ({ created: v.created })),
  },
  {
    name: 'contract-by-id-wrong-not-found-code',
    description: 'contract-by-id answers an unknown contract with CONTRACT_NOT_FOUND instead of CONTRACT_PAYLOAD_NOT_FOUND',
    caughtBy: 'ledger.contract-by-id.payload',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/contracts/contract-by-id') && res.status === 404 ? withJson(res, (v) => (isObject(v) && v.code === 'CONTRACT_PAYLOAD_NOT_FOUND' ? { ...v, code: 'CONTRACT_NOT_FOUND' } : v)) : res,
    },
  },
  {
    name: 'acs-page-no-next-token',
    description: 'active-contracts-page never answers nextPageToken: a walk ends after its first page',
    caughtBy: 'ledger.acs-page.walk-equals-list',
    fault: answer('GET', '/v2/state/active-contracts-page', (v) => ({ activeContracts: v.activeContracts, activeAtOffset: v.activeAtOffset })),
  },
  {
    name: 'acs-page-post-repeats-first-page',
    description: 'POST active-contracts-page (3.5.7+) ignores pageToken: every page is the first one again',
    caughtBy: 'ledger.acs-page-post.walk-equals-list',
    fault: asking('POST', '/v2/state/active-contracts-page', ({ pageToken: _token, ...rest }) => rest),
  },
  {
    name: 'submit-tree-without-events',
    description: 'submit-and-wait-for-transaction-tree answers the tree with no events',
    caughtBy: 'ledger.submit-tree.agrees-with-ledger-effects',
    fault: answer('POST', '/v2/commands/submit-and-wait-for-transaction-tree', (v) => ({ transactionTree: { ...(v.transactionTree as Json), eventsById: {} } })),
  },
];
