import type { CompletionStreamRequest, GetCompletionByHashRequest, GetCompletionsRequest } from '../../../ledger/wire.js';
import { jsonResult } from '../ledgerResult.js';
import type { RequiredAccess } from '../auth/types.js';
import { defineRoute, type Route } from '../route.js';
import { readListParams } from '../streams/listParams.js';
import { listResult } from '../streams/listResult.js';
import { tailUntilIdle } from '../streams/tailUntilIdle.js';

/** Who may read a completion stream: a reader of every party, and its own user unless admin. */
export function completionReaders(body: CompletionStreamRequest) {
  return { readAs: body.parties, ...(body.userId === undefined ? {} : { self: body.userId }) };
}

/**
 * Who may read GetCompletions (Canton 3.5.7+, `RequiredClaims.readAsForAllPartiesOrAnyPartyIfEmpty`):
 * a reader of every named party, or read-as-any-party when it names none. It names no user, so
 * there is no user match.
 */
export function getCompletionsReaders(body: GetCompletionsRequest): RequiredAccess {
  const parties = Array.isArray(body.parties) ? body.parties.filter((p): p is string => typeof p === 'string') : [];
  return parties.length === 0 ? { readAsAnyParty: true } : { readAs: parties };
}

/** Completions as a list: the stream never ends by itself, so it answers once it goes quiet. */
export const completionRoutes: readonly Route[] = [
  defineRoute<CompletionStreamRequest>({
    method: 'POST',
    path: '/v2/commands/completions',
    operationId: 'postV2CommandsCompletions',
    group: 'B',
    body: 'json',
    access: ({ body }) => completionReaders(body),
    handle: async ({ body, query, principal, services }) => {
      const params = readListParams(query, services.config);
      if (!params.ok) return params;
      const { ledger } = services;
      const request = body.userId === undefined && principal.kind === 'user' ? { ...body, userId: principal.userId } : body;
      const open = () => tailUntilIdle((signal) => ledger.subscribeCompletions(request, { signal }), params.value.idleTimeoutMs);
      return listResult(open, { limit: params.value.limit, max: ledger.config.listMaxElements });
    },
  }),
  defineRoute<GetCompletionsRequest>({
    method: 'POST',
    path: '/v2/commands/command-completions',
    operationId: 'postV2CommandsCommand-completions',
    group: 'B',
    body: 'json',
    access: ({ body }) => getCompletionsReaders(body),
    handle: async ({ body, query, services }) => {
      const params = readListParams(query, services.config);
      if (!params.ok) return params;
      const { ledger } = services;
      const open = () => tailUntilIdle((signal) => ledger.subscribeGetCompletions(body, { signal }), params.value.idleTimeoutMs);
      return listResult(open, { limit: params.value.limit, max: ledger.config.listMaxElements });
    },
  }),
  // Canton 3.6 (preview). Any caller may ask; the answer holds only what its parties see (Canton's MatchReadAsParties).
  defineRoute<GetCompletionByHashRequest>({
    method: 'POST',
    path: '/v2/commands/completion-by-hash',
    operationId: 'postV2CommandsCompletion-by-hash',
    group: 'B',
    body: 'json',
    handle: ({ body, principal, services }) =>
      jsonResult(services.ledger.completionByHash(body, principal.kind === 'wildcard' ? 'all' : services.ledger.readerScopeOf(principal.userId))),
  }),
];
