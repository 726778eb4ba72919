import type { Exchange } from '../target/exchange.js';
import { expectCantonError, expectStatus, type Json } from './support/expect.js';
import { completionsOf, createContract, ledgerEnd, listAfter, readParty, suiteParty, userIdOf } from './support/ledger.js';
import { tokenFor } from './ledgerStreams.js';
import { LedgerOp, UPSTREAM_3510 } from './ledgerOps.js';
import { needsCanton } from './support/targetVersion.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * GetCompletions, the completion stream Canton 3.5.7 added (POST and WebSocket
 * /v2/commands/command-completions): parties only, no user; every user's commands acting as at
 * least one of the parties; no parties means every party, which needs CanReadAsAnyParty
 * (`RequiredClaims.readAsForAllPartiesOrAnyPartyIfEmpty`).
 */
const PATH = '/v2/commands/command-completions';
const RULE = `${UPSTREAM_3510}: POST ${PATH} (GetCompletionsRequest: parties, begin_exclusive)`;
const since357 = (ctx: CheckContext) => needsCanton(ctx, '3.5.7', `POST ${PATH}`);
const noWebSocket = (ctx: CheckContext) => ctx.profile.ledger?.websocket === false && ctx.skip(`profile '${ctx.profile.name}' says the target has no WebSocket (ledger.websocket: false)`);

/** GetCompletions after `beginExclusive`, page by page until the completion of `commandId` is read (listAfter). */
async function listCompletions(ctx: CheckContext, request: Json & { readonly beginExclusive: number }, what: string, o: { readonly token?: string; readonly commandId?: string } = {}): Promise<{ e: Exchange; completions: Json[] }> {
  const { e, items } = await listAfter(ctx, PATH, request, {
    what,
    maxPages: o.commandId === undefined ? 1 : 50,
    ...(o.commandId === undefined ? {} : { enough: (xs: readonly unknown[]) => completionsOf(xs).some((c) => c.commandId === o.commandId) }),
    ...(o.token === undefined ? {} : { auth: { token: o.token, show: false } }),
  });
  return { e, completions: completionsOf(items) };
}

/** Judges a list of completions asked for `party` after `begin`: holds the command's, and only the party's. */
function judge(ctx: CheckContext, e: Exchange, completions: readonly Json[], party: string, commandId: string, offset: number, begin: number, what: string): void {
  const mine = completions.find((c) => c.commandId === commandId);
  if (!mine) return ctx.fail(`${what}: no completion of command ${commandId} (committed at offset ${offset}) among ${completions.length} after offset ${begin}`, e);
  if (mine.offset !== offset) ctx.fail(`${what}: the completion of ${commandId} is at offset ${String(mine.offset)}, its transaction at ${offset}`, e);
  if (!Array.isArray(mine.actAs) || !mine.actAs.includes(party)) ctx.fail(`${what}: the completion of ${commandId} does not name ${party} in actAs`, e);
  // The command named its user (the profile's): its completion carries that user, whose completions stream (by userId) holds it.
  const userId = userIdOf(ctx);
  if (userId !== undefined && mine.userId !== userId) ctx.fail(`${what}: the completion of ${commandId} names user ${JSON.stringify(mine.userId)}; the command was submitted as ${userId}`, e);
  const foreign = completions.find((c) => !Array.isArray(c.actAs) || !c.actAs.includes(party));
  if (foreign) ctx.fail(`${what}: the completion of ${String(foreign.commandId)} does not act as ${party}, the only party asked for`, e);
  const early = completions.filter((c) => typeof c.offset !== 'number' || c.offset <= begin);
  if (early.length > 0) ctx.fail(`${what}: completions at or before beginExclusive ${begin}: ${early.map((c) => String(c.offset)).join(', ')}`, e);
  // One completion per command, in offset order: a repeated or reordered element shows as an offset that does not grow.
  const times = completions.filter((c) => c.commandId === commandId).length;
  if (times > 1) ctx.fail(`${what}: the completion of ${commandId} is delivered ${times} times`, e);
  const offsets = completions.map((c) => c.offset);
  const back = offsets.findIndex((o, i) => i > 0 && typeof o === 'number' && typeof offsets[i - 1] === 'number' && o <= (offsets[i - 1] as number));
  if (back > 0) ctx.fail(`${what}: completion offsets do not increase: [${offsets.map(String).join(', ')}] (at element ${back})`, e);
}

export const ledgerGetCompletionsChecks: readonly CheckDefinition[] = [
  {
    id: 'ledger.command-completions.by-party',
    title: "GetCompletions lists the completion of a command acting as the asked party after beginExclusive, and no other party's",
    group: 'ledger',
    operationId: LedgerOp.commandCompletions,
    level: 'MUST',
    kind: 'example',
    specRef: `${RULE}: only completions of commands with at least one act_as party in the given set, after begin_exclusive`,
    requires: { writes: true },
    async run(ctx) {
      await since357(ctx);
      const party = await suiteParty(ctx);
      const begin = (await ledgerEnd(ctx)).offset;
      const created = await createContract(ctx, party);
      const { e, completions } = await listCompletions(ctx, { parties: [party], beginExclusive: begin }, `GetCompletions for ${party} after ${begin}`, { commandId: created.commandId });
      ctx.setEvidence(e);
      judge(ctx, e, completions, party, created.commandId, created.completionOffset, begin, `POST ${PATH}`);
    },
  },
  {
    id: 'ledger.command-completions.refusals',
    title: 'GetCompletions refuses a beginExclusive past the ledger end and a malformed party with 400',
    group: 'ledger',
    operationId: LedgerOp.commandCompletions,
    level: 'MUST',
    kind: 'negative',
    specRef: `${RULE}: begin_exclusive must not be after the ledger end (OFFSET_AFTER_LEDGER_END); parties must be valid PartyIdStrings`,
    async run(ctx) {
      await since357(ctx);
      // A party the suite may read as: empty `parties` needs ReadAsAnyParty, which a vendor's user may lack.
      const party = await readParty(ctx);
      const end = (await ledgerEnd(ctx)).offset;
      const late = await ctx.http.request('ledger', { method: 'POST', path: PATH, query: { stream_idle_timeout_ms: 300 }, json: { parties: party ? [party] : [], beginExclusive: end + 1_000_000 } });
      if (!deniedBeforeValidation(ctx, late)) {
        expectStatus(ctx, late, 400, `GetCompletions after offset ${end + 1_000_000}, past the ledger end ${end}`);
        expectCantonError(ctx, late, 'GetCompletions past the ledger end', ['OFFSET_AFTER_LEDGER_END']);
      }
      const bad = await ctx.http.request('ledger', { method: 'POST', path: PATH, query: { stream_idle_timeout_ms: 300 }, json: { parties: ['not a party id'] } });
      if (!deniedBeforeValidation(ctx, bad)) {
        expectStatus(ctx, bad, 400, 'GetCompletions for a malformed party');
        expectCantonError(ctx, bad, 'GetCompletions for a malformed party', ['INVALID_FIELD', 'INVALID_ARGUMENT']);
      }
    },
  },
  {
    id: 'ledger.command-completions.websocket',
    title: 'GetCompletions over WebSocket delivers the completion the HTTP list shows, for the asked party only',
    group: 'ledger',
    operationId: LedgerOp.commandCompletions,
    level: 'MUST',
    kind: 'example',
    specRef: `${UPSTREAM_3510}: AsyncAPI channel ${PATH} (GetCompletionsRequest frame, CompletionStreamResponse elements)`,
    requires: { writes: true },
    async run(ctx) {
      await since357(ctx);
      noWebSocket(ctx);
      const party = await suiteParty(ctx);
      const begin = (await ledgerEnd(ctx)).offset;
      const created = await createContract(ctx, party);
      // A second command, read up to: whatever the stream sent after the first's completion (a repeat) has arrived by then.
      const next = await createContract(ctx, party);
      const ws = await ctx.http.stream('ledger', PATH, {
        request: { parties: [party], beginExclusive: begin },
        operationId: LedgerOp.commandCompletions,
        idleMs: 2_000,
        timeoutMs: Math.max(10_000, ctx.timeoutMs),
        until: (messages) => completionsOf(messages).some((c) => c.commandId === next.commandId),
      });
      ctx.setEvidence(ws.exchange);
      if (ws.rejectedStatus !== undefined) return ctx.fail(`the WebSocket upgrade of ${PATH} was refused with HTTP ${ws.rejectedStatus}`, ws.exchange);
      judge(ctx, ws.exchange, completionsOf(ws.messages), party, created.commandId, created.completionOffset, begin, `WebSocket ${PATH}`);
    },
  },
  {
    id: 'ledger.auth.command-completions-all-parties-needs-any-party',
    title: 'GetCompletions without parties needs CanReadAsAnyParty: a user who reads as one party is refused with 403, and served for that party',
    group: 'ledger',
    operationId: LedgerOp.commandCompletions,
    level: 'MUST',
    kind: 'auth',
    specRef: `${RULE}: only Ledger API users with CanReadAsAnyParty may provide no parties (RequiredClaims.readAsForAllPartiesOrAnyPartyIfEmpty)`,
    requires: { writes: true, auth: 'signing' },
    async run(ctx) {
      await since357(ctx);
      const party = await suiteParty(ctx);
      const reader = ctx.unique('cc-completions-reader').replace(/[^a-zA-Z0-9_-]/g, '-');
      const created = await ctx.http.request('ledger', { method: 'POST', path: '/v2/users', json: { user: { id: reader, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party } } } }] } });
      // Creating the second user is the participant admin's; ledger.users.* judge it for an admin.
      if (created.response?.status === 403) ctx.skip("the run's user may not create users (ParticipantAdmin), and this check probes with a user of its own");
      expectStatus(ctx, created, 200, `creating a user ${reader} who reads as the suite party (POST /v2/users)`);
      const token = await tokenFor(ctx, reader);
      const all = await ctx.http.request('ledger', { method: 'POST', path: PATH, query: { stream_idle_timeout_ms: 300 }, json: { parties: [] }, auth: { token, show: false } });
      ctx.setEvidence(all);
      expectStatus(ctx, all, 403, `GetCompletions for every party by ${reader}, who may read as ${party} only`);
      // One page after the party's last command: the answer's status is what is judged, not the party's whole history.
      await listCompletions(ctx, { parties: [party], beginExclusive: Math.max(0, (await ledgerEnd(ctx)).offset - 1) }, `GetCompletions for ${party} by ${reader}, who may read as it`, { token });
    },
  },
];

/**
 * On a secured participant the authorization interceptor runs before the service validates the
 * request: a user without the rights for the asked parties (no party it may read as, or a
 * malformed one) gets PERMISSION_DENIED (403) first, which is correct there and never on an
 * unsecured target.
 */
function deniedBeforeValidation(ctx: CheckContext, answer: Exchange): boolean {
  // The error's own shape (code, category, gRPC status agreeing) is the judge's (judge.errors.*).
  return ctx.profile.auth?.required === true && answer.response?.status === 403;
}
