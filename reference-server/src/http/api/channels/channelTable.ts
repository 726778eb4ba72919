import { ok } from '../../../ledger/result.js';
import type { CompletionStreamRequest, GetActiveContractsRequest, GetCompletionsRequest } from '../../../ledger/wire.js';
import { completionReaders, getCompletionsReaders } from '../routes/completionRoutes.js';
import { readersOf } from '../routes/readersOf.js';
import { fromIterable } from './fromIterable.js';
import { legacyUpdateChannels } from './legacyChannels.js';
import { defineChannel, type StreamChannel } from './StreamChannel.js';
import { updatesChannel } from './updatesChannel.js';

/** The WebSocket streams: updates and completions tail the ledger; active contracts end at their offset. */
export const ledgerApiChannels: readonly StreamChannel[] = [
  updatesChannel('/v2/updates', 'postV2Updates', 'updates'),
  defineChannel<CompletionStreamRequest>({
    path: '/v2/commands/completions',
    requestOperationId: 'postV2CommandsCompletions',
    access: completionReaders,
    open: (request, principal, { ledger }, signal) => {
      const withUser = request.userId === undefined && principal.kind === 'user' ? { ...request, userId: principal.userId } : request;
      return ledger.subscribeCompletions(withUser, { signal });
    },
  }),
  defineChannel<GetCompletionsRequest>({
    path: '/v2/commands/command-completions',
    requestOperationId: 'postV2CommandsCommand-completions',
    access: getCompletionsReaders,
    open: (request, _principal, { ledger }, signal) => ledger.subscribeGetCompletions(request, { signal }),
  }),
  defineChannel<GetActiveContractsRequest>({
    path: '/v2/state/active-contracts',
    requestOperationId: 'postV2StateActive-contracts',
    access: (request) => readersOf(request.eventFormat, request.filter),
    open: (request, _principal, { ledger }) => {
      const contracts = ledger.activeContracts(request);
      return contracts.ok ? ok(fromIterable(contracts.value)) : contracts;
    },
  }),
  ...legacyUpdateChannels,
];
