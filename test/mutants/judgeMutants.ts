import type { Mutant } from './mutants.js';
import { pathOf, type ProxyRequest } from './mutantProxy.js';
import { isObject, onBody, withJson, type Json } from './mutantKit.js';

/**
 * Faults only the judge catches (conformance/src/judge/): each breaks one named invariant in a way
 * no dedicated check looks at and the reference cannot see (the target's own history decides).
 * The named check passes with `--judge none` and fails with the judge, naming the invariant.
 */
const deep = (v: unknown, f: (key: string, x: unknown) => unknown): unknown =>
  Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(k, deep(x, f))])) : v;
const is = (req: ProxyRequest, method: string, path: RegExp) => req.method === method && path.test(pathOf(req.url));
const laterBy = (t: string, ms: number) => new Date(Date.parse(t) + ms).toISOString();

export const JUDGE_MUTANTS: readonly Mutant[] = [
  {
    name: 'judge-acs-created-at-ingest-time',
    description: 'the active-contracts snapshot answers createdAt as the time its index ingested the contract (a second later), not the ledger time the transaction showed',
    caughtBy: 'ledger.submit.visible-in-acs',
    judge: { invariant: 'judge.facts.reread-equal' },
    fault: {
      response: (req, res) =>
        is(req, 'POST', /^\/v2\/state\/active-contracts$/) && res.status === 200 ? withJson(res, (v) => deep(v, (k, x) => (k === 'createdAt' && typeof x === 'string' ? laterBy(x, 1000) : x))) : res,
    },
  },
  {
    name: 'judge-user-list-stale-deactivation',
    description: 'GET /v2/users answers users from a projection that misses updates: every user listed deactivated',
    caughtBy: 'ledger.users.list-includes-created',
    judge: { invariant: 'judge.writes.visible-after' },
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/v2\/users$/) && res.status === 200
          ? withJson(res, (v) => (isObject(v) && Array.isArray(v.users) ? { ...v, users: v.users.map((u) => (isObject(u) ? { ...u, isDeactivated: true } : u)) } : v))
          : res,
    },
  },
  {
    name: 'judge-submit-record-time-of-sequencing',
    description: "submit-and-wait-for-transaction answers a record time a second before the committed transaction's (the time the request was sequenced)",
    caughtBy: 'ledger.submit.in-updates',
    judge: { invariant: 'judge.writes.answer-is-committed' },
    fault: onBody(/^\/v2\/commands\/submit-and-wait-for-transaction$/, (v) =>
      isObject(v.transaction) && typeof v.transaction.recordTime === 'string' ? { ...v, transaction: { ...v.transaction, recordTime: laterBy(v.transaction.recordTime, -1000) } } : v),
  },
  {
    name: 'judge-cost-total-misses-response',
    description: "prepare's cost estimation totals the confirmation request only (the response's cost left out)",
    caughtBy: 'ledger.interactive.prepare-shape',
    judge: { invariant: 'judge.numbers.add-up' },
    fault: onBody(/^\/v2\/interactive-submission\/prepare$/, (v) =>
      isObject(v.costEstimation) && typeof v.costEstimation.confirmationRequestTrafficCostEstimation === 'number'
        ? { ...v, costEstimation: { ...v.costEstimation, totalTrafficCostEstimation: v.costEstimation.confirmationRequestTrafficCostEstimation } }
        : v),
  },
  {
    name: 'judge-scan-template-upgraded-package',
    description: "Scan (and so its proxy) answers contracts under the package id of the latest vetted version, not the package they were created with",
    caughtBy: 'scan.cross-group.preapproval-matches-ledger',
    judge: { invariant: 'judge.payloads.unchanged' },
    fault: onBody(/^\/v0\//, (v) => deep(v, (k, x) => (k === 'template_id' && typeof x === 'string' && /^[0-9a-f]{64}:/.test(x) ? `${'f'.repeat(64)}${x.slice(64)}` : x)) as Json),
  },
  {
    name: 'judge-created-signatories-as-observers',
    description: 'transactions answered by submit-and-wait-for-transaction list every stakeholder as observer (the signatories too)',
    caughtBy: 'ledger.submit.visible-in-acs',
    judge: { invariant: 'judge.events.parties-computed' },
    fault: onBody(/^\/v2\/commands\/submit-and-wait-for-transaction$/, (v) => deep(v, (k, x) => (k === 'CreatedEvent' && isObject(x) && Array.isArray(x.signatories) && Array.isArray(x.observers) ? { ...x, observers: [...new Set([...x.observers, ...x.signatories])] } : x)) as Json),
  },
  {
    name: 'judge-not-found-grpc-invalid',
    description: 'USER_NOT_FOUND keeps its HTTP 404 but reports the gRPC code of INVALID_ARGUMENT',
    caughtBy: 'ledger.users.get-unknown-404',
    judge: { invariant: 'judge.errors.consistent' },
    fault: {
      response: (req, res) => (res.status === 404 && pathOf(req.url).startsWith('/v2/users/') ? withJson(res, (v) => (isObject(v) && v.code === 'USER_NOT_FOUND' ? { ...v, grpcCodeValue: 3 } : v)) : res),
    },
  },
  {
    name: 'judge-duplicate-as-contention',
    description: 'creating a user that exists is refused as retryable contention (ABORTED, category 2, retry in 1 second) instead of ALREADY_EXISTS',
    caughtBy: 'ledger.users.create-get-round-trip',
    judge: { invariant: 'judge.errors.definitive-not-retryable' },
    fault: {
      response: (req, res) =>
        res.status === 409
          ? withJson(res, (v) => (isObject(v) && v.code === 'USER_ALREADY_EXISTS' ? { ...v, errorCategory: 2, grpcCodeValue: 10, retryInfo: '1 second', context: { ...(isObject(v.context) ? v.context : {}), category: '2' } } : v))
          : res,
    },
  },
  {
    name: 'judge-bounded-stream-closes-1011',
    description: 'a finished update stream (endInclusive reached) is closed with 1011 (internal error) instead of a normal close',
    caughtBy: 'ledger.updates.websocket-bounded-closes',
    judge: { invariant: 'judge.streams.bounded-close' },
    fault: {
      wsRequest: (_req, frame) => frame,
      wsCloseCode: (req, code) => (pathOf(req.url).startsWith('/v2/updates') ? 1011 : code),
    },
  },
];
