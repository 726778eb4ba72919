import { offsetOf } from '../checks/support/ledger.js';
import type { TargetClient } from '../target/createTarget.js';
import { jsonOf, type Exchange } from '../target/exchange.js';
import type { JudgedViolation } from './judgeSession.js';
import { observe } from './observe.js';
import type { Observation, TargetModel, Violation } from './targetModel.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);

/** The id under which the follower's own findings are reported when no check's write caused them. */
export const STREAM_CHECK_ID = 'judge.stream.end-of-run';

/** Updates per page of `POST /v2/updates` (under Canton's default http-list-max-elements-limit, 200). */
export const UPDATES_PAGE = 100;
/**
 * Bytes a page should stay under: a page of large transactions (thousands of events each) gets a
 * smaller limit next, so neither side holds its event loop for one huge answer.
 */
const PAGE_BYTES = 256 * 1024;
/**
 * Completions per page, within Canton's default http-list-max-elements-limit (200): with more, a
 * participant answers 413 once a user has more completions than that. A target with a lower
 * limit answers 413 to this too, and gets half as many asked. The list ends once the stream goes
 * quiet this long.
 */
const COMPLETIONS_PAGE = 100;
const COMPLETIONS_IDLE_MS = 300;

/** A command the run committed, as the write's answer named it. */
export interface CommittedWrite {
  readonly checkId: string;
  readonly seen: Observation;
  readonly exchange: Exchange;
  readonly updateId: string;
  readonly offset: number;
  readonly commandId?: string;
  /** The request's userId; absent: the token's user. */
  readonly userId?: string;
  readonly actAs: readonly string[];
  /** Set once the stream was read past its offset and it was judged. */
  judged?: boolean;
}

/** What the follower read, for report.json's `judge.stream`. */
export interface StreamTotals {
  /** The ledger end when the run started (the stream is followed from there), absent when it could not be read. */
  readonly from?: number;
  /** The last offset read. */
  readonly to?: number;
  readonly updates: number;
  readonly completions: number;
  /** Committed writes of the run judged against the stream. */
  readonly writes: number;
  /** Reads of the ledger end, the update stream and the completions. */
  readonly requests: number;
  /** `any-party` (the token reads every party), `parties` (the profile's and the run's), or `off`. */
  readonly filter: 'any-party' | 'parties' | 'off';
  /** Why the follower stopped or skipped a part, when it did. */
  readonly note?: string;
}

const WRITE_PATHS = /^\/v2\/(commands\/submit-and-wait(-for-transaction|-for-transaction-tree|-for-reassignment)?|interactive-submission\/execute-and-wait(-for-transaction)?)$/;

/** The committed update a write's answer names (submit-and-wait and its forms, execute-and-wait). */
export function committedOf(path: string, request: unknown, status: number, body: unknown): { updateId: string; offset: number; commandId?: string; userId?: string; actAs: string[] } | undefined {
  if (!WRITE_PATHS.test(path) || status !== 200 || !isObject(body)) return undefined;
  const wrapped = isObject(body.transaction) ? body.transaction : isObject(body.transactionTree) ? body.transactionTree : isObject(body.reassignment) ? body.reassignment : body;
  const updateId = str(wrapped.updateId);
  const offset = typeof wrapped.offset === 'number' ? wrapped.offset : typeof body.completionOffset === 'number' ? body.completionOffset : undefined;
  if (updateId === undefined || offset === undefined) return undefined;
  const req = isObject(request) ? request : {};
  const cmds = isObject(req.commands) ? req.commands : isObject(req.reassignmentCommands) ? req.reassignmentCommands : req;
  const actAs = strings(cmds.actAs);
  const submitter = str(cmds.submitter);
  const commandId = str(cmds.commandId);
  const userId = str(cmds.userId);
  return { updateId, offset, ...(commandId ? { commandId } : {}), ...(userId ? { userId } : {}), actAs: submitter ? [...actAs, submitter] : actAs };
}

/** One update of an update list element: its kind, id and offset (an offset checkpoint has no id). */
function updateOf(item: unknown): { kind: string; updateId?: string; offset: number } | undefined {
  const u = isObject(item) && isObject(item.update) ? item.update : undefined;
  if (u === undefined) return undefined;
  for (const kind of ['Transaction', 'Reassignment', 'TopologyTransaction', 'OffsetCheckpoint']) {
    const w = u[kind];
    const v = isObject(w) ? (isObject(w.value) ? w.value : w) : undefined;
    if (v !== undefined && typeof v.offset === 'number') return { kind, offset: v.offset, ...(str(v.updateId) ? { updateId: str(v.updateId)! } : {}) };
  }
  return undefined;
}

const completionOf = (item: unknown): Json | undefined => {
  const c = isObject(item) && isObject(item.completionResponse) && isObject(item.completionResponse.Completion) ? item.completionResponse.Completion : undefined;
  return c === undefined ? undefined : isObject(c.value) ? c.value : c;
};

const FILTERS = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };

/**
 * Follows the target's update stream from the ledger end where the run started, for every party
 * the token can read (any party; else the profile's parties and the parties the run's commands act
 * as), and its completions: at the points a judgment needs them (after a check that committed a
 * write, and once at the end), not per request. Everything read goes through `observe` (created
 * events, updates and archives judged against every other face) and is judged by the stream's own
 * rules: offsets increase, each update once, every committed write of the run at its offset, and
 * one completion per committed command naming the same update.
 */
export class StreamFollower {
  private cursor: number | undefined;
  private from: number | undefined;
  private filter: StreamTotals['filter'] = 'any-party';
  private note: string | undefined;
  private readonly parties = new Set<string>();
  /** The offset after which the stream was read for each party (a party joins the filter when the run first acts as it). */
  private readonly coveredAfter = new Map<string, number>();
  private readonly writes: CommittedWrite[] = [];
  /** Update id -> offset, and offset -> update id, as the stream showed them. */
  private readonly streamIds = new Map<string, { offset: number; seen: Observation }>();
  private updates = 0;
  private completions = 0;
  private requests = 0;
  /** The page size the last pages suggested (see PAGE_BYTES): it starts small and grows while pages stay small. */
  private limit = 4;
  /** Syncs run one at a time (checks may finish together). */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly model: TargetModel,
    private readonly client: TargetClient,
    profileParties: readonly string[],
  ) {
    for (const p of profileParties) this.parties.add(p);
  }

  /** Reads the ledger end the run starts from; the follower stays off when the target has no ledger to read. */
  async start(): Promise<void> {
    const end = await this.ledgerEnd();
    if (end === undefined) return this.stop('the ledger end could not be read when the run started');
    this.cursor = this.from = end;
  }

  get active(): boolean {
    return this.cursor !== undefined && this.filter !== 'off';
  }

  /** Notes a write's answer: the command it committed, judged once the stream is read past its offset. */
  noteWrite(checkId: string, seen: Observation, exchange: Exchange, path: string, request: unknown, status: number, body: unknown): boolean {
    const c = committedOf(path, request, status, body);
    if (c === undefined) return false;
    for (const p of c.actAs) this.parties.add(p);
    this.writes.push({ checkId, seen, exchange, ...c });
    return true;
  }

  /** Reads the stream up to the current ledger end and judges it (after a check that committed a write). */
  sync(checkId: string): Promise<JudgedViolation[]> {
    const next = this.chain.then(() => this.readUpdates(checkId));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** The end of the run: the stream up to the ledger end, then the completions of the run's commands. */
  async finish(): Promise<JudgedViolation[]> {
    const found = await this.sync(STREAM_CHECK_ID);
    if (this.active) found.push(...(await this.readCompletions()));
    found.push(...(await this.readRights()));
    return found;
  }

  totals(): StreamTotals {
    return {
      ...(this.from === undefined ? {} : { from: this.from }),
      ...(this.cursor === undefined ? {} : { to: this.cursor }),
      updates: this.updates,
      completions: this.completions,
      writes: this.writes.length,
      requests: this.requests,
      filter: this.filter,
      ...(this.note === undefined ? {} : { note: this.note }),
    };
  }

  private stop(why: string): void {
    this.filter = 'off';
    this.note = why;
  }

  private seenOf(checkId: string, e: Exchange): Observation {
    return { checkId, where: `${e.request.method} ${e.path}`, seq: e.seq, at: e.startedAt };
  }

  private async ledgerEnd(): Promise<number | undefined> {
    this.requests++;
    const e = await this.client.request('ledger', { method: 'GET', path: '/v2/state/ledger-end' });
    const j = e.response?.status === 200 ? jsonOf(e) : undefined;
    const offset = j?.ok && isObject(j.value) ? (j.value.offset ?? 0) : undefined;
    return typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 ? offset : undefined;
  }

  private eventFormat(): Json | undefined {
    if (this.filter === 'any-party') return { filtersForAnyParty: FILTERS, verbose: true };
    if (this.parties.size === 0) return undefined;
    return { filtersByParty: Object.fromEntries([...this.parties].sort().map((p) => [p, FILTERS])), verbose: true };
  }

  private async readUpdates(checkId: string): Promise<JudgedViolation[]> {
    if (!this.active) return [];
    const end = await this.ledgerEnd();
    if (end === undefined) return [];
    const found: JudgedViolation[] = [];
    let begin = this.cursor!;
    // The exchange of the last page read: the evidence for a write the stream did not show.
    let last: { e: Exchange; seen: Observation } | undefined;
    let limit = this.limit;
    while (begin < end) {
      const format = this.eventFormat();
      if (format === undefined) break;
      for (const p of this.parties) if (!this.coveredAfter.has(p)) this.coveredAfter.set(p, begin);
      // LEDGER_EFFECTS: every transaction a party submitted is visible to it (it is an informee of its root actions).
      const request = { beginExclusive: begin, endInclusive: end, updateFormat: { includeTransactions: { eventFormat: format, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' }, includeReassignments: format } };
      const startTick = this.model.tick();
      this.requests++;
      const e = await this.client.request('ledger', { method: 'POST', path: '/v2/updates', query: { limit }, json: request });
      const status = e.response?.status;
      if (((status === 200 && e.response!.truncated) || status === 413) && limit > 1) {
        // More than the suite reads of one answer, or than the target's http-list-max-elements-limit: ask again for fewer.
        limit = Math.max(1, Math.floor(limit / 8));
        continue;
      }
      if ((status === 401 || status === 403) && this.filter === 'any-party') {
        // The token cannot read every party: follow the parties it acts and reads as.
        this.filter = 'parties';
        continue;
      }
      const j = status === 200 ? jsonOf(e) : undefined;
      if (j === undefined || !j.ok || !Array.isArray(j.value)) {
        this.stop(`POST /v2/updates (${begin}, ${end}] answered ${status ?? e.error?.kind ?? 'nothing'}; the stream was followed up to offset ${begin}`);
        break;
      }
      const items = j.value as unknown[];
      const seen = this.seenOf(checkId, e);
      last = { e, seen };
      const judged = (v: Violation) => found.push({ violation: v, exchange: e });
      for (const v of observe(this.model, { method: 'POST', path: '/v2/updates', request, status: 200, body: items }, seen, startTick)) judged(v);
      let prev = begin;
      let top = begin;
      for (const item of items) {
        const u = updateOf(item);
        if (u === undefined) continue;
        top = Math.max(top, u.offset);
        if (u.kind === 'OffsetCheckpoint') continue;
        this.updates++;
        const at = `${u.kind} ${u.updateId ?? '(no updateId)'} at offset ${u.offset}`;
        if (u.offset <= prev || u.offset > end) {
          judged({ invariant: 'judge.stream.offsets-increase', message: `${at} ${u.offset > end ? `is past endInclusive ${end}` : `follows offset ${prev}`} in the update list (${begin}, ${end}]`, second: seen });
        }
        prev = Math.max(prev, u.offset);
        if (u.updateId === undefined) continue;
        const before = this.streamIds.get(u.updateId);
        if (before !== undefined && before.offset !== u.offset) {
          judged({ invariant: 'judge.stream.offsets-increase', message: `update ${u.updateId} is at offset ${u.offset} here and at offset ${before.offset} earlier in the stream: an update is shown once`, first: before.seen, second: seen });
        } else if (before !== undefined) {
          judged({ invariant: 'judge.stream.offsets-increase', message: `update ${u.updateId} at offset ${u.offset} is shown twice by the update stream`, first: before.seen, second: seen });
        } else this.streamIds.set(u.updateId, { offset: u.offset, seen });
      }
      const full = items.length >= limit && top > begin;
      const size = e.response!.size;
      limit = size > PAGE_BYTES ? Math.max(1, Math.floor((limit * PAGE_BYTES) / size)) : full ? Math.min(UPDATES_PAGE, limit * 2) : limit;
      if (!full) {
        begin = end;
        break;
      }
      begin = top;
    }
    this.limit = limit;
    if (begin >= end) this.cursor = end;
    if (last !== undefined) found.push(...this.judgeWrites(this.cursor!, last.e, last.seen));
    return found;
  }

  /** Every committed write of the run up to `upTo` is in the stream, at the offset its answer named. */
  private judgeWrites(upTo: number, e: Exchange, seen: Observation): JudgedViolation[] {
    const found: JudgedViolation[] = [];
    for (const w of this.writes) {
      if (w.offset > upTo || w.judged === true) continue;
      w.judged = true;
      // Read for its parties only: judged when one of them was in the filter of the read that covered its offset.
      if (this.filter === 'parties' && !w.actAs.some((p) => (this.coveredAfter.get(p) ?? Infinity) < w.offset)) continue;
      const inStream = this.streamIds.get(w.updateId);
      if (inStream?.offset === w.offset) continue;
      const message = inStream === undefined
        ? `the write's answer names update ${w.updateId} at offset ${w.offset}; the update stream (${this.from}, ${upTo}] read for ${this.filter === 'any-party' ? 'every party' : `its parties ${w.actAs.join(', ')}`} has no such update`
        : `the write's answer names update ${w.updateId} at offset ${w.offset}; the update stream shows it at offset ${inStream.offset}`;
      found.push({ violation: { invariant: 'judge.writes.answer-is-committed', message, first: w.seen, second: inStream?.seen ?? seen }, exchange: e });
    }
    return found;
  }

  /**
   * The rights of every user the run granted rights to or revoked from without creating it (the
   * run's own user): read once more at the end, each granted right listed and each revoked one
   * gone (judged by `observe` against the writes, judge.writes.visible-after).
   */
  private async readRights(): Promise<JudgedViolation[]> {
    const users = [...new Set(this.model.keysOf('right', '').map((k) => k.slice(0, k.indexOf(' '))))];
    const found: JudgedViolation[] = [];
    for (const user of users) {
      const path = `/v2/users/${encodeURIComponent(user)}/rights`;
      const startTick = this.model.tick();
      this.requests++;
      const e = await this.client.request('ledger', { method: 'GET', path });
      const j = e.response?.status === 200 ? jsonOf(e) : undefined;
      if (j === undefined || !j.ok) continue;
      for (const v of observe(this.model, { method: 'GET', path: e.path, request: undefined, status: 200, body: j.value }, this.seenOf(STREAM_CHECK_ID, e), startTick)) found.push({ violation: v, exchange: e });
    }
    return found;
  }

  /** The completions of the run's committed commands, per user: each exactly once, with the update the answer and the stream name. */
  private async readCompletions(): Promise<JudgedViolation[]> {
    const byUser = new Map<string, CommittedWrite[]>();
    for (const w of this.writes) if (w.commandId !== undefined && w.actAs.length > 0) byUser.set(w.userId ?? '', [...(byUser.get(w.userId ?? '') ?? []), w]);
    const found: JudgedViolation[] = [];
    // Every command of the run completed before this end: reading on past it would follow a busy
    // ledger forever where checkpoints keep every page full.
    const end = await this.ledgerEnd();
    for (const [userId, writes] of byUser) {
      const parties = [...new Set(writes.flatMap((w) => w.actAs))].sort();
      const who = userId === '' ? "the token's user" : `user '${userId}'`;
      const items: unknown[] = [];
      let begin = this.from!;
      let e: Exchange | undefined;
      let limit = COMPLETIONS_PAGE;
      for (;;) {
        // No userId: the token's user (the run's commands named none either).
        const request = { ...(userId === '' ? {} : { userId }), parties, beginExclusive: begin };
        const startTick = this.model.tick();
        this.requests++;
        e = await this.client.request('ledger', { method: 'POST', path: '/v2/commands/completions', query: { limit, stream_idle_timeout_ms: COMPLETIONS_IDLE_MS }, json: request });
        if (e.response?.status === 413 && limit > 1) {
          limit = Math.floor(limit / 2);
          continue;
        }
        const j = e.response?.status === 200 ? jsonOf(e) : undefined;
        if (j === undefined || !j.ok || !Array.isArray(j.value)) {
          // A user the run deleted, or one the token may not read for: nothing to judge by.
          this.note = `POST /v2/commands/completions for ${who} answered ${e.response?.status ?? e.error?.kind ?? 'nothing'}; its completions were not judged`;
          e = undefined;
          break;
        }
        const page = j.value as unknown[];
        for (const v of observe(this.model, { method: 'POST', path: '/v2/commands/completions', request, status: 200, body: page }, this.seenOf(STREAM_CHECK_ID, e), startTick)) found.push({ violation: v, exchange: e });
        items.push(...page);
        // A checkpoint's offset counts: a page can end on one.
        const top = Math.max(begin, ...page.map(offsetOf).filter((o): o is number => o !== undefined));
        if (page.length < limit || top <= begin || (end !== undefined && top >= end)) break;
        begin = top;
      }
      if (e === undefined) continue;
      const seen = this.seenOf(STREAM_CHECK_ID, e);
      const completions = items.map(completionOf).filter((c): c is Json => c !== undefined);
      this.completions += completions.length;
      for (const w of writes) {
        const mine = completions.filter((c) => c.updateId === w.updateId || (c.commandId === w.commandId && (c.offset === w.offset || (isObject(c.status) && (c.status.code ?? 0) === 0))));
        const ofUpdate = mine.filter((c) => c.updateId === w.updateId);
        const bad = (message: string) => found.push({ violation: { invariant: 'judge.completions.once-per-command', message: `command ${w.commandId} (update ${w.updateId} at offset ${w.offset}): ${message}`, first: w.seen, second: seen }, exchange: e });
        if (ofUpdate.length === 0) bad(mine.length === 0 ? `no completion among the ${completions.length} completion(s) of ${who} for ${parties.join(', ')} since offset ${this.from}` : `its completion names update ${String(mine[0]!.updateId)} at offset ${String(mine[0]!.offset)}`);
        else if (ofUpdate.length > 1) bad(`${ofUpdate.length} completions name this update (offsets ${ofUpdate.map((c) => String(c.offset)).join(', ')}); a command completes once`);
        else if (ofUpdate[0]!.commandId !== w.commandId || ofUpdate[0]!.offset !== w.offset) bad(`its completion is command ${String(ofUpdate[0]!.commandId)} at offset ${String(ofUpdate[0]!.offset)}`);
      }
    }
    return found;
  }
}
