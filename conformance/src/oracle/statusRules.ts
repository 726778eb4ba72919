import { jsonOf, type Exchange } from '../target/exchange.js';
import type { Difference } from './compareAnswers.js';

/**
 * What kind of answer an exchange is, for deciding what the reference may judge of it:
 * - `ok`: 2xx (101 for a stream);
 * - `invalid`: refused for what the request says, whatever the ledger holds: 400 with Canton's
 *   category InvalidIndependentOfSystemState (8), or a 400 without a category (registry, Scan);
 * - `auth`: 401/403: the target's tokens, users and rights, judged by rule, never against a
 *   reference that has other users (or none);
 * - `state`: every other answer, which depends on the ledger's history or configuration
 *   (not found, already exists, offset after the end, list size limits, unavailable).
 */
export type AnswerClass = 'ok' | 'invalid' | 'auth' | 'state';

export function classOf(e: Exchange): AnswerClass {
  const s = e.response?.status ?? 0;
  if ((s >= 200 && s < 300) || s === 101) return 'ok';
  if (s === 401 || s === 403) return 'auth';
  if (s !== 400) return 'state';
  const category = categoryOf(e);
  return category === undefined || category === 8 ? 'invalid' : 'state';
}

/** A member of a JSON error body (Canton's `errorCategory`, `code`), when the body has it. */
function errorMember(e: Exchange, key: 'errorCategory' | 'code'): unknown {
  const j = jsonOf(e);
  return j.ok && typeof j.value === 'object' && j.value !== null ? (j.value as Record<string, unknown>)[key] : undefined;
}
const categoryOf = (e: Exchange): number | undefined => { const c = errorMember(e, 'errorCategory'); return typeof c === 'number' ? c : undefined; };
const codeOf = (e: Exchange): string | undefined => { const c = errorMember(e, 'code'); return typeof c === 'string' ? c : undefined; };

/**
 * Codes that refuse the same bad input on different participants: Canton 3.5 refuses a negative
 * offset as NEGATIVE_OFFSET (ParticipantOffsetValidator.validateNonNegative), the reference as the
 * generic INVALID_ARGUMENT; both category 8, HTTP 400, gRPC INVALID_ARGUMENT. A DAR whose DALF
 * the Daml-LF archive reader refuses (a tampered hash, bytes that are not an archive) is
 * DAR_PARSE_ERROR on Canton 3.x (the reader's Error.Parsing), INVALID_DAR where the participant
 * reads its DALFs with the zip: both category 8, HTTP 400, nothing recorded.
 */
const SAME_REFUSALS: readonly (readonly string[])[] = [['INVALID_ARGUMENT', 'NEGATIVE_OFFSET'], ['INVALID_DAR', 'DAR_PARSE_ERROR']];

/** Two refusals of an invalid request must name the same error code (their texts are each ledger's own). */
export function sameRefusal(target: Exchange, reference: Exchange): Difference | undefined {
  const t = codeOf(target);
  const r = codeOf(reference);
  if (t === undefined || r === undefined || t === r) return undefined;
  if (SAME_REFUSALS.some((codes) => codes.includes(t) && codes.includes(r))) return undefined;
  return { path: '$.code', target: t, reference: r, why: 'the request is refused as invalid with another error code than the reference ledger refuses it with' };
}
