import type { Fault } from '../mutantProxy.js';
import { scanPayloadStrings } from './jsonWalk.js';

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
export const scanPayloadTimes: Fault = scanPayloadStrings(other);
