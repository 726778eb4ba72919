import type { Mutant } from './mutants.js';
import { pathOf, type ProxyRequest } from './mutantProxy.js';
import { isObject, onBody, withJson, type Json } from './mutantKit.js';

/**
 * Faults the value-comparing oracle used to catch, won back by a rule the target's own answers are
 * held to (Canton's or Splice's definition), never by the reference's values.
 */
const deep = (v: unknown, f: (key: string, x: unknown) => unknown): unknown =>
  Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(k, deep(x, f))])) : v;
const is = (req: ProxyRequest, method: string, path: RegExp) => req.method === method && path.test(pathOf(req.url));

export const RULE_MUTANTS: readonly Mutant[] = [
  {
    name: 'rule-exercise-witnesses-dropped',
    description: 'transaction trees answer exercised events without their witnesses',
    caughtBy: 'ledger.exercise.result-and-events',
    fault: onBody(/^\/v2\/commands\/submit-and-wait-for-transaction$/, (v) => deep(v, (k, x) => (k === 'ExercisedEvent' && isObject(x) ? { ...x, witnessParties: [] } : x)) as Json),
  },
  {
    name: 'rule-error-resources-dropped',
    description: 'errors answer no resources (the user id a USER_NOT_FOUND is about is missing)',
    caughtBy: 'ledger.users.get-unknown-404',
    fault: {
      response: (req, res) => (is(req, 'GET', /^\/v2\/users\/[^/]+$/) && res.status === 404 ? withJson(res, (v) => (isObject(v) ? { ...v, resources: [] } : v)) : res),
    },
  },
  {
    name: 'rule-dso-voting-threshold',
    description: 'Scan and its proxy both answer a voting threshold one above what the DsoRules they report require (the proxy agrees with Scan, both wrong)',
    caughtBy: 'scan.dso.consistent',
    needs: 'scan',
    fault: onBody(/^\/v0\/(scan-proxy\/)?dso$/, (v) => ({ ...v, voting_threshold: typeof v.voting_threshold === 'number' ? v.voting_threshold + 1 : v.voting_threshold })),
  },
  {
    name: 'rule-instrument-decimals',
    description: "the registry answers an instrument's decimals one short, the same in the list and the lookup (they agree, both wrong, both in range)",
    caughtBy: 'registry.metadata.instrument-list',
    fault: onBody(/^\/registry\/metadata\/v1\/instruments(\/[^/]+)?$/, (v) => deep(v, (k, x) => (k === 'decimals' && typeof x === 'number' && x > 0 ? x - 1 : x)) as Json),
  },
  {
    name: 'rule-connected-synchronizers-one-short',
    description: 'connected synchronizers leave out the last one the participant is connected to (its package vetting still names it)',
    caughtBy: 'ledger.synchronizers.connected',
    fault: onBody(/^\/v2\/state\/connected-synchronizers$/, (v) => (Array.isArray(v.connectedSynchronizers) && v.connectedSynchronizers.length > 1 ? { ...v, connectedSynchronizers: v.connectedSynchronizers.slice(0, -1) } : v)),
  },
  ((): Mutant => {
    // The packages the vetting list named (remembered from the lists the proxy relays): one of them goes missing.
    const vetted = new Set<string>();
    return {
      name: 'rule-package-list-one-short',
      description: 'GET /v2/packages leaves out one package the participant stores and vets (a truncated listing)',
      caughtBy: 'ledger.packages.vetted-are-listed',
      fault: {
        response: (req, res) => {
          if (is(req, 'POST', /^\/v2\/package-vetting\/list$/)) {
            withJson(res, (v) => { deep(v, (k, x) => { if (k === 'packageId' && typeof x === 'string') vetted.add(x); return x; }); return v; });
            return res;
          }
          if (!is(req, 'GET', /^\/v2\/packages$/)) return res;
          return withJson(res, (v) => {
            if (!isObject(v) || !Array.isArray(v.packageIds)) return v;
            const gone = [...(v.packageIds as string[])].sort().find((id) => vetted.has(id));
            return gone === undefined ? v : { ...v, packageIds: (v.packageIds as string[]).filter((id) => id !== gone) };
          });
        },
      },
    };
  })(),
  ((): Mutant => {
    // The smallest id the listing names (remembered from the listings the proxy relays).
    let smallest: string | undefined;
    return {
      name: 'rule-package-status-unregistered',
      description: 'the first package GET /v2/packages lists answers UNSPECIFIED on its status (a status read from a cache that misses it)',
      caughtBy: 'ledger.packages.listed-are-registered',
      fault: {
        response: (req, res) => {
          if (is(req, 'GET', /^\/v2\/packages$/)) withJson(res, (v) => { if (isObject(v) && Array.isArray(v.packageIds)) smallest = [...(v.packageIds as string[])].sort()[0]; return v; });
          return is(req, 'GET', /^\/v2\/packages\/[0-9a-f]{64}\/status$/) && smallest !== undefined && pathOf(req.url).includes(smallest)
            ? withJson(res, (v) => (isObject(v) ? { ...v, packageStatus: 'PACKAGE_STATUS_UNSPECIFIED' } : v))
            : res;
        },
      },
    };
  })(),
  {
    name: 'rule-features-user-management-unsupported',
    description: 'the feature descriptor says user management is unsupported while the user service answers',
    caughtBy: 'ledger.version.features-honoured',
    fault: onBody(/^\/v2\/version$/, (v) => (isObject(v.features) && isObject(v.features.userManagement) ? { ...v, features: { ...v.features, userManagement: { ...v.features.userManagement, supported: false } } } : v)),
  },
  {
    name: 'rule-features-parties-page-over-maximum',
    description: 'the feature descriptor announces a maximum party page smaller than the pages the party list serves',
    caughtBy: 'ledger.version.features-honoured',
    fault: onBody(/^\/v2\/version$/, (v) => (isObject(v.features) && isObject(v.features.partyManagement) ? { ...v, features: { ...v.features, partyManagement: { ...v.features.partyManagement, maxPartiesPageSize: 1 } } } : v)),
  },
  {
    name: 'rule-synchronizer-permission-observation',
    description: 'connected synchronizers answer observation permission for parties the participant submits for',
    caughtBy: 'ledger.synchronizers.connected',
    fault: onBody(/^\/v2\/state\/connected-synchronizers$/, (v) => deep(v, (k, x) => (k === 'permission' && typeof x === 'string' ? 'PARTICIPANT_PERMISSION_OBSERVATION' : x)) as Json),
  },
];
