import { ok } from '../../../ledger/result.js';
import { textResponse } from '../apiResponse.js';
import { defineRoute, type Route } from '../route.js';

/**
 * Our published specs as the participant publishes its own: YAML as `text/plain; charset=UTF-8`,
 * no credentials needed.
 */
export const docsRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/docs/openapi',
    operationId: 'getDocsOpenapi',
    group: 'B',
    body: 'none',
    public: true,
    handle: ({ services }) => ok(textResponse(services.documents.openapi)),
  }),
  defineRoute({
    method: 'GET',
    path: '/docs/asyncapi',
    operationId: 'getDocsAsyncapi',
    group: 'B',
    body: 'none',
    public: true,
    handle: ({ services }) => ok(textResponse(services.documents.asyncapi)),
  }),
];
