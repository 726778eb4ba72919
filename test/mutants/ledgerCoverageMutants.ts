import type { Mutant } from './mutants.js';
import { parse, pathOf, type ProxyRequest, type ProxyResponse, type Upstream } from './mutantProxy.js';
import { at, cantonError, isObject, onBody, onRequest, withJson, type Json } from './mutantKit.js';

/**
 * Mutants of the ledger checks that had none: version features, the ledger end, the docs and
 * health endpoints, submissions seen in the ACS and updates, deduplication by command id, and the
 * wire-level negatives (offsets, required fields, parties, Content-Type, double slashes).
 */
const ACS = /^\/v2\/state\/active-contracts$/;
const SUBMIT = /^\/v2\/commands\/submit-and-wait$/;

async function ledgerEndOf(upstream: Upstream): Promise<number> {
  const v = parse((await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: {}, body: '' })).body);
  return isObject(v) && typeof v.offset === 'number' ? v.offset : 0;
}
const createdOffset = (entry: unknown): number => {
  const c = isObject(entry) && isObject(entry.contractEntry) && isObject(entry.contractEntry.JsActiveContract) ? entry.contractEntry.JsActiveContract.createdEvent : undefined;
  return isObject(c) && typeof c.offset === 'number' ? c.offset : -1;
};

/** Answers a different ledger end on alternate calls: one lower every second time. */
function flickeringLedgerEnd() {
  let calls = 0;
  return {
    response(req: ProxyRequest, res: ProxyResponse): ProxyResponse {
      if (req.method !== 'GET' || pathOf(req.url) !== '/v2/state/ledger-end' || res.status !== 200) return res;
      calls += 1;
      return calls % 2 === 0 ? withJson(res, (v) => (isObject(v) && typeof v.offset === 'number' && v.offset > 0 ? { ...v, offset: v.offset - 1 } : v)) : res;
    },
  };
}

/** Deduplicates on the commands themselves instead of the change id: the same commands under a new command id are refused. */
function dedupByContent() {
  const seen = new Set<string>();
  return {
    request(req: ProxyRequest): ProxyRequest | ProxyResponse {
      const body = parse(req.body);
      if (req.method !== 'POST' || !at(req, SUBMIT) || !isObject(body)) return req;
      const key = JSON.stringify([body.actAs, body.commands]);
      if (seen.has(key)) return cantonError(409, 'DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', 10);
      seen.add(key);
      return req;
    },
  };
}

/** Rewrites the Completion frames of each completions WebSocket: `f` gets the frame and how many came before it on that socket. */
function onCompletionFrames(f: (frame: string, index: number) => readonly string[], path = '/v2/commands/completions') {
  const counts = new WeakMap<ProxyRequest, number>();
  return {
    wsResponse(req: ProxyRequest, frame: string): readonly string[] {
      if (pathOf(req.url) !== path || !frame.includes('"Completion"')) return [frame];
      const index = counts.get(req) ?? 0;
      counts.set(req, index + 1);
      return f(frame, index);
    },
  };
}

export const LEDGER_COVERAGE_MUTANTS: readonly Mutant[] = [
  {
    name: 'completions-websocket-drops-first',
    description: 'the completions WebSocket loses the first completion it should send (a stream that starts one element late)',
    caughtBy: 'ledger.completions.websocket',
    fault: onCompletionFrames((frame, index) => (index === 0 ? [] : [frame])),
  },
  {
    name: 'command-completions-websocket-repeats',
    description: 'the GetCompletions WebSocket (3.5.7) sends every completion twice',
    caughtBy: 'ledger.command-completions.websocket',
    fault: onCompletionFrames((frame) => [frame, frame], '/v2/commands/command-completions'),
  },
  {
    name: 'completions-websocket-repeats',
    description: 'the completions WebSocket sends every completion twice (a stream re-sent after a reconnect to its source)',
    caughtBy: 'ledger.completions.websocket',
    fault: onCompletionFrames((frame) => [frame, frame]),
  },
  {
    name: 'updates-drop-workflow-id',
    description: 'the update stream leaves out the workflow id the command was submitted with (the transaction stores only the command id)',
    caughtBy: 'ledger.ids.agree-across-apis',
    fault: {
      response: (req: ProxyRequest, res: ProxyResponse) => (req.method !== 'POST' || pathOf(req.url) !== '/v2/updates' || res.status !== 200 ? res : withJson(res, (v) => {
        for (const item of Array.isArray(v) ? v : []) {
          const t = isObject(item) && isObject(item.update) && isObject(item.update.Transaction) ? item.update.Transaction : undefined;
          const tx = t !== undefined && isObject(t.value) ? t.value : t;
          if (tx !== undefined) delete tx.workflowId;
        }
        return v;
      })),
    },
  },
  {
    name: 'version-features-partial',
    description: 'GET /v2/version leaves userManagement.maxRightsPerUser out of the features',
    caughtBy: 'ledger.version.features',
    fault: onBody(/^\/v2\/version$/, (v) => {
      const f = isObject(v.features) ? v.features : {};
      const um = isObject(f.userManagement) ? f.userManagement : {};
      const { maxRightsPerUser: _m, ...rest } = um;
      return { ...v, features: { ...f, userManagement: rest } };
    }),
  },
  {
    name: 'ledger-end-offset-as-string',
    description: 'the ledger end offset is answered as a string',
    caughtBy: 'ledger.ledger-end.shape',
    fault: onBody(/^\/v2\/state\/ledger-end$/, (v) => ({ ...v, offset: String(v.offset) })),
  },
  {
    name: 'ledger-end-flickers',
    description: 'the ledger end is read from replicas that lag: every second answer is one lower',
    caughtBy: 'ledger.ledger-end.monotonic',
    fault: () => flickeringLedgerEnd(),
  },
  {
    name: 'docs-openapi-serves-asyncapi',
    description: '/docs/openapi serves the AsyncAPI document',
    caughtBy: 'ledger.docs.openapi',
    fault: { request: (req) => (pathOf(req.url) === '/docs/openapi' ? { ...req, url: '/docs/asyncapi' } : req) },
  },
  {
    name: 'docs-asyncapi-serves-openapi',
    description: '/docs/asyncapi serves the OpenAPI document',
    caughtBy: 'ledger.docs.asyncapi',
    fault: { request: (req) => (pathOf(req.url) === '/docs/asyncapi' ? { ...req, url: '/docs/openapi' } : req) },
  },
  {
    name: 'readyz-never-ready',
    description: '/readyz answers 503 although the participant serves requests',
    caughtBy: 'ledger.health.livez-readyz',
    fault: { request: (req) => (pathOf(req.url) === '/readyz' ? { status: 503, headers: { 'content-type': 'text/plain' }, body: 'not ready' } : req) },
  },
  {
    name: 'acs-misses-newest-contract',
    description: 'active contracts leave out the most recently created contract (an index that lags the ledger end)',
    caughtBy: 'ledger.submit.visible-in-acs',
    fault: {
      response: (req, res) =>
        res.status === 200 && req.method === 'POST' && at(req, ACS)
          ? withJson(res, (v) => {
              if (!Array.isArray(v) || v.length === 0) return v;
              const newest = Math.max(...v.map(createdOffset));
              return v.filter((e) => createdOffset(e) !== newest);
            })
          : res,
    },
  },
  {
    name: 'acs-one-offset-behind',
    description: 'active contracts at offset N are those at N-1: the archival committed at N is not applied yet',
    caughtBy: 'ledger.archive.removed-at-new-end',
    fault: onRequest(ACS, (v) => (typeof v.activeAtOffset === 'number' && v.activeAtOffset > 0 ? { ...v, activeAtOffset: v.activeAtOffset - 1 } : v)),
  },
  {
    name: 'acs-offset-zero-is-now',
    description: 'activeAtOffset 0 is read as "now": the current contracts come back',
    caughtBy: 'ledger.acs.offset-zero-empty',
    // The run's party is fresh: without a contract of its own, "now" is empty too.
    after: ['ledger.ledger-end.advances-on-commit', 'ledger.submit.visible-in-acs'],
    fault: {
      async request(req, upstream) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !at(req, ACS) || !isObject(body) || body.activeAtOffset !== 0) return req;
        return { ...req, body: JSON.stringify({ ...body, activeAtOffset: await ledgerEndOf(upstream) }) };
      },
    },
  },
  {
    name: 'dedup-by-content',
    description: 'deduplication keys on the commands, not the command id: the same create under a new command id is refused as a duplicate',
    caughtBy: 'ledger.dedup.new-command-id-accepted',
    fault: () => dedupByContent(),
  },
  {
    name: 'updates-offsets-shifted',
    description: 'transactions in the update list report their offset one higher than the completion did',
    caughtBy: 'ledger.submit.in-updates',
    fault: {
      response: (req, res) =>
        res.status === 200 && req.method === 'POST' && at(req, /^\/v2\/updates$/)
          ? withJson(res, (v) =>
              Array.isArray(v)
                ? v.map((u: unknown) => {
                    const tx = isObject(u) && isObject(u.update) && isObject(u.update.Transaction) && isObject(u.update.Transaction.value) ? u.update.Transaction.value : undefined;
                    return tx && typeof tx.offset === 'number' ? { ...(u as Json), update: { Transaction: { value: { ...tx, offset: tx.offset + 1 } } } } : u;
                  })
                : v,
            )
          : res,
    },
  },
  {
    name: 'updates-after-end-empty',
    description: 'updates that begin after the ledger end answer 200 [] instead of refusing the range',
    caughtBy: 'ledger.updates.begin-after-end-400',
    fault: {
      async request(req, upstream) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !at(req, /^\/v2\/updates$/) || !isObject(body) || typeof body.beginExclusive !== 'number') return req;
        return body.beginExclusive > (await ledgerEndOf(upstream)) ? { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' } : req;
      },
    },
  },
  {
    name: 'acs-lenient-offset',
    description: 'an activeAtOffset that is not a non-negative integer is read as the ledger end',
    caughtBy: 'ledger.negative.bad-offset-400',
    fault: {
      async request(req, upstream) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !at(req, ACS) || !isObject(body) || !('activeAtOffset' in body)) return req;
        const o = body.activeAtOffset;
        if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return req;
        return { ...req, body: JSON.stringify({ ...body, activeAtOffset: await ledgerEndOf(upstream) }) };
      },
    },
  },
  {
    name: 'submit-invents-command-id',
    description: 'submit-and-wait without a commandId makes one up instead of refusing the request',
    caughtBy: 'ledger.negative.missing-required-400',
    fault: onRequest(SUBMIT, (v) => (typeof v.commandId === 'string' ? v : { ...v, commandId: `invented-${Math.random().toString(36).slice(2)}` })),
  },
  {
    name: 'submit-invalid-party-500',
    description: 'acting as a string that is not a party id crashes the submission: 500',
    caughtBy: 'ledger.negative.invalid-party-400',
    fault: {
      request(req) {
        const body = parse(req.body);
        if (req.method !== 'POST' || !at(req, SUBMIT) || !isObject(body) || !Array.isArray(body.actAs)) return req;
        return body.actAs.some((p) => typeof p !== 'string' || !p.includes('::')) ? cantonError(500, 'INTERNAL_ERROR', 'java.lang.IllegalArgumentException', 4) : req;
      },
    },
  },
  {
    name: 'post-without-content-type-415',
    description: 'a POST without Content-Type is refused with 415 (the JSON API reads the body whatever the header)',
    caughtBy: 'ledger.wire.post-without-content-type',
    fault: {
      request: (req) =>
        req.method === 'POST' && pathOf(req.url).startsWith('/v2/') && req.headers['content-type'] === undefined ? cantonError(415, 'INVALID_ARGUMENT', 'Unsupported Content-Type') : req,
    },
  },
  {
    name: 'duplicate-slash-404',
    description: 'a path with a doubled slash (//v2/version) is not normalised: 404',
    caughtBy: 'ledger.wire.duplicate-slash',
    fault: { request: (req) => (req.url.startsWith('//') ? cantonError(404, 'NOT_FOUND', 'The requested resource could not be found.', 11) : req) },
  },
  {
    name: 'execute-drops-transaction',
    description: 'interactive execute answers {} but never submits the signed transaction',
    caughtBy: 'ledger.interactive.round-trip',
    fault: { request: (req) => (req.method === 'POST' && pathOf(req.url) === '/v2/interactive-submission/execute' ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' } : req) },
  },
];
