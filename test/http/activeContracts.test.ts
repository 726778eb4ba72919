import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';

const MAX = 5;
let server: TestServer;
let issuer: string;
let owner: string;
let stranger: string;
beforeAll(async () => {
  server = await startServer({ ledgerOptions: { listMaxElements: MAX } });
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
  stranger = await allocateParty(server, fresh('stranger'));
  for (let i = 0; i < 3; i++) await createAsset(server, issuer, owner, `${i + 1}.0`);
});
afterAll(() => server.close());

type Entry = { contractEntry: { JsActiveContract: { createdEvent: { contractId: string; createdEventBlob?: string; createArgument: { owner: string } }; synchronizerId: string } } };
const wildcard = (party: string, includeCreatedEventBlob = false) => ({
  filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob } } } }] } },
  verbose: true,
});

describe('POST /v2/state/active-contracts', () => {
  it('answers the contracts a party is a stakeholder of, at the ledger end', async () => {
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: await ledgerEnd(server), eventFormat: wildcard(owner) });
    expect(res.status).toBe(200);
    const entries = res.body as Entry[];
    expect(entries).toHaveLength(3);
    for (const e of entries) {
      expect(e.contractEntry.JsActiveContract.createdEvent.createArgument.owner).toBe(owner);
      expect(e.contractEntry.JsActiveContract.createdEvent.createdEventBlob).toBeUndefined();
      expect(e.contractEntry.JsActiveContract.synchronizerId).toEqual(expect.any(String));
    }
  });

  it('includes the created event blob only when the filter asks for it', async () => {
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: await ledgerEnd(server), eventFormat: wildcard(owner, true) });
    for (const e of res.body as Entry[]) expect(e.contractEntry.JsActiveContract.createdEvent.createdEventBlob).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it('accepts the legacy filter/verbose form', async () => {
    const { verbose, ...filter } = wildcard(owner);
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: await ledgerEnd(server), filter, verbose });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
  });

  it('shows nothing to a party that is no stakeholder', async () => {
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: await ledgerEnd(server), eventFormat: wildcard(stranger) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers the state at an older offset', async () => {
    const end = await ledgerEnd(server);
    await createAsset(server, issuer, owner);
    const then = await post(server, '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: wildcard(owner) });
    const now = await post(server, '/v2/state/active-contracts', { activeAtOffset: await ledgerEnd(server), eventFormat: wildcard(owner) });
    expect((now.body as Entry[]).length).toBe((then.body as Entry[]).length + 1);
  });

  it('answers offset 0 with an empty set', async () => {
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: 0, eventFormat: wildcard(owner) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers an offset after the ledger end with 400 OFFSET_AFTER_LEDGER_END', async () => {
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: (await ledgerEnd(server)) + 100, eventFormat: wildcard(owner) });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'OFFSET_AFTER_LEDGER_END', /active_at_offset/);
  });

  it('answers a negative offset with 400', async () => {
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: -1, eventFormat: wildcard(owner) });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('truncates to limit, and answers 413 past the server maximum without one', async () => {
    for (let i = 0; i < MAX; i++) await createAsset(server, issuer, owner);
    const body = { activeAtOffset: await ledgerEnd(server), eventFormat: wildcard(owner) };
    const limited = await post(server, '/v2/state/active-contracts?limit=2', body);
    expect(limited.status).toBe(200);
    expect(limited.body).toHaveLength(2);
    const tooMany = await post(server, '/v2/state/active-contracts', body);
    expect(tooMany.status).toBe(413);
    expectCantonError(tooMany.body, 'LIST_TOO_LARGE', new RegExp(`limit of ${MAX}`));
    // A limit above the maximum is ignored, as the participant does.
    expect((await post(server, `/v2/state/active-contracts?limit=${MAX + 1}`, body)).status).toBe(413);
  });

  it('answers below the pruning offset with 400 PARTICIPANT_PRUNED_DATA_ACCESSED', async () => {
    const pruneTo = (await ledgerEnd(server)) - 1;
    expect(server.ledger.prune(pruneTo).ok).toBe(true);
    const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: pruneTo - 1, eventFormat: wildcard(owner) });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'PARTICIPANT_PRUNED_DATA_ACCESSED');
    const pruned = await get(server, '/v2/state/latest-pruned-offsets');
    expect(pruned.body.participantPrunedUpToInclusive).toBe(pruneTo);
  });

  it('refuses bad inputs with the documented status and body', async () => {
    const end = await ledgerEnd(server);
    const rows: [unknown, number, RegExp][] = [
      ['{"activeAtOffset":', 400, /^text\/plain/],
      [{ activeAtOffset: 'now' }, 400, /^text\/plain/],
      [{ activeAtOffset: 1.5 }, 400, /^text\/plain/],
      [{ activeAtOffset: end, eventFormat: { filtersByParty: { 'not a party': {} } } }, 400, /^application\/json/],
      [{ activeAtOffset: end, eventFormat: wildcard(owner), colour: 1 }, 400, /^application\/json/],
      [{ activeAtOffset: end, eventFormat: wildcard(owner), filter: {} }, 400, /^application\/json/],
      // Beyond int64: refused either as undecodable or as past the ledger end, never served.
      ['{"activeAtOffset": 99999999999999999999999}', 400, /^(text\/plain|application\/json)/],
    ];
    for (const [body, status, type] of rows) {
      const res = await post(server, '/v2/state/active-contracts', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers['content-type']).toMatch(type);
    }
  });
});

describe('the other state reads', () => {
  it('GET /v2/state/ledger-end moves with each commit', async () => {
    const before = (await get(server, '/v2/state/ledger-end')).body.offset as number;
    await createAsset(server, issuer, owner);
    expect((await get(server, '/v2/state/ledger-end')).body.offset).toBeGreaterThan(before);
  });

  it('GET /v2/state/connected-synchronizers lists the two synchronizers', async () => {
    const res = await get(server, '/v2/state/connected-synchronizers');
    expect(res.status).toBe(200);
    expect(res.body.connectedSynchronizers).toHaveLength(2);
    const forParty = await get(server, `/v2/state/connected-synchronizers?party=${encodeURIComponent(owner)}`);
    expect(forParty.status).toBe(200);
  });
});
