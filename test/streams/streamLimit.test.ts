import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { createAuthenticator } from '../../reference-server/src/http/api/auth/authConfig.js';
import { startSecuredWorld, type SecuredWorld } from '../auth/support/securedServer.js';
import { HS256_SECRET, userToken } from '../auth/support/tokens.js';
import { MOCK_URL, startTwins, type Twins } from '../msw/support/twins.js';

(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

/** Opens a tailing completions stream; resolves with its first message (or undefined) once it is open or closed. */
function openStream(url: string, protocols: string[], request: unknown): Promise<{ socket: WebSocket; first: Promise<Record<string, unknown> | undefined> }> {
  const socket = new WebSocket(url, protocols);
  const first = new Promise<Record<string, unknown> | undefined>((resolve) => {
    socket.addEventListener('message', (e) => resolve(JSON.parse(String((e as MessageEvent).data)) as Record<string, unknown>), { once: true });
    socket.addEventListener('close', () => resolve(undefined), { once: true });
  });
  return new Promise((resolve) => {
    socket.addEventListener('open', () => {
      socket.send(JSON.stringify(request));
      resolve({ socket, first });
    });
  });
}

const limited = { code: 'MAXIMUM_NUMBER_OF_STREAMS', grpcCodeValue: 10, errorCategory: 2 };
/** Long enough for a stream that is allowed to have sent nothing (a quiet tail). */
const quiet = (first: Promise<unknown>) => Promise.race([first, new Promise((r) => setTimeout(() => r('still open'), 300))]);

describe('open streams per user are limited', () => {
  describe('secured: counted per user, on the Koa server', () => {
    let w: SecuredWorld;
    beforeAll(async () => {
      w = await startSecuredWorld();
      await w.server.close();
      // The same world, served again with a limit of 2 streams per user.
      const { startServer } = await import('../http/support/startServer.js');
      const authenticator = await createAuthenticator({ mode: 'hs256', key: { kind: 'secret', secret: HS256_SECRET } }, { participantId: w.ledger.config.participantId });
      w = { ...w, server: await startServer({ ledger: w.ledger, authenticator, http: { maxStreamsPerUser: 2 } }) };
    });
    afterAll(() => w.server.close());

    const updatesOf = (party: string) => ({ beginExclusive: w.ledger.ledgerEnd().offset, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } });
    const url = () => `${w.server.url.replace(/^http/, 'ws')}/v2/updates`;

    it("refuses a user's third stream with MAXIMUM_NUMBER_OF_STREAMS, leaves other users alone, and counts a closed stream out", async () => {
      const alice = await userToken('alice');
      const protocols = [`jwt.token.${alice}`, 'daml.ws.auth'];
      const open = [await openStream(url(), protocols, updatesOf(w.alice)), await openStream(url(), protocols, updatesOf(w.alice))];
      for (const s of open) expect(await quiet(s.first)).toBe('still open');
      const third = await openStream(url(), protocols, updatesOf(w.alice));
      expect(await third.first).toMatchObject({ ...limited, context: expect.objectContaining({ limit: '2' }) });
      // Another user is not affected.
      const bob = await openStream(url(), [`jwt.token.${await userToken('bob')}`, 'daml.ws.auth'], updatesOf(w.bob));
      expect(await quiet(bob.first)).toBe('still open');
      // Once one of alice's streams ends, she may open another. The server counts it out when it
      // sees the close, which may come a turn after the client's: until then a refusal is expected,
      // after it none (a count never released would refuse forever and time the test out).
      const ended = new Promise((resolve) => open[0]?.socket.addEventListener('close', resolve, { once: true }));
      open[0]?.socket.close();
      await ended;
      let again = await openStream(url(), protocols, updatesOf(w.alice));
      for (let seen = await quiet(again.first); seen !== 'still open'; seen = await quiet(again.first)) {
        expect(seen).toMatchObject(limited);
        again = await openStream(url(), protocols, updatesOf(w.alice));
      }
      for (const s of [open[1], bob, again]) s?.socket.close();
    });
  });

  describe('unsecured: the one caller is limited, through msw as on Koa', () => {
    let twins: Twins;
    beforeAll(async () => {
      twins = await startTwins({ http: { maxStreamsPerUser: 1 } });
    });
    afterAll(async () => {
      await twins?.close();
    });

    it('refuses the second stream on each face', async () => {
      const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
      const request = { userId: 'participant_admin', parties: [`alice::${NS}`], beginExclusive: 0 };
      for (const base of [twins.koa.url, MOCK_URL]) {
        const url = `${base.replace(/^http/, 'ws')}/v2/commands/completions`;
        const first = await openStream(url, ['daml.ws.auth'], request);
        expect(await quiet(first.first)).toBe('still open');
        const second = await openStream(url, ['daml.ws.auth'], request);
        expect(await second.first, base).toMatchObject(limited);
        first.socket.close();
      }
    });
  });
});

describe('serve flags for the stream limit and the timeouts', () => {
  it('passes them to the HTTP face', () => {
    const args = parseServeArgs(['--max-streams-per-user', '5', '--headers-timeout-ms', '1000', '--request-timeout-ms', '2000'], {});
    expect(args !== 'help' && args.http).toEqual({ maxStreamsPerUser: 5, headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
  });

  it('refuses values that are not positive whole numbers, and a headers timeout above the request timeout', () => {
    expect(() => parseServeArgs(['--max-streams-per-user', '0'], {})).toThrow(UsageError);
    expect(() => parseServeArgs(['--headers-timeout-ms', 'soon'], {})).toThrow(/positive whole number/);
    expect(() => parseServeArgs(['--headers-timeout-ms', '90000'], {})).toThrow(/must not exceed --request-timeout-ms/);
  });
});
