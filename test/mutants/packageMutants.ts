import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';
import type { Mutant } from './mutants.js';
import { cantonError, deep, submittedCommands } from './mutantKit.js';

/**
 * Mutants of packages, vetting, preferred packages and administration: one plausible
 * fault per behaviour check of conformance/src/checks/ledgerPackages.ts and ledgerAdmin.ts.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const is = (req: ProxyRequest, method: string, path: string | RegExp) => req.method === method && (typeof path === 'string' ? pathOf(req.url) === path : path.test(pathOf(req.url)));
const withJson = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: JSON.stringify(f(v)) };
};
/** Rewrites the JSON body of matching requests before they reach the reference server. */
const rewriteRequest = (match: (req: ProxyRequest) => boolean, f: (body: Json) => Json): Fault => ({
  request(req) {
    const body = parse(req.body);
    return match(req) && isObject(body) ? { ...req, body: JSON.stringify(f(body)) } : req;
  },
});
/** Answers matching requests itself, never telling the reference server. */
const answerInstead = (match: (req: ProxyRequest) => boolean, answer: ProxyResponse): Fault => ({ request: (req) => (match(req) ? answer : req) });

/** A preferred-package lookup served from a cache filled on first use and never invalidated. */
function stalePreferenceCache(): Fault {
  const cache = new Map<string, ProxyResponse>();
  return {
    async request(req, upstream) {
      if (!is(req, 'GET', '/v2/interactive-submission/preferred-package-version')) return req;
      const hit = cache.get(req.url);
      if (hit) return hit;
      const res = await upstream.send(req);
      if (res.status === 200) cache.set(req.url, res);
      return res;
    },
  };
}

/**
 * A participant from before smart contract upgrades: it remembers each contract's template from
 * the created events it answers, and `upgrade` rewrites what it would do with an exercise through
 * a template of another package (`asked`) on a contract of `created`.
 */
function beforeUpgrades(upgrade: 'refuse' | 'name-the-contract' | 'own-instance'): Fault {
  const templates = new Map<string, string>();
  const remember = (o: Json): Json => {
    const created = isObject(o.CreatedEvent) ? o.CreatedEvent : undefined;
    if (created && typeof created.contractId === 'string' && typeof created.templateId === 'string') templates.set(created.contractId, created.templateId);
    return o;
  };
  const otherVersion = (contractId: unknown, asked: unknown): boolean => {
    const created = typeof contractId === 'string' ? templates.get(contractId) : undefined;
    if (created === undefined || typeof asked !== 'string' || asked.startsWith('#') || created === asked) return false;
    return created.slice(created.indexOf(':')) === asked.slice(asked.indexOf(':'));
  };
  return {
    request(req) {
      const submitted = submittedCommands(req);
      if (upgrade === 'own-instance') {
        // Every exercise on a known contract runs its own version: the preference rewritten to it.
        const exercised = submitted && Array.isArray(submitted.commands.commands) ? submitted.commands.commands.filter(isObject).map((c) => c.ExerciseCommand).find(isObject) : undefined;
        const own = exercised && typeof exercised.contractId === 'string' ? templates.get(exercised.contractId) : undefined;
        if (!submitted || own === undefined || !Array.isArray(submitted.commands.packageIdSelectionPreference)) return req;
        const commands = { ...submitted.commands, packageIdSelectionPreference: [own.slice(0, own.indexOf(':'))] };
        return { ...req, body: JSON.stringify(submitted.commands === submitted.body ? commands : { ...submitted.body, commands }) };
      }
      if (upgrade !== 'refuse') return req;
      const commands = submitted && Array.isArray(submitted.commands.commands) ? submitted.commands.commands.filter(isObject) : [];
      const across = commands.map((c) => c.ExerciseCommand).find((x): x is Json => isObject(x) && otherVersion(x.contractId, x.templateId));
      return across
        ? cantonError(400, 'WRONGLY_TYPED_CONTRACT', `Interpretation error: Error: Update failed due to wrongly typed contract id ${String(across.contractId)}`, 9)
        : req;
    },
    response(req, res) {
      if (res.status !== 200 || !pathOf(req.url).startsWith('/v2/')) return res;
      return withJson(res, (v) => deep(v, (o) => {
        remember(o);
        const ex = isObject(o.ExercisedEvent) ? o.ExercisedEvent : undefined;
        if (upgrade === 'name-the-contract' && ex && otherVersion(ex.contractId, ex.templateId)) {
          return { ...o, ExercisedEvent: { ...ex, templateId: templates.get(ex.contractId as string) } };
        }
        return o;
      }));
    },
  };
}

export const PACKAGE_MUTANTS: readonly Mutant[] = [
  {
    name: 'contracts-never-upgrade',
    description: 'an exercise through the template of another version of the contract\'s package is refused WRONGLY_TYPED_CONTRACT, as before smart contract upgrades',
    caughtBy: 'ledger.commands.contract-upgrade',
    fault: beforeUpgrades('refuse'),
  },
  {
    name: 'exercised-event-names-the-contract-version',
    description: 'an exercise through another version runs, but its exercised event names the contract\'s own template instead of the one whose choice ran',
    caughtBy: 'ledger.commands.contract-upgrade',
    fault: beforeUpgrades('name-the-contract'),
  },
  {
    name: 'interface-calls-run-the-contract-version',
    description: 'an interface choice on a contract of an older version runs that version\'s instance, whatever version the submission prefers (the package preference ignored for the contract\'s own package)',
    caughtBy: 'ledger.commands.contract-upgrade',
    fault: beforeUpgrades('own-instance'),
  },
  {
    name: 'downgrade-drop-reported-as-another-error',
    description: 'a downgrade that would drop a field holding Some is refused under DAML_INTERPRETATION_ERROR, not INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD',
    caughtBy: 'ledger.commands.contract-upgrade',
    fault: {
      response(_req, res) {
        const v = parse(res.body);
        return res.status === 400 && isObject(v) && v.code === 'INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD' ? { ...res, body: JSON.stringify({ ...v, code: 'DAML_INTERPRETATION_ERROR' }) } : res;
      },
    },
  },
  {
    name: 'dar-upload-records-nothing',
    description: 'POST /v2/dars answers 200 {} without recording the DAR',
    caughtBy: 'ledger.packages.dar-upload-registers',
    fault: answerInstead((req) => is(req, 'POST', '/v2/dars'), jsonResponse(200, {})),
  },
  {
    name: 'deprecated-upload-path-records-nothing',
    description: 'POST /v2/packages answers 200 {} without recording the DAR',
    caughtBy: 'ledger.packages.upload-deprecated-path',
    fault: answerInstead((req) => is(req, 'POST', '/v2/packages'), jsonResponse(200, {})),
  },
  {
    name: 'package-fetch-without-hash-header',
    description: 'GET /v2/packages/{id} omits the Canton-Package-Hash header',
    caughtBy: 'ledger.packages.fetch-byte-identical',
    fault: {
      response(req, res) {
        if (!is(req, 'GET', /^\/v2\/packages\/[0-9a-f]{64}$/)) return res;
        const headers = { ...res.headers };
        delete headers['canton-package-hash'];
        return { ...res, headers };
      },
    },
  },
  {
    name: 'package-list-duplicates',
    description: 'GET /v2/packages lists every package id twice (one row per DAR that contains it)',
    caughtBy: 'ledger.packages.list',
    fault: { response: (req, res) => (is(req, 'GET', '/v2/packages') && res.status === 200 ? withJson(res, (v) => (isObject(v) && Array.isArray(v.packageIds) ? { packageIds: [...v.packageIds, ...v.packageIds] } : v)) : res) },
  },
  {
    name: 'package-status-always-registered',
    description: 'GET /v2/packages/{id}/status answers REGISTERED for any id',
    caughtBy: 'ledger.packages.status',
    fault: answerInstead((req) => is(req, 'GET', /^\/v2\/packages\/[^/]+\/status$/), jsonResponse(200, { packageStatus: 'PACKAGE_STATUS_REGISTERED' })),
  },
  {
    name: 'corrupt-dar-accepted',
    description: 'POST /v2/dars swallows INVALID_DAR and answers 200 {}',
    caughtBy: 'ledger.packages.corrupt-dar-400',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/dars') && res.status === 400 ? jsonResponse(200, {}) : res) },
  },
  {
    name: 'validate-uploads',
    description: 'POST /v2/dars/validate uploads the DAR instead of only checking it',
    caughtBy: 'ledger.packages.validate-no-effect',
    fault: { request: (req) => (is(req, 'POST', '/v2/dars/validate') ? { ...req, url: '/v2/dars?vetAllPackages=false' } : req) },
  },
  {
    name: 'vetting-update-never-applied',
    description: 'POST /v2/package-vetting/update runs every change as a dry run',
    caughtBy: 'ledger.vetting.update-then-list',
    fault: rewriteRequest((req) => is(req, 'POST', '/v2/package-vetting/update'), (b) => ({ ...b, dryRun: true })),
  },
  {
    name: 'vetting-serial-ignored',
    description: 'POST /v2/package-vetting/update ignores expectedTopologySerial',
    caughtBy: 'ledger.vetting.serial-guard',
    fault: rewriteRequest(
      (req) => is(req, 'POST', '/v2/package-vetting/update'),
      (b) => {
        const { expectedTopologySerial: _ignored, ...rest } = b;
        return rest;
      },
    ),
  },
  {
    name: 'vetting-list-ignores-filters',
    description: 'POST /v2/package-vetting/list ignores its package and topology filters',
    caughtBy: 'ledger.vetting.list-filters',
    fault: rewriteRequest((req) => is(req, 'POST', '/v2/package-vetting/list'), (b) => {
      const { packageMetadataFilter: _p, topologyStateFilter: _t, ...rest } = b;
      return rest;
    }),
  },
  {
    name: 'vetting-list-serial-as-string',
    description: 'POST /v2/package-vetting/list renders topologySerial as a string',
    caughtBy: 'ledger.schema.post-v2-package-vetting-list',
    fault: {
      response: (req, res) =>
        is(req, 'POST', '/v2/package-vetting/list') && res.status === 200
          ? withJson(res, (v) => (isObject(v) && Array.isArray(v.vettedPackages) ? { ...v, vettedPackages: v.vettedPackages.map((e) => (isObject(e) ? { ...e, topologySerial: String(e.topologySerial) } : e)) } : v))
          : res,
    },
  },
  {
    name: 'deprecated-vetting-list-empty',
    description: 'GET /v2/package-vetting (deprecated) always answers an empty list',
    caughtBy: 'ledger.vetting.deprecated-list',
    fault: answerInstead((req) => is(req, 'GET', '/v2/package-vetting'), jsonResponse(200, { vettedPackages: [], nextPageToken: '' })),
  },
  {
    name: 'deprecated-vetting-update-ignored',
    description: 'POST /v2/package-vetting (deprecated) answers success without changing anything',
    caughtBy: 'ledger.vetting.deprecated-update',
    fault: answerInstead((req) => is(req, 'POST', '/v2/package-vetting'), jsonResponse(200, { newVettedPackages: { packages: [], participantId: 'participant1', synchronizerId: 'sync', topologySerial: 1 } })),
  },
  {
    name: 'preferred-version-stale-cache',
    description: 'GET preferred-package-version answers from a cache that vetting changes never invalidate',
    caughtBy: 'ledger.preferred.highest-vetted-version',
    fault: stalePreferenceCache,
  },
  {
    name: 'preferred-packages-empty-instead-of-failing',
    description: 'POST preferred-packages answers 200 with no references when nothing is vetted, instead of FAILED_PRECONDITION',
    caughtBy: 'ledger.preferred.packages',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/interactive-submission/preferred-packages') && res.status === 400 ? jsonResponse(200, { packageReferences: [], synchronizerId: '' }) : res) },
  },
  {
    name: 'idp-duplicate-create-accepted',
    description: 'POST /v2/idps with a known id answers 200 instead of 409 IDP_CONFIG_ALREADY_EXISTS',
    caughtBy: 'ledger.idp.create-get',
    fault: { response: (req, res) => (is(req, 'POST', '/v2/idps') && res.status === 409 ? jsonResponse(200, { identityProviderConfig: (parse(req.body) as Json | undefined)?.['identityProviderConfig'] ?? {} }) : res) },
  },
  {
    name: 'idp-get-unknown-answers-default',
    description: 'GET /v2/idps/{id} answers an unknown id with an empty default config instead of 404',
    caughtBy: 'ledger.idp.get',
    fault: {
      response: (req, res) =>
        is(req, 'GET', /^\/v2\/idps\/[^/]+$/) && res.status === 404
          ? jsonResponse(200, { identityProviderConfig: { identityProviderId: decodeURIComponent(pathOf(req.url).slice('/v2/idps/'.length)), issuer: '', jwksUrl: '', isDeactivated: false, audience: '' } })
          : res,
    },
  },
  {
    name: 'idp-list-empty',
    description: 'GET /v2/idps always answers an empty list',
    caughtBy: 'ledger.idp.list',
    fault: answerInstead((req) => is(req, 'GET', '/v2/idps'), jsonResponse(200, { identityProviderConfigs: [] })),
  },
  {
    name: 'idp-update-ignores-mask',
    description: 'PATCH /v2/idps/{id} writes every field of the body whatever the update mask says',
    caughtBy: 'ledger.idp.update-mask',
    fault: rewriteRequest((req) => is(req, 'PATCH', /^\/v2\/idps\/[^/]+$/), (b) => ({ ...b, updateMask: { paths: ['is_deactivated', 'issuer', 'jwks_url', 'audience'], unknownFields: { fields: {} } } })),
  },
  {
    name: 'idp-delete-does-nothing',
    description: 'DELETE /v2/idps/{id} answers {} without deleting',
    caughtBy: 'ledger.idp.delete',
    fault: answerInstead((req) => is(req, 'DELETE', /^\/v2\/idps\/[^/]+$/), jsonResponse(200, {})),
  },
  {
    name: 'user-idp-move-ignored',
    description: 'PATCH /v2/users/{id}/identity-provider-id answers {} without moving the user',
    caughtBy: 'ledger.users.identity-provider-move',
    fault: answerInstead((req) => is(req, 'PATCH', /^\/v2\/users\/[^/]+\/identity-provider-id$/), jsonResponse(200, {})),
  },
  {
    name: 'party-update-ignores-resource-version',
    description: 'PATCH /v2/parties/{party} ignores localMetadata.resourceVersion (last write wins)',
    caughtBy: 'ledger.parties.update-resource-version',
    fault: rewriteRequest(
      (req) => is(req, 'PATCH', /^\/v2\/parties\/[^/]+$/),
      (b) => {
        const details = isObject(b.partyDetails) ? b.partyDetails : {};
        const meta = isObject(details.localMetadata) ? details.localMetadata : {};
        const { resourceVersion: _rv, ...rest } = meta;
        return { ...b, partyDetails: { ...details, localMetadata: rest } };
      },
    ),
  },
];
