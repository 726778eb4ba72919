import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Record times a quarter of a second after what the reference records: on a participant the
 * record time is the synchronizer's sequencing time, later than the ledger time the submission
 * chose (`effectiveAt`) by the sequencing latency, and the synchronizer's clock is not the
 * client's. Every record time moves alike (transactions, reassignments, completions, checkpoints),
 * so their order and their agreement across reads stay.
 */
const SHIFT_MS = 250;
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;
export function later(ts: string): string {
  const m = RFC3339.exec(ts);
  if (!m) return ts;
  const frac = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  const micros = Date.parse(`${m[1]}Z`) * 1000 + Number(frac) + SHIFT_MS * 1000;
  const seconds = Math.floor(micros / 1_000_000);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}
const shifted = (o: Json): Json => (typeof o.recordTime === 'string' ? { ...o, recordTime: later(o.recordTime) } : o);
const rewrite = (v: unknown) => mapApiObjects(v, shifted);

export const laterRecordTimes: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
