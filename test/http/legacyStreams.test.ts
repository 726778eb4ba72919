import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';
import { openStream } from './support/wsClient.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX = 20;
let server: TestServer;
let issuer: string;
let owner: string;
let begin: number;
beforeAll(async () => {
  server = await startServer({ ledgerOptions: { listMaxElements: MAX } });
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
  begin = await ledgerEnd(server);
  for (let i = 0; i < 3; i++) await createAsset(server, issuer, owner);
});
afterAll(() => server.close());

const updateFormat = (party: string) => ({
  includeTransactions: { eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
});
const legacy = (party: string) => ({ filter: { filtersByParty: { [party]: { cumulative: [] } } }, verbose: true });

describe('POST /v2/updates/flats (deprecated)', () => {
  it('answers exactly what /v2/updates answers', async () => {
    const end = await ledgerEnd(server);
    for (const body of [{ beginExclusive: begin, endInclusive: end, updateFormat: updateFormat(owner) }, { beginExclusive: begin, endInclusive: end, ...legacy(owner) }]) {
      const flats = await post(server, '/v2/updates/flats', body);
      expect(flats.status).toBe(200);
      expect(flats.body).toEqual((await post(server, '/v2/updates', body)).body);
      expect((flats.body as Json[]).filter((u) => u.update.Transaction)).toHaveLength(3);
    }
  });

  it('accepts verbose: false beside updateFormat, as wallet-sdk 1.4.0 sends it', async () => {
    const res = await post(server, '/v2/updates/flats', { beginExclusive: begin, endInclusive: await ledgerEnd(server), updateFormat: updateFormat(owner), verbose: false });
    expect(res.status, res.text).toBe(200);
    const both = await post(server, '/v2/updates/flats', { beginExclusive: begin, updateFormat: updateFormat(owner), verbose: true });
    expect(both.status).toBe(400);
    expectCantonError(both.body, 'INVALID_ARGUMENT', /Both filter\/verbose and update_format/);
  });

  it('takes limit and stream_idle_timeout_ms, and answers 413 past the server maximum', async () => {
    const open = await post(server, '/v2/updates/flats?stream_idle_timeout_ms=100&limit=2', { beginExclusive: begin, updateFormat: updateFormat(owner) });
    expect(open.status).toBe(200);
    expect(open.body).toHaveLength(2);
    const from = await ledgerEnd(server);
    for (let i = 0; i <= MAX; i++) await createAsset(server, issuer, owner);
    const many = await post(server, '/v2/updates/flats', { beginExclusive: from, endInclusive: await ledgerEnd(server), ...legacy(owner) });
    expect(many.status).toBe(413);
    expectCantonError(many.body, 'LIST_TOO_LARGE');
  });
});

describe('POST /v2/updates/trees (deprecated)', () => {
  it('answers the ledger-effects transactions as trees, keyed by node id, with checkpoints', async () => {
    const end = begin + 3;
    const trees = await post(server, '/v2/updates/trees', { beginExclusive: begin, endInclusive: end, ...legacy(owner) });
    expect(trees.status).toBe(200);
    const flat = await post(server, '/v2/updates', { beginExclusive: begin, endInclusive: end, updateFormat: updateFormat(owner) });
    const treeTxs = (trees.body as Json[]).flatMap((u) => (u.update.TransactionTree ? [u.update.TransactionTree.value] : []));
    const flatTxs = (flat.body as Json[]).flatMap((u) => (u.update.Transaction ? [u.update.Transaction.value] : []));
    expect(treeTxs.map((t) => t.updateId)).toEqual(flatTxs.map((t) => t.updateId));
    for (const [i, t] of treeTxs.entries()) {
      const events = (flatTxs[i] as Json).events as Json[];
      expect(Object.values(t.eventsById as Json).map((e) => Object.values(e as Json)[0].value)).toEqual(events.map((e) => Object.values(e)[0]));
    }
    expect((trees.body as Json[]).every((u) => !u.update.TopologyTransaction)).toBe(true);
  });

  it('refuses an updateFormat and bad input', async () => {
    const withFormat = await post(server, '/v2/updates/trees', { beginExclusive: begin, updateFormat: updateFormat(owner) });
    expect(withFormat.status).toBe(400);
    expectCantonError(withFormat.body, 'INVALID_ARGUMENT', /update_format/);
    const rows: [unknown, number, RegExp][] = [
      ['{"beginExclusive":', 400, /^text\/plain/],
      [{ beginExclusive: 'x', ...legacy(owner) }, 400, /^text\/plain/],
      [{ beginExclusive: (await ledgerEnd(server)) + 10, ...legacy(owner) }, 400, /^application\/json/],
      [{ beginExclusive: 0 }, 400, /^application\/json/],
      [{ beginExclusive: 0, ...legacy(owner), colour: 1 }, 400, /^application\/json/],
    ];
    for (const [body, status, type] of rows) {
      const res = await post(server, '/v2/updates/trees', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers['content-type']).toMatch(type);
    }
  });
});

describe('WebSocket /v2/updates/flats and /v2/updates/trees', () => {
  it('flats streams what /v2/updates streams', async () => {
    const request = { beginExclusive: begin, endInclusive: await ledgerEnd(server), ...legacy(owner) };
    const [a, b] = await Promise.all([openStream(server.url, '/v2/updates/flats', request), openStream(server.url, '/v2/updates', request)]);
    await Promise.all([a.closed, b.closed]);
    expect(a.messages).toEqual(b.messages);
    expect(a.messages.length).toBeGreaterThanOrEqual(3);
  });

  it('trees tails: a commit after opening arrives as a tree', async () => {
    const s = await openStream(server.url, '/v2/updates/trees', { beginExclusive: await ledgerEnd(server), ...legacy(owner) });
    await createAsset(server, issuer, owner);
    const [first] = (await s.waitFor(1)) as Json[];
    expect(Object.keys((first as Json).update)).toEqual(['TransactionTree']);
    s.socket.close();
    await s.closed;
  });

  it('trees answers an updateFormat with an error frame', async () => {
    const s = await openStream(server.url, '/v2/updates/trees', { beginExclusive: 0, updateFormat: updateFormat(owner) });
    await s.closed;
    expect(s.messages).toHaveLength(1);
    expectCantonError(s.messages[0], 'INVALID_ARGUMENT');
  });
});
