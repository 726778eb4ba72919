import type { GetActiveContractsPageRequest } from '../../../ledger/wireReads.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import { readersOf } from './readersOf.js';

/** One page of the active contract set, for either method. */
function pageRoute(method: 'GET' | 'POST', operationId: string): Route {
  return defineRoute<GetActiveContractsPageRequest>({
    method,
    path: '/v2/state/active-contracts-page',
    operationId,
    group: 'B',
    body: 'json',
    access: ({ body }) => readersOf(body.eventFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.activeContractsPage(body)),
  });
}

/**
 * The paged active contract set. Canton 3.5.7+ serves it as a POST; the GET with a JSON body that
 * 3.5.0-3.5.6 declared stays, deprecated, with the same answers.
 */
export const activeContractsPageRoutes: readonly Route[] = [
  pageRoute('POST', 'postV2StateActive-contracts-page'),
  pageRoute('GET', 'getV2StateActive-contracts-page'),
];
