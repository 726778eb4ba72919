import type { BytesResponse, EmptyResponse, JsonResponse, JsonStreamResponse, TextResponse } from './types.js';

/** A JSON body. Success bodies are never empty: callers answer `{}` where there is nothing to say. */
export const jsonResponse = (body: unknown, status = 200): JsonResponse => ({ kind: 'json', status, body });

export const textResponse = (body: string, contentType = 'text/plain; charset=UTF-8', status = 200): TextResponse => ({
  kind: 'text',
  status,
  contentType,
  body,
});

export const jsonStreamResponse = (elements: Iterable<unknown> | AsyncIterable<unknown>, status = 200): JsonStreamResponse => ({
  kind: 'stream',
  status,
  elements,
});

export const emptyResponse = (status = 200): EmptyResponse => ({ kind: 'empty', status });

export const bytesResponse = (body: Uint8Array, headers: Readonly<Record<string, string>> = {}, contentType = 'application/octet-stream', status = 200): BytesResponse => ({
  kind: 'bytes',
  status,
  contentType,
  headers,
  body,
});
