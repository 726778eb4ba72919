import type { LedgerError, Result } from '../../ledger/index.js';
import { fail, ok } from '../../ledger/index.js';
import type { GetChoiceContextRequest } from './types.js';

const invalid = (what: string) => fail('INVALID_ARGUMENT', `Invalid request body: ${what}`);

/**
 * Reads a GetChoiceContextRequest: an object whose optional `meta` maps text to text and whose
 * optional `excludeDebugFields` is a boolean. Members the schema does not name are ignored, as
 * upstream's decoder ignores them; null stands for absent.
 */
export function parseChoiceContextRequest(body: unknown): Result<GetChoiceContextRequest, LedgerError> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return invalid(`expected a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`);
  }
  const { meta, excludeDebugFields } = body as Record<string, unknown>;
  if (excludeDebugFields !== undefined && excludeDebugFields !== null && typeof excludeDebugFields !== 'boolean') {
    return invalid(`excludeDebugFields must be a boolean, got ${JSON.stringify(excludeDebugFields).slice(0, 40)}`);
  }
  const out: Record<string, string> = {};
  if (meta !== undefined && meta !== null) {
    if (typeof meta !== 'object' || Array.isArray(meta)) return invalid('meta must be an object mapping keys to strings');
    for (const [k, v] of Object.entries(meta)) {
      if (typeof v !== 'string') return invalid(`meta.${k.slice(0, 80)} must be a string, got ${v === null ? 'null' : typeof v}`);
      out[k] = v;
    }
  }
  return ok({ meta: out, excludeDebugFields: excludeDebugFields === true });
}
