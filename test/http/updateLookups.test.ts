import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { ASSET, allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let issuer: string;
let owner: string;
let other: string;
let reader: string;
let created: { updateId: string; completionOffset: number };
let transfer: { updateId: string; offset: number };
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
  other = await allocateParty(server, fresh('other'));
  reader = fresh('reader');
  expect((await post(server, '/v2/users', { user: { id: reader, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: owner } } } }] })).status).toBe(200);
  created = await createAsset(server, issuer, owner);
  const cid = await contractIdAt(created.completionOffset);
  const res = await post(server, '/v2/commands/submit-and-wait', {
    commands: [{ ExerciseCommand: { templateId: ASSET, contractId: cid, choice: 'Transfer', choiceArgument: { newOwner: other } } }],
    commandId: fresh('transfer'),
    userId: 'participant_admin',
    actAs: [owner],
  });
  expect(res.status, res.text).toBe(200);
  transfer = { updateId: res.body.updateId, offset: res.body.completionOffset };
});
afterAll(() => server.close());

async function contractIdAt(offset: number): Promise<string> {
  const res = await post(server, '/v2/updates/update-by-offset', { offset, updateFormat: format(owner, 'TRANSACTION_SHAPE_ACS_DELTA') });
  return res.body.update.Transaction.value.events[0].CreatedEvent.contractId as string;
}

const eventFormat = (party: string) => ({ filtersByParty: { [party]: { cumulative: [] } }, verbose: true });
const format = (party: string, transactionShape = 'TRANSACTION_SHAPE_LEDGER_EFFECTS') => ({ includeTransactions: { eventFormat: eventFormat(party), transactionShape } });

describe('POST /v2/updates/update-by-id and update-by-offset', () => {
  it('answer the element the update stream shows at that offset', async () => {
    const stream = await post(server, '/v2/updates', { beginExclusive: transfer.offset - 1, endInclusive: transfer.offset, updateFormat: format(owner) });
    const byId = await post(server, '/v2/updates/update-by-id', { updateId: transfer.updateId, updateFormat: format(owner) });
    const byOffset = await post(server, '/v2/updates/update-by-offset', { offset: transfer.offset, updateFormat: format(owner) });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(stream.body[0]);
    expect(byOffset.body).toEqual(byId.body);
    const events = byId.body.update.Transaction.value.events as Json[];
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['ExercisedEvent', 'CreatedEvent']);
  });

  it('answer UPDATE_NOT_FOUND (404) for an unknown id, an offset past the end, and an update the parties cannot see', async () => {
    const cases: [string, Json][] = [
      ['/v2/updates/update-by-id', { updateId: `1220${'0'.repeat(64)}`, updateFormat: format(owner) }],
      ['/v2/updates/update-by-offset', { offset: (await ledgerEnd(server)) + 5, updateFormat: format(owner) }],
      ['/v2/updates/update-by-id', { updateId: created.updateId, updateFormat: format(other) }],
    ];
    for (const [path, body] of cases) {
      const res = await post(server, path, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expectCantonError(res.body, 'UPDATE_NOT_FOUND');
      expect(res.body.errorCategory).toBe(11);
    }
  });

  it('refuse bad input with the documented status and body', async () => {
    const rows: [string, unknown, number, RegExp, string?][] = [
      ['/v2/updates/update-by-id', '{"updateId":', 400, /^text\/plain/],
      ['/v2/updates/update-by-id', { updateFormat: format(owner) }, 400, /^text\/plain/],
      ['/v2/updates/update-by-id', { updateId: '', updateFormat: format(owner) }, 400, /^application\/json/, 'MISSING_FIELD'],
      ['/v2/updates/update-by-id', { updateId: transfer.updateId, updateFormat: format(owner), colour: 1 }, 400, /^application\/json/, 'INVALID_ARGUMENT'],
      ['/v2/updates/update-by-offset', { offset: -1, updateFormat: format(owner) }, 400, /^application\/json/, 'INVALID_ARGUMENT'],
      ['/v2/updates/update-by-offset', { offset: 'one', updateFormat: format(owner) }, 400, /^text\/plain/],
      ['/v2/updates/update-by-offset', { offset: 1, updateFormat: { includeTransactions: { eventFormat: eventFormat(owner), transactionShape: 'TRANSACTION_SHAPE_UNSPECIFIED' } } }, 400, /^(text\/plain|application\/json)/],
    ];
    for (const [path, body, status, type, code] of rows) {
      const res = await post(server, path, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers['content-type']).toMatch(type);
      if (code) expectCantonError(res.body, code);
    }
  });

  it('need read rights for the format\'s parties (403 otherwise)', async () => {
    const mine = await post(server, '/v2/updates/update-by-id', { updateId: transfer.updateId, updateFormat: format(owner) }, { headers: { 'x-test-user': reader } });
    expect(mine.status).toBe(200);
    const theirs = await post(server, '/v2/updates/update-by-id', { updateId: transfer.updateId, updateFormat: format(other) }, { headers: { 'x-test-user': reader } });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ code: 'NA', errorCategory: -1, grpcCodeValue: 7 });
  });
});

describe('POST /v2/updates/transaction-by-id and transaction-by-offset (deprecated)', () => {
  it('answer the ACS delta for the requesting parties, or the given format', async () => {
    const byId = await post(server, '/v2/updates/transaction-by-id', { updateId: transfer.updateId, requestingParties: [owner] });
    expect(byId.status).toBe(200);
    expect((byId.body.transaction.events as Json[]).map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent']);
    const byOffset = await post(server, '/v2/updates/transaction-by-offset', { offset: transfer.offset, requestingParties: [owner] });
    expect(byOffset.body).toEqual(byId.body);
    const effects = await post(server, '/v2/updates/transaction-by-id', { updateId: transfer.updateId, transactionFormat: format(owner).includeTransactions });
    expect((effects.body.transaction.events as Json[]).map((e) => Object.keys(e)[0])).toEqual(['ExercisedEvent', 'CreatedEvent']);
  });

  it('refuse both forms at once, neither form, and unknown ids', async () => {
    const both = await post(server, '/v2/updates/transaction-by-id', { updateId: transfer.updateId, requestingParties: [owner], transactionFormat: format(owner).includeTransactions });
    expect(both.status).toBe(400);
    expectCantonError(both.body, 'INVALID_ARGUMENT', /requesting_parties/);
    const neither = await post(server, '/v2/updates/transaction-by-offset', { offset: transfer.offset });
    expect(neither.status).toBe(400);
    expectCantonError(neither.body, 'MISSING_FIELD', /requesting_parties/);
    const badParty = await post(server, '/v2/updates/transaction-by-offset', { offset: transfer.offset, requestingParties: ['nobody'] });
    expect(badParty.status).toBe(400);
    const unknown = await post(server, '/v2/updates/transaction-by-id', { updateId: `1220${'f'.repeat(64)}`, requestingParties: [owner] });
    expect(unknown.status).toBe(404);
    expectCantonError(unknown.body, 'UPDATE_NOT_FOUND');
    // A topology update has an offset but is no transaction.
    const topology = await post(server, '/v2/updates/transaction-by-offset', { offset: 1, requestingParties: [owner] });
    expect(topology.status).toBe(404);
  });
});

describe('GET /v2/updates/transaction-tree-by-id and -by-offset (deprecated)', () => {
  it('answer the ledger-effects events keyed by node id, agreeing with update-by-id', async () => {
    const q = `parties=${encodeURIComponent(owner)}`;
    const byId = await get(server, `/v2/updates/transaction-tree-by-id/${transfer.updateId}?${q}`);
    expect(byId.status).toBe(200);
    const tree = byId.body.transaction as Json;
    const flat = (await post(server, '/v2/updates/update-by-id', { updateId: transfer.updateId, updateFormat: format(owner) })).body.update.Transaction.value as Json;
    const fromTree = Object.entries(tree.eventsById as Json).map(([nodeId, e]) => [Number(nodeId), Object.values(e as Json)[0].value]);
    const fromFlat = (flat.events as Json[]).map((e) => {
      const ev = Object.values(e)[0] as Json;
      return [ev.nodeId, ev];
    });
    expect(fromTree).toEqual(fromFlat);
    expect(tree.updateId).toBe(flat.updateId);
    const byOffset = await get(server, `/v2/updates/transaction-tree-by-offset/${transfer.offset}?${q}`);
    expect(byOffset.body).toEqual(byId.body);
  });

  it('refuse a missing party list, a malformed offset, unknown ids and unreadable parties', async () => {
    const none = await get(server, `/v2/updates/transaction-tree-by-id/${transfer.updateId}`);
    expect(none.status).toBe(400);
    expectCantonError(none.body, 'MISSING_FIELD', /requesting_parties/);
    const badOffset = await get(server, `/v2/updates/transaction-tree-by-offset/abc?parties=${encodeURIComponent(owner)}`);
    expect(badOffset.status).toBe(400);
    expect(badOffset.headers['content-type']).toMatch(/^text\/plain/);
    const unknown = await get(server, `/v2/updates/transaction-tree-by-id/nope?parties=${encodeURIComponent(owner)}`);
    expect(unknown.status).toBe(404);
    expectCantonError(unknown.body, 'UPDATE_NOT_FOUND');
    const denied = await get(server, `/v2/updates/transaction-tree-by-id/${transfer.updateId}?parties=${encodeURIComponent(other)}`, { headers: { 'x-test-user': reader } });
    expect(denied.status).toBe(403);
  });
});

describe('POST /v2/commands/submit-and-wait-for-transaction-tree (deprecated)', () => {
  it('commits and answers the tree the tree lookup then finds', async () => {
    const res = await post(server, '/v2/commands/submit-and-wait-for-transaction-tree', {
      commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner, amount: '3.0', observers: null } } }],
      commandId: fresh('tree'),
      userId: 'participant_admin',
      actAs: [issuer],
    });
    expect(res.status, res.text).toBe(200);
    const tree = res.body.transactionTree as Json;
    expect(Object.keys(tree.eventsById as Json)).toEqual(['0']);
    const again = await get(server, `/v2/updates/transaction-tree-by-id/${tree.updateId as string}?parties=${encodeURIComponent(issuer)}`);
    expect(again.body.transaction).toEqual(tree);
  });

  it('refuses as submit-and-wait does', async () => {
    const res = await post(server, '/v2/commands/submit-and-wait-for-transaction-tree', {
      commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner, amount: '-1', observers: null } } }],
      commandId: fresh('tree'),
      userId: 'participant_admin',
      actAs: [issuer],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TEMPLATE_PRECONDITION_VIOLATED');
  });
});
