import { createHash } from 'node:crypto';
import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Optional members a participant fills in: the W3C `traceContext` of every transaction,
 * reassignment and completion (optional in the 3.5 document; real participants send it), the
 * same on every read of the same update or completion.
 */
const traceparentOf = (key: string) => {
  const h = createHash('sha256').update(key).digest('hex');
  return `00-${h.slice(0, 32)}-${h.slice(32, 48)}-01`;
};
const isUpdate = (o: Json) => typeof o.updateId === 'string' && typeof o.recordTime === 'string' && (Array.isArray(o.events) || (typeof o.eventsById === 'object' && o.eventsById !== null));
const isCompletion = (o: Json) => typeof o.commandId === 'string' && typeof o.userId === 'string' && Array.isArray(o.actAs) && 'synchronizerTime' in o;
const withTrace = (o: Json): Json => {
  if (o.traceContext !== undefined) return o;
  if (isUpdate(o)) return { ...o, traceContext: { traceparent: traceparentOf(`update ${String(o.updateId)}`) } };
  if (isCompletion(o)) return { ...o, traceContext: { traceparent: traceparentOf(`completion ${String(o.userId)} ${String(o.commandId)} ${String(o.submissionId)} ${String(o.offset)}`) } };
  return o;
};
const traced = (v: unknown) => mapApiObjects(v, withTrace);

export const traceContexts: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, traced) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, traced)],
};
