import type { LedgerError } from '../../../ledger/errors.js';
import type { Ledger } from '../../../ledger/index.js';
import type { Result } from '../../../ledger/result.js';
import type { GetUpdatesRequest } from '../../../ledger/wire.js';
import { defineRoute, type Route } from '../route.js';
import { readListParams } from '../streams/listParams.js';
import type { ListSource } from '../streams/boundList.js';
import { listResult } from '../streams/listResult.js';
import { tailUntilIdle } from '../streams/tailUntilIdle.js';
import { updatesReaders } from './updatesReaders.js';

/** Which ledger reads answer an update list: the current form or the deprecated trees. */
type UpdateReads = 'updates' | 'trees';

function openUpdates(ledger: Ledger, reads: UpdateReads, body: GetUpdatesRequest, idleTimeoutMs: number): Result<ListSource<unknown>, LedgerError> {
  // A closed range answers what is committed; an open one follows the ledger until it goes quiet.
  const closed = body.endInclusive !== undefined;
  if (reads === 'updates') {
    return closed ? ledger.updates(body) : tailUntilIdle((signal) => ledger.subscribeUpdates(body, { signal }), idleTimeoutMs);
  }
  return closed ? ledger.updateTrees(body) : tailUntilIdle((signal) => ledger.subscribeUpdateTrees(body, { signal }), idleTimeoutMs);
}

/**
 * An update service list endpoint (`/v2/updates` and the deprecated flats/trees): a closed range
 * answers at once, an open one until it goes quiet, under the list endpoints' size rules.
 */
export function updatesListRoute(path: string, operationId: string, reads: UpdateReads): Route {
  return defineRoute<GetUpdatesRequest>({
    method: 'POST',
    path,
    operationId,
    group: 'B',
    body: 'json',
    access: ({ body }) => updatesReaders(body),
    handle: async ({ body, query, services }) => {
      const params = readListParams(query, services.config);
      if (!params.ok) return params;
      const { ledger } = services;
      return listResult(() => openUpdates(ledger, reads, body, params.value.idleTimeoutMs), {
        limit: params.value.limit,
        max: ledger.config.listMaxElements,
      });
    },
  });
}
