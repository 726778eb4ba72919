import type { Exchange } from '../target/exchange.js';
import { claimsFor, mintToken } from '../target/mintToken.js';
import { TokenSourceError } from '../target/tokenProvider.js';
import { expectStatus, isObject, objectBody, type Json } from './support/expect.js';
import { createCommand, createContract, eventFormat, ledgerEnd, suiteParty, transactionsOf, userIdOf } from './support/ledger.js';
import { LedgerOp, SD_B, UPSTREAM_B } from './ledgerOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

/** How many contracts the stall check reads at once: enough that a server that does not interleave is caught in the act. */
const LARGE_READ_CONTRACTS = 10_000;
const CREATES_PER_COMMAND = 500;
/** How long a participant may take to notice a changed right (Canton re-reads user rights periodically). */
const REVOCATION_PATIENCE_MS = 20_000;

const noWebSocket = (ctx: CheckContext) => ctx.profile.ledger?.websocket === false && ctx.skip(`profile '${ctx.profile.name}' says the target has no WebSocket (ledger.websocket: false)`);
const isErrorFrame = (m: unknown): m is Json => isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string';

/** A token for `userId`, minted with the profile's key. */
export async function tokenFor(ctx: CheckContext, userId: string): Promise<string> {
  try {
    return await mintToken(ctx.profile.auth?.signing, claimsFor(ctx.profile.auth?.signing, userId));
  } catch (e) {
    if (e instanceof TokenSourceError) return ctx.skip(e.message);
    throw e;
  }
}

interface LargeSet {
  readonly party: string;
  /** An offset at which every contract of the set is active. */
  readonly offset: number;
  readonly contracts: readonly { contractId: string; templateId: string }[];
}

/** LARGE_READ_CONTRACTS contracts of the suite party, created CREATES_PER_COMMAND to a command. */
async function createLargeSet(ctx: CheckContext): Promise<LargeSet> {
  const party = await suiteParty(ctx);
  const command = { CreateCommand: createCommand(ctx, party, '1.0') };
  const userId = userIdOf(ctx);
  const contracts: { contractId: string; templateId: string }[] = [];
  for (let made = 0; made < LARGE_READ_CONTRACTS; made += CREATES_PER_COMMAND) {
    const e = await ctx.http.request('ledger', {
      method: 'POST',
      path: '/v2/commands/submit-and-wait-for-transaction',
      json: { commands: { commands: Array.from({ length: CREATES_PER_COMMAND }, () => command), commandId: ctx.unique('cc-large'), actAs: [party], ...(userId === undefined ? {} : { userId }) } },
    });
    expectStatus(ctx, e, 200, `creating ${CREATES_PER_COMMAND} contracts in one command (the large read's data)`);
    const tx = objectBody(ctx, e, 'submit-and-wait-for-transaction').transaction;
    for (const ev of isObject(tx) && Array.isArray(tx.events) ? tx.events : []) {
      const c = isObject(ev) && isObject(ev.CreatedEvent) ? ev.CreatedEvent : undefined;
      if (c && typeof c.contractId === 'string' && typeof c.templateId === 'string') contracts.push({ contractId: c.contractId, templateId: c.templateId });
    }
  }
  return { party, offset: (await ledgerEnd(ctx)).offset, contracts };
}

/**
 * Archives the set again, CREATES_PER_COMMAND to a command: a suite run against a participant
 * leaves it no bigger than the run's own small fixtures (and any-party reads of later runs stay
 * small). A failure here does not change what the check found; it is reported as a warning.
 */
async function archiveLargeSet(ctx: CheckContext, set: LargeSet): Promise<void> {
  const choice = ctx.profile.ledger?.template?.archiveChoice ?? 'Archive';
  const userId = userIdOf(ctx);
  for (let i = 0; i < set.contracts.length; i += CREATES_PER_COMMAND) {
    const commands = set.contracts.slice(i, i + CREATES_PER_COMMAND).map((c) => ({ ExerciseCommand: { templateId: c.templateId, contractId: c.contractId, choice, choiceArgument: {} } }));
    const e = await ctx.http.request('ledger', {
      method: 'POST',
      path: '/v2/commands/submit-and-wait',
      json: { commands, commandId: ctx.unique('cc-large-archive'), actAs: [set.party], ...(userId === undefined ? {} : { userId }) },
    });
    if (e.response?.status !== 200) return ctx.warn(`the ${set.contracts.length} contracts of the large read could not all be archived afterwards (HTTP ${e.response?.status ?? 'no answer'}); they stay on the target`);
  }
}

/**
 * Sends `GET /v2/version` every 10 ms while `read` runs; judges whether any was answered between
 * the read's first and last data, i.e. whether the server served others while it streamed.
 */
async function probeDuring(ctx: CheckContext, what: string, read: (marks: { first?: number; last?: number }) => Promise<Exchange>): Promise<void> {
  const marks: { first?: number; last?: number } = {};
  const answered: { sent: number; done: number }[] = [];
  const probes: Promise<void>[] = [];
  let reading = true;
  const done = read(marks).finally(() => {
    reading = false;
  });
  while (reading) {
    const sent = performance.now();
    probes.push(
      ctx.http.request('ledger', { method: 'GET', path: '/v2/version' }).then((e) => {
        if (e.response?.status === 200) answered.push({ sent, done: performance.now() });
      }),
    );
    await Promise.race([new Promise((r) => setTimeout(r, 10)), done.catch(() => undefined)]);
  }
  const exchange = await done;
  await Promise.all(probes);
  const { first, last } = marks;
  if (first === undefined || last === undefined) return ctx.fail(`${what}: no data arrived`, exchange);
  if (last - first < 50) return ctx.warn(`${what} took ${Math.round(last - first)} ms from first to last data: too short to judge whether other requests are served meanwhile`);
  const during = answered.filter((p) => p.sent >= first && p.done < last);
  const sentDuring = answered.filter((p) => p.sent >= first && p.sent < last).length;
  if (during.length === 0) {
    const slowest = Math.max(0, ...answered.map((p) => p.done - p.sent));
    return ctx.fail(
      `${what} streamed for ${Math.round(last - first)} ms; of the ${sentDuring} GET /v2/version sent meanwhile none was answered before the read ended (slowest answer ${Math.round(slowest)} ms): the server does nothing else while it streams`,
      exchange,
    );
  }
  ctx.setEvidence(exchange);
}

export const ledgerStreamChecks: readonly CheckDefinition[] = [
  {
    id: 'ledger.streams.large-read-does-not-stall',
    title: 'While a client reads a large active contract set over the WebSocket, other requests are still answered',
    group: 'ledger',
    operationId: LedgerOp.activeContracts,
    level: 'SHOULD',
    kind: 'example',
    specRef: `${SD_B}: POST /v2/state/active-contracts and its WebSocket form; a participant serves its streams with flow control, concurrently with other calls`,
    requires: { writes: true },
    async run(ctx) {
      noWebSocket(ctx);
      const set = await createLargeSet(ctx);
      const request = { activeAtOffset: set.offset, eventFormat: eventFormat(set.party) };
      try {
        await probeDuring(ctx,   `the WebSocket read of ${LARGE_READ_CONTRACTS} active contracts`, async (marks) => {
          const ws = await ctx.http.stream('ledger', '/v2/state/active-contracts', {
            request,
            operationId: LedgerOp.activeContracts,
            idleMs: 5000,
            timeoutMs: 120_000,
            maxMessages: LARGE_READ_CONTRACTS * 2,
            until: () => {
              const now = performance.now();
              marks.first ??= now;
              marks.last = now;
              return false;
            },
          });
          if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
          return ws.exchange;
        });
      } finally {
        await archiveLargeSet(ctx, set);
      }
    },
  },
  {
    id: 'ledger.auth.stream-ends-on-revoked-right',
    title: "An open /v2/updates stream ends with a JsCantonError once its user's read right is revoked",
    group: 'ledger',
    operationId: LedgerOp.updates,
    level: 'MUST',
    kind: 'auth',
    specRef: `${UPSTREAM_B}: streams are authorized for as long as they run (STALE_STREAM_AUTHORIZATION when the user's rights change)`,
    requires: { writes: true, auth: 'signing' },
    async run(ctx) {
      noWebSocket(ctx);
      const party = await suiteParty(ctx);
      const reader = ctx.unique('cc-stream-reader').replace(/[^a-zA-Z0-9_-]/g, '-');
      const readRight = [{ kind: { CanReadAs: { value: { party } } } }];
      const created = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id: reader, isDeactivated: false, identityProviderId: '' }, rights: readRight } });
      // Creating the second user is the participant admin's; ledger.users.* judge it for an admin.
      if (created.response?.status === 403) ctx.skip("the run's user may not create users (ParticipantAdmin), and this check probes with a user of its own");
      expectStatus(ctx, created, 200, `creating a user ${reader} who reads as the suite party (POST /v2/users)`);
      const token = await tokenFor(ctx, reader);
      const begin = (await ledgerEnd(ctx)).offset;
      const first = await createContract(ctx, party);

      let revoking: Promise<{ revoked: Exchange; after: number }> | undefined;
      const revoke = async () => {
        const revoked = await ctx.http.request('ledger', { method: 'PATCH', path: `/v2/users/${encodeURIComponent(reader)}/rights`, json: { userId: reader, rights: readRight, identityProviderId: '' } });
        expectStatus(ctx, revoked, 200, `revoking ${reader}'s read right (PATCH /v2/users/{id}/rights)`);
        // A transaction for the party after the revocation: the stream must not deliver it.
        return { revoked, after: (await createContract(ctx, party)).completionOffset };
      };
      const ws = await ctx.http.stream('ledger', '/v2/updates', {
        request: { beginExclusive: begin, updateFormat: { includeTransactions: { eventFormat: eventFormat(party), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
        auth: { token, show: false },
        operationId: LedgerOp.updates,
        timeoutMs: REVOCATION_PATIENCE_MS,
        until: (messages) => {
          if (revoking === undefined && transactionsOf(messages).some((t) => t.offset === first.completionOffset)) revoking = revoke();
          return false;
        },
      });
      ctx.setEvidence(ws.exchange);
      if (ws.rejectedStatus !== undefined) ctx.fail(`the WebSocket upgrade was refused with HTTP ${ws.rejectedStatus} while the user could still read`, ws.exchange);
      if (revoking === undefined) return ctx.fail(`the stream never delivered the transaction at offset ${first.completionOffset} that the user could read`, ws.exchange);
      const { after } = await revoking;
      const late = transactionsOf(ws.messages).filter((t) => t.offset >= after);
      if (late.length > 0) ctx.fail(`after the read right was revoked the stream still delivered the transaction at offset ${late[0]!.offset}`, ws.exchange);
      if (ws.ended === 'timeout') ctx.fail(`the stream was still open ${REVOCATION_PATIENCE_MS / 1000} s after the user's read right was revoked`, ws.exchange);
      const last = ws.messages.at(-1);
      if (!isErrorFrame(last)) ctx.fail(`the stream ended (${ws.ended}) without a JsCantonError as its last message after the read right was revoked`, ws.exchange);
    },
  },
];
