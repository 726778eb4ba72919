import type { AllocatePartyRequest } from '../../../ledger/wire.js';
import { ok } from '../../../ledger/result.js';
import { jsonResponse } from '../apiResponse.js';
import { jsonResult } from '../ledgerResult.js';
import { readInt32Query, readStringQuery } from '../readQuery.js';
import { defineRoute, type Route } from '../route.js';

/** Party management: allocate, list, look up, and the participant's own id. */
export const partyRoutes: readonly Route[] = [
  defineRoute<AllocatePartyRequest>({
    method: 'POST',
    path: '/v2/parties',
    operationId: 'postV2Parties',
    group: 'B',
    body: 'json',
    access: () => ({ admin: true }),
    handle: ({ body, services }) => jsonResult(services.ledger.allocateParty(body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/parties',
    operationId: 'getV2Parties',
    group: 'B',
    body: 'none',
    access: () => ({ admin: true }),
    handle: ({ query, services }) => {
      const pageSize = readInt32Query(query, 'pageSize');
      if (!pageSize.ok) return pageSize;
      const pageToken = readStringQuery(query, 'pageToken');
      const filterParty = readStringQuery(query, 'filter-party');
      const identityProviderId = readStringQuery(query, 'identity-provider-id');
      return jsonResult(
        services.ledger.listParties({
          ...(pageSize.value === undefined ? {} : { pageSize: pageSize.value }),
          ...(pageToken === undefined ? {} : { pageToken }),
          ...(filterParty === undefined ? {} : { filterParty }),
          ...(identityProviderId === undefined ? {} : { identityProviderId }),
        }),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/parties/participant-id',
    operationId: 'getV2PartiesParticipant-id',
    group: 'B',
    body: 'none',
    handle: ({ services }) => ok(jsonResponse({ participantId: services.participantId })),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/parties/{party}',
    operationId: 'getV2PartiesParty',
    group: 'B',
    body: 'none',
    access: () => ({ admin: true }),
    handle: ({ params, query, services }) => {
      // `?parties=` adds more parties to the one in the path (the participant answers them together).
      const more = query.getAll('parties').filter((p) => p !== '');
      return jsonResult(services.ledger.getParties([params['party'] ?? '', ...more]));
    },
  }),
];
