import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { allocateParty, createAsset, fresh, ledgerEnd } from './support/world.js';

type Json = Record<string, unknown>;

let server: TestServer;
let issuer: string;
let owner: string;
let global: string;
let priv: string;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  issuer = await allocateParty(server, fresh('issuer'));
  owner = await allocateParty(server, fresh('owner'));
  const res = await get(server, '/v2/state/connected-synchronizers');
  const ids = (res.body as { connectedSynchronizers: { synchronizerId: string }[] }).connectedSynchronizers.map((s) => s.synchronizerId);
  [global, priv] = ids as [string, string];
});
afterAll(() => server.close());

const WAIT = '/v2/commands/submit-and-wait-for-reassignment';
const ASYNC = '/v2/commands/async/submit-reassignment';
const everything = (party: string) => ({ filtersByParty: { [party]: {} }, verbose: true });

/** A fresh asset of `owner`, on the global synchronizer; returns its contract id. */
async function newAsset(): Promise<string> {
  const { completionOffset } = await createAsset(server, issuer, owner);
  const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: completionOffset, eventFormat: everything(owner) });
  const created = (res.body as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string; offset: number } } } }[])
    .flatMap((e) => (e.contractEntry.JsActiveContract ? [e.contractEntry.JsActiveContract.createdEvent] : []))
    .find((c) => c.offset === completionOffset);
  if (!created) throw new Error('the new asset is not in the ACS');
  return created.contractId;
}

const commands = (command: Json, extra: Json = {}) => ({
  commandId: fresh('reassign'),
  userId: 'participant_admin',
  submitter: owner,
  commands: [{ command }],
  ...extra,
});
const unassign = (contractId: string, source = global, target = priv) => ({ UnassignCommand: { value: { contractId, source, target } } });
const assign = (reassignmentId: string, source = global, target = priv) => ({ AssignCommand: { value: { reassignmentId, source, target } } });

async function acsEntryOf(contractId: string): Promise<Json | undefined> {
  const res = await post(server, '/v2/state/active-contracts', { activeAtOffset: await ledgerEnd(server), eventFormat: everything(owner) });
  return (res.body as { contractEntry: Json }[])
    .map((e) => e.contractEntry)
    .find((e) => JSON.stringify(e).includes(contractId));
}

describe('POST /v2/commands/submit-and-wait-for-reassignment', () => {
  it('unassigns (in flight: JsIncompleteUnassigned in the ACS, an update in the stream), then assigns to the target', async () => {
    const cid = await newAsset();
    const begin = await ledgerEnd(server);
    const out = await post(server, WAIT, { reassignmentCommands: commands(unassign(cid), { workflowId: 'move-1' }), eventFormat: everything(owner) });
    expect(out.status, out.text).toBe(200);
    const moved = (out.body as { reassignment: Json }).reassignment;
    expect(moved).toMatchObject({ offset: begin + 1, synchronizerId: global, workflowId: 'move-1' });
    const unassigned = (moved['events'] as { JsUnassignedEvent: { value: Json } }[])[0]!.JsUnassignedEvent.value;
    expect(unassigned).toMatchObject({ contractId: cid, source: global, target: priv, submitter: owner, reassignmentCounter: 1 });
    const reassignmentId = unassigned['reassignmentId'] as string;

    expect(Object.keys((await acsEntryOf(cid)) ?? {})).toEqual(['JsIncompleteUnassigned']);
    const updates = await post(server, '/v2/updates?stream_idle_timeout_ms=100', {
      beginExclusive: begin,
      updateFormat: { includeReassignments: everything(owner) },
    });
    expect(JSON.stringify(updates.body)).toContain(reassignmentId);
    // Its command id shows to its submitter only (Canton's filteredCommandId): not to the issuer, another stakeholder.
    expect(moved['commandId']).toEqual(expect.any(String));
    const asIssuer = await post(server, '/v2/updates?stream_idle_timeout_ms=100', { beginExclusive: begin, updateFormat: { includeReassignments: everything(issuer) } });
    const seenByIssuer = (asIssuer.body as { update: { Reassignment?: { value: Json } } }[]).flatMap((u) => (u.update.Reassignment ? [u.update.Reassignment.value] : []));
    expect(seenByIssuer).toHaveLength(1);
    expect(seenByIssuer[0]).not.toHaveProperty('commandId');

    const back = await post(server, WAIT, { reassignmentCommands: commands(assign(reassignmentId)), eventFormat: everything(owner) });
    expect(back.status, back.text).toBe(200);
    const assigned = ((back.body as { reassignment: { events: { JsAssignmentEvent: Json }[] } }).reassignment.events[0]!).JsAssignmentEvent;
    expect(assigned).toMatchObject({ reassignmentId, source: global, target: priv, reassignmentCounter: 1 });
    expect((await acsEntryOf(cid))?.['JsActiveContract']).toMatchObject({ synchronizerId: priv, reassignmentCounter: 1 });
  });

  it('answers the update without events when no eventFormat is given', async () => {
    const res = await post(server, WAIT, { reassignmentCommands: commands(unassign(await newAsset())) });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { reassignment: Json }).reassignment).toMatchObject({ events: [], synchronizerId: global, updateId: expect.any(String) });
  });

  it('refuses a source synchronizer the contract is not on (400), and leaves the contract where it is', async () => {
    const cid = await newAsset();
    const res = await post(server, WAIT, { reassignmentCommands: commands(unassign(cid, priv, global)) });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT', /not to the source/);
    expect((await acsEntryOf(cid))?.['JsActiveContract']).toMatchObject({ synchronizerId: global });
  });

  it('answers an unknown contract with 404 CONTRACT_NOT_FOUND and an unknown reassignment with 404 REASSIGNMENT_NOT_FOUND', async () => {
    const gone = await post(server, WAIT, { reassignmentCommands: commands(unassign('00' + 'ab'.repeat(33))) });
    expect(gone.status).toBe(404);
    expectCantonError(gone.body, 'CONTRACT_NOT_FOUND');
    const never = await post(server, WAIT, { reassignmentCommands: commands(assign('no-such-reassignment')) });
    expect(never.status).toBe(404);
    expectCantonError(never.body, 'REASSIGNMENT_NOT_FOUND');
  });

  it('refuses a submitter who is not a stakeholder, and an unknown synchronizer', async () => {
    const cid = await newAsset();
    const stranger = await allocateParty(server, fresh('stranger'));
    const res = await post(server, WAIT, { reassignmentCommands: commands(unassign(cid), { submitter: stranger }) });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'DAML_AUTHORIZATION_ERROR');
    const nowhere = await post(server, WAIT, { reassignmentCommands: commands(unassign(cid, global, 'nowhere::1220' + '00'.repeat(32))) });
    expect(nowhere.status).toBe(400);
    expectCantonError(nowhere.body, 'UNKNOWN_SYNCHRONIZER');
  });

  it('refuses unknown fields, an Empty command and more than one command with 400', async () => {
    const cid = await newAsset();
    const extra = await post(server, WAIT, { reassignmentCommands: commands(unassign(cid)), colour: 'blue' }, { unchecked: true });
    expect(extra.status).toBe(400);
    const inner = await post(server, WAIT, { reassignmentCommands: commands({ UnassignCommand: { value: { contractId: cid, source: global, target: priv, extra: 1 } } }) }, { unchecked: true });
    expect(inner.status).toBe(400);
    const empty = await post(server, WAIT, { reassignmentCommands: commands({ Empty: {} }) });
    expect(empty.status).toBe(400);
    expectCantonError(empty.body, 'MISSING_FIELD');
    const two = await post(server, WAIT, { reassignmentCommands: { ...commands(unassign(cid)), commands: [{ command: unassign(cid) }, { command: unassign(cid) }] } });
    expect(two.status).toBe(400);
    expectCantonError(two.body, 'INVALID_ARGUMENT', /one command/);
    expect((await acsEntryOf(cid))?.['JsActiveContract']).toMatchObject({ synchronizerId: global });
  });

  it('needs CanActAs for the submitter when the caller is a user', async () => {
    const cid = await newAsset();
    const user = fresh('reader');
    expect((await post(server, '/v2/users', { user: { id: user, primaryParty: '', isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanReadAs: { value: { party: owner } } } }] })).status).toBe(200);
    const body = { reassignmentCommands: { ...commands(unassign(cid)), userId: user } };
    const denied = await post(server, WAIT, body, { headers: { 'x-test-user': user } });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ grpcCodeValue: 7 });
    expect((await acsEntryOf(cid))?.['JsActiveContract']).toMatchObject({ synchronizerId: global });
  });
});

describe('POST /v2/commands/async/submit-reassignment', () => {
  it('answers {} and the reassignment shows on completions', async () => {
    const cid = await newAsset();
    const begin = await ledgerEnd(server);
    const body = commands(unassign(cid), { submissionId: 'sub-1' });
    const res = await post(server, ASYNC, { reassignmentCommands: body });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    const completions = await post(server, '/v2/commands/completions?stream_idle_timeout_ms=200', { userId: 'participant_admin', parties: [owner], beginExclusive: begin });
    const mine = (completions.body as { completionResponse: { Completion?: { value: Json } } }[]).flatMap((c) =>
      c.completionResponse.Completion ? [c.completionResponse.Completion.value] : [],
    );
    expect(mine).toEqual([expect.objectContaining({ commandId: body.commandId, submissionId: 'sub-1', status: expect.objectContaining({ code: 0 }) })]);
    expect(Object.keys((await acsEntryOf(cid)) ?? {})).toEqual(['JsIncompleteUnassigned']);
  });

  it('refuses an unknown contract with 404', async () => {
    const res = await post(server, ASYNC, { reassignmentCommands: commands(unassign('00' + 'cd'.repeat(33))) });
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'CONTRACT_NOT_FOUND');
  });
});
