/**
 * The transactions a check committed, read off its own exchanges: the answered synchronous
 * submissions (the forms `committedTransactions` counts), each with its update id, offset and the
 * parties it acted as. These parties' histories are the ones the suite may read (it holds their
 * act-as right), and these updates are the ones the check answers for.
 */
import { isObject, type Json } from '../checks/support/expect.js';
import type { Exchange } from '../target/exchange.js';

export interface CommittedSubmission {
  readonly updateId: string;
  readonly offset: number;
  readonly actAs: readonly string[];
  readonly exchange: Exchange;
}

const COMMITTING = /^\/v2\/(commands\/submit-and-wait(-for-transaction(-tree)?)?|interactive-submission\/executeAndWait(ForTransaction)?)$/;

export function committedSubmissions(exchanges: readonly Exchange[]): CommittedSubmission[] {
  const out: CommittedSubmission[] = [];
  for (const e of exchanges) {
    if (e.group !== 'ledger' || e.request.method !== 'POST' || e.response?.status !== 200 || !COMMITTING.test(e.path)) continue;
    const req = parse(e.request.body);
    const res = parse(e.response.text);
    if (!isObject(req) || !isObject(res)) continue;
    const at = whereCommitted(res);
    const actAs = actAsOf(req);
    if (at !== undefined && actAs.length > 0) out.push({ ...at, actAs, exchange: e });
  }
  return out;
}

/** The update id and offset of an answer: a transaction (tree) or the completion's. */
function whereCommitted(res: Json): { updateId: string; offset: number } | undefined {
  const tx = isObject(res.transaction) ? res.transaction : isObject(res.transactionTree) ? res.transactionTree : res;
  const updateId = tx.updateId;
  const offset = tx.offset ?? res.completionOffset;
  return typeof updateId === 'string' && typeof offset === 'number' ? { updateId, offset } : undefined;
}

/** actAs of JsCommands (at the top or under `commands`), or the signing parties of an interactive execution. */
function actAsOf(req: Json): string[] {
  const commands = isObject(req.commands) ? req.commands : req;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const acted = strings(commands.actAs);
  if (acted.length > 0) return acted;
  const sigs = isObject(req.partySignatures) && Array.isArray(req.partySignatures.signatures) ? req.partySignatures.signatures : [];
  return sigs.flatMap((s) => (isObject(s) && typeof s.party === 'string' ? [s.party] : []));
}

/** A request's or answer's body as JSON; undefined when absent or not JSON. */
export function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Parties the check allocated (answered `POST /v2/parties`): the suite holds their rights, so their history is readable too. */
export function allocatedParties(exchanges: readonly Exchange[]): string[] {
  return exchanges.flatMap((e) => {
    if (e.group !== 'ledger' || e.request.method !== 'POST' || e.path !== '/v2/parties' || e.response?.status !== 200) return [];
    const b = parse(e.response.text);
    const d = isObject(b) && isObject(b.partyDetails) ? b.partyDetails : undefined;
    return d && typeof d.party === 'string' ? [d.party] : [];
  });
}
