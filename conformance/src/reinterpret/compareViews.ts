/**
 * Interface views in a transaction whose request asked for them: each created event's
 * `interfaceViews` entry must carry the view the engine computes (the template's interface
 * instance evaluated on the created argument as reported), `judge.daml.view`.
 */
import { Evaluator, decodeJson, encodeJson, lookupInterface, lookupTemplate, packageDataTypes, type Package } from '../../../daml-engine/index.js';
import { isObject } from '../checks/support/expect.js';
import { damlValueDifference } from '../checks/support/values.js';
import type { Difference } from './compareTransaction.js';
import { packageFetcher, untilPackagesFound, type LedgerSource } from './ledgerSource.js';
import { parseTemplateId } from './reinterpret.js';

/** The same, fetching the packages from `source` (views in an answer, apart from a re-run). */
export function viewDifferencesFrom(source: LedgerSource, events: readonly unknown[]): Promise<Difference[] | string> {
  const fetcher = packageFetcher(source);
  return untilPackagesFound(fetcher, () => viewDifferences(events, fetcher.need, fetcher.getPackage), (r) => typeof r !== 'string' && r.length === 0);
}

/** Differences in the views of `events`; a string when a view cannot be computed (a skip). */
export async function viewDifferences(
  events: readonly unknown[], need: (packageId: string) => Promise<string | undefined>, getPackage: (id: string) => Package | undefined,
): Promise<Difference[] | string> {
  const out: Difference[] = [];
  for (const [i, e] of events.entries()) {
    const c = isObject(e) && isObject(e.CreatedEvent) ? e.CreatedEvent : undefined;
    if (c === undefined || !Array.isArray(c.interfaceViews) || c.interfaceViews.length === 0) continue;
    const templateId = typeof c.templateId === 'string' ? parseTemplateId(c.templateId) : undefined;
    if (templateId === undefined) return `events[${i}] names no template`;
    const why = await need(templateId.packageId);
    if (why !== undefined) return why;
    const types = packageDataTypes(getPackage);
    const template = lookupTemplate(getPackage, templateId);
    const argument = decodeJson({ kind: 'con', tycon: templateId, args: [] }, c.createArgument as never, types);
    if (template === undefined || !argument.ok) return `the engine cannot read events[${i}] of ${String(c.templateId)}`;
    for (const [j, v] of c.interfaceViews.entries()) {
      const path = `events[${i}].interfaceViews[${j}]`;
      const ifaceId = isObject(v) && typeof v.interfaceId === 'string' ? parseTemplateId(v.interfaceId) : undefined;
      if (ifaceId === undefined) return `${path} names no interface`;
      const ifaceWhy = await need(ifaceId.packageId);
      if (ifaceWhy !== undefined) return ifaceWhy;
      const iface = lookupInterface(getPackage, ifaceId);
      const impl = [...template.implements.values()].find((x) => x.iface.packageId === ifaceId.packageId && x.iface.module === ifaceId.module && x.iface.name === ifaceId.name);
      if (iface === undefined || impl === undefined) {
        out.push({ id: 'judge.daml.view', path, target: v, engine: `${String(c.templateId)} does not implement ${String(isObject(v) ? v.interfaceId : v)}` });
        continue;
      }
      const r = new Evaluator({ getPackage, stepBudget: 1_000_000 }).evaluate(impl.view, [[template.param, argument.value]]);
      // What the engine could not do (a definition it lacks, its budget) says nothing of the target.
      if (!r.ok && (r.error.kind === 'missingDefinition' || r.error.kind === 'budgetExceeded' || r.error.kind === 'allocationExceeded' || r.error.kind === 'crash')) {
        return `the engine cannot compute ${path} (${r.error.kind})`;
      }
      // A failed view is the event's viewStatus, not a value: only computed views are compared.
      if (!r.ok) {
        if (isObject(v) && v.viewValue !== undefined && v.viewValue !== null) out.push({ id: 'judge.daml.view', path: `${path}.viewValue`, target: v.viewValue, engine: `the view fails: ${r.error.kind}` });
        continue;
      }
      const engine = encodeJson(r.value, iface.view, packageDataTypes(getPackage));
      const target = isObject(v) ? v.viewValue : undefined;
      // As a value: Canton 3.5's JSON API leaves a record's trailing None fields out, the engine writes them null.
      if (damlValueDifference(target, engine) !== undefined) out.push({ id: 'judge.daml.view', path: `${path}.viewValue`, target, engine });
    }
  }
  return out;
}
