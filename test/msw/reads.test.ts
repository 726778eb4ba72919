import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { runSocket } from './support/runSocket.js';
import { MOCK_URL, startTwins, withoutTraceIds, type Answer, type Twins } from './support/twins.js';

// Node 20 has no global WebSocket; msw intercepts the global one, so install `ws` as it first.
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
const alice = `alice::${NS}`;
const issuer = `issuer::${NS}`;
const bob = `bob::${NS}`;
const json = (value: unknown) => JSON.stringify(value);
const eventFormat = { filtersByParty: { [alice]: { cumulative: [] } }, verbose: true };
const updateFormat = { includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } };

/** fetch cannot send a GET body; node:http can, and msw intercepts it too. */
function getWithBody(base: string, path: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method: 'GET', headers: { 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the point reads, pages and legacy forms through msw answer as the Koa server does', () => {
  let twins: Twins;
  let cid: string;
  let transfer: { updateId: string; completionOffset: number };

  /** Same request to both faces; equal answers (trace ids aside) with the expected status. */
  const same = async (method: string, path: string, body: unknown, status: number): Promise<Record<string, any>> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const { koa, msw } = await twins.send({ method, path, ...(body === undefined ? {} : { body: json(body) }) });
    expect(koa.status, `${path}: ${koa.body}`).toBe(status);
    expect({ ...msw, body: withoutTraceIds(msw.body) }).toEqual({ ...koa, body: withoutTraceIds(koa.body) });
    return (koa.contentType?.startsWith('application/json') ? JSON.parse(koa.body) : {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  beforeAll(async () => {
    twins = await startTwins();
    for (const hint of ['alice', 'issuer', 'bob']) await same('POST', '/v2/parties', { partyIdHint: hint }, 200);
    for (const [i, amount] of ['1.0', '2.0', '3.0'].entries()) {
      await same('POST', '/v2/commands/submit-and-wait', { commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner: alice, amount, observers: null } } }], commandId: `c-${i}`, userId: 'participant_admin', actAs: [issuer] }, 200);
    }
    const acs = await same('POST', '/v2/state/active-contracts', { activeAtOffset: 6, eventFormat }, 200);
    cid = (acs as unknown as { contractEntry: { JsActiveContract: { createdEvent: { contractId: string } } } }[])[0]!.contractEntry.JsActiveContract.createdEvent.contractId;
    const tree = await same('POST', '/v2/commands/submit-and-wait-for-transaction-tree', { commands: [{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId: cid, choice: 'Transfer', choiceArgument: { newOwner: bob } } }], commandId: 't-1', userId: 'participant_admin', actAs: [alice] }, 200);
    transfer = { updateId: tree.transactionTree.updateId as string, completionOffset: tree.transactionTree.offset as number };
  });
  afterAll(async () => {
    await twins?.close();
  });

  it('update and transaction lookups, and their not-found answers', async () => {
    const byId = await same('POST', '/v2/updates/update-by-id', { updateId: transfer.updateId, updateFormat }, 200);
    expect(byId.update.Transaction.value.offset).toBe(transfer.completionOffset);
    await same('POST', '/v2/updates/update-by-offset', { offset: transfer.completionOffset, updateFormat }, 200);
    await same('POST', '/v2/updates/update-by-id', { updateId: 'nope', updateFormat }, 404);
    await same('POST', '/v2/updates/transaction-by-id', { updateId: transfer.updateId, requestingParties: [alice] }, 200);
    await same('POST', '/v2/updates/transaction-by-offset', { offset: transfer.completionOffset, requestingParties: [alice] }, 200);
    await same('POST', '/v2/updates/transaction-by-offset', { offset: transfer.completionOffset }, 400);
    await same('GET', `/v2/updates/transaction-tree-by-id/${transfer.updateId}?parties=${encodeURIComponent(alice)}`, undefined, 200);
    await same('GET', `/v2/updates/transaction-tree-by-offset/${transfer.completionOffset}?parties=${encodeURIComponent(alice)}`, undefined, 200);
    await same('GET', `/v2/updates/transaction-tree-by-offset/x?parties=${encodeURIComponent(alice)}`, undefined, 400);
  });

  it('flats, trees and the updates page', async () => {
    const flats = await same('POST', '/v2/updates/flats', { beginExclusive: 0, endInclusive: transfer.completionOffset, updateFormat, verbose: false }, 200);
    expect(flats.length).toBeGreaterThan(0);
    const trees = await same('POST', '/v2/updates/trees', { beginExclusive: 0, endInclusive: transfer.completionOffset, filter: { filtersByParty: { [alice]: {} } } }, 200);
    expect(trees.some((u: { update: object }) => 'TransactionTree' in u.update)).toBe(true);
    await same('POST', '/v2/updates/trees', { beginExclusive: 0, updateFormat }, 400);
    const page = await same('POST', '/v2/updates/get-updates-page', { maxPageSize: 1, updateFormat }, 200);
    await same('POST', '/v2/updates/get-updates-page', { maxPageSize: 1, updateFormat, pageToken: page.nextPageToken }, 200);
    await same('POST', '/v2/updates/get-updates-page', { updateFormat, pageToken: 'x.y' }, 400);
  });

  it('events and payload by contract id', async () => {
    const events = await same('POST', '/v2/events/events-by-contract-id', { contractId: cid, eventFormat }, 200);
    expect(Object.keys(events)).toEqual(['created', 'archived']);
    await same('POST', '/v2/events/events-by-contract-id', { contractId: '00ff', eventFormat }, 404);
    await same('POST', '/v2/contracts/contract-by-id', { contractId: cid, queryingParties: [alice] }, 200);
    await same('POST', '/v2/contracts/contract-by-id', { contractId: cid, queryingParties: [`carol::${NS}`] }, 404);
  });

  it('the active contracts page: a GET with a body on Koa; fetch cannot send one, and msw answers that as Koa does', async () => {
    const body = json({ eventFormat, maxPageSize: 1 });
    const koa = await getWithBody(twins.koa.url, '/v2/state/active-contracts-page', body);
    expect(koa.status, koa.body).toBe(200);
    const token = (JSON.parse(koa.body) as { nextPageToken: string }).nextPageToken;
    expect((await getWithBody(twins.koa.url, '/v2/state/active-contracts-page', json({ eventFormat, pageToken: token }))).status).toBe(200);
    // msw hands handlers a fetch Request, which carries no body on GET: both faces answer the bodiless GET alike.
    await same('GET', '/v2/state/active-contracts-page', undefined, 400);
  });

  it('the active contracts page as a POST (Canton 3.5.7+): fetch can send it, and msw answers as Koa does', async () => {
    const { koa, msw } = await twins.send({ method: 'POST', path: '/v2/state/active-contracts-page', body: json({ eventFormat, maxPageSize: 1 }) });
    expect([koa.status, msw.status], msw.body).toEqual([200, 200]);
    type Page = { activeContracts: unknown[]; activeAtOffset: number; nextPageToken?: string };
    const [k, m] = [JSON.parse(koa.body) as Page, JSON.parse(msw.body) as Page];
    expect(m.activeContracts).toEqual(k.activeContracts);
    expect(m.activeAtOffset).toBe(k.activeAtOffset);
    // Each face's token continues its own walk.
    const next = await twins.send({ method: 'POST', path: '/v2/state/active-contracts-page', body: json({ eventFormat, maxPageSize: 1, pageToken: m.nextPageToken }) });
    expect(next.msw.status, next.msw.body).toBe(200);
    expect((JSON.parse(next.msw.body) as Page).activeAtOffset).toBe(m.activeAtOffset);
  });

  it('the GetCompletions list (Canton 3.5.7+), for named parties and for all', async () => {
    await same('POST', '/v2/commands/command-completions?limit=20&stream_idle_timeout_ms=20', { parties: [issuer], beginExclusive: 0 }, 200);
    const all = await same('POST', '/v2/commands/command-completions?limit=20&stream_idle_timeout_ms=20', { parties: [] }, 200);
    expect((all as unknown as unknown[]).length).toBeGreaterThan(0);
    await same('POST', '/v2/commands/command-completions', { parties: ['no party'] }, 400);
  });

  it('the flats and trees WebSocket streams', async () => {
    const koaWs = twins.koa.url.replace(/^http/, 'ws');
    const mockWs = MOCK_URL.replace(/^http/, 'ws');
    for (const path of ['/v2/updates/flats', '/v2/updates/trees']) {
      const frame = json({ beginExclusive: 0, endInclusive: transfer.completionOffset, verbose: true, filter: { filtersByParty: { [alice]: {} } } });
      const koa = await runSocket(new NodeWebSocket(koaWs + path, ['daml.ws.auth']), frame);
      const msw = await runSocket(new WebSocket(mockWs + path, ['daml.ws.auth']), frame);
      expect(koa).toMatchObject({ opened: true, closeCode: 1000 });
      expect(koa.messages.length).toBeGreaterThan(1);
      expect(msw).toEqual(koa);
    }
  });
});
