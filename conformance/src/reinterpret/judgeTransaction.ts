/**
 * The entry checks use: a transaction the check caused is re-interpreted (unless the run turned it
 * off), recorded in the run's tally, and any difference fails the check with its `judge.daml.*`
 * id, the node path and both values. A skip is reported as a warning with its reason, never a pass.
 */
import type { Exchange } from '../target/exchange.js';
import type { CheckContext } from '../checks/types.js';
import { describeDifference } from './compareTransaction.js';
import { httpLedgerSource, type LedgerSource } from './ledgerSource.js';
import { reinterpret, type JudgedSubmission, type Reinterpretation } from './reinterpret.js';

export async function judgeTransaction(ctx: CheckContext, s: JudgedSubmission, exchange: Exchange, source: LedgerSource = httpLedgerSource(ctx)): Promise<Reinterpretation | undefined> {
  const tally = ctx.reinterpretation;
  if (typeof s.transaction.updateId === 'string') tally?.markHanded(s.transaction.updateId);
  if (tally === undefined || tally.mode === 'none') {
    tally?.record(ctx.check.id, { kind: 'off' });
    return undefined;
  }
  const r = await reinterpret(source, s);
  tally.record(ctx.check.id, r);
  if (r.kind === 'skipped') ctx.warn(`not re-interpreted: ${r.reason}`);
  if (r.kind === 'differs') {
    const lines = r.differences.map(describeDifference);
    ctx.fail(`the transaction differs from the engine's re-interpretation of its commands: ${lines.join('; ')}`, exchange);
  }
  return r;
}
