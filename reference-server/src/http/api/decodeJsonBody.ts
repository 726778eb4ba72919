import { err, ok, type Result } from '../../ledger/result.js';
import { jsonNestingDepth } from './jsonNestingDepth.js';
import type { Problem } from './types.js';

/** Deeper than any value the Ledger API carries (Daml values nest at most 100 levels). */
export const MAX_JSON_NESTING = 128;

/**
 * Decodes a request body as JSON whatever its Content-Type (the real ledger client sends none).
 * Failures are the participant's 400 text/plain "Invalid value for: body" answers.
 */
export function decodeJsonBody(text: string | undefined, maxBytes: number): Result<unknown, Problem> {
  if (text === undefined || text.trim() === '') {
    return err({ kind: 'decode', message: 'Invalid value for: body (missing request body)' });
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when the text could be over.
  if (text.length * 3 > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes) {
    return err({ kind: 'body-too-large', limit: maxBytes });
  }
  if (jsonNestingDepth(text) > MAX_JSON_NESTING) {
    return err({ kind: 'decode', message: `Invalid value for: body (JSON nested deeper than ${MAX_JSON_NESTING} levels)` });
  }
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (e) {
    const reason = e instanceof SyntaxError ? e.message : 'malformed JSON';
    return err({ kind: 'decode', message: `Invalid value for: body (${reason})` });
  }
}
