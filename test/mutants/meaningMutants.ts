import { createHash } from 'node:crypto';
import type { Mutant } from './mutants.js';
import { parse, pathOf, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';

/**
 * Faults a real registry, Scan or participant could ship in a release while every answer keeps
 * its shape: each breaks a rule clients rely on, and only the check named catches it.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const is = (req: ProxyRequest, method: string, path: string | RegExp) => req.method === method && (typeof path === 'string' ? pathOf(req.url) === path : path.test(pathOf(req.url)));
const rewriteBody = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined || res.status !== 200 ? res : { ...res, body: JSON.stringify(f(v)) };
};
const rewriteRequest = (req: ProxyRequest, f: (v: Json) => Json): ProxyRequest => {
  const v = parse(req.body);
  return isObject(v) ? { ...req, body: JSON.stringify(f(v)) } : req;
};
/** Deep map over JSON objects, children first. */
const deep = (v: unknown, f: (x: Json) => Json): unknown => (Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? f(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x, f)]))) : v);
const withoutQuery = (url: string, name: string) => {
  const [path, query = ''] = url.split('?');
  const kept = query.split('&').filter((p) => p !== '' && !p.startsWith(`${name}=`));
  return kept.length === 0 ? path! : `${path}?${kept.join('&')}`;
};

async function ledgerEnd(upstream: Upstream): Promise<number> {
  const v = parse((await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: {}, body: '' })).body);
  return isObject(v) && typeof v.offset === 'number' ? v.offset : 0;
}

export const MEANING_MUTANTS: readonly Mutant[] = [
  {
    name: 'transfer-kind-ignores-preapproval',
    description: "the transfer factories call every transfer to another party an 'offer', though the receiver's preapproval (in the context) completes it at once",
    caughtBy: 'registry.transfer-factory.kind-matches-outcome',
    needs: 'scan',
    fault: { response: (req, res) => (is(req, 'POST', /^\/registry\/transfer-instruction\/v[12]\/transfer-factory$/) ? rewriteBody(res, (v) => (isObject(v) && v.transferKind === 'direct' ? { ...v, transferKind: 'offer' } : v)) : res) },
  },
  {
    name: 'allocation-factory-v1-answers-rules-id',
    description: 'the v1 allocation factory answers the id of another contract of its context (the rules it reads) instead of the factory',
    caughtBy: 'registry.factories.ids-work-on-ledger',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/registry/allocation-instruction/v1/allocation-factory')
          ? rewriteBody(res, (v) => {
              if (!isObject(v) || !isObject(v.choiceContext) || !Array.isArray(v.choiceContext.disclosedContracts)) return v;
              const other = v.choiceContext.disclosedContracts.find((d) => isObject(d) && d.contractId !== v.factoryId);
              return isObject(other) ? { ...v, factoryId: other.contractId } : v;
            })
          : res,
    },
  },
  {
    name: 'instrument-read-alone-without-supply',
    description: 'an instrument read alone leaves out totalSupply and totalSupplyAsOf, which only the list computes',
    caughtBy: 'registry.metadata.instrument-read-equals-list-entry',
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/registry\/metadata\/v1\/instruments\/[^/]+$/)
          ? rewriteBody(res, (v) => {
              if (!isObject(v)) return v;
              const { totalSupply: _s, totalSupplyAsOf: _a, ...rest } = v;
              return rest;
            })
          : res,
    },
  },
  {
    name: 'scan-proxy-drops-issuing-rounds',
    description: 'the scan proxy forwards the open rounds but answers no issuing rounds',
    caughtBy: 'scan.proxy.answers-in-full',
    needs: 'scan',
    fault: { response: (req, res) => (is(req, 'GET', '/v0/scan-proxy/open-and-issuing-mining-rounds') ? rewriteBody(res, (v) => (isObject(v) ? { ...v, issuing_mining_rounds: [] } : v)) : res) },
  },
  {
    name: 'rounds-ttl-outlives-tick',
    description: 'Scan advertises an hour as the rounds\' cache lifetime while rounds tick every 10 minutes',
    caughtBy: 'scan.rounds.cache-ttl-fits-tick',
    needs: 'scan',
    fault: { response: (req, res) => (is(req, 'POST', '/v0/open-and-issuing-mining-rounds') ? rewriteBody(res, (v) => (isObject(v) ? { ...v, time_to_live_in_microseconds: 3_600_000_000 } : v)) : res) },
  },
  {
    name: 'updates-limit-ignored',
    description: 'POST /v2/updates ignores ?limit and answers the whole range',
    caughtBy: 'ledger.lists.size-bounds',
    fault: { request: (req) => (is(req, 'POST', '/v2/updates') ? { ...req, url: withoutQuery(req.url, 'limit') } : req) },
  },
  {
    name: 'updates-page-size-ignored',
    description: 'get-updates-page treats maxPageSize as a hint and answers pages of up to 100',
    caughtBy: 'ledger.lists.size-bounds',
    fault: { request: (req) => (is(req, 'POST', '/v2/updates/get-updates-page') ? rewriteRequest(req, (v) => ({ ...v, maxPageSize: 100 })) : req) },
  },
  {
    name: 'party-pages-skip-one',
    description: 'GET /v2/parties resumes one past its page token: the first party of every later page is never listed',
    caughtBy: 'ledger.lists.complete-on-every-page',
    fault: {
      response: (req, res) =>
        is(req, 'GET', '/v2/parties') && /[?&]pageToken=/.test(req.url) ? rewriteBody(res, (v) => (isObject(v) && Array.isArray(v.partyDetails) ? { ...v, partyDetails: v.partyDetails.slice(1) } : v)) : res,
    },
  },
  {
    name: 'completions-begin-inclusive',
    description: 'the completion list treats beginExclusive as inclusive and sends the completion at that offset again',
    caughtBy: 'ledger.completions.strictly-after-begin',
    fault: { request: (req) => (is(req, 'POST', '/v2/commands/completions') ? rewriteRequest(req, (v) => (typeof v.beginExclusive === 'number' && v.beginExclusive > 0 ? { ...v, beginExclusive: v.beginExclusive - 1 } : v)) : req) },
  },
  {
    name: 'bounded-updates-websocket-runs-on',
    description: 'the /v2/updates WebSocket ignores endInclusive: it streams past the end and stays open',
    caughtBy: 'ledger.updates.websocket-bounded-closes',
    fault: {
      wsRequest: (req, frame) => {
        const v = parse(frame);
        if (pathOf(req.url) !== '/v2/updates' || !isObject(v)) return frame;
        const { endInclusive: _end, ...rest } = v;
        return JSON.stringify(rest);
      },
    },
  },
  {
    name: 'acs-websocket-answers-ledger-end',
    description: 'the active-contracts WebSocket answers the current state, whatever activeAtOffset asks for',
    caughtBy: 'ledger.acs.websocket-equals-http',
    fault: {
      wsRequest: async (req, frame, upstream) => {
        const v = parse(frame);
        if (pathOf(req.url) !== '/v2/state/active-contracts' || !isObject(v)) return frame;
        return JSON.stringify({ ...v, activeAtOffset: await ledgerEnd(upstream) });
      },
    },
  },
  {
    name: 'exercise-subtree-not-counted',
    description: 'every exercise reports itself as its own last descendant: its consequences look like roots of their own',
    caughtBy: 'ledger.trees.node-ids-describe-tree',
    fault: { response: (req, res) => (pathOf(req.url).startsWith('/v2/') ? rewriteBody(res, (v) => deep(v, (x) => (typeof x.lastDescendantNodeId === 'number' && typeof x.nodeId === 'number' ? { ...x, lastDescendantNodeId: x.nodeId } : x))) : res) },
  },
  {
    name: 'idp-update-answers-old-config',
    description: 'PATCH /v2/idps/{id} applies the update but answers the config as it was before',
    caughtBy: 'ledger.writes.answer-reflects-write',
    fault: {
      request: async (req, upstream) => {
        if (!is(req, 'PATCH', /^\/v2\/idps\/[^/]+$/)) return req;
        const before = await upstream.send({ ...req, method: 'GET', body: '', raw: undefined });
        const after = await upstream.send(req);
        return after.status === 200 && before.status === 200 ? { ...after, body: before.body, raw: undefined } : after;
      },
    },
  },
  {
    name: 'external-hash-not-the-signed-one',
    description: 'a committed externally signed transaction records a hash of its own re-encoding, not the hash the party signed',
    caughtBy: 'ledger.interactive.committed-hash-is-signed-hash',
    fault: {
      response: (req, res) =>
        pathOf(req.url).startsWith('/v2/')
          ? rewriteBody(res, (v) => deep(v, (x) => (typeof x.externalTransactionHash === 'string' && x.externalTransactionHash !== '' ? { ...x, externalTransactionHash: createHash('sha256').update(x.externalTransactionHash).digest('base64') } : x)))
          : res,
    },
  },
  {
    name: 'not-found-filed-as-precondition',
    description: 'not-found errors carry errorCategory 9 (InvalidGivenCurrentSystemStateOther) while answering 404 and gRPC NOT_FOUND',
    caughtBy: 'ledger.errors.metadata-agree',
    fault: {
      response: (req, res) => {
        const v = parse(res.body);
        return res.status === 404 && pathOf(req.url).startsWith('/v2/') && isObject(v) && v.errorCategory === 11 ? { ...res, body: JSON.stringify({ ...v, errorCategory: 9 }) } : res;
      },
    },
  },
  {
    name: 'party-lookup-drops-local-metadata',
    description: "GET /v2/parties/{party} answers from the topology alone: the party's local metadata (annotations, resource version) is missing",
    caughtBy: 'ledger.lookups.agree-with-lists',
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/v2\/parties\/(?!participant-id$)[^/]+$/)
          ? rewriteBody(res, (v) => (isObject(v) && Array.isArray(v.partyDetails) ? { ...v, partyDetails: v.partyDetails.map((d) => (isObject(d) ? Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'localMetadata')) : d)) } : v))
          : res,
    },
  },
];
