import { GROUPS, type CheckDefinition, type Group } from '../checks/types.js';
import { DOCUMENTED_RULES } from '../checks/rules.js';
import { loadSpec } from '../schema/index.js';
import { matches } from '../runner/select.js';
import type { CheckResult } from './model.js';

/** One operation of specs/ and the behaviour checks whose operation it is. */
export interface OperationCoverage {
  readonly group: Group;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** Behaviour checks (schema observers aside) of this operation in the catalogue. */
  readonly checks: readonly string[];
  /** In a run: how many of them ran (not skipped). Absent in `list --coverage`. */
  readonly ran?: number;
}

export interface RuleCoverage {
  readonly rule: string;
  readonly specRef: string;
  readonly checks: readonly string[];
  readonly gap?: string;
}

/** What `list --coverage` prints and report.json carries as `coverage`. */
export interface Coverage {
  readonly operations: readonly OperationCoverage[];
  /** operationIds with no behaviour check in the catalogue. */
  readonly uncovered: readonly string[];
  /** In a run: operationIds none of whose behaviour checks ran (all skipped or deselected); not those the judged Canton line lacks. */
  readonly notChecked?: readonly string[];
  readonly rules: readonly RuleCoverage[];
  /** Documented rules no check enforces. */
  readonly uncheckedRules: readonly string[];
}

/**
 * Maps every operation of our specs to its behaviour checks (and, given a run's results, to the
 * ones that ran), and every documented rule to the checks that enforce it.
 */
export function coverageOf(catalogue: readonly CheckDefinition[], results?: readonly Pick<CheckResult, 'id' | 'status'>[], absentOnLine: ReadonlySet<string> = new Set()): Coverage {
  const behaviour = catalogue.filter((c) => !c.observer);
  const status = results ? new Map(results.map((r) => [r.id, r.status])) : undefined;
  const operations: OperationCoverage[] = [];
  for (const group of GROUPS) {
    for (const op of loadSpec(group).operations.values()) {
      const checks = behaviour.filter((c) => c.operationId === op.operationId).map((c) => c.id);
      const ran = status ? checks.filter((id) => status.has(id) && status.get(id) !== 'skip').length : undefined;
      operations.push({ group, operationId: op.operationId, method: op.method.toUpperCase(), path: op.template, checks, ...(ran === undefined ? {} : { ran }) });
    }
  }
  const rules = DOCUMENTED_RULES.map((r) => ({
    rule: r.rule,
    specRef: r.specRef,
    checks: behaviour.filter((c) => r.checkedBy.some((s) => matches(s, c))).map((c) => c.id),
    ...(r.gap ? { gap: r.gap } : {}),
  }));
  return {
    operations,
    uncovered: operations.filter((o) => o.checks.length === 0).map((o) => o.operationId),
    ...(status ? { notChecked: operations.filter((o) => o.ran === 0 && !(o.group === 'ledger' && absentOnLine.has(o.operationId))).map((o) => o.operationId) } : {}),
    rules,
    uncheckedRules: rules.filter((r) => r.checks.length === 0).map((r) => r.rule),
  };
}
