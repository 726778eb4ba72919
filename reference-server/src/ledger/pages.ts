import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { show } from './values.js';

/** Page tokens are opaque to clients: the last id of the previous page, base64url-encoded. */
export function encodePageToken(lastId: string): string {
  return Buffer.from(`v1:${lastId}`, 'utf8').toString('base64url');
}

export function decodePageToken(token: string | undefined): Result<string | undefined, LedgerError> {
  if (token === undefined || token === null || token === '') return ok(undefined);
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]+$/.test(token)) return fail('INVALID_ARGUMENT', 'Invalid page token');
  const s = Buffer.from(token, 'base64url').toString('utf8');
  if (!s.startsWith('v1:') || s.length === 3) return fail('INVALID_ARGUMENT', 'Invalid page token');
  return ok(s.slice(3));
}

/** 0 or absent: the maximum; above the maximum: the maximum (as a participant does). */
export function pageSizeOf(pageSize: unknown, max: number, negative = 'page_size must be a non-negative integer'): Result<number, LedgerError> {
  if (pageSize === undefined || pageSize === null || pageSize === 0) return ok(max);
  if (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 0) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${negative}`);
  }
  return ok(Math.min(pageSize, max));
}

export function validateAnnotations(annotations: unknown, where: string): Result<Record<string, string>, LedgerError> {
  if (annotations === undefined || annotations === null) return ok({});
  if (typeof annotations !== 'object' || Array.isArray(annotations)) return fail('INVALID_ARGUMENT', `${where}.annotations must be an object`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) {
    if (typeof v !== 'string') return fail('INVALID_ARGUMENT', `${where}.annotations.${k} must be a string`);
    if (!/^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?\/)?[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$/.test(k)) {
      return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: invalid annotation key '${k.slice(0, 80)}'`);
    }
    out[k] = v;
  }
  return checkAnnotationsSize(out, `${where}.annotations`);
}

/** The participant's limit on a resource's annotations: keys and values together, in UTF-8 bytes. */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** Refuses annotations over the limit as the participant does (INVALID_ARGUMENT naming the field). */
export function checkAnnotationsSize(annotations: Record<string, string>, field: string): Result<Record<string, string>, LedgerError> {
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(v, 'utf8');
  if (size <= MAX_ANNOTATIONS_BYTES) return ok(annotations);
  return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: annotations from field '${field}' are larger than the limit of 256kb`, {
    context: { field_name: field },
  });
}

/** Annotations after an update merges `changes` into `current` (an empty value removes its key). */
export function mergeAnnotations(current: Readonly<Record<string, string>>, changes: Readonly<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = { ...current };
  for (const [k, v] of Object.entries(changes)) {
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

/** The default identity provider ("") always exists; others once configured (POST /v2/idps). */
export function checkIdentityProvider(id: unknown, exists: (id: string) => boolean = () => false): Result<string, LedgerError> {
  if (id === undefined || id === null || id === '') return ok('');
  if (typeof id === 'string' && exists(id)) return ok(id);
  return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: Provided identity_provider_id ${show(id)} has not been found.`);
}
