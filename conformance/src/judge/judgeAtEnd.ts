import { LedgerOp, UPSTREAM_B } from '../checks/ledgerOps.js';
import type { CheckResult } from '../report/model.js';
import type { Exchange } from '../target/exchange.js';
import { judgeResultOf } from './judgeResult.js';
import type { JudgedViolation } from './judgeSession.js';
import { STREAM_CHECK_ID } from './streamFollower.js';

/**
 * What the end of the run found in the update stream and the completions: a violation that names a
 * check's write (its first or second observation) fails that check (in `results`, in place); the
 * rest fail one result of their own, `judge.stream.end-of-run`, returned to add to the report
 * (absent when there is none, so a clean run's checks are the selected ones).
 */
export function judgeAtEnd(found: readonly JudgedViolation[], results: CheckResult[], followed: readonly Exchange[]): CheckResult[] {
  const byCheck = new Map<string, JudgedViolation[]>();
  const rest: JudgedViolation[] = [];
  for (const v of found) {
    const writer = [v.violation.first, v.violation.second].find((o) => o?.write === true && results.some((r) => r.id === o.checkId));
    if (writer === undefined) rest.push(v);
    else byCheck.set(writer.checkId, [...(byCheck.get(writer.checkId) ?? []), v]);
  }
  for (const [id, vs] of byCheck) {
    const i = results.findIndex((r) => r.id === id);
    const r = results[i]!;
    if (r.status === 'fail') continue;
    const { result, failure } = judgeResultOf(vs);
    results[i] = { ...r, status: 'fail', message: failure!.message, evidence: result!.evidence, judge: result! };
  }
  if (rest.length === 0) return [];
  const { result, failure } = judgeResultOf(rest);
  return [
    {
      id: STREAM_CHECK_ID,
      title: "The target's update stream and the run's completions, read at the end of the run, keep the judge's invariants",
      group: 'ledger',
      operationId: LedgerOp.updates,
      level: 'MUST',
      kind: 'example',
      status: 'fail',
      specRef: `${UPSTREAM_B}: POST /v2/updates, POST /v2/commands/completions`,
      durationMs: followed.reduce((t, e) => t + e.durationMs, 0),
      message: failure!.message,
      evidence: result!.evidence,
      requests: followed.length,
      judge: result!,
    },
  ];
}
