import type { Mutant } from './mutants.js';
import { parse, type Fault, type ProxyRequest } from './mutantProxy.js';
import { deep, isObject, ok200, type Json } from './mutantKit.js';

/**
 * Interface views a server computes once and hands out again: a view cache keyed by template
 * instead of by contract, as an implementation that memoises the view function without its
 * argument would have it. Only computing the view from each contract's own payload shows it (the
 * engine: judge.daml.view).
 */

const isCreatedEvent = (o: Json) => typeof o.contractId === 'string' && 'createArgument' in o && Array.isArray(o.interfaceViews);

/** Rewrites every created event of a template to carry the views of that template's first created event `first` has seen. */
function firstViewsPerTemplate(v: unknown, first: Map<string, unknown>): unknown {
  return deep(v, (o) => {
    if (!isCreatedEvent(o)) return o;
    const key = String(o.templateId);
    if (!first.has(key)) {
      first.set(key, o.interfaceViews);
      return o;
    }
    return { ...o, interfaceViews: first.get(key) };
  });
}

/** The cache lives for one answer, or for one WebSocket stream (which carries a contract a frame). */
function viewsOncePerTemplate(): Fault {
  const perStream = new WeakMap<ProxyRequest, Map<string, unknown>>();
  return {
    response: (_req, res) => ok200(res, (v) => firstViewsPerTemplate(v, new Map())),
    wsResponse: (req, frame) => {
      const v = parse(frame);
      if (v === undefined || !isObject(v)) return [frame];
      let first = perStream.get(req);
      if (first === undefined) perStream.set(req, (first = new Map()));
      return [JSON.stringify(firstViewsPerTemplate(v, first))];
    },
  };
}

export const VIEW_MUTANTS: readonly Mutant[] = [
  {
    name: 'views-once-per-template',
    description: "every contract of a template in an answer carries the interface view of the first one (a view cache keyed by template, not by contract): a wallet shows each holding with the first one's owner and amount",
    caughtBy: 'ledger.filters.active-contracts',
    fault: () => viewsOncePerTemplate(),
  },
];
