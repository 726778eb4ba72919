import { createContract, eventsOf, freshParty, ledgerEnd, notBeforePruned, readParty, suiteParty, transactionsOf, updates, updatesRequest, offsetOf } from './support/ledger.js';
import { expectCantonError, expectStatus, isObject } from './support/expect.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** Offered when the run has no token: a well-formed but unsigned JWT, so the offer looks like a real client's. */
const PLACEHOLDER_JWT = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"conformance-suite"}').toString('base64url')}.`;

const check = (c: Omit<CheckDefinition, 'group' | 'operationId'> & { operationId?: string }): CheckDefinition => ({ group: 'ledger', operationId: LedgerOp.updates, ...c });

/** The party and offset range to compare streams over: the suite's recent writes, or the profile party's tail. */
async function window(ctx: CheckContext): Promise<{ party: string | undefined; begin: number; end: number }> {
  if (ctx.profile.writes && ctx.profile.ledger?.template && (ctx.profile.ledger.allocateParties || ctx.profile.ledger.party)) {
    const party = await suiteParty(ctx);
    const begin = (await ledgerEnd(ctx)).offset;
    for (let i = 0; i < 3; i++) await createContract(ctx, party);
    return { party, begin, end: (await ledgerEnd(ctx)).offset };
  }
  const end = (await ledgerEnd(ctx)).offset;
  return { party: ctx.profile.ledger?.party, begin: await notBeforePruned(ctx, Math.max(0, end - 200)), end };
}

/**
 * Why the stream's offset checkpoints break their promise, or undefined: a client restarts from the
 * last checkpoint it saw, so no update may come after one at or below its offset, and none lies
 * past the range's end.
 */
function checkpointsAhead(items: readonly unknown[], end: number): string | undefined {
  let checkpoint: number | undefined;
  for (const item of items) {
    const offset = offsetOf(item);
    if (offset === undefined) continue;
    if (isObject(item) && isObject(item.update) && 'OffsetCheckpoint' in item.update) {
      if (offset > end) return `an OffsetCheckpoint at ${offset} is beyond endInclusive ${end}`;
      checkpoint = Math.max(checkpoint ?? offset, offset);
    } else if (checkpoint !== undefined && offset <= checkpoint) {
      return `an update at offset ${offset} follows an OffsetCheckpoint at ${checkpoint}: a client restarting from the checkpoint never reads it`;
    }
  }
  return undefined;
}

/** An RFC 3339 timestamp in microseconds since the epoch (the API's precision), or undefined. */
function micros(ts: unknown): number | undefined {
  if (typeof ts !== 'string') return undefined;
  const fraction = /\.(\d+)/.exec(ts)?.[1] ?? '';
  const ms = Date.parse(ts.replace(/\.\d+/, ''));
  return Number.isNaN(ms) ? undefined : ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/**
 * Why an offset checkpoint's synchronizer times break their promise, or undefined: a checkpoint
 * tells a client that time on each synchronizer it names has reached its record time, so none
 * may lie before the record time of an update on that synchronizer the stream already sent.
 */
function checkpointTimesBehind(items: readonly unknown[]): string | undefined {
  const latest = new Map<string, { time: number; offset: number; at: string }>();
  for (const item of items) {
    const update = isObject(item) && isObject(item.update) ? item.update : undefined;
    if (update === undefined) continue;
    const checkpoint = isObject(update.OffsetCheckpoint) && isObject(update.OffsetCheckpoint.value) ? update.OffsetCheckpoint.value : undefined;
    if (checkpoint !== undefined) {
      for (const t of Array.isArray(checkpoint.synchronizerTimes) ? checkpoint.synchronizerTimes : []) {
        if (!isObject(t) || typeof t.synchronizerId !== 'string') continue;
        const time = micros(t.recordTime);
        const before = latest.get(t.synchronizerId);
        if (time !== undefined && before !== undefined && time < before.time) {
          return `the OffsetCheckpoint at ${String(checkpoint.offset)} names record time ${String(t.recordTime)} for ${t.synchronizerId}, before the update it follows at offset ${before.offset} (recorded ${before.at}): a client waiting on checkpoints for time to pass is told it went back`;
        }
      }
      continue;
    }
    for (const kind of Object.values(update)) {
      const v = isObject(kind) && isObject(kind.value) ? kind.value : undefined;
      const time = micros(v?.recordTime);
      const sync = typeof v?.synchronizerId === 'string' ? v.synchronizerId : undefined;
      if (v === undefined || time === undefined || sync === undefined || typeof v.offset !== 'number') continue;
      if (time > (latest.get(sync)?.time ?? -Infinity)) latest.set(sync, { time, offset: v.offset, at: String(v.recordTime) });
    }
  }
  return undefined;
}

export const ledgerUpdateChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.submit.in-updates',
    title: 'A created contract appears in the updates between the ledger ends before and after, at its completion offset',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: POST /v2/updates; ${UPSTREAM_B}: updates (beginExclusive, endInclusive]`,
    requires: { writes: true },
    async run(ctx) {
      const party = await suiteParty(ctx);
      const before = await ledgerEnd(ctx);
      const created = await createContract(ctx, party);
      const after = await ledgerEnd(ctx);
      const { exchange, transactions } = await updates(ctx, party, before.offset, after.offset);
      const tx = transactions.find((t) => t.updateId === created.updateId);
      if (!tx) return ctx.fail(`the transaction ${created.updateId} is not among the ${transactions.length} update(s) in (${before.offset}, ${after.offset}]`, exchange);
      if (tx.offset !== created.completionOffset) ctx.fail(`the transaction is at offset ${tx.offset} in updates but ${created.completionOffset} in the submission answer`, exchange);
      if (!eventsOf(tx).created.includes(created.contractId)) ctx.fail(`the transaction in updates has no CreatedEvent for ${created.contractId}`, exchange);
    },
  }),
  check({
    id: 'ledger.updates.ordered',
    title: 'Updates come in strictly increasing offsets within (beginExclusive, endInclusive], each updateId once, none after an offset checkpoint at or past its offset, and no checkpoint names a synchronizer time before an update it follows',
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_B}: beginExclusive/endInclusive; every transaction one offset, updateId unique; OffsetCheckpoint (an offset to restart consumption from; synchronizer_times: the record time each synchronizer reached)`,
    async run(ctx) {
      const w = await window(ctx);
      const { exchange, items, transactions } = await updates(ctx, w.party, w.begin, w.end);
      const seen = new Set<string>();
      let last = w.begin;
      for (const t of transactions) {
        if (t.offset <= last) ctx.fail(`offset ${t.offset} follows ${last}: offsets must increase strictly and start after beginExclusive ${w.begin}`, exchange);
        if (t.offset > w.end) ctx.fail(`offset ${t.offset} is beyond endInclusive ${w.end}`, exchange);
        if (seen.has(t.updateId)) ctx.fail(`updateId ${t.updateId} appears twice`, exchange);
        seen.add(t.updateId);
        last = t.offset;
      }
      const wrong = checkpointsAhead(items, w.end);
      if (wrong !== undefined) ctx.fail(wrong, exchange);
      const behind = checkpointTimesBehind(items);
      if (behind !== undefined) ctx.fail(behind, exchange);
      // The range extended by another party's transaction, which the party does not see: a
      // participant may answer its offset with a checkpoint, whose synchronizer times are judged.
      if (w.party === undefined || !ctx.profile.ledger?.allocateParties) return;
      await createContract(ctx, await freshParty(ctx, 'cc-ordered-other'));
      const end = (await ledgerEnd(ctx)).offset;
      const longer = await updates(ctx, w.party, w.begin, end);
      const ahead = checkpointsAhead(longer.items, end);
      if (ahead !== undefined) ctx.fail(ahead, longer.exchange);
      const later = checkpointTimesBehind(longer.items);
      if (later !== undefined) ctx.fail(later, longer.exchange);
    },
  }),
  check({
    id: 'ledger.updates.websocket-matches-http',
    title: 'The WebSocket on /v2/updates streams the same transactions as the HTTP list, once each, in the same order, with no offset checkpoint ahead of them',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: POST /v2/updates and WebSocket on /v2/updates`,
    async run(ctx) {
      if (ctx.profile.ledger?.websocket === false) ctx.skip(`profile '${ctx.profile.name}' says the target has no WebSocket (ledger.websocket: false)`);
      const w = await window(ctx);
      const http = await updates(ctx, w.party, w.begin, w.end);
      const ws = await ctx.http.stream('ledger', '/v2/updates', {
        request: updatesRequest(w.party, w.begin, w.end),
        operationId: LedgerOp.updates,
        // With endInclusive the server closes after the last element; stop early once it has been seen.
        until: (messages) => transactionsOf(messages).some((t) => t.offset >= w.end) && transactionsOf(messages).length >= http.transactions.length,
        idleMs: 3000,
      });
      if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
      if (ws.error && ws.messages.length === 0) ctx.fail(`the WebSocket failed: ${ws.error.message}`, ws.exchange);
      const errorFrame = ws.messages.find((m) => isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string');
      if (errorFrame) ctx.fail(`the stream sent an error frame: ${JSON.stringify(errorFrame).slice(0, 300)}`, ws.exchange);
      if (ws.nonJson.length > 0) ctx.fail(`the stream sent ${ws.nonJson.length} frame(s) that are not JSON, e.g. ${ws.nonJson[0]!.slice(0, 100)}`, ws.exchange);
      const a = http.transactions.map((t) => `${t.offset}:${t.updateId}`);
      const b = transactionsOf(ws.messages).filter((t) => t.offset <= w.end).map((t) => `${t.offset}:${t.updateId}`);
      const missing = a.filter((x) => !b.includes(x));
      const extra = b.filter((x) => !a.includes(x));
      if (missing.length > 0 || extra.length > 0) {
        ctx.fail(`HTTP listed ${a.length} transaction(s), the WebSocket ${b.length}; only in HTTP: ${missing.slice(0, 5).join(', ') || 'none'}; only on the WebSocket: ${extra.slice(0, 5).join(', ') || 'none'}`, ws.exchange);
      }
      const early = checkpointsAhead(ws.messages, w.end);
      if (early !== undefined) ctx.fail(`on the WebSocket ${early}`, ws.exchange);
      // The same set is not enough: a stream reader applies each transaction once, in offset order.
      const at = b.findIndex((x, i) => x !== a[i]);
      if (missing.length === 0 && extra.length === 0 && (at >= 0 || a.length !== b.length)) {
        ctx.fail(`the WebSocket sent the same transactions as HTTP but not once each in offset order: element ${at >= 0 ? at : a.length} is ${b[at >= 0 ? at : a.length] ?? 'missing'}, HTTP's is ${a[at >= 0 ? at : a.length] ?? 'the end'}`, ws.exchange);
      }
      ctx.setEvidence(ws.exchange);
    },
  }),
  check({
    id: 'ledger.updates.websocket-subprotocol',
    title: 'The WebSocket on /v2/updates selects daml.ws.auth when a client offers jwt.token.<JWT> and daml.ws.auth',
    level: 'MUST',
    kind: 'example',
    specRef: `${SD_B}: WebSocket on /v2/updates (subprotocols jwt.token.<JWT>, daml.ws.auth); ${UPSTREAM_B}: WebSocket authentication (the server selects daml.ws.auth)`,
    async run(ctx) {
      if (ctx.profile.ledger?.websocket === false) ctx.skip(`profile '${ctx.profile.name}' says the target has no WebSocket (ledger.websocket: false)`);
      const end = (await ledgerEnd(ctx)).offset;
      // An empty range: the handshake is what is judged, and the server closes right after.
      const ws = await ctx.http.stream('ledger', '/v2/updates', {
        request: updatesRequest(await readParty(ctx), end, end),
        placeholderJwt: PLACEHOLDER_JWT,
        operationId: LedgerOp.updates,
        idleMs: 1000,
      });
      ctx.setEvidence(ws.exchange);
      if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
      const handshook = ws.exchange.response?.status === 101;
      if (!handshook) ctx.fail(`the WebSocket handshake did not complete: ${ws.error?.message ?? `ended ${ws.ended}`}`, ws.exchange);
      // `ws` itself aborts a handshake whose answer names no offered subprotocol; judge the answer's header.
      const selected = ws.exchange.response?.headers['sec-websocket-protocol'] ?? ws.protocol;
      const offered = ws.exchange.request.headers['sec-websocket-protocol'];
      if (selected === '' || selected === undefined) {
        ctx.fail(`the server selected no subprotocol (offered: ${offered}); clients that offer daml.ws.auth fail the handshake`, ws.exchange);
      }
      if (selected !== 'daml.ws.auth') ctx.fail(`the server selected subprotocol '${selected}' instead of daml.ws.auth (offered: ${offered}); clients that offer daml.ws.auth fail the handshake`, ws.exchange);
      if (ws.ended === 'error') ctx.fail(`the WebSocket failed after selecting daml.ws.auth: ${ws.error?.message ?? 'unknown error'}`, ws.exchange);
    },
  }),
  check({
    id: 'ledger.updates.begin-after-end-400',
    title: 'Updates from beyond the ledger end are refused with 400 and a JsCantonError',
    level: 'MUST',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: OFFSET_AFTER_LEDGER_END / OFFSET_OUT_OF_RANGE (HTTP 400)`,
    async run(ctx) {
      const end = (await ledgerEnd(ctx)).offset;
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/updates', query: { stream_idle_timeout_ms: 500 }, json: updatesRequest(await readParty(ctx), end + 100, end + 200) });
      expectStatus(ctx, e, 400, `updates from ${end + 100} (ledger end ${end})`);
      expectCantonError(ctx, e, 'updates after ledger end', ['OFFSET_AFTER_LEDGER_END', 'OFFSET_OUT_OF_RANGE', 'INVALID_ARGUMENT']);
    },
  }),
];
