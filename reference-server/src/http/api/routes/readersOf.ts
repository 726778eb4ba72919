import type { RequiredAccess } from '../auth/types.js';

interface PartyFilters {
  readonly filtersByParty?: Readonly<Record<string, unknown>>;
  readonly filtersForAnyParty?: unknown;
}

/**
 * The read access a query needs: every party it filters by, and read-as-any-party when it filters
 * for any party. Accepts the event formats of a request (current and legacy forms together).
 */
export function readersOf(...formats: (PartyFilters | undefined)[]): RequiredAccess {
  const parties = new Set<string>();
  let anyParty = false;
  for (const format of formats) {
    if (format === undefined) continue;
    for (const party of Object.keys(format.filtersByParty ?? {})) parties.add(party);
    if (format.filtersForAnyParty !== undefined) anyParty = true;
  }
  return { readAs: [...parties], ...(anyParty ? { readAsAnyParty: true } : {}) };
}
