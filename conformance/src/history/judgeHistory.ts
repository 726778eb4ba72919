/**
 * The history judge's one entry: after a check, the token-standard history of every party it acted
 * as is read back from the target (`POST /v2/updates`, the event format wallet-sdk reads holdings
 * history with), parsed by the published parser (@canton-network/core-tx-parser, as a wallet
 * would), and every holding the check's transactions created or archived for those parties must
 * be explained by a parsed entry: under a token-standard choice (the parser's strict mode), seen
 * by the parser at all, and, for transfers, moving the instructed amount to the instructed
 * receiver. Only the check's own updates are judged, so a violation is always its own.
 */
import type * as CoreTxParser from '@canton-network/core-tx-parser';
import type { TokenStandardEvent, Transaction } from '@canton-network/core-tx-parser';
import { isObject, type Json } from '../checks/support/expect.js';
import type { TargetClient } from '../target/createTarget.js';
import type { Exchange } from '../target/exchange.js';
import { allocatedParties, committedSubmissions, parse as parseBody, type CommittedSubmission } from './committedSubmissions.js';
import { sameDecimal, sumDecimals } from './decimals.js';
import type { JudgeHistoryId } from './historyIds.js';
import { eventsOf, HOLDING_V1, holdingChangesOf, TRANSFER_INSTRUCTION_V1, type ContractEvents, type HoldingChange } from './holdingChanges.js';
import { httpLedgerProvider, LedgerApiRefusal, type ParserLedgerProvider } from './ledgerProvider.js';

export type HistoryMode = 'parser' | 'none';

export interface HistoryViolation {
  readonly id: JudgeHistoryId;
  readonly party: string;
  readonly updateId: string;
  readonly offset: number;
  /** The holding (contract id) the violation is about, when it is about one. */
  readonly holding?: string;
  readonly message: string;
  /** The read that showed it (the party's updates, or a lookup the parser made). */
  readonly exchange: Exchange;
}

export type HistoryOutcome =
  /** The check committed no transaction moving a holding of a party it acted as. */
  | { readonly kind: 'none' }
  /** `unlabelled`: holding changes the parser does not label (beneath allocation choices, or under a tx-kind it does not know): not failed, counted. */
  | { readonly kind: 'judged'; readonly transactions: number; readonly holdings: number; readonly unlabelled: number; readonly violations: readonly HistoryViolation[] }
  /** The history could not be read or parsed for a reason that is not the target's fault to judge: never a pass. */
  | { readonly kind: 'skipped'; readonly reason: string };

type ParserModule = typeof CoreTxParser;
let loaded: Promise<{ ok: true; mod: ParserModule } | { ok: false; reason: string }> | undefined;

/** The parser, imported once, like a client would (ESM); a package without it skips the judge, saying so. */
function parserModule() {
  loaded ??= import('@canton-network/core-tx-parser').then(
    (mod) => ({ ok: true as const, mod }),
    (e: unknown) => ({ ok: false as const, reason: `@canton-network/core-tx-parser cannot be loaded: ${(e as Error)?.message ?? String(e)}` }),
  );
  return loaded;
}

/** The event format wallet-sdk reads a party's token-standard history with: the standard's interfaces with views, and a wildcard. */
export function historyEventFormat(party: string, interfaceIds: readonly string[]): Json {
  const byInterface = interfaceIds.map((interfaceId) => ({ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: true } } } }));
  return { filtersByParty: { [party]: { cumulative: [...byInterface, { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] } }, verbose: true };
}

/** Judges the token-standard history behind the transactions in `exchanges` (one check's). */
export async function judgeHistory(client: TargetClient, exchanges: readonly Exchange[]): Promise<HistoryOutcome> {
  const subs = committedSubmissions(exchanges);
  if (subs.length === 0) return { kind: 'none' };
  const parser = await parserModule();
  if (!parser.ok) return { kind: 'skipped', reason: parser.reason };
  // The parties it acted as, and those it allocated (a receiver that never acts): the suite holds the rights to read both.
  const parties = [...new Set([...subs.flatMap((s) => s.actAs), ...allocatedParties(exchanges)])];
  let transactions = 0;
  let holdings = 0;
  let unlabelled = 0;
  const violations: HistoryViolation[] = [];
  for (const party of parties) {
    const r = await judgeParty(parser.mod, client, party, subs, commandsOf(exchanges));
    if (r.kind === 'skipped') return r;
    transactions += r.transactions;
    holdings += r.holdings;
    unlabelled += r.unlabelled;
    violations.push(...r.violations);
  }
  return transactions === 0 ? { kind: 'none' } : { kind: 'judged', transactions, holdings, unlabelled, violations };
}

type PartyOutcome = { kind: 'judged'; transactions: number; holdings: number; unlabelled: number; violations: HistoryViolation[] } | { kind: 'skipped'; reason: string };

async function judgeParty(mod: ParserModule, client: TargetClient, party: string, subs: readonly CommittedSubmission[], commands: (sub: CommittedSubmission) => readonly Json[]): Promise<PartyOutcome> {
  const none: PartyOutcome = { kind: 'judged', transactions: 0, holdings: 0, unlabelled: 0, violations: [] };
  // First the check's updates with an event of the standard's interfaces (no payloads, no wildcard):
  // most checks move no holding, and their transactions, however large, are not read again.
  const token = await readUpdates(client, party, subs.map((s) => s.offset), { filtersByParty: { [party]: { cumulative: mod.TokenStandardTransactionInterfaces.map((interfaceId) => ({ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: false, includeCreatedEventBlob: false } } } })) } }, verbose: false });
  if (token.kind === 'skipped') return token;
  const mine = new Set(subs.map((s) => s.updateId).filter((id) => token.txs.some((t) => t.updateId === id)));
  if (mine.size === 0) return none;
  const full = await readUpdates(client, party, subs.filter((s) => mine.has(s.updateId)).map((s) => s.offset), historyEventFormat(party, mod.TokenStandardTransactionInterfaces));
  if (full.kind === 'skipped') return full;
  const read = full.exchange;
  const txs = full.txs.filter((t) => mine.has(String(t.updateId)));
  const provider = cachingProvider(httpLedgerProvider(client));
  let transactions = 0;
  let holdings = 0;
  let unlabelled = 0;
  const violations: HistoryViolation[] = [];
  for (const tx of txs) {
    const at = { party, updateId: String(tx.updateId), offset: Number(tx.offset) };
    const truth = await holdingChangesOf(tx, party, (id) => eventsByContractId(provider, party, id));
    if (truth.unknown !== undefined) return { kind: 'skipped', reason: truth.unknown };
    // A transaction that moves none of the party's holdings and exercises no token-standard choice has no history entry to judge.
    if (truth.changes.length === 0 && !exercisesTokenStandard(tx)) continue;
    transactions++;
    holdings += truth.changes.length;
    let parsed: Transaction;
    try {
      parsed = await new mod.TransactionParser(provider as never, asV1Transfers(tx) as never, party, false).parseTransaction();
    } catch (e) {
      if (e instanceof LedgerApiRefusal && (e.exchange.response?.status === 401 || e.exchange.response?.status === 403)) return { kind: 'skipped', reason: `the parser's lookup was refused (${e.message}): ${party}'s history is not judged` };
      // tx-kind is meta the package's Daml code writes (Splice 0.1.22 writes 'settle-V2-allocation',
      // which a published parser may predate): the parser's gap, not the ledger's. Counted, not failed.
      if (UNKNOWN_TX_KIND.test((e as Error)?.message ?? '')) {
        unlabelled += truth.changes.length;
        continue;
      }
      const evidence = e instanceof LedgerApiRefusal ? e.exchange : read;
      violations.push({ ...at, id: 'judge.history.unparsable', message: `the parser cannot read ${party}'s update ${at.updateId} (offset ${at.offset}): ${(e as Error)?.message?.slice(0, 400) ?? String(e)}`, exchange: evidence });
      continue;
    }
    const found = explainChanges(parsed.events, truth.changes, at, read);
    const allocations = underAllocationChoices(tx);
    const sub = subs.find((x) => x.updateId === at.updateId);
    const direct = directlyCommanded(parsed.events, sub === undefined ? [] : commands(sub));
    // The parser labels no allocation choice (Splice's own Amulet shows tx-kind-annotated transfers
    // beneath them), and no holding the suite's own command made or archived directly (a create of
    // the profile's template that implements Holding, its Archive): counted, not failed.
    const notTargets = (v: HistoryViolation) => v.id === 'judge.history.unexplained' && (allocations.has(v.holding!) || direct.has(v.holding!));
    unlabelled += found.filter(notTargets).length;
    violations.push(...found.filter((v) => !notTargets(v)), ...transferOutcomes(parsed.events, at, read));
  }
  return { kind: 'judged', transactions, holdings, unlabelled, violations };
}

/** The parser's parent choice for an event at the transaction's root (core-tx-parser). */
const ROOT = 'none (root node)';

/**
 * Holdings the submission's own commands created or archived at the root, not beneath a choice of
 * the target's: a create (its template implements Holding) under no choice, or an archive under a
 * choice the submission exercised directly that is not the token standard's (`Archive`). Strict
 * mode rejects those transactions whatever the ledger does: the command, not the target, made them.
 */
function directlyCommanded(events: readonly TokenStandardEvent[], commands: readonly Json[]): Set<string> {
  const out = new Set<string>();
  const creates = commands.some((c) => isObject(c.CreateCommand) || isObject(c.CreateAndExerciseCommand));
  const exercised = new Set(commands.flatMap((c) => {
    const x = isObject(c.ExerciseCommand) ? c.ExerciseCommand : isObject(c.CreateAndExerciseCommand) ? c.CreateAndExerciseCommand : undefined;
    return x !== undefined && typeof x.choice === 'string' && !TOKEN_STANDARD_CHOICE.test(x.choice) ? [x.choice] : [];
  }));
  for (const e of events) {
    if (!isRaw(e)) continue;
    const l = e.label as { type?: string; parentChoice?: string; contractId?: unknown };
    // A consuming exercise at the root shows its archive at the root too (the parser's call stack is empty).
    const byCommand = l.type !== 'Archive' ? creates && l.parentChoice === ROOT : exercised.size > 0 && (l.parentChoice === ROOT || exercised.has(l.parentChoice ?? ''));
    if (byCommand) out.add(String(l.contractId));
  }
  return out;
}

/**
 * The commands behind a committed submission: its own (`commands.commands`), or, for an
 * interactive execution, those of the check's prepare that answered the executed transaction.
 */
function commandsOf(exchanges: readonly Exchange[]): (sub: CommittedSubmission) => readonly Json[] {
  const listOf = (req: unknown): Json[] => {
    const body = isObject(req) && isObject(req.commands) && !Array.isArray(req.commands) ? req.commands : req;
    return isObject(body) && Array.isArray(body.commands) ? body.commands.filter(isObject) : [];
  };
  const prepared = new Map<string, Json[]>();
  for (const e of exchanges) {
    if (e.path !== '/v2/interactive-submission/prepare' || e.response?.status !== 200) continue;
    const res = parseBody(e.response.text);
    if (isObject(res) && typeof res.preparedTransaction === 'string') prepared.set(res.preparedTransaction, listOf(parseBody(e.request.body)));
  }
  return (sub) => {
    const req = parseBody(sub.exchange.request.body);
    const own = listOf(req);
    if (own.length > 0) return own;
    return isObject(req) && typeof req.preparedTransaction === 'string' ? (prepared.get(req.preparedTransaction) ?? []) : [];
  };
}

/** Choices of the token standard's interfaces: a holding moved beneath one must be labelled. */
const TOKEN_STANDARD_CHOICE = /^(TransferFactory_|TransferInstruction_|AllocationFactory_|Allocation_|AllocationInstruction_|AllocationRequest_|SettlementFactory_|BurnMintFactory_)/;

/** The parser's refusal of a tx-kind it does not know (core-tx-parser: `Unknown tx-kind '<kind>'`). */
const UNKNOWN_TX_KIND = /^Unknown tx-kind '/;

const ALLOCATION_CHOICE = /^(AllocationFactory_|Allocation_|AllocationInstruction_|AllocationRequest_|SettlementFactory_)/;

/** Contracts created or consumed beneath an exercise of an allocation choice (by node ranges). */
function underAllocationChoices(tx: Json): Set<string> {
  const events = eventsOf(tx);
  const ranges = events.filter((e) => e.kind === 'exercised' && ALLOCATION_CHOICE.test(String(e.event.choice))).map((e) => [e.nodeId, Number(e.event.lastDescendantNodeId)] as const);
  return new Set(events.filter((e) => ranges.some(([from, to]) => e.nodeId > from && e.nodeId <= to)).map((e) => String(e.event.contractId)));
}

/**
 * Token standard v2 names accounts where v1 names parties (`transfer.sender.owner`); the published
 * parser reads v1's shape, so a v2 transfer's accounts are handed to it as their owners.
 */
export function asV1Transfers(tx: Json): Json {
  const events = Array.isArray(tx.events) ? tx.events : [];
  const owner = (v: unknown) => (isObject(v) && typeof v.owner === 'string' ? v.owner : v);
  return {
    ...tx,
    events: events.map((e) => {
      const x = isObject(e) && isObject(e.ExercisedEvent) ? e.ExercisedEvent : undefined;
      const arg = x && isObject(x.choiceArgument) ? x.choiceArgument : undefined;
      const t = arg && isObject(arg.transfer) ? arg.transfer : undefined;
      if (!x || !t || (!isObject(t.sender) && !isObject(t.receiver))) return e;
      return { ExercisedEvent: { ...x, choiceArgument: { ...arg, transfer: { ...t, sender: owner(t.sender), receiver: owner(t.receiver) } } } };
    }),
  };
}

type Read = { kind: 'read'; txs: Json[]; exchange: Exchange } | { kind: 'skipped'; reason: string };

/** The party's transactions at the offsets' range through `eventFormat`, as wallet-sdk reads them (LEDGER_EFFECTS). */
async function readUpdates(client: TargetClient, party: string, offsets: readonly number[], eventFormat: Json): Promise<Read> {
  const e = await client.request('ledger', {
    method: 'POST', path: '/v2/updates', query: { stream_idle_timeout_ms: 1000 },
    json: { beginExclusive: Math.min(...offsets) - 1, endInclusive: Math.max(...offsets), updateFormat: { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } } },
  });
  if (e.response?.truncated) return { kind: 'skipped', reason: `${party}'s updates are larger than the suite reads (${e.response.size} bytes): its token-standard history is not judged` };
  const body = e.response?.status === 200 ? parse(e.response.text) : undefined;
  if (!Array.isArray(body)) {
    const why = e.response ? `HTTP ${e.response.status}` : (e.error?.message ?? 'no answer');
    return { kind: 'skipped', reason: `the target did not let the suite read ${party}'s updates (POST /v2/updates answered ${why}): its token-standard history is not judged` };
  }
  const txs = body.flatMap((u) => (isObject(u) && isObject(u.update) && isObject(u.update.Transaction) && isObject(u.update.Transaction.value) ? [u.update.Transaction.value] : []));
  return { kind: 'read', txs, exchange: e };
}

interface At {
  readonly party: string;
  readonly updateId: string;
  readonly offset: number;
}

const place = (at: At) => `update ${at.updateId} (offset ${at.offset})`;

/** A raw label (the parser found the holding under no token-standard choice): RawCreate / RawArchive carry `parentChoice`. */
const isRaw = (e: TokenStandardEvent) => 'parentChoice' in e.label;

/** Every holding change of the party is in a parsed entry under a known choice (strict mode), or at least seen. */
function explainChanges(events: readonly TokenStandardEvent[], truth: readonly HoldingChange[], at: At, read: Exchange): HistoryViolation[] {
  const out: HistoryViolation[] = [];
  const known = { created: new Set<string>(), archived: new Set<string>() };
  const raw = new Map<string, TokenStandardEvent>();
  for (const e of events) {
    if (isRaw(e)) {
      raw.set(String((e.label as { contractId?: unknown }).contractId), e);
      continue;
    }
    for (const h of [...e.unlockedHoldingsChange.creates, ...e.lockedHoldingsChange.creates]) known.created.add(h.contractId);
    for (const h of [...e.unlockedHoldingsChange.archives, ...e.lockedHoldingsChange.archives]) known.archived.add(h.contractId);
  }
  for (const [contractId, e] of raw) {
    const l = e.label as { type: string; templateId?: string; parentChoice?: string };
    out.push({ ...at, id: 'judge.history.unexplained', holding: contractId, exchange: read, message: `${at.party}'s ${place(at)} ${l.type === 'Archive' ? 'archives' : 'creates'} holding ${contractId} (${l.templateId ?? 'template not shown'}) under ${l.parentChoice ?? 'no choice'}, not under a token-standard choice: the parser's strict mode rejects it` });
  }
  for (const c of truth) {
    if (known[c.change].has(c.contractId) || raw.has(c.contractId)) continue;
    out.push({ ...at, id: 'judge.history.unseen', holding: c.contractId, exchange: read, message: `${at.party}'s ${place(at)} ${c.change === 'created' ? 'creates' : 'archives'} holding ${c.contractId} (${c.view.amount} ${c.view.instrumentId.id}, node ${c.nodeId}), but no parsed history entry shows it${c.shown === false ? ' (its own events say it was archived at this offset, yet the update shows no consuming event on it)' : c.change === 'archived' ? ' (does its consuming event list the Holding interface in implementedInterfaces?)' : ''}` });
  }
  return out;
}

const ownerOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : isObject(v) && typeof v.owner === 'string' ? v.owner : undefined);

/** Transfers the parser labelled: a Completed one moves `amount` to `receiver` and nothing to others; any other status creates nothing for the receiver. */
function transferOutcomes(events: readonly TokenStandardEvent[], at: At, read: Exchange): HistoryViolation[] {
  const out: HistoryViolation[] = [];
  for (const e of events) {
    const ti = e.transferInstruction;
    const t = ti && isObject(ti.transfer) ? ti.transfer : undefined;
    const tag = ti?.status.current?.tag;
    if (!t || tag === undefined || isRaw(e)) continue;
    const sender = ownerOf(t.sender);
    const receiver = ownerOf(t.receiver);
    const amount = typeof t.amount === 'string' ? t.amount : undefined;
    const instrument = isObject(t.instrumentId) ? String(t.instrumentId.id) : undefined;
    if (sender === undefined || receiver === undefined || amount === undefined || sender === receiver) continue;
    const choice = e.label.type === 'TransferOut' || e.label.type === 'TransferIn' || e.label.type === 'MergeSplit' ? (e.label.tokenStandardChoice?.name ?? 'a transfer') : 'a transfer';
    const fail = (message: string) => out.push({ ...at, id: 'judge.history.transfer-outcome', exchange: read, message: `${at.party}'s ${place(at)}: ${choice} of ${amount} ${instrument ?? ''} from ${sender} to ${receiver} ended ${tag}, but ${message}` });
    const received = e.unlockedHoldingsChange.creates;
    if (tag === 'Completed' && at.party === sender) {
      const got = e.label.type === 'TransferOut' ? e.label.receiverAmounts : [];
      const others = got.filter((r) => r.receiver !== receiver);
      const mine = got.filter((r) => r.receiver === receiver);
      if (e.label.type !== 'TransferOut') fail(`the sender's history labels it ${e.label.type}, not TransferOut: no holding of another party was created`);
      else if (others.length > 0) fail(`holdings went to ${others.map((r) => `${r.receiver} (${r.amount})`).join(', ')}, not the receiver`);
      else if (mine.length !== 1 || !sameDecimal(mine[0]!.amount, amount)) fail(`the receiver got ${mine.map((r) => r.amount).join(' + ') || 'nothing'}`);
    } else if (tag === 'Completed' && at.party === receiver) {
      const wrong = received.filter((h) => instrument !== undefined && h.instrumentId.id !== instrument);
      const total = sumDecimals(received.map((h) => h.amount)) ?? 'an unreadable amount';
      if (e.label.type !== 'TransferIn') fail(`the receiver's history labels it ${e.label.type}, not TransferIn`);
      else if (wrong.length > 0) fail(`the receiver got holdings of ${wrong.map((h) => h.instrumentId.id).join(', ')}`);
      else if (!sameDecimal(total, amount)) fail(`the receiver's new holdings add up to ${total}`);
    } else if (tag !== 'Completed' && at.party === receiver && received.length > 0) {
      fail(`the receiver got holdings ${received.map((h) => `${h.contractId} (${h.amount})`).join(', ')}`);
    } else if (tag !== 'Completed' && at.party === sender && e.label.type === 'TransferOut') {
      fail(`holdings went to ${e.label.receiverAmounts.map((r) => `${r.receiver} (${r.amount})`).join(', ')}`);
    }
  }
  return out;
}

/** The transaction exercises a choice of the token standard's interfaces (a transfer that moved nothing of the party's is still judged). */
function exercisesTokenStandard(tx: Json): boolean {
  const events = Array.isArray(tx.events) ? tx.events : [];
  return events.some((e) => isObject(e) && isObject(e.ExercisedEvent) && /^(TransferFactory_Transfer|TransferInstruction_|BurnMintFactory_BurnMint|AllocationFactory_Allocate|Allocation_)/.test(String(e.ExercisedEvent.choice)));
}

/** The events of `contractId` through the Holding filter, as the party sees them (the parser's own lookup, so one request serves both). */
async function eventsByContractId(provider: ParserLedgerProvider, party: string, contractId: string): Promise<ContractEvents | undefined> {
  try {
    const b = await provider.request({ method: 'ledgerApi', params: { resource: '/v2/events/events-by-contract-id', requestMethod: 'post', body: lookupBody(party, contractId) } });
    if (!isObject(b) || !isObject(b.created) || !isObject(b.created.createdEvent)) return undefined;
    const archived = isObject(b.archived) && isObject(b.archived.archivedEvent) ? b.archived.archivedEvent : undefined;
    return { created: b.created.createdEvent, ...(archived ? { archivedAtOffset: Number(archived.offset), archivedNodeId: Number(archived.nodeId) } : {}) };
  } catch (e) {
    if (e instanceof LedgerApiRefusal && e.exchange.response?.status === 404) return undefined;
    throw e;
  }
}

/** The body core-tx-parser sends for an archived contract (interfaces Holding and TransferInstruction, verbose), key for key. */
function lookupBody(party: string, contractId: string): Json {
  const filter = (interfaceId: string) => ({ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: true } } } });
  return { contractId, eventFormat: { filtersByParty: { [party]: { cumulative: [filter(HOLDING_V1), filter(TRANSFER_INSTRUCTION_V1)] } }, verbose: true } };
}

/** Lookups by contract id answered once per party and judge (the same contract's events are immutable once archived). */
function cachingProvider(inner: ParserLedgerProvider): ParserLedgerProvider {
  const memo = new Map<string, Promise<unknown>>();
  return {
    request(args) {
      const key = JSON.stringify(args);
      let hit = memo.get(key);
      if (hit === undefined) {
        hit = inner.request(args);
        memo.set(key, hit);
      }
      return hit;
    },
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
