import type { UpdatePartyDetailsRequest } from '../../../ledger/wire.js';
import { ok } from '../../../ledger/result.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';

const idpId = (params: Readonly<Record<string, string>>): string => params['idp-id'] ?? '';

interface IdpConfigRequest {
  identityProviderConfig?: unknown;
}
interface UpdateIdpRequest extends IdpConfigRequest {
  updateMask?: { paths?: unknown };
}
interface UpdateUserIdpRequest {
  userId?: unknown;
  sourceIdentityProviderId?: unknown;
  targetIdentityProviderId?: unknown;
}

/**
 * Identity provider configs and user moves between them are the participant admin's; party
 * details may also be updated by an identity provider admin, for the parties of its own provider.
 */
export const adminRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v2/idps',
    operationId: 'getV2Idps',
    group: 'B',
    body: 'none',
    access: () => ({ participantAdmin: true }),
    handle: ({ services }) => jsonResult(ok(services.ledger.listIdentityProviders())),
  }),
  defineRoute<IdpConfigRequest>({
    method: 'POST',
    path: '/v2/idps',
    operationId: 'postV2Idps',
    group: 'B',
    body: 'json',
    access: () => ({ participantAdmin: true }),
    handle: ({ body, services }) => jsonResult(services.ledger.createIdentityProvider(body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/idps/{idp-id}',
    operationId: 'getV2IdpsIdp-id',
    group: 'B',
    body: 'none',
    access: () => ({ participantAdmin: true }),
    handle: ({ params, services }) => jsonResult(services.ledger.getIdentityProvider(idpId(params))),
  }),
  defineRoute<UpdateIdpRequest>({
    method: 'PATCH',
    path: '/v2/idps/{idp-id}',
    operationId: 'patchV2IdpsIdp-id',
    group: 'B',
    body: 'json',
    access: () => ({ participantAdmin: true }),
    handle: ({ params, body, services }) => jsonResult(services.ledger.updateIdentityProvider(idpId(params), body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/idps/{idp-id}',
    operationId: 'deleteV2IdpsIdp-id',
    group: 'B',
    body: 'none',
    access: () => ({ participantAdmin: true }),
    handle: ({ params, services }) => jsonResult(services.ledger.deleteIdentityProvider(idpId(params))),
  }),
  defineRoute<UpdateUserIdpRequest>({
    method: 'PATCH',
    path: '/v2/users/{user-id}/identity-provider-id',
    operationId: 'patchV2UsersUser-idIdentity-provider-id',
    group: 'B',
    body: 'json',
    access: () => ({ participantAdmin: true }),
    handle: ({ params, body, services }) => jsonResult(services.ledger.updateUserIdentityProvider(params['user-id'] ?? '', body)),
  }),
  defineRoute<UpdatePartyDetailsRequest>({
    method: 'PATCH',
    path: '/v2/parties/{party}',
    operationId: 'patchV2PartiesParty',
    group: 'B',
    body: 'json',
    access: () => ({ admin: true }),
    handle: ({ params, body, principal, services }) => {
      const scope = principal.kind === 'user' ? services.ledger.adminScopeOf(principal.userId) : undefined;
      return jsonResult(services.ledger.updatePartyDetails(params['party'] ?? '', body, scope));
    },
  }),
];
