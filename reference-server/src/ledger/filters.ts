import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import type { Catalogue, InterfaceDef, TemplateDef } from './templates/Catalogue.js';
import { isPlainObject } from './values.js';
import type { EventFormat, Filters, TransactionFilter } from './wire.js';

/** One party's (or any party's) filter, resolved against the catalogue. */
export interface ResolvedFilter {
  readonly wildcard: boolean;
  readonly wildcardBlob: boolean;
  readonly templates: ReadonlyMap<TemplateDef, { readonly blob: boolean }>;
  readonly interfaces: ReadonlyMap<InterfaceDef, { readonly blob: boolean; readonly view: boolean }>;
}

/** An EventFormat resolved: who asks, for what. */
export interface EventQuery {
  readonly byParty: ReadonlyMap<string, ResolvedFilter>;
  readonly anyParty: ResolvedFilter | undefined;
  readonly verbose: boolean;
}

/** What a filter says about one template: included, with blob, with which interface views. */
export interface Match {
  readonly blob: boolean;
  readonly views: readonly InterfaceDef[];
  readonly interfaces: readonly InterfaceDef[];
}

export function matchTemplate(f: ResolvedFilter, t: TemplateDef): Match | undefined {
  let hit = f.wildcard;
  let blob = f.wildcard && f.wildcardBlob;
  const tf = f.templates.get(t);
  if (tf) {
    hit = true;
    blob ||= tf.blob;
  }
  let views: InterfaceDef[] | undefined;
  let ifaces: InterfaceDef[] | undefined;
  if (f.interfaces.size > 0) {
    for (const [iface, opts] of f.interfaces) {
      if (!t.interfaces.has(iface.id)) continue;
      hit = true;
      blob ||= opts.blob;
      (ifaces ??= []).push(iface);
      if (opts.view) (views ??= []).push(iface);
    }
  }
  return hit ? { blob, views: views ?? NONE, interfaces: ifaces ?? NONE } : undefined;
}
const NONE: readonly InterfaceDef[] = Object.freeze([]);

function resolveFilters(catalogue: Catalogue, filters: Filters | undefined, where: string): Result<ResolvedFilter, LedgerError> {
  if (filters !== undefined && filters !== null && !isPlainObject(filters)) return fail('INVALID_ARGUMENT', `${where} must be an object`);
  const cumulative = filters?.cumulative ?? [];
  if (!Array.isArray(cumulative)) return fail('INVALID_ARGUMENT', `${where}.cumulative must be a list`);
  let wildcard = cumulative.length === 0;
  let wildcardBlob = false;
  const templates = new Map<TemplateDef, { blob: boolean }>();
  const interfaces = new Map<InterfaceDef, { blob: boolean; view: boolean }>();
  for (const cf of cumulative) {
    const idf = (isPlainObject(cf) ? cf.identifierFilter : undefined) as Record<string, { value?: Record<string, unknown> } | undefined> | null | undefined;
    if (idf === undefined || idf === null || (isPlainObject(idf) && 'Empty' in idf)) {
      wildcard = true;
      continue;
    }
    if (!isPlainObject(idf) || Object.keys(idf).length !== 1) return fail('INVALID_ARGUMENT', `${where}: identifierFilter must have exactly one kind`);
    if ('WildcardFilter' in idf) {
      wildcard = true;
      wildcardBlob ||= idf.WildcardFilter?.value?.includeCreatedEventBlob === true;
    } else if ('TemplateFilter' in idf) {
      const v = idf.TemplateFilter?.value;
      if (!isPlainObject(v) || typeof v.templateId !== 'string') return fail('MISSING_FIELD', `The submitted request is missing a mandatory field: template_id (${where})`);
      const t = catalogue.resolveTemplate(v.templateId);
      if (!t.ok) return t;
      const all = catalogue.resolveForFilter(v.templateId);
      for (const d of all.ok ? all.value : [t.value]) {
        if (d.kind !== 'template') continue;
        const prev = templates.get(d)?.blob ?? false;
        templates.set(d, { blob: prev || v.includeCreatedEventBlob === true });
      }
    } else if ('InterfaceFilter' in idf) {
      const v = idf.InterfaceFilter?.value;
      if (!isPlainObject(v) || typeof v.interfaceId !== 'string') return fail('MISSING_FIELD', `The submitted request is missing a mandatory field: interface_id (${where})`);
      const i = catalogue.resolve(v.interfaceId);
      if (!i.ok) return i;
      if (i.value.kind !== 'interface') return fail('INVALID_ARGUMENT', `${v.interfaceId} is a template; use a TemplateFilter`);
      const all = catalogue.resolveForFilter(v.interfaceId);
      for (const d of all.ok ? all.value : [i.value]) {
        if (d.kind !== 'interface') continue;
        const prev = interfaces.get(d);
        interfaces.set(d, {
          blob: (prev?.blob ?? false) || v.includeCreatedEventBlob === true,
          view: (prev?.view ?? false) || v.includeInterfaceView === true,
        });
      }
    } else {
      return fail('INVALID_ARGUMENT', `${where}: unknown identifier filter ${Object.keys(idf)[0]}`);
    }
  }
  return ok({ wildcard, wildcardBlob, templates, interfaces });
}

/** Every template, no blobs, no views: a party's filter with no cumulative filters. Shared: nothing mutates a resolved filter. */
const WILDCARD: ResolvedFilter = Object.freeze({ wildcard: true, wildcardBlob: false, templates: new Map(), interfaces: new Map() });

/**
 * The verbose wildcard query of `parties` (every string among them, once, in order), as
 * `resolveEventFormat` resolves `{ filtersByParty: { p: {} ... }, verbose: true }`: the default
 * format of a submit-and-wait answer, built without the object and its entries. Undefined when
 * a party id is invalid or none is a string (the general path then words the refusal).
 */
export function wildcardEventQuery(parties: readonly unknown[]): EventQuery | undefined {
  const byParty = new Map<string, ResolvedFilter>();
  for (const p of parties) {
    if (typeof p !== 'string') continue;
    if (!isValidPartyId(p)) return undefined;
    byParty.set(p, WILDCARD);
  }
  return byParty.size === 0 ? undefined : { byParty, anyParty: undefined, verbose: true };
}

/** Resolves an EventFormat (or the legacy TransactionFilter + verbose pair). */
export function resolveEventFormat(catalogue: Catalogue, format: EventFormat | TransactionFilter, verbose: boolean | undefined, where: string): Result<EventQuery, LedgerError> {
  if (!isPlainObject(format)) return fail('INVALID_ARGUMENT', `${where} must be an object`);
  const byParty = new Map<string, ResolvedFilter>();
  const fbp = format.filtersByParty ?? {};
  if (!isPlainObject(fbp)) return fail('INVALID_ARGUMENT', `${where}.filtersByParty must be an object`);
  for (const [party, filters] of Object.entries(fbp)) {
    if (!isValidPartyId(party)) return fail('INVALID_ARGUMENT', `Invalid party id '${party.slice(0, 80)}' in ${where}.filtersByParty`, { context: { party } });
    const r = resolveFilters(catalogue, filters as Filters, `${where}.filtersByParty[${party}]`);
    if (!r.ok) return r;
    byParty.set(party, r.value);
  }
  let anyParty: ResolvedFilter | undefined;
  if (format.filtersForAnyParty !== undefined && format.filtersForAnyParty !== null) {
    const r = resolveFilters(catalogue, format.filtersForAnyParty, `${where}.filtersForAnyParty`);
    if (!r.ok) return r;
    anyParty = r.value;
  }
  if (byParty.size === 0 && anyParty === undefined) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${where}: filtersByParty and filtersForAnyParty cannot be empty simultaneously`);
  }
  const v = 'verbose' in format ? format.verbose : verbose;
  return ok({ byParty, anyParty, verbose: v === true });
}

/**
 * Matches an event against a query. `visibleTo` are the parties entitled to see it (stakeholders
 * for ACS and ACS deltas, witnesses for ledger effects). Returns the witness parties the event
 * reports and what the matching filters ask for, or undefined when nobody asked for it.
 */
export function matchEvent(q: EventQuery, visibleTo: readonly string[], template: TemplateDef): { witnesses: readonly string[]; match: Match } | undefined {
  if (q.anyParty) {
    const m = matchTemplate(q.anyParty, template);
    if (m) return { witnesses: visibleTo, match: mergeParties(q, visibleTo, template, m) };
  }
  let witnesses: string[] | undefined;
  let merged: Match | undefined;
  // Walk the shorter side: most events have a couple of stakeholders, most queries few parties.
  if (visibleTo.length <= q.byParty.size) {
    for (const p of visibleTo) {
      const f = q.byParty.get(p);
      if (!f) continue;
      const m = matchTemplate(f, template);
      if (!m) continue;
      (witnesses ??= []).push(p);
      merged = merged ? mergeMatch(merged, m) : m;
    }
  } else {
    for (const [p, f] of q.byParty) {
      if (!visibleTo.includes(p)) continue;
      const m = matchTemplate(f, template);
      if (!m) continue;
      (witnesses ??= []).push(p);
      merged = merged ? mergeMatch(merged, m) : m;
    }
    witnesses?.sort();
  }
  return witnesses && merged ? { witnesses, match: merged } : undefined;
}

function mergeParties(q: EventQuery, visibleTo: readonly string[], template: TemplateDef, m: Match): Match {
  let out = m;
  for (const p of visibleTo) {
    const f = q.byParty.get(p);
    const pm = f && matchTemplate(f, template);
    if (pm) out = mergeMatch(out, pm);
  }
  return out;
}

function mergeMatch(a: Match, b: Match): Match {
  if (b.views.length === 0 && b.interfaces.length === 0) return a.blob || !b.blob ? a : { ...a, blob: true };
  return {
    blob: a.blob || b.blob,
    views: [...new Set([...a.views, ...b.views])],
    interfaces: [...new Set([...a.interfaces, ...b.interfaces])],
  };
}

/** Every party named in a query (for topology events of the legacy form). */
export function queryParties(q: EventQuery): readonly string[] | undefined {
  return q.anyParty ? undefined : [...q.byParty.keys()];
}
