import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';

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

type Update = { update: { Transaction?: { value: { offset: number; events: unknown[] } }; OffsetCheckpoint?: { value: { offset: number } } } };
const transactions = (body: unknown) => (body as Update[]).flatMap((u) => (u.update.Transaction ? [u.update.Transaction.value] : []));

const updateFormat = (party: string) => ({
  includeTransactions: {
    eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: true },
    transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
  },
});

describe('POST /v2/updates', () => {
  it('answers the transactions of a closed range, in offset order', async () => {
    const end = await ledgerEnd(server);
    const res = await post(server, '/v2/updates', { beginExclusive: begin, endInclusive: end, updateFormat: updateFormat(owner) });
    expect(res.status).toBe(200);
    const txs = transactions(res.body);
    expect(txs).toHaveLength(3);
    expect(txs.map((t) => t.offset)).toEqual([...txs.map((t) => t.offset)].sort((a, b) => a - b));
    for (const t of txs) expect(t.offset).toBeGreaterThan(begin);
  });

  it('accepts the legacy filter form', async () => {
    const end = await ledgerEnd(server);
    const res = await post(server, '/v2/updates', {
      beginExclusive: begin,
      endInclusive: end,
      filter: { filtersByParty: { [owner]: { cumulative: [] } } },
      verbose: true,
    });
    expect(res.status).toBe(200);
    expect(transactions(res.body)).toHaveLength(3);
  });

  it('answers an open range once no new update arrived for stream_idle_timeout_ms', async () => {
    const started = Date.now();
    const res = await post(server, '/v2/updates?stream_idle_timeout_ms=150', { beginExclusive: begin, updateFormat: updateFormat(owner) });
    expect(res.status).toBe(200);
    expect(transactions(res.body)).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('includes an update committed while an open range is being read', async () => {
    // The limit ends the answer at the fourth update, so no idle window can close it before the
    // commit lands, however slowly the machine runs.
    const pending = post(server, '/v2/updates?limit=4&stream_idle_timeout_ms=60000', { beginExclusive: begin, updateFormat: updateFormat(owner) });
    await createAsset(server, issuer, owner);
    const res = await pending;
    expect(transactions(res.body)).toHaveLength(4);
  });

  it('stops at limit without waiting for the idle timeout', async () => {
    // The longest idle timeout (60 s), beyond the test's own (30 s): an answer that waited for it would fail the test.
    const res = await post(server, '/v2/updates?limit=1&stream_idle_timeout_ms=60000', { beginExclusive: begin, updateFormat: updateFormat(owner) });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
  });

  it('answers 413 when the range holds more than the server maximum', async () => {
    for (let i = 0; i < MAX; i++) await createAsset(server, issuer, owner);
    const res = await post(server, '/v2/updates', { beginExclusive: 0, endInclusive: await ledgerEnd(server), updateFormat: updateFormat(owner) });
    expect(res.status).toBe(413);
    expectCantonError(res.body, 'LIST_TOO_LARGE');
  });

  it('answers an end after the ledger end with 400 OFFSET_AFTER_LEDGER_END', async () => {
    const res = await post(server, '/v2/updates', { beginExclusive: 0, endInclusive: (await ledgerEnd(server)) + 10, updateFormat: updateFormat(owner) });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'OFFSET_AFTER_LEDGER_END');
  });

  it('answers a negative begin with 400', async () => {
    const res = await post(server, '/v2/updates', { beginExclusive: -5, endInclusive: 0, updateFormat: updateFormat(owner) });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('refuses bad inputs with the documented status and body', async () => {
    const rows: [unknown, RegExp][] = [
      ['{"beginExclusive":0,', /^text\/plain/],
      [{ beginExclusive: 0, endInclusive: 'end' }, /^text\/plain/],
      [{ beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: {}, transactionShape: 'SIDEWAYS' } } }, /^text\/plain/],
      [{ beginExclusive: 0, endInclusive: 0, updateFormat: updateFormat('not a party') }, /^application\/json/],
      [{ beginExclusive: 0, endInclusive: 0, since: 'yesterday' }, /^application\/json/],
    ];
    for (const [body, type] of rows) {
      const res = await post(server, '/v2/updates', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type'], JSON.stringify(body)).toMatch(type);
    }
  });
});

describe('POST /v2/commands/completions', () => {
  it('answers the completions of a user and parties after an offset', async () => {
    const res = await post(server, '/v2/commands/completions?limit=10&stream_idle_timeout_ms=100', { userId: 'participant_admin', parties: [issuer], beginExclusive: begin });
    expect(res.status).toBe(200);
    const completions = (res.body as { completionResponse: { Completion?: { value: { offset: number; actAs: string[] } } } }[]).flatMap((c) =>
      c.completionResponse.Completion ? [c.completionResponse.Completion.value] : [],
    );
    expect(completions.length).toBeGreaterThanOrEqual(3);
    for (const c of completions) expect(c.actAs).toContain(issuer);
  });

  it('refuses a request without parties as undecodable', async () => {
    const res = await post(server, '/v2/commands/completions', { userId: 'participant_admin' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});
