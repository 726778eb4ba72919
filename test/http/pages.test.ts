import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { post, send } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let issuer: string;
let owner: string;
let other: string;
let reader: string;
let begin: number;
const COUNT = 7;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
  other = await allocateParty(server, fresh('other'));
  reader = fresh('reader');
  expect((await post(server, '/v2/users', { user: { id: reader, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: owner } } } }] })).status).toBe(200);
  begin = await ledgerEnd(server);
  for (let i = 0; i < COUNT; i++) await createAsset(server, issuer, owner, `${i + 1}.0`);
});
afterAll(() => server.close());

const eventFormat = (party: string) => ({ filtersByParty: { [party]: { cumulative: [] } }, verbose: true });
const acsPage = (body: unknown, headers?: Record<string, string>) => send(server, 'GET', '/v2/state/active-contracts-page', { body, ...(headers ? { headers } : {}) });
const idOf = (e: Json) => (e.contractEntry.JsActiveContract ?? e.contractEntry.JsIncompleteUnassigned).createdEvent.contractId as string;

async function walk(first: Json): Promise<{ ids: string[]; pages: number; offsets: Set<number> }> {
  const ids: string[] = [];
  const offsets = new Set<number>();
  let token: string | undefined;
  let pages = 0;
  do {
    const res = await acsPage({ ...first, ...(token ? { pageToken: token } : {}) });
    expect(res.status, res.text).toBe(200);
    ids.push(...(res.body.activeContracts as Json[]).map(idOf));
    offsets.add(res.body.activeAtOffset as number);
    token = res.body.nextPageToken as string | undefined;
    pages++;
  } while (token && pages < 100);
  return { ids, pages, offsets };
}

describe('GET /v2/state/active-contracts-page', () => {
  it('a page walk equals the one-shot list, at one pinned offset, though the ledger moves on between pages', async () => {
    const end = await ledgerEnd(server);
    const oneShot = await post(server, '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: eventFormat(owner) });
    const first = await acsPage({ eventFormat: eventFormat(owner), maxPageSize: 3 });
    expect(first.body.activeAtOffset).toBe(end);
    expect(first.body.activeContracts).toHaveLength(3);
    // The ledger moves on; the token still reads the snapshot at `end`.
    await createAsset(server, issuer, owner);
    const rest = await walk({ eventFormat: eventFormat(owner), maxPageSize: 3, pageToken: first.body.nextPageToken });
    const all = [...(first.body.activeContracts as Json[]).map(idOf), ...rest.ids];
    expect(all.sort()).toEqual((oneShot.body as Json[]).map(idOf).sort());
    expect(new Set(all).size).toBe(all.length);
    expect([...rest.offsets]).toEqual([end]);
  });

  it('walks the same contracts in any page size, and the last page has no token', async () => {
    const one = await walk({ eventFormat: eventFormat(owner), maxPageSize: 1 });
    const big = await walk({ eventFormat: eventFormat(owner), maxPageSize: 1000 });
    expect(one.ids).toEqual(big.ids);
    expect(big.pages).toBe(1);
    expect(one.pages).toBe(one.ids.length);
  });

  it('answers offset 0 with nothing and no token', async () => {
    const res = await acsPage({ eventFormat: eventFormat(owner), activeAtOffset: 0 });
    expect(res.body).toEqual({ activeContracts: [], activeAtOffset: 0 });
  });

  it('refuses altered, foreign and mismatched tokens with 400 INVALID_ARGUMENT', async () => {
    const first = await acsPage({ eventFormat: eventFormat(owner), maxPageSize: 2 });
    const token = first.body.nextPageToken as string;
    const [payload, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), at: 1 })).toString('base64url');
    const rows: [Json, RegExp][] = [
      [{ eventFormat: eventFormat(owner), pageToken: 'not-a-token' }, /Invalid page token/],
      [{ eventFormat: eventFormat(owner), pageToken: `${forged}.${mac}` }, /Invalid page token/],
      [{ eventFormat: eventFormat(owner), pageToken: `${payload}.${mac.slice(1)}A` }, /Invalid page token/],
      [{ eventFormat: eventFormat(other), pageToken: token }, /different event_format/],
      [{ eventFormat: eventFormat(owner), pageToken: token, activeAtOffset: 1 }, /active_at_offset/],
    ];
    for (const [body, cause] of rows) {
      const res = await acsPage(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectCantonError(res.body, 'INVALID_ARGUMENT', cause);
    }
    // An updates-page token is no active-contracts token.
    const updates = await post(server, '/v2/updates/get-updates-page', { updateFormat: { includeTransactions: { eventFormat: eventFormat(owner), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } });
    const cross = await acsPage({ eventFormat: eventFormat(owner), pageToken: updates.body.nextPageToken });
    expect(cross.status).toBe(400);
  });

  it('refuses bad input with the documented status and body', async () => {
    const end = await ledgerEnd(server);
    const rows: [unknown, number, RegExp, string?][] = [
      ['{"eventFormat":', 400, /^text\/plain/],
      [{ activeAtOffset: end }, 400, /^text\/plain/],
      [{ eventFormat: eventFormat(owner), maxPageSize: -1 }, 400, /^application\/json/, 'INVALID_ARGUMENT'],
      [{ eventFormat: eventFormat(owner), activeAtOffset: end + 10 }, 400, /^application\/json/, 'OFFSET_AFTER_LEDGER_END'],
      [{ eventFormat: { filtersByParty: { 'not a party': {} } } }, 400, /^application\/json/, 'INVALID_ARGUMENT'],
      [{ eventFormat: eventFormat(owner), colour: 1 }, 400, /^application\/json/, 'INVALID_ARGUMENT'],
    ];
    for (const [body, status, type, code] of rows) {
      const res = await acsPage(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers['content-type']).toMatch(type);
      if (code) expectCantonError(res.body, code);
    }
  });

  it('reads only as parties the caller may read as (403 otherwise)', async () => {
    expect((await acsPage({ eventFormat: eventFormat(owner) }, { 'x-test-user': reader })).status).toBe(200);
    expect((await acsPage({ eventFormat: eventFormat(other) }, { 'x-test-user': reader })).status).toBe(403);
    expect((await acsPage({ eventFormat: { filtersForAnyParty: {} } }, { 'x-test-user': reader })).status).toBe(403);
  });
});

describe('POST /v2/updates/get-updates-page', () => {
  const updateFormat = (party: string) => ({ includeTransactions: { eventFormat: eventFormat(party), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } });
  const txOffsets = (body: Json) => (body.updates as Json[]).map((u) => u.update.Transaction.value.offset as number);

  async function pageWalk(request: Json): Promise<number[]> {
    const out: number[] = [];
    let token: string | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await post(server, '/v2/updates/get-updates-page', { ...request, ...(token ? { pageToken: token } : {}) });
      expect(res.status, res.text).toBe(200);
      out.push(...txOffsets(res.body));
      token = res.body.nextPageToken as string | undefined;
      if (!token || res.body.updates.length === 0) break;
    }
    return out;
  }

  it('pages ascending and descending over the same updates the list answers', async () => {
    const end = begin + COUNT;
    const list = await post(server, '/v2/updates', { beginExclusive: begin, endInclusive: end, updateFormat: updateFormat(owner) });
    const expected = (list.body as Json[]).flatMap((u) => (u.update.Transaction ? [u.update.Transaction.value.offset as number] : []));
    expect(expected).toHaveLength(COUNT);
    expect(await pageWalk({ beginOffsetExclusive: begin, endOffsetInclusive: end, maxPageSize: 2, updateFormat: updateFormat(owner) })).toEqual(expected);
    expect(await pageWalk({ beginOffsetExclusive: begin, endOffsetInclusive: end, maxPageSize: 3, descendingOrder: true, updateFormat: updateFormat(owner) })).toEqual([...expected].reverse());
  });

  it('reports the page bounds, and an open ascending walk keeps a token to poll with', async () => {
    const first = await post(server, '/v2/updates/get-updates-page', { beginOffsetExclusive: begin, maxPageSize: 2, updateFormat: updateFormat(owner) });
    expect(first.body.lowestPageOffsetExclusive).toBe(begin);
    expect(first.body.highestPageOffsetInclusive).toBe(txOffsets(first.body)[1]);
    const end = await ledgerEnd(server);
    const last = await post(server, '/v2/updates/get-updates-page', { beginOffsetExclusive: end, updateFormat: updateFormat(owner) });
    expect(last.body.updates).toEqual([]);
    expect(last.body.nextPageToken).toEqual(expect.any(String));
    const created = await createAsset(server, issuer, owner);
    const polled = await post(server, '/v2/updates/get-updates-page', { beginOffsetExclusive: end, updateFormat: updateFormat(owner), pageToken: last.body.nextPageToken });
    expect(txOffsets(polled.body)).toEqual([created.completionOffset]);
  });

  it('refuses bad input and mismatched tokens', async () => {
    const first = await post(server, '/v2/updates/get-updates-page', { beginOffsetExclusive: begin, maxPageSize: 1, updateFormat: updateFormat(owner) });
    const end = await ledgerEnd(server);
    const rows: [unknown, number, string?][] = [
      ['{"updateFormat":', 400],
      [{ beginOffsetExclusive: 0 }, 400],
      [{ updateFormat: updateFormat(owner), beginOffsetExclusive: end + 1 }, 400, 'OFFSET_AFTER_LEDGER_END'],
      [{ updateFormat: updateFormat(owner), beginOffsetExclusive: 3, endOffsetInclusive: 2 }, 400, 'OFFSET_OUT_OF_RANGE'],
      [{ updateFormat: updateFormat(owner), maxPageSize: -5 }, 400, 'INVALID_ARGUMENT'],
      [{ updateFormat: updateFormat(owner), pageToken: 'garbage' }, 400, 'INVALID_ARGUMENT'],
      [{ updateFormat: updateFormat(owner), beginOffsetExclusive: begin, maxPageSize: 1, descendingOrder: true, pageToken: first.body.nextPageToken }, 400, 'INVALID_ARGUMENT'],
    ];
    for (const [body, status, code] of rows) {
      const res = await post(server, '/v2/updates/get-updates-page', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (code) expectCantonError(res.body, code);
    }
  });
});
