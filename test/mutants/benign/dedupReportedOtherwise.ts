import { createHash } from 'node:crypto';
import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Completions that report the deduplication period the participant actually used in its own
 * terms: for a third of the commands (by command id) no `deduplicationPeriod` at all, for another
 * third the duration extended by an hour. openapi 3.5.10, DeduplicationPeriod1 (Completion): "The
 * ledger may convert the deduplication period into other descriptions and extend the period in
 * implementation-specified ways ... The deduplication guarantee applies even if the completion
 * omits this field. Optional".
 */
const bucket = (commandId: string) => createHash('sha256').update(commandId).digest()[0]! % 3;

function reported(o: Json): Json {
  if (!(typeof o.commandId === 'string' && typeof o.userId === 'string' && Array.isArray(o.actAs) && isObject(o.synchronizerTime))) return o;
  const b = bucket(o.commandId);
  if (b === 0) return Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'deduplicationPeriod'));
  const d = o.deduplicationPeriod;
  if (b === 1 && isObject(d) && isObject(d.DeduplicationDuration) && isObject(d.DeduplicationDuration.value) && typeof d.DeduplicationDuration.value.seconds === 'number') {
    const v = d.DeduplicationDuration.value;
    return { ...o, deduplicationPeriod: { DeduplicationDuration: { value: { ...v, seconds: (v.seconds as number) + 3600 } } } };
  }
  return o;
}
const rewrite = (v: unknown) => mapApiObjects(v, reported);

export const dedupReportedOtherwise: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
