import { appsOf } from '../apps/index.js';
import { ledgerError } from '../ledger/errors.js';
import { err, ok } from '../ledger/result.js';
import { jsonResult } from '../http/api/ledgerResult.js';
import { defineRoute, type Route } from '../http/api/route.js';
import { registryRoutes } from '../http/api/routes/registryRoutes.js';
import { ledgerApiRoutes } from '../http/api/routes/routeTable.js';
import { scanRoutes, spliceVersionRoute } from '../http/api/routes/scanRoutes.js';
import { testTokenRegistryRoutes } from '../http/api/routes/testTokenRegistryRoutes.js';
import { LOCALNET_USER, SCAN_PREFIX, SCAN_PROXY_PREFIX, VALIDATOR_PREFIX } from './localNetConfig.js';

const under = (prefix: string, routes: readonly Route[]): Route[] => routes.map((r) => ({ ...r, path: `${prefix}${r.path}` }));
/** Splice's Scan is a public read API, and the token-standard registry Amulet serves through it too: no token asked. */
const publicly = (routes: readonly Route[]): Route[] => routes.map((r) => ({ ...r, public: true }));

/**
 * The validator's own `GET /v0/validator-user`: the party of its ledger API user (the SDK's
 * `getValidatorParty` reads `party_id`), whether that party is a featured app provider, and the
 * user's name. Public on the validator, as in Splice.
 */
const validatorUserRoute: Route = defineRoute({
  method: 'GET',
  path: '/v0/validator-user',
  operationId: 'getValidatorUserInfo',
  group: 'C',
  body: 'none',
  public: true,
  handle: ({ services }) => {
    const user = services.ledger.getUser(LOCALNET_USER);
    const party = user.ok ? user.value.user.primaryParty : undefined;
    if (party === undefined || party === '') return jsonResult(err(ledgerError('CONTRACT_NOT_FOUND', `the validator user ${LOCALNET_USER} has no party`)));
    const featured = appsOf(services.ledger).scan.featuredAppRight(party);
    return jsonResult(ok({ party_id: party, user_name: LOCALNET_USER, featured: featured.ok && featured.value.featured_app_right !== undefined }));
  },
});

/** One listener's routes: LocalNet serves each API on its own port under its own prefix. */
export interface LocalNetRouteTables {
  /** The participant's JSON Ledger API (group B), at the root. */
  readonly ledger: readonly Route[];
  /** `/api/validator`: validator-user, the scan proxy's reads, and the registry under the scan proxy. */
  readonly validator: readonly Route[];
  /** `/api/scan`: Scan's reads, and the token-standard registry at the root as Scan serves it; public. */
  readonly scan: readonly Route[];
  /** The token-standard registry (group A), at the root, and the test tokens' under `/registries/{admin}`; public. */
  readonly tokenStandard: readonly Route[];
  /** The app-provider participant's JSON Ledger API (group B), at the root, answering as that participant. */
  readonly appProviderLedger: readonly Route[];
}

const isScanProxy = (r: Route) => r.path.startsWith('/v0/scan-proxy/');

export const localNetRoutes: LocalNetRouteTables = {
  ledger: ledgerApiRoutes.filter((r) => r.group === 'B'),
  validator: [
    ...under(VALIDATOR_PREFIX, [validatorUserRoute, { ...spliceVersionRoute, public: true }, ...scanRoutes.filter(isScanProxy)]),
    ...under(SCAN_PROXY_PREFIX, registryRoutes),
  ],
  scan: publicly([...scanRoutes.filter((r) => r.path.startsWith(`${SCAN_PREFIX}/`)), ...registryRoutes]),
  tokenStandard: publicly([...registryRoutes, ...testTokenRegistryRoutes]),
  appProviderLedger: ledgerApiRoutes.filter((r) => r.group === 'B'),
};
