import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '../../conformance/src/schema/index.js';
import { defaultHttpConfig } from '../../reference-server/src/http/api/config.js';
import { expectCantonError } from './support/cantonError.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { openStream } from './support/wsClient.js';
import { allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';

let server: TestServer;
let issuer: string;
let owner: string;
let begin: number;
beforeAll(async () => {
  server = await startServer();
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
  begin = await ledgerEnd(server);
  for (let i = 0; i < 3; i++) await createAsset(server, issuer, owner);
});
afterAll(() => server.close());

/** The legacy request the real WebSocketClient sends. */
const legacyRequest = (party: string, extra: Record<string, unknown> = {}) => ({
  beginExclusive: begin,
  verbose: true,
  filter: { filtersByParty: { [party]: { cumulative: [] } } },
  ...extra,
});
/** Stream messages are the elements of the HTTP list answer, so the list's schema checks them. */
function expectElementsConform(messages: unknown[], listPath: string): void {
  const verdict = validateResponse({ spec: 'ledger', method: 'POST', path: listPath, status: 200, contentType: 'application/json', body: messages });
  expect(verdict.ok ? [] : verdict.problems).toEqual([]);
}

/** What the HTTP list answers for the same range: the WebSocket must agree. */
async function transactionsUpTo(end: number): Promise<number> {
  const res = await server.http.post('/v2/updates').send(legacyRequest(owner, { endInclusive: end }));
  return txCount(res.body as unknown[]);
}
type Msg = { update?: { Transaction?: { value: { offset: number } } } };
const txCount = (messages: unknown[]) => (messages as Msg[]).filter((m) => m.update?.Transaction !== undefined).length;

describe('WebSocket /v2/updates', () => {
  it('selects daml.ws.auth when offered with a jwt.token entry', async () => {
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner, { endInclusive: await ledgerEnd(server) }));
    expect(s.protocol).toBe('daml.ws.auth');
    expect(await s.closed).toBe(1000);
  });

  it('selects ledger.ws.auth for a client that offers only that name', async () => {
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner, { endInclusive: await ledgerEnd(server) }), ['ledger.ws.auth']);
    expect(s.protocol).toBe('ledger.ws.auth');
    await s.closed;
  });

  it('connects without a subprotocol when none is offered', async () => {
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner, { endInclusive: await ledgerEnd(server) }), []);
    expect(s.protocol).toBe('');
    await s.closed;
  });

  it('sends one message per update up to endInclusive, then closes normally', async () => {
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner, { endInclusive: await ledgerEnd(server) }));
    expect(await s.closed).toBe(1000);
    expect(txCount(s.messages)).toBe(3);
    expectElementsConform(s.messages, '/v2/updates');
  });

  it('tails new updates while endInclusive is absent', async () => {
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner));
    await s.waitFor(3);
    await createAsset(server, issuer, owner);
    await s.waitFor(4);
    expect(txCount(s.messages)).toBeGreaterThanOrEqual(4);
    s.socket.close();
    expect(await s.closed).toBe(1005);
  });

  it('answers a request it cannot decode with one JsCantonError message, then closes', async () => {
    const s = await openStream(server.url, '/v2/updates', '{"beginExclusive": ');
    expect(await s.closed).toBe(1000);
    expect(s.messages).toHaveLength(1);
    expectCantonError(s.messages[0], 'INVALID_ARGUMENT', /Invalid value for: body/);
  });

  it('answers a binary request frame with a JsCantonError saying the request must be a JSON text frame, then closes', async () => {
    const socket = new WebSocket(server.url.replace(/^http/, 'ws') + '/v2/updates', ['jwt.token.x', 'daml.ws.auth']);
    const messages: string[] = [];
    socket.on('message', (data, isBinary) => messages.push(isBinary ? '<binary>' : String(data)));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(Buffer.from(JSON.stringify(legacyRequest(owner, { endInclusive: await ledgerEnd(server) }))));
    expect(await closed).toBe(1000);
    expect(messages).toHaveLength(1);
    expectCantonError(JSON.parse(messages[0]!), 'INVALID_ARGUMENT', /the request must be a JSON text frame, got a binary frame of \d+ bytes/);
    expect(messages[0]).not.toMatch(/missing request body/);
    expect(server.errors).toEqual([]);
  });

  it('answers a ledger refusal as an error message', async () => {
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner, { endInclusive: (await ledgerEnd(server)) + 50 }));
    await s.closed;
    expect(s.messages).toHaveLength(1);
    expectCantonError(s.messages[0], 'OFFSET_AFTER_LEDGER_END');
  });

  it('reads only the first message of the client', async () => {
    const end = await ledgerEnd(server);
    const s = await openStream(server.url, '/v2/updates', legacyRequest(owner, { endInclusive: end }));
    s.socket.send('this second message is ignored');
    expect(await s.closed).toBe(1000);
    expect(txCount(s.messages)).toBe(await transactionsUpTo(end));
  });

  it('tolerates a doubled slash in the path', async () => {
    const end = await ledgerEnd(server);
    const s = await openStream(server.url, '//v2/updates', legacyRequest(owner, { endInclusive: end }));
    await s.closed;
    expect(txCount(s.messages)).toBe(await transactionsUpTo(end));
  });

  it('refuses an upgrade to a path without a stream with HTTP 404', async () => {
    const socket = new WebSocket(server.url.replace(/^http/, 'ws') + '/v2/nothing', ['daml.ws.auth']);
    socket.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
    socket.terminate();
  });
});

describe('WebSocket /v2/commands/completions', () => {
  it('streams completions of the user and parties, tailing new ones', async () => {
    const s = await openStream(server.url, '/v2/commands/completions', { beginExclusive: begin, userId: 'participant_admin', parties: [issuer] });
    await s.waitFor(3);
    await createAsset(server, issuer, owner);
    const messages = (await s.waitFor(4)) as { completionResponse: { Completion?: unknown } }[];
    expect(messages.filter((m) => m.completionResponse.Completion !== undefined).length).toBeGreaterThanOrEqual(4);
    expectElementsConform(messages, '/v2/commands/completions');
    s.socket.close();
  });
});

describe('WebSocket /v2/state/active-contracts', () => {
  it('streams the active contracts at an offset, then closes', async () => {
    const s = await openStream(server.url, '/v2/state/active-contracts', {
      activeAtOffset: await ledgerEnd(server),
      eventFormat: { filtersByParty: { [owner]: { cumulative: [] } }, verbose: true },
    });
    expect(await s.closed).toBe(1000);
    expect(s.messages.length).toBeGreaterThanOrEqual(3);
    for (const m of s.messages) expect(m).toHaveProperty('contractEntry.JsActiveContract');
    expectElementsConform(s.messages, '/v2/state/active-contracts');
  });
});

describe('WebSocket credentials', () => {
  let secured: TestServer;
  let party: string;
  beforeAll(async () => {
    secured = await startServer({ authenticator: headerUserAuthenticator });
    party = await allocateParty(secured, fresh('p'));
    await secured.http.post('/v2/users').send({ user: { id: 'reader' }, rights: [{ kind: { CanReadAs: { value: { party } } } }] });
    await secured.http.post('/v2/users').send({ user: { id: 'outsider' } });
  });
  afterAll(() => secured.close());

  const request = () => ({ beginExclusive: 0, endInclusive: 0, filter: { filtersByParty: { [party]: { cumulative: [] } } } });

  it('passes the offered subprotocols to the authenticator and serves a user with the right', async () => {
    const s = await openStream(secured.url, '/v2/updates', request(), ['test.user.reader', 'daml.ws.auth']);
    expect(s.protocol).toBe('daml.ws.auth');
    expect(await s.closed).toBe(1000);
    for (const m of s.messages) expect(m).not.toHaveProperty('code');
  });

  it('answers a user without the right with a redacted permission error message', async () => {
    const s = await openStream(secured.url, '/v2/updates', request(), ['test.user.outsider', 'daml.ws.auth']);
    expect(await s.closed).toBe(1000);
    expect(s.messages).toEqual([expect.objectContaining({ code: 'NA', errorCategory: -1, grpcCodeValue: 7 })]);
  });
});

describe('WebSocket request frame timeout', () => {
  let quick: TestServer;
  // Long enough that a busy machine delivers a prompt request frame within it.
  const WAIT_MS = 1000;
  beforeAll(async () => {
    quick = await startServer({ http: { webSocketRequestTimeoutMs: WAIT_MS } });
  });
  afterAll(() => quick.close());

  it('defaults to 30 s', () => {
    expect(defaultHttpConfig.webSocketRequestTimeoutMs).toBe(30_000);
  });

  it('sends an error frame and closes a socket whose request never comes', async () => {
    // Measured from before connecting: the server's wait starts after that, so no load can shorten it.
    const connecting = performance.now();
    const socket = new WebSocket(quick.url.replace(/^http/, 'ws') + '/v2/updates', ['jwt.token.x', 'daml.ws.auth']);
    const messages: unknown[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as unknown));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    expect(await closed).toBe(1000);
    expect(performance.now() - connecting).toBeGreaterThanOrEqual(WAIT_MS - 2);
    expect(messages).toHaveLength(1);
    expectCantonError(messages[0], 'INVALID_ARGUMENT', new RegExp(`no request frame within ${WAIT_MS} ms`));
  });

  it('does not cut off a request that arrives in time, nor a stream that outlives the wait', async () => {
    const party = await allocateParty(quick, fresh('tail'));
    const s = await openStream(quick.url, '/v2/updates', { beginExclusive: 0, verbose: true, filter: { filtersByParty: { [party]: { cumulative: [] } } } });
    await new Promise((r) => setTimeout(r, WAIT_MS * 2));
    expect(s.socket.readyState).toBe(WebSocket.OPEN);
    for (const m of s.messages) expect(m).not.toHaveProperty('code');
    s.socket.close();
    await s.closed;
  });
});
