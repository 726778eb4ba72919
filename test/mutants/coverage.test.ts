import { describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import { MUTANTS } from './mutants.js';

/**
 * Every check of the suite is proven able to fail: a mutant of the bed (mutants.test.ts) names it
 * as the check that must catch it, or, for the model-based check, the bed asserts that its run
 * diverges on a mutant (`modelDiverges`). A check with neither is a check nobody has seen fail.
 * The exemptions below are the only way out, each with the reason no proxy mutant can reach it and
 * where it is proven instead.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  // (none: every check has a mutant; add `id: 'why, and where it is proven instead'` only when a
  // fault cannot be put in front of the reference server by the proxy or the secured server.)
};

function provenChecks(): Map<string, string[]> {
  const by = new Map<string, string[]>();
  const add = (id: string, mutant: string) => by.set(id, [...(by.get(id) ?? []), mutant]);
  for (const m of MUTANTS) {
    add(m.caughtBy, m.name);
    if (m.modelDiverges !== undefined) add('ledger.stateful.model', m.name);
  }
  return by;
}

describe('mutant coverage of the catalogue', () => {
  const proven = provenChecks();
  const ids = catalogue().map((c) => c.id);

  it('every check has a mutant that it kills, or a stated exemption', () => {
    const unproven = ids.filter((id) => !proven.has(id) && EXEMPT[id] === undefined);
    expect(unproven, `${unproven.length} of ${ids.length} checks have no mutant`).toEqual([]);
  });

  it('every mutant names a check of the catalogue; exemptions are for real checks without a mutant', () => {
    const known = new Set(ids);
    expect([...proven.keys()].filter((id) => !known.has(id))).toEqual([]);
    expect(Object.keys(EXEMPT).filter((id) => !known.has(id) || proven.has(id))).toEqual([]);
  });
});
