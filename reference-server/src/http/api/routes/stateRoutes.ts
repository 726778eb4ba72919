import type { GetActiveContractsRequest } from '../../../ledger/wire.js';
import { ok } from '../../../ledger/result.js';
import { jsonResponse } from '../apiResponse.js';
import { jsonResult } from '../ledgerResult.js';
import { readStringQuery } from '../readQuery.js';
import { defineRoute, type Route } from '../route.js';
import { readListParams } from '../streams/listParams.js';
import { listResult } from '../streams/listResult.js';
import { readersOf } from './readersOf.js';

/** The state service: active contracts, ledger end, pruning point, connected synchronizers. */
export const stateRoutes: readonly Route[] = [
  defineRoute<GetActiveContractsRequest>({
    method: 'POST',
    path: '/v2/state/active-contracts',
    operationId: 'postV2StateActive-contracts',
    group: 'B',
    body: 'json',
    access: ({ body }) => readersOf(body.eventFormat, body.filter),
    handle: async ({ body, query, services }) => {
      const params = readListParams(query, services.config);
      if (!params.ok) return params;
      return listResult(() => services.ledger.activeContracts(body), {
        limit: params.value.limit,
        max: services.ledger.config.listMaxElements,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/state/ledger-end',
    operationId: 'getV2StateLedger-end',
    group: 'B',
    body: 'none',
    handle: ({ services }) => ok(jsonResponse(services.ledger.ledgerEnd())),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/state/latest-pruned-offsets',
    operationId: 'getV2StateLatest-pruned-offsets',
    group: 'B',
    body: 'none',
    handle: ({ services }) => ok(jsonResponse(services.ledger.latestPrunedOffsets())),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/state/connected-synchronizers',
    operationId: 'getV2StateConnected-synchronizers',
    group: 'B',
    body: 'none',
    access: ({ query }) => {
      const party = readStringQuery(query, 'party');
      return party === undefined ? {} : { readAs: [party] };
    },
    handle: ({ query, services }) => {
      const party = readStringQuery(query, 'party');
      const participantId = readStringQuery(query, 'participantId');
      return jsonResult(
        services.ledger.connectedSynchronizers({
          ...(party === undefined ? {} : { party }),
          ...(participantId === undefined ? {} : { participantId }),
        }),
      );
    },
  }),
];
