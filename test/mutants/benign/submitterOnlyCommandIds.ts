import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault, type ProxyRequest } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * A transaction's `commandId` only for its submitters, as Canton writes it ("Missing for everyone
 * except the submitting party", JsTransaction.commandId): a read whose filter names parties none
 * of which submitted the update (its `actAs`, learned from the submissions and completions that
 * cross the proxy) gets the transaction without it. Reads for any party, and updates whose
 * submitters the proxy has not seen, keep it. (The reference shows it to every reader.)
 */
export function submitterOnlyCommandIds(): Fault {
  const actAsOf = new Map<string, readonly string[]>();
  /** The filter parties of a WebSocket's request frame, per socket. */
  const wsFilters = new WeakMap<ProxyRequest, readonly string[] | 'any'>();

  const learn = (updateId: unknown, actAs: unknown) => {
    if (typeof updateId === 'string' && Array.isArray(actAs) && actAs.every((p) => typeof p === 'string')) actAsOf.set(updateId, actAs as string[]);
  };
  /** The parties a read filters for, 'any' for a read for any party, undefined when it names none. */
  function filterOf(body: unknown): readonly string[] | 'any' | undefined {
    if (!isObject(body)) return undefined;
    const formats = [
      isObject(body.updateFormat) && isObject(body.updateFormat.includeTransactions) ? body.updateFormat.includeTransactions.eventFormat : undefined,
      isObject(body.transactionFormat) ? body.transactionFormat.eventFormat : undefined,
      body.eventFormat,
      body.filter,
    ].filter(isObject);
    if (formats.length === 0) return Array.isArray(body.requestingParties) ? (body.requestingParties as string[]) : undefined;
    const f = formats[0]!;
    if (f.filtersForAnyParty !== undefined && f.filtersForAnyParty !== null) return 'any';
    return isObject(f.filtersByParty) ? Object.keys(f.filtersByParty) : undefined;
  }
  const hide = (filter: readonly string[] | 'any' | undefined) => (o: Json): Json => {
    if (filter === undefined || filter === 'any' || typeof o.commandId !== 'string' || typeof o.updateId !== 'string' || !('events' in o || 'eventsById' in o)) return o;
    const submitters = actAsOf.get(o.updateId);
    if (submitters === undefined || submitters.some((p) => filter.includes(p))) return o;
    const { commandId: _c, ...rest } = o;
    return rest;
  };
  const learnFrom = (v: unknown) => mapApiObjects(v, (o) => {
    // A completion names its update and its submitters.
    if (typeof o.commandId === 'string' && Array.isArray(o.actAs)) learn(o.updateId, o.actAs);
    return o;
  });

  return {
    response(req, res) {
      if (!isLedgerPath(req.url) || res.status !== 200) return res;
      const path = req.url.split('?')[0]!.replace(/\/{2,}/g, '/');
      const body = parse(req.body);
      const answer = parse(res.body);
      if (/^\/v2\/commands\/submit-and-wait/.test(path) && isObject(body) && isObject(answer)) {
        const commands = isObject(body.commands) ? body.commands : body;
        learn(answer.updateId ?? (isObject(answer.transaction) ? answer.transaction.updateId : undefined) ?? (isObject(answer.transactionTree) ? answer.transactionTree.updateId : undefined), commands.actAs);
      }
      learnFrom(answer);
      // The command service's own answers go to the submitter.
      if (/^\/v2\/(commands|interactive-submission)\//.test(path)) return res;
      return rewriteJsonBody(res, (v) => mapApiObjects(v, hide(filterOf(body))));
    },
    wsRequest(req, frame) {
      const filter = filterOf(parse(frame));
      if (filter !== undefined) wsFilters.set(req, filter);
      return frame;
    },
    wsResponse(req, frame) {
      const v = parse(frame);
      learnFrom(v);
      return [rewriteFrame(frame, (x) => mapApiObjects(x, hide(wsFilters.get(req))))];
    },
  };
}
