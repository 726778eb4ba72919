import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * History submitted through another participant: a transaction or reassignment whose command did
 * not come through this proxy carries no `commandId` for anyone ("Missing for everyone except the
 * submitting party on the submitting participant"), as a vendor's participant shows what other
 * nodes of its network (an SV's automation, another validator's wallets) submitted. The
 * reference submitted its seeded world itself and shows those command ids to their submitters.
 * Updates the suite submits through the proxy keep theirs.
 */
export function commandIdsElsewhere(): Fault {
  const submittedHere = new Set<string>();
  /** The command id a submission names (JsCommands, its `commands` member, or `reassignmentCommands`), if any. */
  const commandIdOf = (body: unknown): unknown => {
    if (!isObject(body)) return undefined;
    for (const inner of [body.commands, body.reassignmentCommands]) if (isObject(inner) && typeof inner.commandId === 'string') return inner.commandId;
    return body.commandId;
  };
  const hide = (o: Json): Json => {
    if (typeof o.commandId !== 'string' || typeof o.updateId !== 'string' || !('events' in o || 'eventsById' in o) || submittedHere.has(o.commandId)) return o;
    const { commandId: _c, ...rest } = o;
    return rest;
  };
  return {
    response(req, res) {
      if (!isLedgerPath(req.url)) return res;
      const path = req.url.split('?')[0]!.replace(/\/{2,}/g, '/');
      // Commands submitted here, synchronously, asynchronously or prepared for an external signature.
      if (/^\/v2\/(commands\/(submit|async\/submit)|interactive-submission\/prepare)/.test(path)) {
        const id = commandIdOf(parse(req.body));
        if (typeof id === 'string') submittedHere.add(id);
        return res;
      }
      return res.status === 200 ? rewriteJsonBody(res, (v) => mapApiObjects(v, hide)) : res;
    },
    wsResponse(_req, frame) {
      return [rewriteFrame(frame, (x) => mapApiObjects(x, hide))];
    },
  };
}
