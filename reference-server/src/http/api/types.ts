/**
 * The framework-neutral request/response model. Koa and msw adapters translate to and from these
 * shapes; everything between (routing, decoding, auth, errors) is shared, so both adapters answer
 * byte for byte the same.
 */
import type { LedgerError } from '../../ledger/errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  readonly method: string;
  /** Raw path as received, still percent-encoded (no query string). */
  readonly path: string;
  /** Path parameters, percent-decoded; filled in by routing. */
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body as text; undefined when the request had none. */
  readonly bodyText: string | undefined;
  /** The body as bytes, for routes that take a binary upload (`application/octet-stream`). */
  readonly bodyBytes?: Uint8Array;
}

export interface JsonResponse {
  readonly kind: 'json';
  readonly status: number;
  readonly body: unknown;
}

export interface TextResponse {
  readonly kind: 'text';
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * A JSON array written element by element, so the first byte leaves before the last is known.
 * Elements come from a synchronous iterable (the ledger's lazy lists) or an asynchronous one
 * (tailing subscriptions).
 */
export interface JsonStreamResponse {
  readonly kind: 'stream';
  readonly status: number;
  readonly elements: Iterable<unknown> | AsyncIterable<unknown>;
}

/** Raw bytes (a package's archive), with extra headers. */
export interface BytesResponse {
  readonly kind: 'bytes';
  readonly status: number;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** A status without a body (the health probes, whose spec declares no content). */
export interface EmptyResponse {
  readonly kind: 'empty';
  readonly status: number;
}

export type ApiResponse = JsonResponse | TextResponse | JsonStreamResponse | EmptyResponse | BytesResponse;

/**
 * Endpoint groups differ in how they render errors: B (the Ledger API) answers JsCantonError,
 * A (registry) and C (scan) answer `{"error": "..."}`.
 */
export type RouteGroup = 'A' | 'B' | 'C';

/**
 * Why a request did not reach its handler or was refused by it. Rendered in exactly one place
 * (`renderProblem`) according to the route's group.
 */
export type Problem =
  /** The body, path or query could not be decoded into the expected shape: 400 text/plain. */
  | { readonly kind: 'decode'; readonly message: string }
  /** A refusal from the ledger or from request validation: status from the gRPC code. */
  | { readonly kind: 'ledger'; readonly error: LedgerError }
  /** The request body exceeds the configured limit: 413. */
  | { readonly kind: 'body-too-large'; readonly limit: number }
  /** A list result exceeds `http-list-max-elements-limit`: 413. */
  | { readonly kind: 'list-too-large'; readonly limit: number }
  /** No route for this path (404) or not for this method (405). */
  | { readonly kind: 'no-route'; readonly method: string; readonly path: string; readonly allowed?: readonly string[] }
  /** Anything unexpected: rendered without details, logged. */
  | { readonly kind: 'internal' };
