import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { ASSET, allocateParty, createAsset, fresh } from './support/world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let issuer: string;
let owner: string;
let other: string;
let stranger: string;
let reader: string;
let active: string;
let archived: string;
let transferOffset: number;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  [issuer, owner, other, stranger] = (await Promise.all(['issuer', 'owner', 'other', 'stranger'].map((h) => allocateParty(server, fresh(h))))) as [string, string, string, string];
  reader = fresh('reader');
  expect((await post(server, '/v2/users', { user: { id: reader, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: owner } } } }] })).status).toBe(200);
  active = await newAsset();
  archived = await newAsset();
  const res = await post(server, '/v2/commands/submit-and-wait', {
    commands: [{ ExerciseCommand: { templateId: ASSET, contractId: archived, choice: 'Transfer', choiceArgument: { newOwner: other } } }],
    commandId: fresh('transfer'),
    userId: 'participant_admin',
    actAs: [owner],
  });
  expect(res.status, res.text).toBe(200);
  transferOffset = res.body.completionOffset as number;
});
afterAll(() => server.close());

async function newAsset(): Promise<string> {
  const { completionOffset } = await createAsset(server, issuer, owner);
  const res = await post(server, '/v2/updates/update-by-offset', { offset: completionOffset, updateFormat: { includeTransactions: { eventFormat: everything(owner), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } });
  return res.body.update.Transaction.value.events[0].CreatedEvent.contractId as string;
}
const everything = (party: string) => ({ filtersByParty: { [party]: { cumulative: [] } }, verbose: true });

describe('POST /v2/events/events-by-contract-id', () => {
  it('answers the created event of an active contract, and created plus archived once archived', async () => {
    const live = await post(server, '/v2/events/events-by-contract-id', { contractId: active, eventFormat: everything(owner) });
    expect(live.status).toBe(200);
    expect(live.body.created.createdEvent.contractId).toBe(active);
    expect(live.body.created.synchronizerId).toEqual(expect.any(String));
    expect(live.body.archived).toBeUndefined();
    const gone = await post(server, '/v2/events/events-by-contract-id', { contractId: archived, eventFormat: everything(owner) });
    expect(gone.body.archived.archivedEvent).toMatchObject({ contractId: archived, offset: transferOffset, witnessParties: [owner] });
    // The issuer (signatory) sees both events too.
    expect((await post(server, '/v2/events/events-by-contract-id', { contractId: archived, eventFormat: everything(issuer) })).body.archived).toBeDefined();
  });

  it('answers CONTRACT_EVENTS_NOT_FOUND (404) for unknown contracts and non-stakeholders', async () => {
    for (const [contractId, party] of [[`00${'ab'.repeat(33)}`, owner], [active, stranger]] as const) {
      const res = await post(server, '/v2/events/events-by-contract-id', { contractId, eventFormat: everything(party) });
      expect(res.status).toBe(404);
      expectCantonError(res.body, 'CONTRACT_EVENTS_NOT_FOUND', 'Contract events not found, or not visible.');
    }
  });

  it('refuses bad input and unreadable parties', async () => {
    const rows: [unknown, number, RegExp][] = [
      ['{"contractId":', 400, /^text\/plain/],
      [{ contractId: active }, 400, /^text\/plain/],
      [{ contractId: '', eventFormat: everything(owner) }, 400, /^application\/json/],
      [{ contractId: active, eventFormat: {} }, 400, /^application\/json/],
      [{ contractId: active, eventFormat: everything(owner), colour: 1 }, 400, /^application\/json/],
    ];
    for (const [body, status, type] of rows) {
      const res = await post(server, '/v2/events/events-by-contract-id', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers['content-type']).toMatch(type);
    }
    const denied = await post(server, '/v2/events/events-by-contract-id', { contractId: active, eventFormat: everything(stranger) }, { headers: { 'x-test-user': reader } });
    expect(denied.status).toBe(403);
  });
});

describe('POST /v2/contracts/contract-by-id', () => {
  it('answers the payload of active and archived contracts to stakeholders, without offset, node id or blob', async () => {
    for (const contractId of [active, archived]) {
      const res = await post(server, '/v2/contracts/contract-by-id', { contractId, queryingParties: [owner, stranger] });
      expect(res.status, res.text).toBe(200);
      const ev = res.body.createdEvent as Json;
      expect(ev).toMatchObject({ contractId, offset: 0, nodeId: 0, witnessParties: [owner], createArgument: { owner } });
      expect(ev.createdEventBlob).toBeUndefined();
    }
  });

  it('answers CONTRACT_PAYLOAD_NOT_FOUND (404) for unknown contracts and parties that share no stakeholder', async () => {
    for (const body of [{ contractId: `00${'cd'.repeat(33)}`, queryingParties: [owner] }, { contractId: active, queryingParties: [stranger] }]) {
      const res = await post(server, '/v2/contracts/contract-by-id', body);
      expect(res.status).toBe(404);
      expectCantonError(res.body, 'CONTRACT_PAYLOAD_NOT_FOUND');
    }
  });

  it('needs read-as-any-party without querying parties, and read rights for those given', async () => {
    const asReader = { headers: { 'x-test-user': reader } };
    expect((await post(server, '/v2/contracts/contract-by-id', { contractId: active, queryingParties: [owner] }, asReader)).status).toBe(200);
    expect((await post(server, '/v2/contracts/contract-by-id', { contractId: active }, asReader)).status).toBe(403);
    expect((await post(server, '/v2/contracts/contract-by-id', { contractId: active, queryingParties: [issuer] }, asReader)).status).toBe(403);
    expect((await post(server, '/v2/contracts/contract-by-id', { contractId: active })).status).toBe(200);
  });

  it('refuses bad input', async () => {
    const rows: [unknown, number][] = [
      ['[]', 400],
      [{ queryingParties: [owner] }, 400],
      [{ contractId: '' }, 400],
      [{ contractId: active, queryingParties: ['not a party'] }, 400],
      [{ contractId: active, colour: 1 }, 400],
    ];
    for (const [body, status] of rows) expect((await post(server, '/v2/contracts/contract-by-id', body)).status, JSON.stringify(body)).toBe(status);
  });
});
