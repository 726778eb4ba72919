import { STATUS_CODES } from 'node:http';
import { jsonArrayChunks } from '../http/api/streams/jsonArrayChunks.js';
import type { ApiResponse } from '../http/api/types.js';

/**
 * Turns an adapter-neutral response into the fetch `Response` msw hands to the caller, with the
 * same status, content type and body bytes the Koa adapter writes. Streams stay streams: the
 * array is produced element by element as the caller reads, and cancelling the read ends it.
 */
export function toFetchResponse(response: ApiResponse, method: string): Response {
  const init = { status: response.status, statusText: STATUS_CODES[response.status] ?? '' };
  // A HEAD answer carries the GET answer's headers and no body, as Node's HTTP server sends it.
  const head = method === 'HEAD';
  switch (response.kind) {
    case 'json':
      return new Response(head ? null : JSON.stringify(response.body), { ...init, headers: { 'content-type': 'application/json' } });
    case 'text':
      return new Response(head ? null : response.body, { ...init, headers: { 'content-type': response.contentType } });
    case 'empty':
      return new Response(null, init);
    case 'bytes':
      return new Response(head ? null : response.body.slice(), { ...init, headers: { ...response.headers, 'content-type': response.contentType } });
    case 'stream':
      return new Response(head ? null : readableOf(jsonArrayChunks(response.elements)), {
        ...init,
        headers: { 'content-type': 'application/json' },
      });
  }
}

/** A pull-driven byte stream over text chunks: nothing is produced before the reader asks. */
function readableOf(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Enqueue something (or close) before returning: a pull that enqueues nothing is not repeated.
        for (;;) {
          const next = await chunks.next();
          if (next.done === true) return controller.close();
          if (next.value !== '') return controller.enqueue(encoder.encode(next.value));
        }
      } catch (e) {
        // Once the status is out an error can only cut the body short, as on the server.
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
