import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault, type ProxyResponse } from '../mutantProxy.js';
import { rewriteFrame } from './jsonWalk.js';

/** The reference's refusal of a negative offset: INVALID_ARGUMENT naming the field (not a page size's, which Canton refuses otherwise). */
const NEGATIVE = /(\w*(?:offset|exclusive)\w*) must be a non-negative integer/i;

/**
 * A participant that refuses a negative offset with the code Canton 3.5 gives it:
 * NEGATIVE_OFFSET (RequestValidationErrors.NegativeOffset, category 8, HTTP 400; from
 * ParticipantOffsetValidator.validateNonNegative, which the state and update services call), where
 * the reference answers the generic INVALID_ARGUMENT. Same status, category and gRPC code.
 */
function recoded(v: unknown): unknown {
  if (!isObject(v) || v.code !== 'INVALID_ARGUMENT' || typeof v.cause !== 'string') return v;
  const field = NEGATIVE.exec(v.cause)?.[1];
  if (field === undefined) return v;
  const out: Json = { ...v, code: 'NEGATIVE_OFFSET', cause: `Offset in ${field} field has to be a non-negative integer (>=0)` };
  return out;
}

function recodeAnswer(res: ProxyResponse): ProxyResponse {
  if (res.status !== 400 || !(res.headers['content-type'] ?? '').includes('json')) return res;
  const v = parse(res.body);
  const out = recoded(v);
  return out === v ? res : { ...res, body: JSON.stringify(out) };
}

export const negativeOffsetCode: Fault = {
  response: (_req, res) => recodeAnswer(res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, recoded)],
};
