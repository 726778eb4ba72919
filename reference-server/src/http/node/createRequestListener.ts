import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:url';
import { renderNoRoute, routeMatcherOf } from '../api/createDispatcher.js';
import { renderProblem } from '../api/errors/renderProblem.js';
import { groupOfPath } from '../api/groupOfPath.js';
import { handleRoute } from '../api/handleRoute.js';
import type { Route } from '../api/route.js';
import type { ApiServices } from '../api/services.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { flattenHeaders } from './flattenHeaders.js';
import { readBody } from './readBody.js';
import { writeNodeResponse } from './writeNodeResponse.js';

/**
 * The Node face of the route table: routes with the table's compiled matcher (the one the msw face
 * uses), reads bodies with the configured limit and hands the request to the shared pipeline
 * (`handleRoute`); anything that escapes it is the last resort's INTERNAL_ERROR. Routing decisions
 * and rendering are shared, so this file only translates. It answers as the Koa app it replaced
 * did (status line, headers, bodies, HEAD), without Koa's per-request context, middleware chain
 * and finish listeners: about 30 us of CPU a request on this path.
 */
export function createRequestListener(routes: readonly Route[], services: ApiServices): (req: IncomingMessage, res: ServerResponse) => void {
  const match = routeMatcherOf(routes);
  const failed = (method: string, path: string) => (e: unknown) => services.log.error(`${method} ${path}: stream failed after the first byte`, e);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = requestTarget(req.url ?? '/');
    try {
      // Clients with a trailing slash in their base URL ask for `//v2/...`: the matcher routes
      // them as `/v2/...`, and `found.path` is that form.
      const found = match(method, target.path);
      if (found.kind !== 'match') {
        writeNodeResponse(req, res, renderNoRoute({ method, path: found.path }, found.kind === 'method' ? found.allowed : undefined, services), failed(method, target.path));
        return;
      }
      const { route, params, path } = found;
      let bodyText: string | undefined;
      let bodyBytes: Uint8Array | undefined;
      if (route.body !== 'none') {
        const binary = route.body === 'binary';
        const limit = binary ? services.config.maxUploadBodyBytes : services.config.maxRequestBodyBytes;
        const read = await readBody(req, limit, binary ? 'bytes' : 'text');
        // The client left mid-body; Koa answered such a request with its default 404 (to no one, as a rule).
        if (!read.ok && !read.tooLarge) return writeNodeResponse(req, res, NOT_FOUND, failed(method, target.path));
        if (!read.ok) {
          res.setHeader('Connection', 'close');
          writeNodeResponse(req, res, renderProblem({ kind: 'body-too-large', limit }, route.group, { participantId: services.participantId }), failed(method, target.path));
          return;
        }
        bodyText = read.text;
        bodyBytes = read.bytes;
      }
      const request: ApiRequest = {
        method,
        path,
        pathParams: params,
        query: new URLSearchParams(target.query),
        headers: flattenHeaders(req.headers),
        bodyText,
        ...(bodyBytes === undefined ? {} : { bodyBytes }),
      };
      writeNodeResponse(req, res, await handleRoute(route, request, params, services), failed(method, target.path));
    } catch (e) {
      services.log.error(`${method} ${target.path} failed outside its handler`, e);
      if (res.headersSent) return;
      writeNodeResponse(req, res, renderProblem({ kind: 'internal' }, groupOfPath(target.path), { participantId: services.participantId }), failed(method, target.path));
    }
  }
  return (req, res) => void serve(req, res);
}

const NOT_FOUND: ApiResponse = { kind: 'text', status: 404, contentType: 'text/plain; charset=utf-8', body: 'Not Found' };

/**
 * The path (still percent-encoded) and query string of a request target, as Koa read them
 * (`parseurl`): an origin-form target without a fragment or white space is split at its first `?`;
 * anything else (absolute form, a `#`) goes through Node's legacy URL parser.
 */
export function requestTarget(url: string): { path: string; query: string } {
  if (url.charCodeAt(0) === 0x2f /* / */ && !/[#\s\u00a0\ufeff]/.test(url)) {
    const q = url.indexOf('?');
    return q < 0 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
  }
  const parsed = parse(url);
  return { path: parsed.pathname ?? '', query: parsed.query ?? '' };
}
