import { ok } from '../../../ledger/result.js';
import { emptyResponse, textResponse } from '../apiResponse.js';
import { defineRoute, type Route } from '../route.js';

/** Liveness and readiness probes: no credentials; liveness has no body, readiness says `ready`. */
export const healthRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/livez',
    operationId: 'getLivez',
    group: 'B',
    body: 'none',
    public: true,
    handle: () => ok(emptyResponse()),
  }),
  defineRoute({
    method: 'GET',
    path: '/readyz',
    operationId: 'getReadyz',
    group: 'B',
    body: 'none',
    public: true,
    // The server only listens once its ledger is loaded, so whoever reaches this is served.
    handle: () => ok(textResponse('ready')),
  }),
];
