import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { rawUpgrade } from './support/rawUpgrade.js';
import { runSocket, type SocketRun } from './support/runSocket.js';
import { MOCK_URL, startTwins, withoutTraceIds, type Twins } from './support/twins.js';

// Node 20 has no global WebSocket; msw intercepts the global one, so install `ws` as it first.
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
const alice = `alice::${NS}`;
const issuer = `issuer::${NS}`;
const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] };
const MOCK_WS = MOCK_URL.replace(/^http/, 'ws');

describe('WebSocket streams through msw behave as on the Koa server', () => {
  let twins: Twins;
  let koaWs: string;

  /** The same connection and request frame on both faces (the Koa one bypasses msw). */
  const both = async (path: string, frame: unknown, protocols?: string[], stopAfter?: number): Promise<{ koa: SocketRun; msw: SocketRun }> => {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    const koa = await runSocket(new NodeWebSocket(koaWs + path, protocols), text, stopAfter);
    const msw = await runSocket(new WebSocket(MOCK_WS + path, protocols), text, stopAfter);
    return { koa, msw };
  };
  const comparable = (run: SocketRun) => ({ ...run, messages: run.messages.map(withoutTraceIds) });

  beforeAll(async () => {
    twins = await startTwins();
    koaWs = twins.koa.url.replace(/^http/, 'ws');
    for (const hint of ['alice', 'issuer']) {
      const { koa } = await twins.send({ method: 'POST', path: '/v2/parties', body: JSON.stringify({ partyIdHint: hint }) });
      expect(koa.status).toBe(200);
    }
    for (const [i, amount] of ['1.0', '2.0'].entries()) {
      const body = JSON.stringify({
        commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: alice, amount, observers: null } } }],
        commandId: `ws-${i}`,
        userId: 'participant_admin',
        actAs: [issuer],
      });
      const { koa, msw } = await twins.send({ method: 'POST', path: '/v2/commands/submit-and-wait', body });
      expect([koa.status, msw.body]).toEqual([200, koa.body]);
    }
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('serves a bounded update stream message by message, then closes normally', async () => {
    const frame = { beginExclusive: 0, endInclusive: 4, verbose: true, filter: { filtersByParty: { [alice]: wildcard } } };
    const { koa, msw } = await both('/v2/updates', frame, ['jwt.token.x', 'daml.ws.auth']);
    expect(koa).toMatchObject({ opened: true, protocol: 'daml.ws.auth', closeCode: 1000, errored: false });
    expect(koa.messages.map((m) => Object.keys((JSON.parse(m) as { update: object }).update)[0])).toContain('Transaction');
    expect(msw).toEqual(koa);
  });

  it('selects the subprotocol the server selects', async () => {
    for (const offered of [['jwt.token.x', 'ledger.ws.auth'], undefined]) {
      const { koa, msw } = await both('/v2/updates', { beginExclusive: 0, endInclusive: 1, updateFormat: {} }, offered);
      expect(koa.protocol).toBe(offered === undefined ? '' : 'ledger.ws.auth');
      expect(msw).toEqual(koa);
    }
  });

  // The `ws` client fails these handshakes inside msw's request interception, so the Koa side is
  // read off the raw handshake answer; what a client makes of that answer is the msw side's check.
  it('fails the handshake when no offered subprotocol is acceptable', async () => {
    expect(await rawUpgrade(twins.koa.url, '/v2/updates', ['chat'])).toEqual({ status: 101, protocol: undefined });
    const msw = await runSocket(new WebSocket(MOCK_WS + '/v2/updates', ['chat']), '{}');
    expect(msw).toMatchObject({ opened: false, errored: true, messages: [] });
  });

  it('answers a binary request frame with the same JsCantonError, then closes normally', async () => {
    const frame = new TextEncoder().encode(JSON.stringify({ beginExclusive: 0, endInclusive: 1, updateFormat: {} }));
    const koa = await runSocket(new NodeWebSocket(koaWs + '/v2/updates', ['jwt.token.x', 'daml.ws.auth']), frame);
    const msw = await runSocket(new WebSocket(MOCK_WS + '/v2/updates', ['jwt.token.x', 'daml.ws.auth']), frame);
    expect(koa).toMatchObject({ opened: true, closeCode: 1000, messages: [expect.stringContaining('the request must be a JSON text frame, got a binary frame of')] });
    expect(comparable(msw)).toEqual(comparable(koa));
  });

  it('refuses a path without a stream', async () => {
    expect(await rawUpgrade(twins.koa.url, '/v2/nothing', ['daml.ws.auth'])).toMatchObject({ status: 404 });
    const msw = await runSocket(new WebSocket(MOCK_WS + '/v2/nothing', ['daml.ws.auth']), '{}');
    expect(msw).toMatchObject({ opened: false, errored: true, messages: [] });
  });

  it('answers a bad request frame with one JsCantonError message, then closes', async () => {
    const { koa, msw } = await both('/v2/updates', '{"beginExclusive":', ['daml.ws.auth']);
    expect(koa.messages).toHaveLength(1);
    expect(JSON.parse(koa.messages[0] ?? '{}')).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(comparable(msw)).toEqual(comparable(koa));
  });

  it('tails completions as commands complete, until the client leaves', async () => {
    const frame = { beginExclusive: twins.mock.ledger.ledgerEnd().offset, userId: 'participant_admin', parties: [issuer] };
    const socket = new WebSocket(MOCK_WS + '/v2/commands/completions', ['daml.ws.auth']);
    // beginExclusive is pinned before the create: the completion arrives whenever the tail starts.
    const run = runSocket(socket, JSON.stringify(frame), 1);
    const created = twins.mock.createContract({
      templateId: ASSET_TEMPLATE,
      createArguments: { issuer, owner: alice, amount: '3.0', observers: null },
      actAs: [issuer],
    });
    const seen = await run;
    expect(seen.messages).toHaveLength(1);
    const completion = (JSON.parse(seen.messages[0] ?? '{}') as { completionResponse: { Completion: { value: { offset: number; updateId: string } } } })
      .completionResponse.Completion.value;
    expect(completion).toMatchObject({ offset: created.offset, updateId: created.updateId });
  });

  it('tails GetCompletions (Canton 3.5.7+) for every party when none is named', async () => {
    const frame = { beginExclusive: twins.mock.ledger.ledgerEnd().offset, parties: [] };
    const socket = new WebSocket(MOCK_WS + '/v2/commands/command-completions', ['daml.ws.auth']);
    // beginExclusive is pinned before the create: the completion arrives whenever the tail starts.
    const run = runSocket(socket, JSON.stringify(frame), 1);
    const created = twins.mock.createContract({
      templateId: ASSET_TEMPLATE,
      createArguments: { issuer, owner: alice, amount: '3.5', observers: null },
      actAs: [issuer],
    });
    const seen = await run;
    const completion = (JSON.parse(seen.messages[0] ?? '{}') as { completionResponse: { Completion: { value: { offset: number; actAs: string[] } } } })
      .completionResponse.Completion.value;
    expect(completion).toMatchObject({ offset: created.offset, actAs: [issuer] });
  });

  it('ends open streams on reset()', async () => {
    // A stream with something to send: its first message shows it is open on the mock's side.
    const created = twins.mock.createContract({ templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: alice, amount: '4.0', observers: null }, actAs: [issuer] });
    const socket = new WebSocket(MOCK_WS + '/v2/updates', ['daml.ws.auth']);
    const first = new Promise((resolve) => socket.addEventListener('message', resolve, { once: true }));
    const format = { includeTransactions: { eventFormat: { filtersByParty: { [issuer]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } };
    const run = runSocket(socket, JSON.stringify({ beginExclusive: created.offset - 1, updateFormat: format }));
    await first;
    twins.mock.reset();
    const seen = await run;
    // 1001 Going Away: the ledger behind the stream is gone.
    expect(seen.closeCode).toBe(1001);
  });

  it('logs no unexpected failure on either face', () => {
    expect(twins.errors).toEqual([]);
  });
});

describe('a request frame that never comes, through msw as on the Koa server', () => {
  const WAIT_MS = 200;
  let twins: Twins;
  beforeAll(async () => {
    twins = await startTwins({ http: { webSocketRequestTimeoutMs: WAIT_MS } });
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('gets one error frame after the configured wait, then a normal close', async () => {
    const koa = await runSocket(new NodeWebSocket(twins.koa.url.replace(/^http/, 'ws') + '/v2/updates', ['jwt.token.x', 'daml.ws.auth']), undefined);
    const msw = await runSocket(new WebSocket(MOCK_WS + '/v2/updates', ['jwt.token.x', 'daml.ws.auth']), undefined);
    expect(koa).toMatchObject({ opened: true, closeCode: 1000, messages: [expect.stringContaining(`no request frame within ${WAIT_MS} ms`)] });
    expect(withoutTraceIds(msw.messages[0] ?? '')).toEqual(withoutTraceIds(koa.messages[0]!));
    expect({ ...msw, messages: [] }).toEqual({ ...koa, messages: [] });
  });
});
