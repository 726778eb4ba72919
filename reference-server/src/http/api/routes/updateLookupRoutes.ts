import { parseJavaInteger } from '../readQuery.js';
import { err, ok, type Result } from '../../../ledger/result.js';
import type { GetUpdateByHashRequest, GetUpdateByIdRequest, GetUpdateByOffsetRequest, UpdateFormat } from '../../../ledger/wire.js';
import type { GetTransactionByIdRequest, GetTransactionByOffsetRequest, GetUpdatesPageRequest } from '../../../ledger/wireReads.js';
import type { RequiredAccess } from '../auth/types.js';
import { jsonResult } from '../ledgerResult.js';
import { defineRoute, type Route } from '../route.js';
import type { Problem } from '../types.js';
import { readersOf } from './readersOf.js';

/** The parties an update format reads for, in all three of its parts. */
export function updateFormatReaders(format: UpdateFormat | undefined): RequiredAccess {
  const parties = (format?.includeTopologyEvents?.includeParticipantAuthorizationEvents?.parties ?? []).filter((p): p is string => typeof p === 'string');
  const readers = readersOf(format?.includeTransactions?.eventFormat, format?.includeReassignments);
  return { ...readers, readAs: [...(readers.readAs ?? []), ...parties] };
}

/** Legacy lookups read as their requesting parties, or as the parties of their format. */
const legacyReaders = (body: { requestingParties?: string[]; transactionFormat?: { eventFormat?: object } }): RequiredAccess => {
  const readers = readersOf(body.transactionFormat?.eventFormat);
  return { ...readers, readAs: [...(readers.readAs ?? []), ...(body.requestingParties ?? [])] };
};

/** `?parties=a&parties=b` (also comma-separated), the tree lookups' requesting parties. */
function partiesQuery(query: URLSearchParams): string[] {
  return query.getAll('parties').flatMap((p) => p.split(',')).filter((p) => p !== '');
}

/** A Long path parameter as the participant decodes it (`+7` is 7); a negative offset is refused as undecodable here. */
function offsetParam(raw: string | undefined): Result<number, Problem> {
  const v = raw === undefined ? undefined : parseJavaInteger(raw, 'int64');
  if (v === undefined || v < 0n) return err({ kind: 'decode', message: 'Invalid value for: path parameter offset' });
  return ok(Number(v));
}

/** Point reads of the update service (by id, by offset; current and legacy forms) and its pages. */
export const updateLookupRoutes: readonly Route[] = [
  defineRoute<GetUpdateByIdRequest>({
    method: 'POST',
    path: '/v2/updates/update-by-id',
    operationId: 'postV2UpdatesUpdate-by-id',
    group: 'B',
    body: 'json',
    access: ({ body }) => updateFormatReaders(body.updateFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.updateById(body)),
  }),
  defineRoute<GetUpdateByOffsetRequest>({
    method: 'POST',
    path: '/v2/updates/update-by-offset',
    operationId: 'postV2UpdatesUpdate-by-offset',
    group: 'B',
    body: 'json',
    access: ({ body }) => updateFormatReaders(body.updateFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.updateByOffset(body)),
  }),
  // Canton 3.6 (preview): read as the format's parties, like the lookup by id.
  defineRoute<GetUpdateByHashRequest>({
    method: 'POST',
    path: '/v2/updates/update-by-hash',
    operationId: 'postV2UpdatesUpdate-by-hash',
    group: 'B',
    body: 'json',
    access: ({ body }) => updateFormatReaders(body.updateFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.updateByHash(body)),
  }),
  defineRoute<GetTransactionByIdRequest>({
    method: 'POST',
    path: '/v2/updates/transaction-by-id',
    operationId: 'postV2UpdatesTransaction-by-id',
    group: 'B',
    body: 'json',
    access: ({ body }) => legacyReaders(body),
    handle: ({ body, services }) => jsonResult(services.ledger.transactionById(body)),
  }),
  defineRoute<GetTransactionByOffsetRequest>({
    method: 'POST',
    path: '/v2/updates/transaction-by-offset',
    operationId: 'postV2UpdatesTransaction-by-offset',
    group: 'B',
    body: 'json',
    access: ({ body }) => legacyReaders(body),
    handle: ({ body, services }) => jsonResult(services.ledger.transactionByOffset(body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/updates/transaction-tree-by-id/{update-id}',
    operationId: 'getV2UpdatesTransaction-tree-by-idUpdate-id',
    group: 'B',
    body: 'none',
    access: ({ query }) => ({ readAs: partiesQuery(query) }),
    handle: ({ params, query, services }) => jsonResult(services.ledger.transactionTreeById(params['update-id'] ?? '', partiesQuery(query))),
  }),
  defineRoute({
    method: 'GET',
    path: '/v2/updates/transaction-tree-by-offset/{offset}',
    operationId: 'getV2UpdatesTransaction-tree-by-offsetOffset',
    group: 'B',
    body: 'none',
    access: ({ query }) => ({ readAs: partiesQuery(query) }),
    handle: ({ params, query, services }) => {
      const offset = offsetParam(params['offset']);
      return offset.ok ? jsonResult(services.ledger.transactionTreeByOffset(offset.value, partiesQuery(query))) : offset;
    },
  }),
  defineRoute<GetUpdatesPageRequest>({
    method: 'POST',
    path: '/v2/updates/get-updates-page',
    operationId: 'postV2UpdatesGet-updates-page',
    group: 'B',
    body: 'json',
    access: ({ body }) => updateFormatReaders(body.updateFormat),
    handle: ({ body, services }) => jsonResult(services.ledger.updatesPage(body)),
  }),
];
