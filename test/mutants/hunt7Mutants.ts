import type { Mutant } from './mutants.js';
import { parse, type Fault } from './mutantProxy.js';
import { deep, everywhere, is, isObject, ok200, type Json } from './mutantKit.js';

/**
 * A seventh hunt: the two faults hunt6 found and could not catch. An archive read through an
 * interface filter that does not name the interface, and an active-contracts page token that keeps
 * the offset and position of a walk but not its filter.
 */

const isCreatedEvent = (o: Json) => typeof o.contractId === 'string' && 'createArgument' in o;

/**
 * implementedInterfaces filled from the interface views the participant computes, which only
 * created events have: archived events and consuming exercised events never name the interfaces
 * the filter matched (the same everywhere).
 */
const archivesWithoutImplementedInterfaces = everywhere((o) => {
  if (isCreatedEvent(o) || !('implementedInterfaces' in o)) return o;
  const { implementedInterfaces: _gone, ...rest } = o;
  return rest;
});

const ACS_PAGE = /^\/v2\/state\/active-contracts-page$/;

/** The identifier filters of an event format's filter sets (by party and for any party). */
function filterSets(format: Json): Json[] {
  const sets = [...(isObject(format.filtersByParty) ? Object.values(format.filtersByParty) : []), format.filtersForAnyParty].filter(isObject);
  return sets.flatMap((s) => (Array.isArray(s.cumulative) ? s.cumulative.filter(isObject) : []));
}

/** The template ids (Module:Entity) an event format asks for when all its filters are template filters, else undefined. */
function templatesOnly(format: unknown): Set<string> | undefined {
  if (!isObject(format)) return undefined;
  const filters = filterSets(format).map((f) => (isObject(f.identifierFilter) ? f.identifierFilter.TemplateFilter : undefined));
  if (filters.length === 0 || !filters.every((t) => isObject(t) && isObject(t.value) && typeof t.value.templateId === 'string')) return undefined;
  return new Set(filters.map((t) => qualified(String(((t as Json).value as Json).templateId))));
}

const qualified = (templateId: string) => templateId.split(':').slice(-2).join(':');

/** The event format with each template filter a wildcard (its blob flag kept): what the token's walk reads. */
const forgotten = (format: Json): Json => deep(format, (o) => {
  const t = isObject(o.identifierFilter) && isObject(o.identifierFilter.TemplateFilter) && isObject(o.identifierFilter.TemplateFilter.value) ? o.identifierFilter.TemplateFilter.value : undefined;
  return t ? { ...o, identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: t.includeCreatedEventBlob === true } } } } : o;
}) as Json;

/**
 * The active-contracts page token keeps the snapshot's offset and the position reached, not the
 * filter: the first page honours a template filter, every later page reads the party's whole
 * active contract set from that position (a wildcard with the same parties). Modelled in front of
 * the reference as a walk read through a wildcard (so the tokens stay the reference's own), whose
 * first page alone is filtered by the request's templates.
 */
const acsPageTokenForgetsFilter: Fault = {
  request: (req) => {
    const v = parse(req.body);
    if (!is(req, req.method, ACS_PAGE) || !isObject(v) || templatesOnly(v.eventFormat) === undefined) return req;
    return { ...req, body: JSON.stringify({ ...v, eventFormat: forgotten(v.eventFormat as Json) }) };
  },
  response: (req, res) => {
    const v = parse(req.body);
    const templates = isObject(v) && is(req, req.method, ACS_PAGE) ? templatesOnly(v.eventFormat) : undefined;
    if (templates === undefined || (isObject(v) && typeof v.pageToken === 'string' && v.pageToken !== '')) return res;
    return ok200(res, (body) => {
      if (!isObject(body) || !Array.isArray(body.activeContracts)) return body;
      const kept = body.activeContracts.filter((entry) => {
        const c = isObject(entry) && isObject(entry.contractEntry) && isObject(entry.contractEntry.JsActiveContract) ? entry.contractEntry.JsActiveContract.createdEvent : undefined;
        return !isObject(c) || templates.has(qualified(String(c.templateId)));
      });
      return { ...body, activeContracts: kept };
    });
  },
};

export const HUNT7_MUTANTS: readonly Mutant[] = [
  {
    name: 'hunt7-archives-without-implemented-interfaces',
    description: 'implementedInterfaces is filled from the interface views computed for created events only: archived events (ACS_DELTA) and consuming exercised events (LEDGER_EFFECTS) read through an interface filter never name the interface (the same everywhere), so a wallet reading holdings through the Holding interface cannot tell an archive concerns a holding',
    caughtBy: 'ledger.updates.transaction-shape',
    fault: archivesWithoutImplementedInterfaces,
  },
  {
    name: 'hunt7-acs-page-token-forgets-filter',
    description: "the active-contracts page token keeps the snapshot's offset and the position reached but not the filter: the first page honours a template filter, every later page lists the party's contracts of every template",
    caughtBy: 'ledger.acs-page-post.walk-equals-list',
    fault: acsPageTokenForgetsFilter,
  },
  {
    name: 'hunt7-acs-page-get-token-forgets-filter',
    description: 'the same page token without its filter on the deprecated GET active-contracts-page (3.5.0-3.5.6): later pages list contracts of every template',
    caughtBy: 'ledger.acs-page.walk-equals-list',
    fault: acsPageTokenForgetsFilter,
  },
];
