import { ok } from '../../../ledger/result.js';
import { jsonResponse } from '../apiResponse.js';
import { defineRoute, type Route } from '../route.js';

export const versionRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v2/version',
    operationId: 'getV2Version',
    group: 'B',
    body: 'none',
    handle: ({ services }) => ok(jsonResponse(services.ledger.version())),
  }),
];
