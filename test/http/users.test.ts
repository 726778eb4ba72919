import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError } from './support/cantonError.js';
import { del, get, patch, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';
import { allocateParty, fresh } from './support/world.js';

let server: TestServer;
let alice: string;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  alice = await allocateParty(server, fresh('alice'));
});
afterAll(() => server.close());

const canActAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
const admin = { kind: { ParticipantAdmin: { value: {} } } };

describe('users', () => {
  it('has the built-in participant_admin user with the ParticipantAdmin right', async () => {
    expect((await get(server, '/v2/users/participant_admin')).body.user.id).toBe('participant_admin');
    const rights = await get(server, '/v2/users/participant_admin/rights');
    expect(rights.body.rights).toContainEqual(admin);
  });

  it('creates, reads, lists, updates and deletes a user', async () => {
    const id = fresh('user');
    const created = await post(server, '/v2/users', { user: { id, primaryParty: alice, isDeactivated: false, identityProviderId: '' }, rights: [canActAs(alice)] });
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ id, primaryParty: alice, isDeactivated: false });

    expect((await get(server, `/v2/users/${encodeURIComponent(id)}`)).body.user.id).toBe(id);
    const listed = await get(server, '/v2/users?pageSize=1000');
    expect(listed.status).toBe(200);
    expect((listed.body.users as { id: string }[]).map((u) => u.id)).toContain(id);

    const updated = await patch(server, `/v2/users/${id}`, { user: { id, primaryParty: '', isDeactivated: true }, updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.user.isDeactivated).toBe(true);

    const deleted = await del(server, `/v2/users/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('{}');
    const gone = await get(server, `/v2/users/${id}`);
    expect(gone.status).toBe(404);
    expectCantonError(gone.body, 'USER_NOT_FOUND');
  });

  it('answers 404 USER_NOT_FOUND when deleting an unknown user', async () => {
    const res = await del(server, '/v2/users/nobody-here');
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'USER_NOT_FOUND');
  });

  it('answers 409 USER_ALREADY_EXISTS for a second user with the same id', async () => {
    const id = fresh('twice');
    expect((await post(server, '/v2/users', { user: { id } })).status).toBe(200);
    const again = await post(server, '/v2/users', { user: { id } });
    expect(again.status).toBe(409);
    expectCantonError(again.body, 'USER_ALREADY_EXISTS');
  });

  it('refuses a malformed user id with 400 INVALID_ARGUMENT', async () => {
    const res = await get(server, `/v2/users/${encodeURIComponent('bad user id with spaces')}`);
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT');
  });

  it('refuses a user deleting itself with 400', async () => {
    const id = fresh('selfish');
    await post(server, '/v2/users', { user: { id }, rights: [admin] });
    const res = await del(server, `/v2/users/${id}`, { headers: { 'x-test-user': id } });
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT', /cannot delete itself/i);
    expect((await get(server, `/v2/users/${id}`)).status).toBe(200);
  });

  it('grants, lists and revokes rights, reporting only what changed', async () => {
    const id = fresh('rights');
    await post(server, '/v2/users', { user: { id } });
    const granted = await post(server, `/v2/users/${id}/rights`, { userId: id, rights: [canActAs(alice), admin] });
    expect(granted.status).toBe(200);
    expect(granted.body.newlyGrantedRights).toHaveLength(2);
    const again = await post(server, `/v2/users/${id}/rights`, { userId: id, rights: [admin] });
    expect(again.body.newlyGrantedRights ?? []).toEqual([]);

    const listed = await get(server, `/v2/users/${id}/rights`);
    expect(listed.body.rights).toEqual(expect.arrayContaining([canActAs(alice), admin]));

    const revoked = await patch(server, `/v2/users/${id}/rights`, { userId: id, rights: [admin] });
    expect(revoked.status).toBe(200);
    expect(revoked.body.newlyRevokedRights).toEqual([admin]);
    expect((await get(server, `/v2/users/${id}/rights`)).body.rights).toEqual([canActAs(alice)]);
  });

  it('answers the authenticated user for a user caller, and without one what a participant without auth answers', async () => {
    const me = await get(server, '/v2/authenticated-user', { headers: { 'x-test-user': 'participant_admin' } });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe('participant_admin');
    const nobody = await get(server, '/v2/authenticated-user');
    expect(nobody.status).toBe(400);
    // wallet-sdk's SDK.create matches this message to fall back to its token's user.
    expectCantonError(nobody.body, 'INVALID_TOKEN', /^The submitted request is missing a user-id/);
  });

  it('lets a user read itself but not others, and not administer', async () => {
    const id = fresh('plain');
    await post(server, '/v2/users', { user: { id } });
    const headers = { 'x-test-user': id };
    expect((await get(server, `/v2/users/${id}`, { headers })).status).toBe(200);
    expect((await get(server, `/v2/users/${id}/rights`, { headers })).status).toBe(200);
    const other = await get(server, '/v2/users/participant_admin', { headers });
    expect(other.status).toBe(403);
    const create = await post(server, '/v2/users', { user: { id: fresh('nope') } }, { headers });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ code: 'NA', errorCategory: -1, grpcCodeValue: 7 });
  });
});

describe('bad inputs for the user endpoints', () => {
  const table: { name: string; path: string; method: 'POST' | 'PATCH'; body: unknown; status: number; kind: 'text' | 'json' }[] = [
    { name: 'malformed JSON', method: 'POST', path: '/v2/users', body: '{"user":', status: 400, kind: 'text' },
    { name: 'user of the wrong type', method: 'POST', path: '/v2/users', body: { user: 'bob' }, status: 400, kind: 'text' },
    { name: 'missing user', method: 'POST', path: '/v2/users', body: { rights: [] }, status: 400, kind: 'text' },
    { name: 'unknown field', method: 'POST', path: '/v2/users', body: { user: { id: 'x' }, extra: true }, status: 400, kind: 'json' },
    // An unknown variant cannot be decoded at all (unlike an unknown member of a known one).
    { name: 'unknown right kind', method: 'POST', path: '/v2/users', body: { user: { id: 'x' }, rights: [{ kind: { CanFly: { value: {} } } }] }, status: 400, kind: 'text' },
    { name: 'invalid party in a right', method: 'POST', path: '/v2/users', body: { user: { id: fresh('x') }, rights: [{ kind: { CanActAs: { value: { party: 'not a party' } } } }] }, status: 400, kind: 'json' },
    { name: 'huge number for a boolean', method: 'POST', path: '/v2/users', body: '{"user":{"id":"x","isDeactivated":1e999}}', status: 400, kind: 'text' },
    { name: 'deeply nested metadata', method: 'POST', path: '/v2/users', body: `{"user":{"id":"x","metadata":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}}`, status: 400, kind: 'text' },
    { name: 'rights without userId', method: 'POST', path: '/v2/users/participant_admin/rights', body: { rights: [] }, status: 400, kind: 'text' },
    { name: 'update without mask', method: 'PATCH', path: '/v2/users/participant_admin', body: { user: { id: 'participant_admin' } }, status: 400, kind: 'text' },
  ];
  for (const row of table) {
    it(`${row.method} ${row.path}: ${row.name} -> ${row.status}`, async () => {
      const res = row.method === 'POST' ? await post(server, row.path, row.body) : await patch(server, row.path, row.body);
      expect(res.status, res.text).toBe(row.status);
      expect(res.headers['content-type']).toMatch(row.kind === 'text' ? /^text\/plain/ : /^application\/json/);
    });
  }
});
