import { TransportFailure } from '../outcomes.js';
import type { CheckContext } from '../types.js';
import { jsonOf, type Exchange, type RecordedResponse } from '../../target/exchange.js';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The start of a body, for messages. */
export function snippet(e: Exchange, n = 160): string {
  const t = e.response?.text ?? '';
  const one = t.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one || '(empty body)';
}

/** The response, or the check ends as `error` with the transport problem as evidence. */
export function responseOf(e: Exchange): RecordedResponse {
  if (e.response) return e.response;
  throw new TransportFailure(`${e.request.method} ${e.path}: ${e.error?.message ?? 'no response'}`, e);
}

/** Fails unless the status is one of `expected`; any 5xx is called out (never acceptable for input). */
export function expectStatus(ctx: CheckContext, e: Exchange, expected: number | readonly number[], what: string): RecordedResponse {
  const r = responseOf(e);
  const want = typeof expected === 'number' ? [expected] : expected;
  if (!want.includes(r.status)) {
    const server = r.status >= 500 ? ' (a server error: bad input must never cause one)' : '';
    ctx.fail(`${what}: expected HTTP ${want.join(' or ')}, got ${r.status}${server}: ${snippet(e)}`, e);
  }
  return r;
}

/** The parsed JSON body, or a failure saying why it is not JSON. */
export function bodyOf(ctx: CheckContext, e: Exchange, what: string): unknown {
  responseOf(e);
  const j = jsonOf(e);
  if (!j.ok) ctx.fail(`${what}: ${j.reason}: ${snippet(e)}`, e);
  return j.value;
}

export function objectBody(ctx: CheckContext, e: Exchange, what: string): Json {
  const v = bodyOf(ctx, e, what);
  if (!isObject(v)) ctx.fail(`${what}: the body is not a JSON object: ${snippet(e)}`, e);
  return v;
}

/** Groups A and C: `{"error": "<non-empty string>"}`. */
export function expectErrorResponse(ctx: CheckContext, e: Exchange, what: string): string {
  const body = objectBody(ctx, e, `${what} (error body)`);
  if (typeof body.error !== 'string' || body.error.trim() === '') {
    ctx.fail(`${what}: the error body must be {"error": "<message>"} (ErrorResponse), got ${snippet(e)}`, e);
  }
  return body.error;
}

export interface CantonError {
  readonly code: string;
  readonly cause: string;
  readonly errorCategory: number;
  readonly grpcCodeValue?: number;
}

/** Group B: a JsCantonError (code, cause, context, errorCategory), optionally with one of `codes`. */
export function expectCantonError(ctx: CheckContext, e: Exchange, what: string, codes?: readonly string[]): CantonError {
  const body = objectBody(ctx, e, `${what} (JsCantonError body)`);
  const missing = ['code', 'cause', 'context', 'errorCategory'].filter((k) => body[k] === undefined || body[k] === null);
  if (missing.length > 0) ctx.fail(`${what}: the error body is not a JsCantonError (missing ${missing.join(', ')}): ${snippet(e)}`, e);
  if (typeof body.code !== 'string' || typeof body.cause !== 'string' || typeof body.errorCategory !== 'number' || !isObject(body.context)) {
    ctx.fail(`${what}: JsCantonError fields have the wrong types (code and cause strings, context an object, errorCategory an integer): ${snippet(e)}`, e);
  }
  if (body.grpcCodeValue !== undefined && body.grpcCodeValue !== null && !Number.isInteger(body.grpcCodeValue)) {
    ctx.fail(`${what}: grpcCodeValue must be an integer: ${snippet(e)}`, e);
  }
  if (codes && !codes.includes(body.code)) ctx.fail(`${what}: expected error code ${codes.join(' or ')}, got ${body.code}: ${String(body.cause).slice(0, 160)}`, e);
  return body as unknown as CantonError;
}

/** A rejected request in group B: the documented status and either a text/plain reason (decoding) or a JsCantonError. */
export function expectRejected(ctx: CheckContext, e: Exchange, status: number, what: string): void {
  const r = expectStatus(ctx, e, status, what);
  if (r.contentType === 'text/plain') {
    if (r.text.trim() === '') ctx.fail(`${what}: a text/plain rejection must say what is wrong (empty body)`, e);
    return;
  }
  expectCantonError(ctx, e, what);
}

/** Deep equality of JSON values, ignoring object key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The first JSON pointer where two values differ (for messages), or undefined when equal. */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (jsonEqual(a, b)) return undefined;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (d !== undefined) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${at} (length ${a.length} vs ${b.length})`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${at}/${i}`);
      if (d !== undefined) return d;
    }
  }
  return at || '/';
}

export const isBase64 = (s: unknown): s is string => typeof s === 'string' && s.length > 0 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(s);

/** `Module:Entity` of a template id in either form (`pkgId:M:E` or `#pkg-name:M:E`). */
export function qualifiedName(templateId: string): string {
  const parts = templateId.split(':');
  return parts.length >= 3 ? parts.slice(1).join(':') : templateId;
}
