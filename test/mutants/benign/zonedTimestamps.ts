import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { mapApiObjects, rewriteFrame, rewriteJsonBody, rewriteJsonRequest } from './jsonWalk.js';

/**
 * A server whose clock writes its local offset: every API timestamp (ledger, registry, Scan; not
 * Daml values) as the same instant at +01:00 (`2025-01-01T01:00:00.000000+01:00` for
 * `2025-01-01T00:00:00.000000Z`). The documents type them `format: date-time`, which is RFC 3339's
 * `date-time` (§5.6: `time-offset = "Z" / time-numoffset`); the instant is unchanged. Timestamps
 * in requests (API members, not Daml values) with a numeric offset go back to UTC, as the server
 * would read them (Instant.parse accepts offsets since Java 12).
 */
const UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?Z$/;
const ZONED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?([+-])(\d{2}):(\d{2})$/;
const shift = (base: string, minutes: number): string => new Date(Date.parse(`${base}Z`) + minutes * 60_000).toISOString().slice(0, 19);

export function zoned(ts: string): string {
  const m = UTC.exec(ts);
  return m ? `${shift(m[1]!, 60)}${m[2] ?? ''}+01:00` : ts;
}
export function utc(ts: string): string {
  const m = ZONED.exec(ts);
  if (!m) return ts;
  const minutes = (m[3] === '+' ? 1 : -1) * (Number(m[4]) * 60 + Number(m[5]));
  return `${shift(m[1]!, -minutes)}${m[2] ?? ''}Z`;
}
const times = (f: (s: string) => string) => (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? f(v) : v]));

export const zonedTimestamps: Fault = {
  request: (req) => rewriteJsonRequest(req, (v) => mapApiObjects(v, times(utc))),
  response: (_req, res) => rewriteJsonBody(res, (v) => mapApiObjects(v, times(zoned))),
  wsRequest: (_req, frame) => rewriteFrame(frame, (v) => mapApiObjects(v, times(utc))),
  wsResponse: (_req, frame) => [rewriteFrame(frame, (v) => mapApiObjects(v, times(zoned)))],
};
