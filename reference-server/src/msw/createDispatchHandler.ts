import { http, type HttpHandler } from 'msw';
import type { Dispatch } from '../http/api/createDispatcher.js';
import { pathUnder, type BaseUrl } from './baseUrl.js';
import { toApiRequest } from './toApiRequest.js';
import { toFetchResponse } from './toFetchResponse.js';

/**
 * One msw handler for every operation under a base URL. msw tries its handlers one by one, so a
 * handler per route would make each request pay for all the routes before it; here the predicate
 * is one string comparison and the shared dispatcher finds the route.
 */
export function createDispatchHandler(base: BaseUrl, dispatch: () => Dispatch): HttpHandler {
  return http.all(
    ({ request }) => pathUnder(base, request.url) !== undefined,
    async ({ request }) => {
      const url = new URL(request.url);
      const path = pathUnder(base, url.origin + url.pathname) ?? '/';
      const response = await dispatch()(await toApiRequest(request, path, url.search));
      return toFetchResponse(response, request.method);
    },
  );
}
