import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * What Canton's JSON encoders write for fields left at their protobuf default: a participant
 * writes proto3 scalars and repeated fields out (`"workflowId": ""`, `"commandId": ""` for a
 * transaction the reader did not submit, `"createdEventBlob": ""` when no filter asked for blobs,
 * `"interfaceViews": []`, `"implementedInterfaces": []`, a completion's `"submissionId": ""`) and
 * Scala options as explicit nulls (`"contractKey": null`), where the reference leaves the member
 * out. Captured from a LocalNet participant (JSON Ledger API v2, submit-and-wait-for-transaction):
 * `"workflowId": "", "contractKey": null, "createdEventBlob": "", "interfaceViews": [],
 * "implementedInterfaces": []`; the spec marks every one of these optional, and the notes
 * (wire-shapes.md §2.0) show the same encoder writing absent options as null.
 */
function defaults(o: Json): Json {
  // A transaction, a transaction tree or a reassignment: an update with its own events.
  if (typeof o.updateId === 'string' && typeof o.recordTime === 'string' && (Array.isArray(o.events) || isObject(o.eventsById))) {
    return { ...o, commandId: o.commandId ?? '', workflowId: o.workflowId ?? '' };
  }
  // A created event (also inside active contracts and assignments).
  if (typeof o.contractId === 'string' && 'createArgument' in o && typeof o.createdAt === 'string') {
    return { ...o, contractKey: o.contractKey === undefined ? null : o.contractKey, createdEventBlob: o.createdEventBlob ?? '', interfaceViews: o.interfaceViews ?? [], observers: o.observers ?? [] };
  }
  // An archived or exercised event.
  if (typeof o.contractId === 'string' && typeof o.templateId === 'string' && Array.isArray(o.witnessParties) && !('createArgument' in o) && typeof o.nodeId === 'number' && !('reassignmentId' in o)) {
    return { ...o, implementedInterfaces: o.implementedInterfaces ?? [] };
  }
  // A completion.
  if (typeof o.commandId === 'string' && typeof o.userId === 'string' && Array.isArray(o.actAs) && isObject(o.synchronizerTime)) {
    return { ...o, submissionId: o.submissionId ?? '' };
  }
  return o;
}
const rewrite = (v: unknown) => mapApiObjects(v, defaults);

export const proto3Defaults: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
