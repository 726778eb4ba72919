import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * A transaction's node ids as Canton 3.5 numbers them: the whole transaction in execution order,
 * fetch, lookup-by-key and rollback nodes (and a rollback's descendants) included, though none of
 * them is shown as an event (canton's TransactionTraversalUtils.executionOrderTraversalForIngestion:
 * `arrangeNodeIdsInExecutionOrder` numbers every node, the leaf case indexes only creates, and an
 * exercise's last descendant is its last leaf, a fetch too). So shown node ids have gaps, and a
 * lastDescendantNodeId may name a node no event has. The reference numbers only the events it
 * shows (0, 1, 2...). Here node n of the reference is 2n (a fetch after every node) and an
 * exercise whose last descendant is L ends at 2L+1 (its last node a fetch): monotone, so order and
 * nesting hold, and derived from the number alone, so every read of one event (ACS, update,
 * events-by-contract-id, a tree's eventsById key) agrees. Reassignment events keep theirs (no
 * fetches there). Node ids appear in no request.
 */
const shown = (n: unknown) => (typeof n === 'number' ? 2 * n : n);
const lastOf = (n: unknown) => (typeof n === 'number' ? 2 * n + 1 : n);

function gapped(o: Json): Json {
  // A created, archived or exercised event (an UnassignedEvent has a reassignmentId).
  if (typeof o.contractId === 'string' && typeof o.nodeId === 'number' && !('reassignmentId' in o)) {
    return { ...o, nodeId: shown(o.nodeId), ...(o.lastDescendantNodeId === undefined ? {} : { lastDescendantNodeId: lastOf(o.lastDescendantNodeId) }) };
  }
  // A transaction tree: its events keyed by node id.
  if (isObject(o.eventsById)) {
    return { ...o, eventsById: Object.fromEntries(Object.entries(o.eventsById).map(([k, v]) => [/^\d+$/.test(k) ? String(2 * Number(k)) : k, v])) };
  }
  return o;
}
const rewrite = (v: unknown) => mapApiObjects(v, gapped);

export const nodeIdGaps: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
