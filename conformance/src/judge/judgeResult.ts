import type { JudgeCheckResult, JudgeObservation } from '../report/model.js';
import { evidenceOf } from '../runner/evidenceOf.js';
import type { Exchange } from '../target/exchange.js';
import { invariantOf } from './invariants.js';
import type { JudgedViolation } from './judgeSession.js';
import type { Observation } from './targetModel.js';

const where = (o: Observation): JudgeObservation => ({ checkId: o.checkId, where: o.where, at: o.at, seq: o.seq });
const shown = (o: Observation) => `${o.where} in ${o.checkId} at ${o.at}`;

/** The report's view of the invariants one check's answers broke, and the failure it makes of it. */
export function judgeResultOf(found: readonly JudgedViolation[]): { result?: JudgeCheckResult; failure?: { message: string; exchange: Exchange } } {
  const first = found[0];
  if (first === undefined) return {};
  const v = first.violation;
  const rule = invariantOf(v.invariant);
  const result: JudgeCheckResult = {
    violations: found.length,
    invariant: v.invariant,
    rule: rule.rule,
    message: v.message,
    ...(v.first ? { first: where(v.first) } : {}),
    second: where(v.second),
    evidence: evidenceOf(first.exchange),
  };
  const more = found.length > 1 ? ` (and ${found.length - 1} more violation(s))` : '';
  const seen = v.first ? `; seen first: ${shown(v.first)}; then: ${shown(v.second)}` : `; seen: ${shown(v.second)}`;
  return { result, failure: { message: `${v.invariant} (${rule.title}): ${v.message}${seen}${more}`, exchange: first.exchange } };
}
