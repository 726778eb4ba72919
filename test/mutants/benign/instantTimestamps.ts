import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Timestamps as Java's `Instant.toString` writes them, which is how Canton's JSON encoders write
 * the API's own times (`createdAt`, `effectiveAt`, `recordTime`, ...): no fraction for a whole
 * second, else 3, 6 or 9 digits (`2025-01-01T00:00:00Z`, `...:00.500Z`). The reference always
 * writes 6 digits. RFC 3339 allows both; Daml values (payloads, arguments) are left as they are.
 */
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;
export function instantString(ts: string): string {
  const m = RFC3339.exec(ts);
  if (!m) return ts;
  const nanos = (m[2] ?? '').padEnd(9, '0');
  if (/^0+$/.test(nanos)) return `${m[1]}Z`;
  const digits = nanos.endsWith('000000') ? 3 : nanos.endsWith('000') ? 6 : 9;
  return `${m[1]}.${nanos.slice(0, digits)}Z`;
}
const times = (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? instantString(v) : v]));
const rewrite = (v: unknown) => mapApiObjects(v, times);

export const instantTimestamps: Fault = {
  response: (_req, res) => rewriteJsonBody(res, rewrite),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
