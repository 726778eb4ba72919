import Koa from 'koa';
import { renderNoRoute, routeMatcherOf } from '../api/createDispatcher.js';
import { renderProblem } from '../api/errors/renderProblem.js';
import { groupOfPath } from '../api/groupOfPath.js';
import { handleRoute } from '../api/handleRoute.js';
import type { Route } from '../api/route.js';
import type { ApiServices } from '../api/services.js';
import type { ApiResponse } from '../api/types.js';
import { readBody } from './readBody.js';
import { toApiRequest } from './toApiRequest.js';
import { writeApiResponse } from './writeApiResponse.js';

/**
 * The Koa face of the route table: one middleware routes with the table's compiled matcher (the
 * one the msw face uses), reads bodies with the configured limit and hands the request to the
 * shared pipeline (`handleRoute`); anything that escapes it is the last resort's INTERNAL_ERROR.
 * Routing decisions and rendering are shared, so this file only translates.
 */
export function createKoaApp(routes: readonly Route[], services: ApiServices): Koa {
  const app = new Koa();
  // Errors are rendered and logged by us; Koa's default would print stack traces to stderr.
  app.silent = true;
  const match = routeMatcherOf(routes);

  app.use(async (ctx) => {
    try {
      // Clients with a trailing slash in their base URL ask for `//v2/...`: the matcher routes
      // them as `/v2/...`, and `found.path` is that form.
      const found = match(ctx.method, ctx.path);
      if (found.kind !== 'match') {
        write(ctx, renderNoRoute({ method: ctx.method, path: found.path }, found.kind === 'method' ? found.allowed : undefined, services));
        return;
      }
      const { route, params, path } = found;
      let bodyText: string | undefined;
      let bodyBytes: Uint8Array | undefined;
      if (route.body !== 'none') {
        const binary = route.body === 'binary';
        const limit = binary ? services.config.maxUploadBodyBytes : services.config.maxRequestBodyBytes;
        const read = await readBody(ctx.req, limit, binary ? 'bytes' : 'text');
        if (!read.ok && !read.tooLarge) return;
        if (!read.ok) {
          ctx.set('Connection', 'close');
          write(ctx, renderProblem({ kind: 'body-too-large', limit }, route.group, { participantId: services.participantId }));
          return;
        }
        bodyText = read.text;
        bodyBytes = read.bytes;
      }
      write(ctx, await handleRoute(route, toApiRequest(ctx, path, params, bodyText, bodyBytes), params, services));
    } catch (e) {
      services.log.error(`${ctx.method} ${ctx.path} failed outside its handler`, e);
      if (ctx.headerSent) return;
      write(ctx, renderProblem({ kind: 'internal' }, groupOfPath(ctx.path), { participantId: services.participantId }));
    }
  });

  function write(ctx: Koa.Context, response: ApiResponse): void {
    writeApiResponse(ctx, response, (e) => services.log.error(`${ctx.method} ${ctx.path}: stream failed after the first byte`, e));
  }
  return app;
}
