import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { get, post, send } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { openStream } from './support/wsClient.js';
import { ASSET, allocateParty, fresh, ledgerEnd } from './support/world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Canton 3.5.7+'s GetCompletions (`POST /v2/commands/command-completions`, and its WebSocket
 * channel): parties only, no user filter; empty parties mean every party and need
 * read-as-any-party (`RequiredClaims.readAsForAllPartiesOrAnyPartyIfEmpty`).
 */
let server: TestServer;
let alice: string;
let bob: string;
let begin: number;
const asUser = (user: string) => ({ headers: { 'x-test-user': user } });
const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } });

async function addUser(id: string, rights: unknown[]): Promise<void> {
  const res = await post(server, '/v2/users', { user: { id, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights });
  expect(res.status, res.text).toBe(200);
}

const submit = (userId: string, party: string, commandId: string) =>
  post(server, '/v2/commands/submit-and-wait', {
    commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '1.0', observers: null } } }],
    commandId,
    userId,
    actAs: [party],
  });

/** PERMISSION_DENIED, redacted as the participant redacts it (code NA, gRPC 7). */
function expectDenied(res: { status: number; body: unknown }, what = ''): void {
  expect(res.status, what).toBe(403);
  expect(res.body).toMatchObject({ code: 'NA', grpcCodeValue: 7 });
}

const commandIdsOf = (body: unknown) =>
  (body as Json[]).flatMap((e) => (e.completionResponse.Completion ? [e.completionResponse.Completion.value.commandId as string] : [])).sort();

beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  alice = await allocateParty(server, fresh('alice'));
  bob = await allocateParty(server, fresh('bob'));
  begin = await ledgerEnd(server);
  await addUser('cc-alice-app', [right('CanActAs', alice)]);
  await addUser('cc-bob-app', [right('CanActAs', bob)]);
  await addUser('cc-alice-reader', [right('CanReadAs', alice)]);
  await addUser('cc-any-reader', [right('CanReadAsAnyParty')]);
  await addUser('cc-admin-only', [right('ParticipantAdmin')]);
  expect((await submit('cc-alice-app', alice, 'cc-alice-1')).status).toBe(200);
  expect((await submit('cc-bob-app', bob, 'cc-bob-1')).status).toBe(200);
  expect((await submit('cc-alice-app', alice, 'cc-alice-2')).status).toBe(200);
});
afterAll(() => server.close());

const completions = (body: unknown, user?: string) =>
  post(server, '/v2/commands/command-completions?stream_idle_timeout_ms=200', body, user === undefined ? {} : asUser(user));

describe('POST /v2/commands/command-completions', () => {
  it("answers every user's completions acting as the named parties, with checkpoints", async () => {
    const res = await completions({ parties: [alice], beginExclusive: begin });
    expect(res.status, res.text).toBe(200);
    expect(commandIdsOf(res.body)).toEqual(['cc-alice-1', 'cc-alice-2']);
    const first = (res.body as Json[])[0]!.completionResponse.Completion.value;
    expect(first).toMatchObject({ userId: 'cc-alice-app', actAs: [alice], status: { code: 0 } });
    // Bob's only completion precedes alice's last: an offset checkpoint at the end follows it.
    const ofBob = await completions({ parties: [bob], beginExclusive: begin });
    expect(commandIdsOf(ofBob.body)).toEqual(['cc-bob-1']);
    expect((ofBob.body as Json[]).at(-1)!.completionResponse.OffsetCheckpoint.value.offset).toBe(await ledgerEnd(server));
  });

  it('with no parties (empty or absent) answers the completions of every party', async () => {
    for (const body of [{ parties: [], beginExclusive: begin }, { beginExclusive: begin }]) {
      const res = await completions(body);
      expect(res.status, res.text).toBe(200);
      expect(commandIdsOf(res.body)).toEqual(['cc-alice-1', 'cc-alice-2', 'cc-bob-1']);
    }
  });

  it('needs read rights for every named party (CanReadAs or CanActAs), else 403', async () => {
    expect((await completions({ parties: [alice], beginExclusive: begin }, 'cc-alice-reader')).status).toBe(200);
    expect(commandIdsOf((await completions({ parties: [alice], beginExclusive: begin }, 'cc-alice-app')).body)).toEqual(['cc-alice-1', 'cc-alice-2']);
    const denied = await completions({ parties: [alice, bob], beginExclusive: begin }, 'cc-alice-reader');
    expectDenied(denied);
  });

  it('needs CanReadAsAnyParty without parties; per-party rights and admin alone are not enough', async () => {
    for (const user of ['cc-any-reader']) {
      const res = await completions({ parties: [], beginExclusive: begin }, user);
      expect(res.status, `${user}: ${res.text}`).toBe(200);
      expect(commandIdsOf(res.body)).toEqual(['cc-alice-1', 'cc-alice-2', 'cc-bob-1']);
    }
    for (const user of ['cc-alice-app', 'cc-alice-reader', 'cc-admin-only']) {
      const res = await completions({ parties: [] }, user);
      expectDenied(res, user);
    }
  });

  it('refuses a bad party, an offset past the ledger end, an unknown field and a userId with 400', async () => {
    const badParty = await completions({ parties: ['not a party'] });
    expect(badParty.status).toBe(400);
    expectCantonError(badParty.body, 'INVALID_FIELD', /parties/);
    const end = await ledgerEnd(server);
    const late = await completions({ parties: [alice], beginExclusive: end + 100 });
    expect(late.status).toBe(400);
    expectCantonError(late.body, 'OFFSET_AFTER_LEDGER_END');
    // The request has no userId: the closed schema refuses it, as the participant's decoder does.
    expect((await completions({ parties: [alice], userId: 'cc-alice-app' })).status).toBe(400);
    expect((await completions({ parties: alice })).status).toBe(400);
  });

  it('keeps the deprecated completion list answering as before (user and parties)', async () => {
    const res = await post(server, '/v2/commands/completions?stream_idle_timeout_ms=200', { userId: 'cc-alice-app', parties: [alice], beginExclusive: begin });
    expect(res.status, res.text).toBe(200);
    expect(commandIdsOf(res.body)).toEqual(['cc-alice-1', 'cc-alice-2']);
  });
});

describe('WebSocket /v2/commands/command-completions', () => {
  it('streams the completions of the named parties, then tails new ones', async () => {
    const session = await openStream(server.url, '/v2/commands/command-completions', { parties: [bob], beginExclusive: begin }, ['test.user.cc-bob-app', 'daml.ws.auth']);
    try {
      const completionsSeen = () => (session.messages as Json[]).filter((m) => m.completionResponse?.Completion).map((m) => m.completionResponse.Completion.value.commandId as string);
      await session.waitFor(1);
      expect(completionsSeen()).toEqual(['cc-bob-1']);
      expect((await submit('cc-bob-app', bob, 'cc-bob-2')).status).toBe(200);
      const deadline = Date.now() + 10_000;
      while (!completionsSeen().includes('cc-bob-2') && Date.now() < deadline) await session.waitFor(session.messages.length + 1, 10_000);
      expect(completionsSeen()).toEqual(['cc-bob-1', 'cc-bob-2']);
    } finally {
      session.socket.close();
    }
  });

  it('closes with an error frame when the caller may not read as any party', async () => {
    const session = await openStream(server.url, '/v2/commands/command-completions', { parties: [] }, ['test.user.cc-alice-reader', 'daml.ws.auth']);
    await session.closed;
    expect(session.messages).toHaveLength(1);
    expect(session.messages[0]).toMatchObject({ code: 'NA', grpcCodeValue: 7 });
  });
});

describe('POST /v2/state/active-contracts-page (Canton 3.5.7+)', () => {
  it('answers what the deprecated GET form answers', async () => {
    const body = { eventFormat: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: true }, maxPageSize: 1 };
    const viaPost = await post(server, '/v2/state/active-contracts-page', body);
    const viaGet = await send(server, 'GET', '/v2/state/active-contracts-page', { body });
    expect(viaPost.status, viaPost.text).toBe(200);
    expect(viaPost.body).toEqual(viaGet.body);
    expect(viaPost.body.activeContracts).toHaveLength(1);
    // The POST's token continues the walk like the GET's.
    const next = await post(server, '/v2/state/active-contracts-page', { ...body, pageToken: viaPost.body.nextPageToken });
    expect(next.status, next.text).toBe(200);
    expect(next.body.activeAtOffset).toBe(viaPost.body.activeAtOffset);
  });

  it('needs read rights for the filtered parties', async () => {
    const body = { eventFormat: { filtersByParty: { [bob]: { cumulative: [] } }, verbose: true } };
    expect((await post(server, '/v2/state/active-contracts-page', body, asUser('cc-alice-reader'))).status).toBe(403);
  });
});

describe('GET /v2/version', () => {
  it('answers 3.5.10 by default', async () => {
    expect((await get(server, '/v2/version')).body.version).toBe('3.5.10');
  });
});
