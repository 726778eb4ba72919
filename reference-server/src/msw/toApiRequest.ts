import { normalizePath } from '../http/api/normalizePath.js';
import type { ApiRequest } from '../http/api/types.js';

/**
 * The adapter-neutral view of an intercepted fetch request, as the Koa adapter builds it from a
 * socket: raw (still percent-encoded) path with runs of slashes collapsed, lower-case headers,
 * the body as text (undefined when there is none).
 */
export async function toApiRequest(request: Request, path: string, search: string): Promise<ApiRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // fetch refuses a body on GET and HEAD, so there is nothing to read; elsewhere an empty body is none.
  // Bytes first: a binary upload (a DAR) must reach its route undecoded.
  const bytes = request.method === 'GET' || request.method === 'HEAD' ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
  const text = bytes.length === 0 ? '' : new TextDecoder().decode(bytes);
  return {
    method: request.method,
    path: normalizePath(path),
    pathParams: {},
    query: new URLSearchParams(search),
    headers,
    bodyText: text === '' ? undefined : text,
    ...(bytes.length === 0 ? {} : { bodyBytes: bytes }),
  };
}
