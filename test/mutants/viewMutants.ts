import type { Mutant } from './mutants.js';
import { parse, type Fault } from './mutantProxy.js';
import { deep, isObject, ok200, type Json } from './mutantKit.js';

/**
 * Interface views a server computes once and hands out again: a view cache keyed by template
 * instead of by contract, as an implementation that memoises the view function without its
 * argument would have it. Only computing the view from each contract's own payload shows it (the
 * engine: judge.daml.view).
 */

const isCreatedEvent = (o: Json) => typeof o.contractId === 'string' && 'createArgument' in o && Array.isArray(o.interfaceViews);

/** `v` with every created event of a template carrying the views of that template's first created event in it. */
function firstViewsPerTemplate(v: unknown): unknown {
  const first = new Map<string, unknown>();
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

const viewsOncePerTemplate: Fault = {
  response: (_req, res) => ok200(res, firstViewsPerTemplate),
  wsResponse: (_req, frame) => {
    const v = parse(frame);
    return [v === undefined || !isObject(v) ? frame : JSON.stringify(firstViewsPerTemplate(v))];
  },
};

export const VIEW_MUTANTS: readonly Mutant[] = [
  {
    name: 'views-once-per-template',
    description: "every contract of a template in an answer carries the interface view of the first one (a view cache keyed by template, not by contract): a wallet shows each holding with the first one's owner and amount",
    caughtBy: 'ledger.filters.active-contracts',
    fault: viewsOncePerTemplate,
  },
];
