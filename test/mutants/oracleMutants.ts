import type { Mutant } from './mutants.js';
import { pathOf, type ProxyRequest } from './mutantProxy.js';
import { isObject, onBody, withJson, type Json } from './mutantKit.js';

/**
 * Faults only the oracle catches: each changes a value no dedicated check looks at, in one of the
 * rule families clients rely on. The named check passes without the oracle and fails with it.
 */
const deep = (v: unknown, f: (key: string, x: unknown) => unknown): unknown =>
  Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(k, deep(x, f))])) : v;
const is = (req: ProxyRequest, method: string, path: RegExp) => req.method === method && path.test(pathOf(req.url));

export const ORACLE_MUTANTS: readonly Mutant[] = [
  {
    name: 'oracle-instrument-decimals',
    description: "the registry answers an instrument's decimals one short, the same in the list and the lookup (they agree, both wrong, both in range)",
    caughtBy: 'registry.metadata.instrument-list',
    oracle: { category: 'token-standard answers' },
    fault: onBody(/^\/registry\/metadata\/v1\/instruments(\/[^/]+)?$/, (v) => deep(v, (k, x) => (k === 'decimals' && typeof x === 'number' && x > 0 ? x - 1 : x)) as Json),
  },
  {
    name: 'oracle-dso-voting-threshold',
    description: 'Scan and its proxy both answer a voting threshold one above the DSO rules (the proxy agrees with Scan, both wrong)',
    caughtBy: 'scan.dso.consistent',
    oracle: { category: 'the scan proxy answers what Scan answers' },
    fault: onBody(/^\/v0\/(scan-proxy\/)?dso$/, (v) => ({ ...v, voting_threshold: typeof v.voting_threshold === 'number' ? v.voting_threshold + 1 : v.voting_threshold })),
  },
  {
    name: 'oracle-user-pages-deactivated',
    description: 'pages of GET /v2/users (pageSize) come from a projection that reports every user deactivated; each page holds the right users within its size',
    caughtBy: 'ledger.users.list-includes-created',
    oracle: { category: 'pages and size caps' },
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/v2\/users$/) && req.url.includes('pageSize=') && res.status === 200
          ? withJson(res, (v) => (isObject(v) && Array.isArray(v.users) ? { ...v, users: v.users.map((u) => (isObject(u) ? { ...u, isDeactivated: true } : u)) } : v))
          : res,
    },
  },
  {
    name: 'oracle-updates-package-name',
    description: 'the HTTP update stream names the wrong package for created events (an index keyed by package id)',
    caughtBy: 'ledger.updates.ordered',
    oracle: { category: 'stream answers' },
    fault: {
      response: (req, res) =>
        is(req, 'POST', /^\/v2\/updates$/) && res.status === 200
          ? withJson(res, (v) => deep(v, (k, x) => (k === 'CreatedEvent' && isObject(x) && typeof x.packageName === 'string' ? { ...x, packageName: `${x.packageName}-index` } : x)))
          : res,
    },
  },
  {
    name: 'oracle-exercise-witnesses-dropped',
    description: 'transaction trees answer exercised events without their witnesses',
    caughtBy: 'ledger.exercise.result-and-events',
    oracle: { category: 'transaction trees' },
    fault: onBody(/^\/v2\/commands\/submit-and-wait-for-transaction$/, (v) => deep(v, (k, x) => (k === 'ExercisedEvent' && isObject(x) ? { ...x, witnessParties: [] } : x)) as Json),
  },
  {
    name: 'oracle-created-user-primary-party',
    description: "the answer to creating a user drops its primary party (the stored user has it)",
    caughtBy: 'ledger.users.create-get-round-trip',
    oracle: { category: 'write answers reflect the write' },
    fault: onBody(/^\/v2\/users$/, (v) => (isObject(v.user) ? { ...v, user: { ...v.user, primaryParty: '' } } : v)),
  },
  {
    name: 'oracle-prepare-hashing-scheme',
    description: 'prepare announces a hashing scheme version other than the one the participant hashes with',
    caughtBy: 'ledger.interactive.prepare-shape',
    oracle: { category: 'external signing' },
    fault: onBody(/^\/v2\/interactive-submission\/prepare$/, (v) => ({ ...v, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' })),
  },
  {
    name: 'oracle-error-resources-dropped',
    description: 'errors answer no resources (the user id a USER_NOT_FOUND is about is missing)',
    caughtBy: 'ledger.users.get-unknown-404',
    oracle: { category: 'error metadata' },
    fault: {
      response: (req, res) => (is(req, 'GET', /^\/v2\/users\/[^/]+$/) && res.status === 404 ? withJson(res, (v) => (isObject(v) ? { ...v, resources: [] } : v)) : res),
    },
  },
  {
    name: 'oracle-connected-synchronizers-one-short',
    description: 'connected synchronizers leave out the last one the participant is connected to',
    caughtBy: 'ledger.synchronizers.connected',
    oracle: { category: 'lists are complete' },
    fault: onBody(/^\/v2\/state\/connected-synchronizers$/, (v) => (Array.isArray(v.connectedSynchronizers) && v.connectedSynchronizers.length > 1 ? { ...v, connectedSynchronizers: v.connectedSynchronizers.slice(0, -1) } : v)),
  },
];
