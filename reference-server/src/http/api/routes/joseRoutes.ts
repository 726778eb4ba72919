import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

/**
 * Canton 3.6's JOSE service (preview, alpha upstream): the keys a party's external signatures
 * verify with, as a JWKS. Any authenticated caller: public keys are no secret.
 */
export const joseRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v2/jose/jwks/synchronizer/{synchronizer}/party/{party}',
    operationId: 'getV2JoseJwks',
    group: 'B',
    body: 'none',
    handle: ({ params, services }) => jsonResult(services.ledger.partyJwks(params['synchronizer'] ?? '', params['party'] ?? '')),
  }),
];
