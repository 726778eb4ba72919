/**
 * Every transaction a check committed is re-interpreted, not only those the check hands over
 * itself (`judgeTransaction`): after the check, each answered synchronous submission among its
 * exchanges is read back as LEDGER_EFFECTS for its submitters (`update-by-id`) and re-run with the
 * engine on the commands the check sent. The first difference fails the check; what cannot be
 * re-run is listed in the report's tally with its reason (the check's own verdict stands).
 */
import type { CheckContext } from '../checks/types.js';
import { isObject, type Json } from '../checks/support/expect.js';
import type { Exchange } from '../target/exchange.js';
import { describeDifference } from './compareTransaction.js';
import { viewDifferencesFrom } from './compareViews.js';
import { httpLedgerSource, reportedContract, type LedgerSource } from './ledgerSource.js';
import { reinterpret, type Reinterpretation } from './reinterpret.js';
import { COMMITTING } from './reinterpretTally.js';
import { DAML_REFUSAL_CODES, reinterpretRefusal, type RefusedSubmission } from './reinterpretRefusal.js';

/** What the re-interpretation of a check's transactions found: the first difference, if any. */
export interface CommittedOutcome {
  readonly failure?: { readonly message: string; readonly exchange: Exchange };
}

/** `readers`: the submission's actAs and readAs parties, whose contracts the command could use and whose view is re-run. */
type Submitted = { ok: true; commands: Json[]; actAs: string[]; readers: string[]; updateId: string } | { ok: false; reason: string };

/** A request or answer body as JSON, or undefined when it is none. */
export function parse(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The update id a committing request's answer names (submit-and-wait, its transaction and tree forms, execute). */
export function answeredUpdateId(text: string | undefined): string | undefined {
  const a = parse(text);
  const id = !isObject(a) ? undefined : typeof a.updateId === 'string' ? a.updateId
    : isObject(a.transaction) ? a.transaction.updateId : isObject(a.transactionTree) ? a.transactionTree.updateId : undefined;
  return typeof id === 'string' ? id : undefined;
}

type Prepares = ReadonlyMap<string, Pick<Exchange, 'request'>>;

/** The prepare requests of a check's exchanges by the prepared transaction each was answered (base64). */
function preparesOf(exchanges: readonly Pick<Exchange, 'path' | 'request' | 'response'>[]): Prepares {
  const out = new Map<string, Pick<Exchange, 'request'>>();
  for (const e of exchanges) {
    if (e.path !== '/v2/interactive-submission/prepare' || e.response?.status !== 200) continue;
    const answer = parse(e.response.text);
    if (isObject(answer) && typeof answer.preparedTransaction === 'string') out.set(answer.preparedTransaction, e);
  }
  return out;
}

/**
 * The commands, submitters and update id of one answered submission; or why they cannot be had.
 * An execution of a prepared transaction is re-run on the commands of the prepare that answered
 * it: what the participant prepared, had signed and committed must be what those commands do.
 */
export function submittedOf(e: Pick<Exchange, 'path' | 'request' | 'response'>, prepares: Prepares = new Map()): Submitted {
  const body = parse(e.request.body);
  let submitted: unknown = body;
  if (e.path.startsWith('/v2/interactive-submission/')) {
    const prepared = isObject(body) && typeof body.preparedTransaction === 'string' ? prepares.get(body.preparedTransaction) : undefined;
    if (prepared === undefined) return { ok: false, reason: 'an interactive submission of a prepared transaction no prepare of the check answered' };
    submitted = parse(prepared.request.body);
  }
  // submit-and-wait and the tree form take the commands at the top; the transaction form nests them.
  const commands = isObject(submitted) && e.path.endsWith('/submit-and-wait-for-transaction') ? submitted.commands : submitted;
  if (!isObject(commands) || !Array.isArray(commands.commands) || !Array.isArray(commands.actAs)) return { ok: false, reason: `the request to ${e.path} holds no commands with actAs` };
  const updateId = answeredUpdateId(e.response?.text);
  if (updateId === undefined) return { ok: false, reason: `the answer of ${e.path} names no updateId` };
  const actAs = commands.actAs.filter((p): p is string => typeof p === 'string');
  const readAs = Array.isArray(commands.readAs) ? commands.readAs.filter((p): p is string => typeof p === 'string') : [];
  return { ok: true, commands: commands.commands.filter(isObject), actAs, readers: [...new Set([...actAs, ...readAs])], updateId };
}

/** The transaction `updateId` as LEDGER_EFFECTS for `parties`, or why it could not be read. */
async function readTransaction(ctx: Pick<CheckContext, 'http'>, updateId: string, parties: readonly string[]): Promise<Json | string> {
  const filters = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
  const updateFormat = { includeTransactions: { eventFormat: { filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])), verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } };
  const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates/update-by-id', json: { updateId, updateFormat } });
  const body = e.response?.status === 200 ? parse(e.response.text) : undefined;
  const tx = isObject(body) && isObject(body.update) && isObject(body.update.Transaction) ? body.update.Transaction.value : undefined;
  return isObject(tx) ? tx : `update-by-id ${updateId} answered ${e.response ? `HTTP ${e.response.status}` : e.error?.message ?? 'nothing'}, not the transaction`;
}

function answeredEvents(e: Exchange): unknown[] {
  const answer = parse(e.response?.text);
  return isObject(answer) && isObject(answer.transaction) && Array.isArray(answer.transaction.events) ? answer.transaction.events : [];
}

function rememberCreated(source: LedgerSource, tx: Json): void {
  for (const e of Array.isArray(tx.events) ? tx.events : []) {
    const c = isObject(e) && isObject(e.CreatedEvent) ? reportedContract(e.CreatedEvent) : undefined;
    if (c !== undefined) source.remember?.(c);
  }
}

/**
 * Re-interprets the transactions the check committed and did not hand over itself. `ctx.http`
 * should be a client whose requests are not the check's own evidence.
 */
export async function reinterpretCommitted(ctx: Pick<CheckContext, 'http' | 'shared' | 'reinterpretation' | 'check'>, exchanges: readonly Exchange[]): Promise<CommittedOutcome> {
  const tally = ctx.reinterpretation;
  let failure: CommittedOutcome['failure'];
  const submissions = exchanges.filter((e) => e.group === 'ledger' && e.request.method === 'POST' && COMMITTING.test(e.path));
  const committed = submissions.filter((e) => e.response?.status === 200);
  if (tally === undefined || submissions.length === 0) return {};
  const source = httpLedgerSource(ctx);
  const prepares = preparesOf(exchanges);
  for (const e of committed) {
    const s = submittedOf(e, prepares);
    if (s.ok && tally.handedUpdate(s.updateId)) continue; // the check handed it over itself
    let r: Reinterpretation | { kind: 'off' };
    if (tally.mode === 'none') r = { kind: 'off' };
    else if (!s.ok) r = { kind: 'skipped', reason: s.reason };
    else {
      const tx = await readTransaction(ctx, s.updateId, s.readers);
      r = typeof tx === 'string' ? { kind: 'skipped', reason: tx } : await reinterpret(source, { commands: s.commands, actAs: s.actAs, parties: s.readers, transaction: tx });
      // The answer itself carries interface views when the request asked for them: the engine's views too.
      const answered = answeredEvents(e);
      if (r.kind === 'agrees' && answered.some((x) => isObject(x) && isObject(x.CreatedEvent) && Array.isArray(x.CreatedEvent.interfaceViews) && x.CreatedEvent.interfaceViews.length > 0)) {
        const views = await viewDifferencesFrom(source, answered);
        if (typeof views === 'string') r = { kind: 'skipped', reason: `interface views: ${views}` };
        else if (views.length > 0) r = { kind: 'differs', differences: views };
      }
      if (typeof tx !== 'string') rememberCreated(source, tx);
    }
    tally.record(ctx.check.id, r);
    if (r.kind === 'differs' && failure === undefined) {
      failure = { message: `the transaction differs from the engine's re-interpretation of its commands: ${r.differences.map(describeDifference).join('; ')}`, exchange: e };
    }
  }
  if (tally.mode === 'engine') {
    for (const e of submissions) {
      const refused = refusedOf(e);
      if (refused === undefined) continue;
      const r = await reinterpretRefusal(source, refused);
      tally.recordRefusal(ctx.check.id, r);
      if (r.kind === 'differs' && failure === undefined) {
        failure = { message: `the refusal differs from the engine's re-interpretation of its commands: ${r.differences.map(describeDifference).join('; ')}`, exchange: e };
      }
    }
  }
  return failure === undefined ? {} : { failure };
}

/** A synchronous submission the target refused with an error of Daml interpretation, as the engine re-runs it. */
function refusedOf(e: Exchange): RefusedSubmission | undefined {
  const status = e.response?.status;
  if (status === undefined || status < 400 || status >= 500 || e.path.startsWith('/v2/interactive-submission/')) return undefined;
  const answer = parse(e.response?.text);
  if (!isObject(answer) || typeof answer.code !== 'string' || !DAML_REFUSAL_CODES.has(answer.code)) return undefined;
  const body = parse(e.request.body);
  const commands = isObject(body) && e.path.endsWith('/submit-and-wait-for-transaction') ? body.commands : body;
  if (!isObject(commands) || !Array.isArray(commands.commands) || !Array.isArray(commands.actAs)) return undefined;
  const actAs = commands.actAs.filter((p): p is string => typeof p === 'string');
  return { commands: commands.commands.filter(isObject), actAs, parties: actAs, code: answer.code };
}
