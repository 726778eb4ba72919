import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { createJwtAuthenticator, DEFAULT_SCOPE } from '../../reference-server/src/http/api/auth/jwtAuthenticator.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { MOCK_URL, startTwins, type Twins } from '../msw/support/twins.js';

// msw intercepts the global WebSocket; Node 20 has none, so install `ws` as it first.
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

const SECRET = 'stream-access-secret';
const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
const alice = `alice::${NS}`;

const token = (sub: string, expiresInSeconds = 3600) =>
  new SignJWT({ scope: DEFAULT_SCOPE })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(new TextEncoder().encode(SECRET));

/** A client of one stream: every message it got, and a way to wait for the next ones or the close. */
class StreamClient {
  readonly messages: Record<string, unknown>[] = [];
  closeCode: number | undefined;
  readonly #waiters: (() => void)[] = [];
  readonly socket: WebSocket;

  constructor(url: string, jwt: string, request: unknown) {
    this.socket = new WebSocket(url, [`jwt.token.${jwt}`, 'daml.ws.auth']);
    this.socket.addEventListener('open', () => this.socket.send(JSON.stringify(request)));
    this.socket.addEventListener('message', (e) => {
      this.messages.push(JSON.parse(String((e as MessageEvent).data)) as Record<string, unknown>);
      this.#wake();
    });
    this.socket.addEventListener('close', (e) => {
      this.closeCode = (e as CloseEvent).code;
      this.#wake();
    });
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Waits until `test` holds (re-checked on every message and on close), for at most `ms`. */
  async until(test: () => boolean, what: string, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages)} close ${this.closeCode}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  transactions(): number {
    return this.messages.filter((m) => (m['update'] as Record<string, unknown> | undefined)?.['Transaction'] !== undefined).length;
  }
}

describe('open streams lose what their user loses (Koa and msw alike)', () => {
  let twins: Twins;
  let admin: string;
  let submitter: string;
  let serial = 0;
  const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });

  beforeAll(async () => {
    // No leeway, so the expiry case ends when the token's exp passes.
    const authenticator = createJwtAuthenticator({ algorithm: 'HS256', key: new TextEncoder().encode(SECRET), target: { kind: 'scope', scope: DEFAULT_SCOPE }, leewaySeconds: 0 });
    twins = await startTwins({ authenticator });
    admin = await token('participant_admin');
    const { koa, msw } = await twins.send({ method: 'POST', path: '/v2/parties', body: JSON.stringify({ partyIdHint: 'alice' }), headers: bearer(admin) });
    expect([koa.status, msw.status]).toEqual([200, 200]);
    await both('POST', '/v2/users', { user: { id: 'submitter', isDeactivated: false }, rights: [{ kind: { CanActAs: { value: { party: alice } } } }] });
    submitter = await token('submitter');
  });
  afterAll(async () => {
    await twins?.close();
  });

  const both = async (method: string, path: string, body?: unknown, jwt = admin) => {
    const { koa, msw } = await twins.send({ method, path, headers: bearer(jwt), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    expect([koa.status, msw.status], `${method} ${path}: ${koa.body}`).toEqual([200, 200]);
  };
  const commitForAlice = () =>
    both('POST', '/v2/commands/submit-and-wait', {
      commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: alice, owner: alice, amount: '1.0', observers: null } } }],
      commandId: `access-${serial++}`,
      userId: 'submitter',
      actAs: [alice],
    }, submitter);

  /** A user reading alice, streaming alice's updates on both faces and seeing one transaction. */
  async function streamingUser(expiresInSeconds?: number): Promise<{ user: string; clients: StreamClient[] }> {
    const user = `reader-${serial++}`;
    await both('POST', '/v2/users', { user: { id: user, isDeactivated: false }, rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] });
    const end = Number((JSON.parse((await twins.send({ method: 'GET', path: '/v2/state/ledger-end', headers: bearer(admin) })).koa.body) as { offset: number }).offset);
    const jwt = await token(user, expiresInSeconds);
    const request = { beginExclusive: end, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [alice]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } };
    const clients = [
      new StreamClient(`${twins.koa.url.replace(/^http/, 'ws')}/v2/updates`, jwt, request),
      new StreamClient(`${MOCK_URL.replace(/^http/, 'ws')}/v2/updates`, jwt, request),
    ];
    await commitForAlice();
    for (const c of clients) await c.until(() => c.transactions() === 1, 'the first transaction');
    return { user, clients };
  }

  /** The stream ends with `expected` as its last message, closes normally, and sees nothing after. */
  async function expectEnded(clients: StreamClient[], expected: Record<string, unknown>): Promise<void> {
    for (const c of clients) {
      await c.until(() => c.closeCode !== undefined, 'the close');
      expect(c.closeCode).toBe(1000);
      expect(c.messages.at(-1)).toMatchObject(expected);
      expect(c.transactions()).toBe(1);
    }
  }

  const stale = { code: 'STALE_STREAM_AUTHORIZATION', cause: 'Stale stream authorization. Retry quickly.', grpcCodeValue: 10, errorCategory: 2 };

  it('ends a stream when its read right is revoked', async () => {
    const { user, clients } = await streamingUser();
    await both('PATCH', `/v2/users/${user}/rights`, { userId: user, rights: [{ kind: { CanReadAs: { value: { party: alice } } } }] });
    await expectEnded(clients, stale);
    // A commit after the end reaches no one.
    await commitForAlice();
  });

  it('ends a stream when its user gains a right too (as the participant does: any change)', async () => {
    const { user, clients } = await streamingUser();
    await both('POST', `/v2/users/${user}/rights`, { userId: user, rights: [{ kind: { CanActAs: { value: { party: alice } } } }] });
    await expectEnded(clients, stale);
  });

  it('ends a stream when its user is deactivated', async () => {
    const { user, clients } = await streamingUser();
    await both('PATCH', `/v2/users/${user}`, { user: { id: user, isDeactivated: true }, updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } } });
    await expectEnded(clients, stale);
  });

  it('ends a stream when its user is deleted', async () => {
    const { user, clients } = await streamingUser();
    await both('DELETE', `/v2/users/${user}`);
    await expectEnded(clients, stale);
  });

  it("ends a stream when its token's exp passes, with the participant's redacted PERMISSION_DENIED", async () => {
    const { clients } = await streamingUser(3);
    await expectEnded(clients, { code: 'NA', grpcCodeValue: 7, errorCategory: -1, cause: expect.stringMatching(/^An error occurred/) });
  }, 10_000);

  it("leaves other users' streams alone", async () => {
    const { clients } = await streamingUser();
    const other = await streamingUser();
    await both('DELETE', `/v2/users/${other.user}`);
    await expectEnded(other.clients, stale);
    await commitForAlice();
    for (const c of clients) {
      // Its own first one, the one `streamingUser` committed for the other user, and this one.
      await c.until(() => c.transactions() === 3, 'the third transaction');
      expect(c.closeCode).toBeUndefined();
      c.socket.close();
    }
  });

  it('logged no failure', () => {
    expect(twins.errors).toEqual([]);
  });
});
