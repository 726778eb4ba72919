import { renderProblem } from './errors/renderProblem.js';
import { groupOfPath } from './groupOfPath.js';
import { handleRoute } from './handleRoute.js';
import { createRouteMatcher, type RouteMatcher } from './matchRoute.js';
import type { Route } from './route.js';
import type { ApiServices } from './services.js';
import type { ApiRequest, ApiResponse } from './types.js';

export type Dispatch = (request: ApiRequest) => Promise<ApiResponse>;

const compiled = new WeakMap<readonly Route[], RouteMatcher<Route>>();

/**
 * The matcher of a route table, compiled on first use and shared by every adapter and every
 * dispatcher over that table (the msw face builds a new dispatcher on each reset).
 */
export function routeMatcherOf(routes: readonly Route[]): RouteMatcher<Route> {
  let match = compiled.get(routes);
  if (match === undefined) compiled.set(routes, (match = createRouteMatcher(routes)));
  return match;
}

/**
 * Routing plus the shared pipeline, for adapters that do not route themselves (msw): one function
 * from request to response. Unknown paths and methods answer in the dialect of the path's group.
 */
export function createDispatcher(routes: readonly Route[], services: ApiServices): Dispatch {
  const match = routeMatcherOf(routes);
  return async (request) => {
    const found = match(request.method, request.path);
    if (found.kind === 'match') {
      return handleRoute(found.route, { ...request, pathParams: found.params }, found.params, services);
    }
    return renderNoRoute(request, found.kind === 'method' ? found.allowed : undefined, services);
  };
}

export function renderNoRoute(request: Pick<ApiRequest, 'method' | 'path'>, allowed: readonly string[] | undefined, services: ApiServices): ApiResponse {
  return renderProblem(
    { kind: 'no-route', method: request.method, path: request.path, ...(allowed === undefined ? {} : { allowed }) },
    groupOfPath(request.path),
    { participantId: services.participantId },
  );
}
