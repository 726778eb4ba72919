/** About the size of a socket write: large enough to amortise syscalls, small enough to stream. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Serialises a stream of elements as one JSON array, in text chunks: the opening bracket leaves at
 * once, elements follow as they come. Adapters write the chunks to their transport.
 */
export async function* jsonArrayChunks(elements: AsyncIterable<unknown>): AsyncGenerator<string> {
  let chunk = '[';
  let first = true;
  yield chunk;
  chunk = '';
  for await (const element of elements) {
    chunk += (first ? '' : ',') + JSON.stringify(element);
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + ']';
}
