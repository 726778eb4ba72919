import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import { ok } from './result.js';

/**
 * Page tokens of the paged reads (active contracts, updates): the position to resume from and what
 * it was computed for (offset, request fingerprint), as base64url JSON followed by an HMAC over it
 * keyed with the ledger's secret. Clients treat them as opaque; the server refuses any token it did
 * not issue, or one replayed against a different request, with INVALID_ARGUMENT instead of
 * silently answering another query.
 */
const MAC_BYTES = 16;

export function signPageToken(key: Uint8Array, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(key, body)}`;
}

export function verifyPageToken(key: Uint8Array, token: unknown): Result<Record<string, unknown>, LedgerError> {
  const bad = () => fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: Invalid page token', { context: { field_name: 'page_token' } });
  if (typeof token !== 'string' || token.length > 4096) return bad();
  const dot = token.indexOf('.');
  if (dot <= 0 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) return bad();
  const body = token.slice(0, dot);
  const expected = Buffer.from(mac(key, body), 'base64url');
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return bad();
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? ok(payload as Record<string, unknown>) : bad();
  } catch {
    return bad();
  }
}

/** A short digest of a request part (key order ignored), to tie a token to the query it pages. */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 22);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function mac(key: Uint8Array, body: string): string {
  return createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES).toString('base64url');
}
