import type { Mutant } from './mutants.js';
import { pathOf, type ProxyRequest } from './mutantProxy.js';
import { isObject, onBody, withJson } from './mutantKit.js';

/**
 * Faults only the oracle catches: what the request alone decides (a validation refusal's code, the
 * shape of an answer), which no dedicated check looks at. The named check passes without the
 * oracle and fails with it. Faults in values the target's history decides are the judge's
 * (judgeMutants.ts) or, where a published rule fixes the value, their dedicated check's
 * (ruleMutants.ts): together they hold the ones this file held before the oracle was narrowed.
 */
const deep = (v: unknown, f: (key: string, x: unknown) => unknown): unknown =>
  Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(k, deep(x, f))])) : v;
const is = (req: ProxyRequest, method: string, path: RegExp) => req.method === method && path.test(pathOf(req.url));

export const ORACLE_MUTANTS: readonly Mutant[] = [
  {
    name: 'oracle-validation-code-generic',
    description: 'every validation refusal answers the generic INVALID_ARGUMENT instead of its own code (INVALID_DAR, INVALID_FIELD, ...)',
    caughtBy: 'ledger.packages.corrupt-dar-400',
    oracle: { category: 'validation errors and their codes' },
    fault: {
      response: (_req, res) =>
        res.status === 400 ? withJson(res, (v) => (isObject(v) && v.errorCategory === 8 && typeof v.code === 'string' && v.code !== 'INVALID_ARGUMENT' ? { ...v, code: 'INVALID_ARGUMENT' } : v)) : res,
    },
  },
];

/** Value faults first written for the value-comparing oracle: the judge catches them from the target's own answers. */
export const FORMER_ORACLE_MUTANTS: readonly Mutant[] = [
  {
    name: 'judge-user-pages-deactivated',
    description: 'pages of GET /v2/users (pageSize) come from a projection that reports every user deactivated; each page holds the right users within its size',
    caughtBy: 'ledger.users.list-includes-created',
    judge: { invariant: 'judge.writes.visible-after' },
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/v2\/users$/) && req.url.includes('pageSize=') && res.status === 200
          ? withJson(res, (v) => (isObject(v) && Array.isArray(v.users) ? { ...v, users: v.users.map((u) => (isObject(u) ? { ...u, isDeactivated: true } : u)) } : v))
          : res,
    },
  },
  {
    name: 'judge-updates-package-name',
    description: 'the HTTP update stream names the wrong package for created events (an index keyed by package id)',
    caughtBy: 'ledger.updates.ordered',
    judge: { invariant: 'judge.facts.reread-equal' },
    fault: {
      response: (req, res) =>
        is(req, 'POST', /^\/v2\/updates$/) && res.status === 200
          ? withJson(res, (v) => deep(v, (k, x) => (k === 'CreatedEvent' && isObject(x) && typeof x.packageName === 'string' ? { ...x, packageName: `${x.packageName}-index` } : x)))
          : res,
    },
  },
  {
    name: 'judge-created-user-primary-party',
    description: "the answer to creating a user drops its primary party (the stored user has it)",
    caughtBy: 'ledger.users.create-get-round-trip',
    judge: { invariant: 'judge.writes.visible-after' },
    fault: onBody(/^\/v2\/users$/, (v) => (isObject(v.user) ? { ...v, user: { ...v.user, primaryParty: '' } } : v)),
  },
];

/** Caught by its dedicated check (it was an oracle mutant while that check did not exist). */
export const HASHING_SCHEME_MUTANT: Mutant = {
    name: 'prepare-hashing-scheme',
    description: 'prepare announces a hashing scheme version other than the one the participant hashes with',
    caughtBy: 'ledger.interactive.prepared-transaction-hash',
    fault: onBody(/^\/v2\/interactive-submission\/prepare$/, (v) => ({ ...v, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V3' })),
  };
