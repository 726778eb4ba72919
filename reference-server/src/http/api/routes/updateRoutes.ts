import type { GetUpdatesRequest } from '../../../ledger/wire.js';
import { defineRoute, type Route } from '../route.js';
import { readListParams } from '../streams/listParams.js';
import { listResult } from '../streams/listResult.js';
import { tailUntilIdle } from '../streams/tailUntilIdle.js';
import type { RequiredAccess } from '../auth/types.js';
import { readersOf } from './readersOf.js';

/**
 * The parties an updates request reads for, in any of its formats. Topology events name parties
 * too: asking for those of some parties needs to read as them, and asking for every party's
 * (an empty list) needs CanReadAsAnyParty, as on the participant.
 */
export function updatesReaders(body: GetUpdatesRequest): RequiredAccess {
  const format = body.updateFormat;
  const readers = readersOf(format?.includeTransactions?.eventFormat, format?.includeReassignments, body.filter);
  const topology = format?.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology === undefined || topology === null) return readers;
  const parties = Array.isArray(topology.parties) ? topology.parties.filter((p): p is string => typeof p === 'string') : [];
  return parties.length === 0
    ? { ...readers, readAsAnyParty: true }
    : { ...readers, readAs: [...new Set([...(readers.readAs ?? []), ...parties])] };
}

/** The update service as a list: a closed range answers at once, an open one until it goes quiet. */
export const updateRoutes: readonly Route[] = [
  defineRoute<GetUpdatesRequest>({
    method: 'POST',
    path: '/v2/updates',
    operationId: 'postV2Updates',
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
];
