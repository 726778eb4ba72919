import type { JWTPayload } from 'jose';
import type { AuthMode, Exchange } from '../target/exchange.js';
import { claimsFor, mintToken } from '../target/mintToken.js';
import { TokenSourceError } from '../target/tokenProvider.js';
import { createCommand, eventFormat, jsCommands, ledgerEnd, suiteParty } from './support/ledger.js';
import { expectCantonError, expectStatus, isObject, responseOf } from './support/expect.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import type { CheckContext, CheckDefinition } from './types.js';

const SD_AUTH = 'service description, Authentication (ledger API JWT)';
const check = (c: Omit<CheckDefinition, 'group' | 'kind'>): CheckDefinition => ({ group: 'ledger', kind: 'auth', ...c });

/** Claims of a token that the target should accept, per the profile. */
function goodClaims(ctx: CheckContext, sub?: string): JWTPayload {
  return claimsFor(ctx.profile.auth?.signing, sub ?? ctx.profile.auth?.signing?.userId ?? ctx.profile.ledger?.userId ?? 'participant_admin');
}

/** Signs with the profile's key (or a foreign HS256 secret for "wrongly signed"). */
async function mint(ctx: CheckContext, claims: JWTPayload, foreign = false): Promise<string> {
  try {
    return await mintToken(ctx.profile.auth?.signing, claims, foreign);
  } catch (e) {
    if (e instanceof TokenSourceError) return ctx.skip(e.message);
    throw e;
  }
}

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** A protected read every secured participant guards. */
const protectedRead = (ctx: CheckContext, auth: AuthMode): Promise<Exchange> => ctx.http.request('ledger', { method: 'GET', path: '/v2/state/ledger-end', auth });

function expect401(ctx: CheckContext, e: Exchange, what: string): void {
  expectStatus(ctx, e, 401, what);
  expectCantonError(ctx, e, what);
}

/**
 * A WebSocket on /v2/updates opened with `auth` gets no data: 401 on the upgrade, or an
 * UNAUTHENTICATED error frame and nothing after it.
 */
async function expectWebSocketRefused(ctx: CheckContext, auth: AuthMode, what: string): Promise<void> {
  const s = await ctx.http.stream('ledger', '/v2/updates', {
    request: { beginExclusive: 0, endInclusive: 1, updateFormat: { includeTransactions: { eventFormat: eventFormat(ctx.profile.ledger?.party), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } },
    auth,
    operationId: LedgerOp.updates,
    idleMs: 2000,
  });
  if (s.rejectedStatus !== undefined) {
    if (s.rejectedStatus !== 401) ctx.fail(`the upgrade ${what} was refused with HTTP ${s.rejectedStatus}, expected 401`, s.exchange);
    return;
  }
  const first = s.messages[0];
  const isAuthError = isObject(first) && typeof first.code === 'string' && (first.grpcCodeValue === 16 || first.errorCategory === 6 || /UNAUTHENTICATED/i.test(first.code));
  if (!isAuthError) ctx.fail(`the stream was opened ${what} and sent ${s.messages.length === 0 ? 'nothing recognisable' : JSON.stringify(first).slice(0, 200)}; expected an UNAUTHENTICATED refusal`, s.exchange);
  if (s.messages.length > 1) ctx.fail(`after the error frame the stream ${what} sent ${s.messages.length - 1} more message(s)`, s.exchange);
}

export const authChecks: readonly CheckDefinition[] = [
  check({
    id: 'ledger.auth.missing-token-401',
    title: 'A request without a token is refused with 401 and a JsCantonError',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    specRef: `${SD_AUTH}: Authorization: Bearer <token>`,
    requires: { auth: 'any' },
    async run(ctx) {
      expect401(ctx, await protectedRead(ctx, 'none'), 'GET /v2/state/ledger-end without a token');
      const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: { activeAtOffset: 0, eventFormat: eventFormat(ctx.profile.ledger?.party) }, auth: 'none' });
      expect401(ctx, e, 'POST /v2/state/active-contracts without a token');
    },
  }),
  check({
    id: 'ledger.auth.malformed-token-401',
    title: 'A bearer value that is not a JWT is refused with 401',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    specRef: SD_AUTH,
    requires: { auth: 'any' },
    async run(ctx) {
      expect401(ctx, await protectedRead(ctx, { token: 'not-a-jwt', show: true }), 'a malformed token');
    },
  }),
  check({
    id: 'ledger.auth.wrong-signature-401',
    title: 'A token signed with a key the target does not trust is refused with 401',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    specRef: `${SD_AUTH}: the token must be valid for the configured identity provider`,
    requires: { auth: 'any' },
    async run(ctx) {
      const token = await mint(ctx, goodClaims(ctx), true);
      expect401(ctx, await protectedRead(ctx, { token, show: true }), 'a token signed with a foreign key');
    },
  }),
  check({
    id: 'ledger.auth.alg-none-401',
    title: 'An unsigned token (alg: none) is refused with 401',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    specRef: SD_AUTH,
    requires: { auth: 'any' },
    async run(ctx) {
      const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(goodClaims(ctx))}.`;
      expect401(ctx, await protectedRead(ctx, { token, show: true }), 'an unsigned token');
    },
  }),
  check({
    id: 'ledger.auth.expired-token-401',
    title: 'An expired token, otherwise valid, is refused with 401, over HTTP and on a WebSocket upgrade',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    specRef: `${SD_AUTH}; ${UPSTREAM_B} JWT rules (exp); WebSocket subprotocol jwt.token.<JWT>`,
    requires: { auth: 'signing' },
    async run(ctx) {
      // Control: the same claims, unexpired, must pass, or this check would prove nothing.
      const control = await protectedRead(ctx, { token: await mint(ctx, goodClaims(ctx)) });
      if (responseOf(control).status !== 200) ctx.skip(`a fresh token minted from the profile's key is refused (HTTP ${responseOf(control).status}); check auth.signing`);
      const now = Math.floor(Date.now() / 1000);
      const token = await mint(ctx, { ...goodClaims(ctx), iat: now - 7200, exp: now - 3600 });
      expect401(ctx, await protectedRead(ctx, { token }), 'a token that expired an hour ago');
      // The WebSocket upgrade checks the same token (the jwt.token.<JWT> subprotocol): a live stream must not outlast its token.
      await expectWebSocketRefused(ctx, { token }, 'with a token that expired an hour ago');
    },
  }),
  check({
    id: 'ledger.auth.wrong-audience-401',
    title: 'A token for another audience (or without the ledger API scope) is refused with 401',
    operationId: LedgerOp.ledgerEnd,
    level: 'MUST',
    specRef: `${UPSTREAM_B}: audience-based or scope-based tokens`,
    requires: { auth: 'signing' },
    async run(ctx) {
      const { aud: _a, scope: _s, ...rest } = goodClaims(ctx);
      const token = await mint(ctx, { ...rest, aud: 'https://canton-conformance.invalid/another-participant', scope: 'some_other_api' });
      expect401(ctx, await protectedRead(ctx, { token }), 'a token for another audience and scope');
    },
  }),
  check({
    id: 'ledger.auth.no-right-403',
    title: 'A valid token of a user without the needed right is refused with 403, on reads and on command submission',
    operationId: LedgerOp.activeContracts,
    level: 'MUST',
    specRef: `${UPSTREAM_B}: rights come from the user store; PERMISSION_DENIED, HTTP 403`,
    requires: { auth: 'no-rights' },
    async run(ctx) {
      const a = ctx.profile.auth!;
      const token = a.noRightsToken ?? (await mint(ctx, goodClaims(ctx, a.noRightsUser)));
      const party = ctx.profile.ledger?.party;
      const e = party
        ? await ctx.http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', json: { activeAtOffset: (await ledgerEnd(ctx)).offset, eventFormat: eventFormat(party) }, auth: { token } })
        : await ctx.http.request('ledger', { method: 'GET', path: '/v2/users', auth: { token } });
      expectStatus(ctx, e, 403, party ? `reading as ${party} without CanReadAs` : 'listing users without admin rights');
      expectCantonError(ctx, e, 'no right');
      // Writes are guarded as much as reads: submitting as the party needs CanActAs.
      if (!ctx.profile.writes) return;
      const actAs = party ?? (await suiteParty(ctx));
      const w = await ctx.http.request('ledger', { method: 'POST', path: '/v2/commands/submit-and-wait', json: jsCommands(ctx, actAs, { CreateCommand: createCommand(ctx, actAs) }), auth: { token } });
      expectStatus(ctx, w, 403, `submitting as ${actAs} without CanActAs`);
      expectCantonError(ctx, w, 'no right to submit');
    },
  }),
  check({
    id: 'ledger.auth.websocket-missing-token',
    title: 'A WebSocket on /v2/updates without a token gets no data (401 on upgrade, or an UNAUTHENTICATED error frame)',
    operationId: LedgerOp.updates,
    level: 'MUST',
    specRef: `${SD_AUTH}; WebSocket subprotocol jwt.token.<JWT>`,
    requires: { auth: 'any' },
    async run(ctx) {
      await expectWebSocketRefused(ctx, 'none', 'without a token');
    },
  }),
];
