import { isAsync, type ListSource } from './boundList.js';

/** About the size of a socket write: large enough to amortise syscalls, small enough to stream. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Serialises a stream of elements as one JSON array, in text chunks: the opening bracket leaves at
 * once, elements follow as they come. Adapters write the chunks to their transport. A synchronous
 * source is drained synchronously between chunks (no promise per element).
 */
export async function* jsonArrayChunks(elements: ListSource<unknown>): AsyncGenerator<string> {
  yield '[';
  let chunk = '';
  let first = true;
  if (isAsync(elements)) {
    for await (const element of elements) {
      chunk += (first ? '' : ',') + JSON.stringify(element);
      first = false;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
  } else {
    for (const element of elements) {
      chunk += (first ? '' : ',') + JSON.stringify(element);
      first = false;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
  }
  yield chunk + ']';
}
