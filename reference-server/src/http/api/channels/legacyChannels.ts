import { ok } from '../../../ledger/result.js';
import type { GetUpdatesRequest } from '../../../ledger/wire.js';
import { updatesReaders } from '../routes/updateRoutes.js';
import { defineChannel, type StreamChannel } from './StreamChannel.js';

async function* fromIterable<T>(source: Iterable<T>): AsyncGenerator<T> {
  yield* source;
}

/**
 * The deprecated WebSocket streams Canton 3.5 still serves: flats (the updates stream under its
 * old name) and trees (ledger-effects transactions as trees, legacy filter only). Same request
 * frame, rights and tailing as `/v2/updates`.
 */
export const legacyUpdateChannels: readonly StreamChannel[] = [
  defineChannel<GetUpdatesRequest>({
    path: '/v2/updates/flats',
    requestOperationId: 'postV2UpdatesFlats',
    access: updatesReaders,
    open: (request, _principal, { ledger }, signal) => {
      if (request.endInclusive !== undefined) {
        const finite = ledger.updates(request);
        return finite.ok ? ok(fromIterable(finite.value)) : finite;
      }
      return ledger.subscribeUpdates(request, { signal });
    },
  }),
  defineChannel<GetUpdatesRequest>({
    path: '/v2/updates/trees',
    requestOperationId: 'postV2UpdatesTrees',
    access: updatesReaders,
    open: (request, _principal, { ledger }, signal) => {
      if (request.endInclusive !== undefined) {
        const finite = ledger.updateTrees(request);
        return finite.ok ? ok(fromIterable(finite.value)) : finite;
      }
      return ledger.subscribeUpdateTrees(request, { signal });
    },
  }),
];
