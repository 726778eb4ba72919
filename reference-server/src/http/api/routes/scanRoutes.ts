import { SPLICE_COMMIT_TS, SPLICE_VERSION } from '../../../../../conformance/src/schema/spliceVersions.js';
import { appsOf } from '../../../apps/index.js';
import { ok } from '../../../ledger/result.js';
import { jsonResponse } from '../apiResponse.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

/** Deployed Scan nodes serve under this prefix; clients put it in their base URL (ScanClient does). */
const SCAN_PREFIX = '/api/scan';

/**
 * `GET /version`, as every Splice app serves it (common-external.yaml): the release our Scan
 * emulates, the one specs/scan.openapi.yaml follows. The validator serves it at its own base URL.
 */
export const spliceVersionRoute: Route = defineRoute({
  method: 'GET',
  path: '/version',
  operationId: 'getVersion',
  group: 'C',
  body: 'none',
  handle: () => ok(jsonResponse({ version: SPLICE_VERSION, commit_ts: SPLICE_COMMIT_TS })),
});

const scanOperations: readonly Route[] = [
  spliceVersionRoute,
  defineRoute({
    method: 'GET',
    path: '/v0/transfer-preapprovals/by-party/{party}',
    operationId: 'lookupTransferPreapprovalByParty',
    group: 'C',
    body: 'none',
    handle: ({ params, services }) => jsonResult(appsOf(services.ledger).scan.lookupTransferPreapprovalByParty(params['party'] ?? '')),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/internal/reward-accounting-process/rounds/earliest-available',
    operationId: 'getRewardAccountingEarliestAvailableRound',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.earliestAvailableRound()),
  }),
  // The path before Splice 0.6.5 moved it under /v0/internal/; older clients still call it.
  defineRoute({
    method: 'GET',
    path: '/v0/reward-accounting-process/rounds/earliest-available',
    operationId: 'getRewardAccountingEarliestAvailableRoundLegacy',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.earliestAvailableRound()),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/dso',
    operationId: 'getDsoInfo',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.dsoInfo()),
  }),
  defineRoute<unknown>({
    method: 'POST',
    path: '/v0/amulet-rules',
    operationId: 'getAmuletRules',
    group: 'C',
    body: 'json',
    handle: ({ body, services }) => jsonResult(appsOf(services.ledger).scan.amuletRules(body)),
  }),
  defineRoute<unknown>({
    method: 'POST',
    path: '/v0/open-and-issuing-mining-rounds',
    operationId: 'getOpenAndIssuingMiningRounds',
    group: 'C',
    body: 'json',
    handle: ({ body, services }) => jsonResult(appsOf(services.ledger).scan.openAndIssuingRounds(body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/featured-apps/{provider_party_id}',
    operationId: 'lookupFeaturedAppRight',
    group: 'C',
    body: 'none',
    handle: ({ params, services }) => jsonResult(appsOf(services.ledger).scan.featuredAppRight(params['provider_party_id'] ?? '')),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/domains/{domain_id}/members/{member_id}/traffic-status',
    operationId: 'getMemberTrafficStatus',
    group: 'C',
    body: 'none',
    handle: ({ params, services }) => jsonResult(appsOf(services.ledger).scan.trafficStatus(params['domain_id'] ?? '', params['member_id'] ?? '')),
  }),
];

/** The validator's scan proxy: the same reads from the validator's base URL, in the proxy's shapes. */
const scanProxyOperations: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v0/scan-proxy/dso-party-id',
    operationId: 'getDsoPartyIdProxy',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.dsoPartyId()),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/scan-proxy/dso',
    operationId: 'getDsoInfoProxy',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.dsoInfo()),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/scan-proxy/featured-apps/{provider_party_id}',
    operationId: 'lookupFeaturedAppRightProxy',
    group: 'C',
    body: 'none',
    handle: ({ params, services }) => jsonResult(appsOf(services.ledger).scan.featuredAppRight(params['provider_party_id'] ?? '')),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/scan-proxy/open-and-issuing-mining-rounds',
    operationId: 'getOpenAndIssuingMiningRoundsProxy',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.openAndIssuingRoundsProxy()),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/scan-proxy/amulet-rules',
    operationId: 'getAmuletRulesProxy',
    group: 'C',
    body: 'none',
    handle: ({ services }) => jsonResult(appsOf(services.ledger).scan.amuletRulesProxy()),
  }),
  defineRoute({
    method: 'GET',
    path: '/v0/scan-proxy/transfer-preapprovals/by-party/{party}',
    operationId: 'lookupTransferPreapprovalByPartyProxy',
    group: 'C',
    body: 'none',
    handle: ({ params, services }) => jsonResult(appsOf(services.ledger).scan.lookupTransferPreapprovalByParty(params['party'] ?? '')),
  }),
];

/** Group C: Scan's reads, at their paths and under the deployed `/api/scan` prefix, and the scan-proxy forms. */
export const scanRoutes: readonly Route[] = [...scanOperations, ...scanOperations.map((r) => ({ ...r, path: `${SCAN_PREFIX}${r.path}` })), ...scanProxyOperations];
