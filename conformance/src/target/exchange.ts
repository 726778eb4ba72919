import type { Group } from '../checks/types.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How to authenticate one request. */
export type AuthMode =
  /** The run's configured credentials (none when the profile has none). */
  | 'default'
  /** No Authorization header at all. */
  | 'none'
  /** This exact token (auth checks); `show` prints it in evidence, e.g. a deliberately bogus one. */
  | { readonly token: string; readonly show?: boolean };

export interface RequestSpec {
  readonly method: HttpMethod;
  /** Path below the group's base URL, already percent-encoded, e.g. `/v2/users/alice%3A%3A1220`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** JSON body (serialised with JSON.stringify). */
  readonly json?: unknown;
  /** Raw body text, sent as is (malformed-input checks). Wins over `json`. */
  readonly body?: string;
  /** A binary body (a DAR upload), sent as is. Wins over `body` and `json`; Content-Type defaults to application/octet-stream. */
  readonly bytes?: Uint8Array;
  /** Content-Type to send with a body; `null` sends none. Defaults to application/json. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  readonly auth?: AuthMode;
  /** Operation the request belongs to, when the caller knows better than path matching. */
  readonly operationId?: string;
  /**
   * Part of this request a conformant server may leave unread (an unknown member, a page size
   * without a bound, choice arguments left to the Daml choice), and why: the reference's answer
   * does not decide it, so the oracle leaves this request alone; the check that sends it judges
   * the answer against the target's own answer without that part.
   */
  readonly unreadInput?: string;
}

export interface RecordedRequest {
  readonly method: HttpMethod;
  readonly url: string;
  /** Headers as sent; bearer tokens replaced by `$TOKEN` unless shown on purpose. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** A binary body, base64-encoded (the curl line decodes it again). */
  readonly bodyBase64?: string;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Media type without parameters, lower case (`application/json`), or '' when absent. */
  readonly contentType: string;
  /** The body as text, at most `maxBodyBytes` of it. */
  readonly text: string;
  /** The target sent more than `maxBodyBytes`; only the start was read. */
  readonly truncated: boolean;
  /** Bytes read. */
  readonly size: number;
  /** Hex SHA-256 of the bytes read, for binary (`application/octet-stream`) bodies, whose text is lossy. */
  readonly sha256?: string;
  /** The bytes read, for binary bodies (a package); never part of report evidence. */
  readonly bytes?: Uint8Array;
}

/** Why a request got no (complete) response. */
export type TransportErrorKind = 'timeout' | 'refused' | 'reset' | 'aborted-body' | 'dns' | 'other';

export interface TransportError {
  readonly kind: TransportErrorKind;
  readonly message: string;
}

/** One request and what came back: the unit of evidence in reports. */
export interface Exchange {
  readonly seq: number;
  readonly group: Group;
  readonly operationId: string | undefined;
  /** The path below the group's base URL, without query (what specs/ describe). */
  readonly path: string;
  readonly request: RecordedRequest;
  readonly response?: RecordedResponse;
  readonly error?: TransportError;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly curl: string;
  /** A WebSocket session (the response body is its frames, one per line). */
  readonly websocket?: boolean;
  /** The check that made it (observers attribute findings). */
  readonly checkId: string;
  /** The statuses of the refusals (429/503 with Retry-After) the target answered before this, the same request repeated. */
  readonly refusedBefore?: readonly number[];
}

/** Parsed JSON of a response, or why it is not JSON. */
export type JsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

export function jsonOf(exchange: Exchange): JsonBody {
  const r = exchange.response;
  if (r === undefined) return { ok: false, reason: exchange.error?.message ?? 'no response' };
  if (r.truncated) return { ok: false, reason: `body larger than the suite reads (${r.size}+ bytes), not parsed` };
  if (r.text.length === 0) return { ok: false, reason: 'empty body' };
  try {
    return { ok: true, value: JSON.parse(r.text) as unknown };
  } catch (e) {
    return { ok: false, reason: `body is not JSON (${(e as Error).message})` };
  }
}
