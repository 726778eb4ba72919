import { createHash } from 'node:crypto';
import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * A participant on a synchronizer that meters traffic (Canton 3.5): `paidTrafficCost` on every
 * completion (the cost of the confirmation request; 0 for a command refused before one was
 * ordered) and on the transactions and reassignments shown to their submitter (those with a
 * commandId), the same number for the completion and the update of one command (derived from the
 * update id). openapi 3.5.10, Completion.paidTrafficCost, JsTransaction.paidTrafficCost,
 * JsReassignment.paidTrafficCost ("Not set for transactions that were initiated by another
 * participant ... returned as part of a query filtering for a non submitting party. Optional").
 */
export const costOf = (updateId: string) => 100 + (createHash('sha256').update(updateId).digest().readUInt32BE(0) % 5000);

function withCost(o: Json): Json {
  // A completion: its update id when it committed, 0 when refused.
  if (typeof o.commandId === 'string' && typeof o.userId === 'string' && Array.isArray(o.actAs) && isObject(o.synchronizerTime)) {
    const committed = typeof o.updateId === 'string' && o.updateId !== '';
    return { ...o, paidTrafficCost: committed ? costOf(o.updateId as string) : 0 };
  }
  // A transaction, tree or reassignment the reader submitted.
  if (typeof o.updateId === 'string' && typeof o.recordTime === 'string' && typeof o.commandId === 'string' && o.commandId !== '' && (Array.isArray(o.events) || isObject(o.eventsById))) {
    return { ...o, paidTrafficCost: costOf(o.updateId) };
  }
  return o;
}
const rewrite = (v: unknown) => mapApiObjects(v, withCost);

export const paidTrafficCosts: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
