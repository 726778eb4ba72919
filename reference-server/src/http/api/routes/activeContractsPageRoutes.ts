import type { GetActiveContractsPageRequest } from '../../../ledger/wireReads.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import { readersOf } from './readersOf.js';

/** The paged active contract set: a GET with a JSON body, as Canton 3.5 declares it. */
export const activeContractsPageRoutes: readonly Route[] = [
  defineRoute<GetActiveContractsPageRequest>({
    method: 'GET',
    path: '/v2/state/active-contracts-page',
    operationId: 'getV2StateActive-contracts-page',
    group: 'B',
    body: 'json',
    access: ({ body }) => readersOf(body.eventFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.activeContractsPage(body)),
  }),
];
