import { ok } from '../../../ledger/result.js';
import type { GetUpdatesRequest } from '../../../ledger/wire.js';
import { updatesReaders } from '../routes/updatesReaders.js';
import { fromIterable } from './fromIterable.js';
import { defineChannel, type StreamChannel } from './StreamChannel.js';

/**
 * An update stream over WebSocket (`/v2/updates` and the deprecated flats/trees): a closed range
 * sends what is committed and ends; an open one tails the ledger.
 */
export function updatesChannel(path: string, requestOperationId: string, reads: 'updates' | 'trees'): StreamChannel {
  return defineChannel<GetUpdatesRequest>({
    path,
    requestOperationId,
    access: updatesReaders,
    open: (request, _principal, { ledger }, signal) => {
      if (request.endInclusive !== undefined) {
        const finite = reads === 'updates' ? ledger.updates(request) : ledger.updateTrees(request);
        return finite.ok ? ok(fromIterable<unknown>(finite.value)) : finite;
      }
      return reads === 'updates' ? ledger.subscribeUpdates(request, { signal }) : ledger.subscribeUpdateTrees(request, { signal });
    },
  });
}
