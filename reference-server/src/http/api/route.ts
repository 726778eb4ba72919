import type { Result } from '../../ledger/result.js';
import type { RequiredAccess, Principal } from './auth/types.js';
import type { ApiServices } from './services.js';
import type { ApiRequest, ApiResponse, HttpMethod, Problem, RouteGroup } from './types.js';

/** What a handler receives: the request, its decoded (and schema-checked) body, the caller. */
export interface RouteInput<Body> {
  readonly request: ApiRequest;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: Body;
  readonly principal: Principal;
  readonly services: ApiServices;
}

export interface AccessInput<Body> {
  readonly body: Body;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
}

export type RouteResult = Result<ApiResponse, Problem>;

/** One operation of the API: the unit the route table, both adapters and the docs are built from. */
export interface Route<Body = unknown> {
  readonly method: HttpMethod;
  /** OpenAPI path template, e.g. `/v2/users/{user-id}`. */
  readonly path: string;
  readonly operationId: string;
  readonly group: RouteGroup;
  /**
   * `json`: a JSON body is required; `json-optional`: a JSON body if any (absent reads as `{}`);
   * `binary`: raw bytes are required (uploads, under their own size limit); `none`: any body is ignored.
   */
  readonly body: 'json' | 'json-optional' | 'binary' | 'none';
  /** The rights the caller needs, read off the request; omitted means any authenticated caller. */
  readonly access?: (request: AccessInput<Body>) => RequiredAccess | Promise<RequiredAccess>;
  /** Skip authentication entirely (health probes and the published documents). */
  readonly public?: boolean;
  readonly handle: (input: RouteInput<Body>) => RouteResult | Promise<RouteResult>;
}

/**
 * Declares a route with a typed body. The type is a promise the validator keeps: bodies reach the
 * handler only after they matched the operation's request schema.
 */
export function defineRoute<Body = undefined>(route: Route<Body>): Route {
  return route as unknown as Route;
}
