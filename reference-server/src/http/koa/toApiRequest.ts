import type { Context } from 'koa';
import type { ApiRequest } from '../api/types.js';
import { flattenHeaders } from './flattenHeaders.js';

/**
 * The adapter-neutral view of a Koa request (header names are already lower case in Node);
 * `path` is the path as routed (doubled slashes collapsed).
 */
export function toApiRequest(ctx: Context, path: string, pathParams: Readonly<Record<string, string>>, bodyText: string | undefined, bodyBytes?: Uint8Array): ApiRequest {
  return {
    method: ctx.method,
    path,
    pathParams,
    query: new URLSearchParams(ctx.querystring),
    headers: flattenHeaders(ctx.req.headers),
    bodyText,
    ...(bodyBytes === undefined ? {} : { bodyBytes }),
  };
}
