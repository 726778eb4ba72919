import type { GetContractRequest, GetEventsByContractIdRequest } from '../../../ledger/wireReads.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import { readersOf } from './readersOf.js';

/** The event query service and the (alpha) contract service: one contract by id. */
export const contractRoutes: readonly Route[] = [
  defineRoute<GetEventsByContractIdRequest>({
    method: 'POST',
    path: '/v2/events/events-by-contract-id',
    operationId: 'postV2EventsEvents-by-contract-id',
    group: 'B',
    body: 'json',
    access: ({ body }) => readersOf(body.eventFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.eventsByContractId(body)),
  }),
  defineRoute<GetContractRequest>({
    method: 'POST',
    path: '/v2/contracts/contract-by-id',
    operationId: 'postV2ContractsContract-by-id',
    group: 'B',
    body: 'json',
    // No querying parties means any contract: only a reader of every party may ask that.
    access: ({ body }) => {
      const parties = body.queryingParties ?? [];
      return parties.length > 0 ? { readAs: parties } : { readAsAnyParty: true };
    },
    handle: ({ body, services }) => jsonResult(services.ledger.contractById(body)),
  }),
];
