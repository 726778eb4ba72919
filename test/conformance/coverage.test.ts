import { describe, expect, it } from 'vitest';
import { behaviourChecks, catalogue } from '../../conformance/src/checks/catalogue.js';
import { DOCUMENTED_RULES } from '../../conformance/src/checks/rules.js';
import { coverageOf } from '../../conformance/src/report/coverage.js';
import { matches } from '../../conformance/src/runner/select.js';

/**
 * Traceability, kept honest: every operation of specs/ is the operation of at least one behaviour
 * check, every check names the rule it enforces, and every documented rule's checks exist.
 */
describe('coverage of specs/ by behaviour checks', () => {
  const coverage = coverageOf(catalogue());

  it('every operation of specs/ has at least one behaviour check', () => {
    const missing = coverage.operations
      .filter((o) => o.checks.length === 0)
      .map(
        (o) =>
          `${o.method} ${o.path} (operationId ${o.operationId}, group ${o.group}) has no behaviour check: add a check with operationId '${o.operationId}' ` +
          `to a file in conformance/src/checks/ (one array per file, listed in behaviourChecks() of conformance/src/checks/catalogue.ts), ` +
          `and a mutant in test/mutants/mutants.ts that it kills`,
      );
    expect(missing, missing.join('\n')).toEqual([]);
  });

  it('every check names the rule it enforces (specRef) and an operation of specs/', () => {
    const ops = new Set(coverage.operations.map((o) => o.operationId));
    const bad = catalogue().filter((c) => c.specRef.trim().length < 10 || !ops.has(c.operationId)).map((c) => `${c.id}: specRef '${c.specRef}', operationId '${c.operationId}'`);
    expect(bad).toEqual([]);
  });

  it("every documented rule's checks exist in the catalogue; rules without a check say why", () => {
    for (const r of DOCUMENTED_RULES) {
      for (const s of r.checkedBy) expect(behaviourChecks().some((c) => matches(s, c)), `${r.rule}: '${s}' matches no check`).toBe(true);
      if (r.checkedBy.length === 0) expect(r.gap, `${r.rule} has no check and no stated gap`).toBeTruthy();
    }
    expect(coverage.uncheckedRules).toEqual(DOCUMENTED_RULES.filter((r) => r.checkedBy.length === 0).map((r) => r.rule));
  });

  it('a run reports the operations none of whose checks ran', () => {
    const results = catalogue().map((c) => ({ id: c.id, status: c.operationId === 'getV2Version' ? ('skip' as const) : ('pass' as const) }));
    expect(coverageOf(catalogue(), results).notChecked).toEqual(['getV2Version']);
  });
});
