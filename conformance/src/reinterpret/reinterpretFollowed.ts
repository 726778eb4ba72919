/**
 * The transactions other applications committed on the target while the run went on, re-run by
 * the engine: the judge's stream follower read them (LEDGER_EFFECTS, for the run's parties or for
 * any party), the suite did not submit them, and a participant in service commits them beside the
 * suite's. Each is re-run from the top-level nodes its reader saw, as `ledger.reinterpret.target-history`
 * re-runs the history before the run; a difference fails that check at the end of the run.
 */
import { isObject, type Json } from '../checks/support/expect.js';
import { transactionJsonOf } from '../checks/support/ledger.js';
import type { CheckContext } from '../checks/types.js';
import type { Exchange } from '../target/exchange.js';
import { describeDifference } from './compareTransaction.js';
import { httpLedgerSource } from './ledgerSource.js';
import { answeredUpdateId, parse } from './reinterpretCommitted.js';
import { MAX_SHOWN_EVENTS, reinterpretShown, witnessesOf } from './reinterpretShown.js';
import { COMMITTING, type ReinterpretTally } from './reinterpretTally.js';

/** Transactions of others it re-runs at most (the newest). */
const MOST = 200;

/** The parties a follower's page was read for: its request's parties, or (any party) undefined. */
function partiesOf(e: Exchange): string[] | undefined {
  const body = parse(e.request.body);
  const format = isObject(body) && isObject(body.updateFormat) && isObject(body.updateFormat.includeTransactions) ? body.updateFormat.includeTransactions.eventFormat : undefined;
  return isObject(format) && isObject(format.filtersByParty) ? Object.keys(format.filtersByParty).sort() : undefined;
}

export interface FollowedOutcome {
  readonly failure?: { readonly message: string; readonly exchange: Exchange };
}

/**
 * Re-runs the followed transactions after `historyEnd` that no check of the run submitted.
 * `ctx` reads packages and input contracts (a client recording nothing: these reads are no check's evidence).
 */
export async function reinterpretFollowed(
  ctx: Pick<CheckContext, 'http' | 'shared'>, followed: readonly Exchange[], exchanges: readonly Exchange[], tally: ReinterpretTally,
): Promise<FollowedOutcome> {
  if (tally.mode === 'none' || tally.historyEnd === undefined) return {};
  // The run's own transactions (the sweep re-runs those, on the commands that made them).
  const ours = new Set<string>();
  for (const e of exchanges) {
    if (e.group !== 'ledger' || e.request.method !== 'POST' || e.response?.status !== 200 || !COMMITTING.test(e.path)) continue;
    const id = answeredUpdateId(e.response.text);
    if (id !== undefined) ours.add(id);
  }
  const others: { tx: Json; parties: string[]; exchange: Exchange }[] = [];
  const seen = new Set<string>();
  for (const e of followed) {
    if (e.path !== '/v2/updates' || e.response?.status !== 200 || e.response.truncated) continue;
    const items = parse(e.response.text);
    if (!Array.isArray(items)) continue;
    const parties = partiesOf(e);
    for (const item of items) {
      const tx = transactionJsonOf(item);
      if (tx === undefined || typeof tx.updateId !== 'string' || typeof tx.offset !== 'number' || !Array.isArray(tx.events)) continue;
      if (tx.offset <= tally.historyEnd || ours.has(tx.updateId) || seen.has(tx.updateId) || tx.events.length === 0 || tx.events.length > MAX_SHOWN_EVENTS) continue;
      seen.add(tx.updateId);
      others.push({ tx, parties: parties ?? witnessesOf(tx.events), exchange: e });
    }
  }
  const source = httpLedgerSource(ctx);
  for (const { tx, parties, exchange } of others.slice(-MOST)) {
    const r = await reinterpretShown(source, { parties, transaction: tx });
    tally.recordFollowed(r);
    if (r.kind === 'differs') {
      return { failure: { message: `transaction ${String(tx.updateId)} at offset ${String(tx.offset)}, committed by another application during the run and re-run from the top-level nodes ${parties.join(', ')} see, differs from what the target shows: ${r.differences.map(describeDifference).join('; ')}`, exchange } };
    }
  }
  return {};
}
