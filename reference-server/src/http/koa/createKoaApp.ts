import Router from '@koa/router';
import Koa from 'koa';
import { renderNoRoute } from '../api/createDispatcher.js';
import { renderProblem } from '../api/errors/renderProblem.js';
import { groupOfPath } from '../api/groupOfPath.js';
import { handleRoute } from '../api/handleRoute.js';
import { createRouteMatcher } from '../api/matchRoute.js';
import { normalizePath } from '../api/normalizePath.js';
import type { Route } from '../api/route.js';
import type { ApiServices } from '../api/services.js';
import type { ApiResponse } from '../api/types.js';
import { readBody } from './readBody.js';
import { toApiRequest } from './toApiRequest.js';
import { writeApiResponse } from './writeApiResponse.js';

/**
 * The Koa face of the route table: every route mounted on @koa/router, bodies read with the
 * configured limit, one error middleware as the last resort. Routing decisions and rendering are
 * the shared pipeline's (`handleRoute`), so this file only translates.
 */
export function createKoaApp(routes: readonly Route[], services: ApiServices): Koa {
  const app = new Koa();
  // Errors are rendered and logged by us; Koa's default would print stack traces to stderr.
  app.silent = true;
  const router = new Router();
  const match = createRouteMatcher(routes);

  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      services.log.error(`${ctx.method} ${ctx.path} failed outside its handler`, e);
      if (ctx.headerSent) return;
      write(ctx, renderProblem({ kind: 'internal' }, groupOfPath(ctx.path), { participantId: services.participantId }));
    }
  });

  // Clients with a trailing slash in their base URL ask for `//v2/...`; route them as `/v2/...`.
  app.use(async (ctx, next) => {
    const normalized = normalizePath(ctx.path);
    if (normalized !== ctx.path) ctx.path = normalized;
    await next();
  });

  // Static paths first: @koa/router runs matching layers in order, and `/v2/parties/participant-id`
  // must not be taken for `/v2/parties/{party}`.
  const ordered = [...routes].sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  for (const route of ordered) {
    const { koaPath, names } = toKoaPath(route.path);
    router.register(koaPath, [route.method], async (ctx) => {
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = ctx.params[`p${i}`] ?? '';
      });
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
      write(ctx, await handleRoute(route, toApiRequest(ctx, params, bodyText, bodyBytes), params, services));
    });
  }
  app.use(router.routes());

  app.use((ctx) => {
    const found = match(ctx.method, ctx.path);
    write(ctx, renderNoRoute(ctx, found.kind === 'method' ? found.allowed : undefined, services));
  });

  function write(ctx: Koa.Context, response: ApiResponse): void {
    writeApiResponse(ctx, response, (e) => services.log.error(`${ctx.method} ${ctx.path}: stream failed after the first byte`, e));
  }
  return app;
}

/**
 * `/v2/users/{user-id}` -> `/v2/users/:p0`: positional names, because path-to-regexp reads a dash
 * as the end of a parameter name.
 */
function toKoaPath(template: string): { koaPath: string; names: string[] } {
  const names: string[] = [];
  const koaPath = template.replace(/\{([^}]+)\}/g, (_m, name: string) => `:p${names.push(name) - 1}`);
  return { koaPath, names };
}
