import type { GetUpdatesRequest } from '../../../ledger/wire.js';
import { defineRoute, type Route } from '../route.js';
import { readListParams } from '../streams/listParams.js';
import { listResult } from '../streams/listResult.js';
import { tailUntilIdle } from '../streams/tailUntilIdle.js';
import { updatesReaders } from './updateRoutes.js';

/**
 * The deprecated update lists Canton 3.5 still serves (wallet-sdk 1.4.0 reads holdings through
 * flats): `flats` answers exactly as `/v2/updates`; `trees` takes the legacy filter only and answers
 * ledger-effects transactions as trees. Both run on the same list pipeline as `/v2/updates`.
 */
export const legacyStreamRoutes: readonly Route[] = [
  defineRoute<GetUpdatesRequest>({
    method: 'POST',
    path: '/v2/updates/flats',
    operationId: 'postV2UpdatesFlats',
    group: 'B',
    body: 'json',
    access: ({ body }) => updatesReaders(body),
    handle: async ({ body, query, services }) => {
      const params = readListParams(query, services.config);
      if (!params.ok) return params;
      const { ledger } = services;
      const open = () =>
        body.endInclusive === undefined
          ? tailUntilIdle((signal) => ledger.subscribeUpdates(body, { signal }), params.value.idleTimeoutMs)
          : ledger.updates(body);
      return listResult(open, { limit: params.value.limit, max: ledger.config.listMaxElements });
    },
  }),
  defineRoute<GetUpdatesRequest>({
    method: 'POST',
    path: '/v2/updates/trees',
    operationId: 'postV2UpdatesTrees',
    group: 'B',
    body: 'json',
    access: ({ body }) => updatesReaders(body),
    handle: async ({ body, query, services }) => {
      const params = readListParams(query, services.config);
      if (!params.ok) return params;
      const { ledger } = services;
      const open = () =>
        body.endInclusive === undefined
          ? tailUntilIdle((signal) => ledger.subscribeUpdateTrees(body, { signal }), params.value.idleTimeoutMs)
          : ledger.updateTrees(body);
      return listResult(open, { limit: params.value.limit, max: ledger.config.listMaxElements });
    },
  }),
];
