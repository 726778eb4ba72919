import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * Scan's contract payloads (Daml-LF JSON) with their timestamps in another ISO 8601 form than the
 * ledger's: a whole second with six zero fraction digits written out, a fraction without its
 * trailing zeros (Instant.toString). The Daml-LF JSON encoding accepts both, "a single Daml-LF
 * value can correspond to multiple JSON encodings" (docs.daml.com json-api/lf-value-specification,
 * "Type-directed Parsing"); Splice's Scan encodes payloads with its own codec, not the participant's.
 */
const TS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;
function other(ts: string): string {
  const m = TS.exec(ts);
  if (!m) return ts;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac === '' ? `${m[1]}.000000Z` : `${m[1]}.${frac}Z`;
}
const times = (v: unknown): unknown => (typeof v === 'string' ? other(v) : Array.isArray(v) ? v.map(times) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, times(x)])) : v);
const payloads = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(payloads) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'payload' ? times(x) : payloads(x)])) : v;

export const scanPayloadTimes: Fault = {
  response(req, res) {
    if (!/^\/+(v0|api\/scan)\//.test(req.url)) return res;
    return rewriteJsonBody(res, payloads);
  },
};
