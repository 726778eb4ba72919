import { isAsync, type ListSource } from './boundList.js';
import { SliceClock } from './sliceClock.js';
import { ViewSettler } from '../../../ledger/pendingViews.js';

/** About the size of a socket write: large enough to amortise syscalls, small enough to stream. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Serialises a stream of elements as one JSON array, in text chunks: the opening bracket leaves at
 * once, elements follow as they come. Adapters write the chunks to their transport. A synchronous
 * source is drained synchronously between chunks (no promise per element), in slices: when one is
 * used up, what is ready leaves and the event loop gets a turn, so other requests are answered
 * while a large array is written. Backpressure is the consumer's: it pulls the next chunk when
 * the socket can take it.
 */
export async function* jsonArrayChunks(elements: ListSource<unknown>, clock: SliceClock = new SliceClock()): AsyncGenerator<string> {
  yield '[';
  let chunk = '';
  let first = true;
  // Interface views of uploaded code, rendered as each element is pulled, are evaluated before it is written.
  const views = new ViewSettler();
  if (isAsync(elements)) {
    for await (const element of elements) {
      if (views.due()) await views.settle();
      chunk += (first ? '' : ',') + JSON.stringify(element);
      first = false;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
      if (clock.due()) {
        await clock.pause();
        views.skip();
      }
    }
  } else {
    for (const element of elements) {
      if (views.due()) {
        // Evaluating the views yields the event loop anyway: what is ready leaves first.
        if (chunk !== '') yield chunk;
        chunk = '';
        if (views.due()) await views.settle();
      }
      chunk += (first ? '' : ',') + JSON.stringify(element);
      first = false;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
      if (clock.due()) {
        if (chunk !== '') yield chunk;
        chunk = '';
        await clock.pause();
        views.skip();
      }
    }
  }
  yield chunk + ']';
}
