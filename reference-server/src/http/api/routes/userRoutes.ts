import { ledgerError } from '../../../ledger/errors.js';
import type { CreateUserRequest, GrantUserRightsRequest, RevokeUserRightsRequest, Right, UpdateUserRequest } from '../../../ledger/wire.js';
import type { Ledger, UserCaller } from '../../../ledger/index.js';
import type { Principal, RequiredAccess } from '../auth/types.js';
import { jsonResult, refused } from '../ledgerResult.js';
import { readInt32Query, readStringQuery } from '../readQuery.js';
import { defineRoute, type Route } from '../route.js';

const userId = (params: Readonly<Record<string, string>>): string => params['user-id'] ?? '';

/** The caller as user management sees it: its identity provider bounds what it may see and change. */
const callerOf = (principal: Principal, ledger: Pick<Ledger, 'userCallerOf'>): UserCaller => ledger.userCallerOf(principal.kind === 'user' ? principal.userId : undefined);

/** Handing out or taking away ParticipantAdmin needs ParticipantAdmin, not only identity provider admin. */
function rightsAccess(rights: readonly Right[] | undefined): RequiredAccess {
  const touchesAdmin = (rights ?? []).some((r) => r !== null && typeof r === 'object' && r.kind !== null && typeof r.kind === 'object' && 'ParticipantAdmin' in r.kind);
  return touchesAdmin ? { admin: true, participantAdmin: true } : { admin: true };
}

/** User management: users, their rights, and who the caller is. */
export const userRoutes: readonly Route[] = [
  defineRoute<CreateUserRequest>({
    method: 'POST',
    path: '/v2/users',
    operationId: 'postV2Users',
    group: 'B',
    body: 'json',
    access: ({ body }) => rightsAccess(body.rights),
    handle: ({ body, principal, services }) => jsonResult(services.ledger.createUser(body, callerOf(principal, services.ledger))),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/users',
    operationId: 'getV2Users',
    group: 'B',
    body: 'none',
    access: () => ({ admin: true }),
    handle: ({ query, principal, services }) => {
      const pageSize = readInt32Query(query, 'pageSize');
      if (!pageSize.ok) return pageSize;
      const pageToken = readStringQuery(query, 'pageToken');
      return jsonResult(
        services.ledger.listUsers({
          ...(pageSize.value === undefined ? {} : { pageSize: pageSize.value }),
          ...(pageToken === undefined ? {} : { pageToken }),
        }, callerOf(principal, services.ledger)),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/users/{user-id}',
    operationId: 'getV2UsersUser-id',
    group: 'B',
    body: 'none',
    access: ({ params }) => ({ self: userId(params) }),
    handle: ({ params, query, principal, services }) => jsonResult(services.ledger.getUser(userId(params), readStringQuery(query, 'identity-provider-id'), callerOf(principal, services.ledger))),
  }),
  defineRoute<UpdateUserRequest>({
    method: 'PATCH',
    path: '/v2/users/{user-id}',
    operationId: 'patchV2UsersUser-id',
    group: 'B',
    body: 'json',
    access: () => ({ admin: true }),
    handle: ({ params, body, principal, services }) => jsonResult(services.ledger.updateUser(userId(params), body, callerOf(principal, services.ledger))),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v2/users/{user-id}',
    operationId: 'deleteV2UsersUser-id',
    group: 'B',
    body: 'none',
    access: () => ({ admin: true }),
    handle: ({ params, principal, services }) =>
      jsonResult(services.ledger.deleteUser(userId(params), principal.kind === 'user' ? principal.userId : undefined, callerOf(principal, services.ledger))),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/users/{user-id}/rights',
    operationId: 'getV2UsersUser-idRights',
    group: 'B',
    body: 'none',
    access: ({ params }) => ({ self: userId(params) }),
    handle: ({ params, principal, services }) => jsonResult(services.ledger.listUserRights(userId(params), callerOf(principal, services.ledger))),
  }),
  defineRoute<GrantUserRightsRequest>({
    method: 'POST',
    path: '/v2/users/{user-id}/rights',
    operationId: 'postV2UsersUser-idRights',
    group: 'B',
    body: 'json',
    access: ({ body }) => rightsAccess(body.rights),
    handle: ({ params, body, principal, services }) => jsonResult(services.ledger.grantUserRights(userId(params), body, callerOf(principal, services.ledger))),
  }),
  defineRoute<RevokeUserRightsRequest>({
    method: 'PATCH',
    path: '/v2/users/{user-id}/rights',
    operationId: 'patchV2UsersUser-idRights',
    group: 'B',
    body: 'json',
    access: ({ body }) => rightsAccess(body.rights),
    handle: ({ params, body, principal, services }) => jsonResult(services.ledger.revokeUserRights(userId(params), body, callerOf(principal, services.ledger))),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/authenticated-user',
    operationId: 'getV2Authenticated-user',
    group: 'B',
    body: 'none',
    handle: ({ query, principal, services }) =>
      principal.kind === 'user'
        ? jsonResult(services.ledger.getUser(principal.userId, readStringQuery(query, 'identity-provider-id'), callerOf(principal, services.ledger)))
        : // What a participant without auth answers; clients (wallet-sdk's SDK.create) match this message and
          // fall back to the user named by their own token.
          refused(ledgerError('INVALID_TOKEN', 'The submitted request is missing a user-id: requests with an empty user-id are only supported if there is an authenticated user')),
  }),
];
