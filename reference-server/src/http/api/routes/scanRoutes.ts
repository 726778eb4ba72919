import { appsOf } from '../../../apps/index.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

/** Deployed Scan nodes serve under this prefix; clients put it in their base URL (ScanClient does). */
const SCAN_PREFIX = '/api/scan';

const scanOperations: readonly Route[] = [
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
];

/** Group C: the two Scan reads, at their paths and under the deployed `/api/scan` prefix. */
export const scanRoutes: readonly Route[] = [...scanOperations, ...scanOperations.map((r) => ({ ...r, path: `${SCAN_PREFIX}${r.path}` }))];
