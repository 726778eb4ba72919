import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPackageName as fresh } from '../../conformance/src/generators/dar.js';
import { expectCantonError } from './support/cantonError.js';
import { del, get, patch, post } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
});
afterAll(() => server.close());

const config = (id: string) => ({ identityProviderId: id, issuer: `https://${id}.example.com`, jwksUrl: `https://${id}.example.com/jwks.json`, audience: 'ledger' });
const mask = (...paths: string[]) => ({ paths, unknownFields: { fields: {} } });
const createIdp = async (id = fresh('idp')) => {
  const res = await post(server, '/v2/idps', { identityProviderConfig: config(id) });
  expect(res.status).toBe(200);
  return id;
};

describe('identity provider configs', () => {
  it('round trip: create, get, list, update, delete', async () => {
    const id = fresh('idp');
    const created = await post(server, '/v2/idps', { identityProviderConfig: config(id) });
    expect(created.body).toEqual({ identityProviderConfig: { ...config(id), isDeactivated: false } });
    expect((await get(server, `/v2/idps/${id}`)).body).toEqual(created.body);
    expect((await get(server, '/v2/idps')).body.identityProviderConfigs).toContainEqual(created.body.identityProviderConfig);
    const updated = await patch(server, `/v2/idps/${id}`, { identityProviderConfig: { ...config(id), isDeactivated: true, audience: 'other' }, updateMask: mask('is_deactivated') });
    expect(updated.status).toBe(200);
    // Only the masked field changed.
    expect(updated.body.identityProviderConfig).toEqual({ ...config(id), isDeactivated: true });
    expect((await get(server, `/v2/idps/${id}`)).body.identityProviderConfig.isDeactivated).toBe(true);
    const moved = await patch(server, `/v2/idps/${id}`, { identityProviderConfig: { ...config(id), jwksUrl: 'https://keys.example.com/', issuer: `https://new-${id}.example.com` }, updateMask: mask('jwks_url', 'issuer') });
    expect(moved.body.identityProviderConfig).toMatchObject({ jwksUrl: 'https://keys.example.com/', issuer: `https://new-${id}.example.com` });
    expect((await del(server, `/v2/idps/${id}`)).body).toEqual({});
    const gone = await get(server, `/v2/idps/${id}`);
    expect(gone.status).toBe(404);
    expectCantonError(gone.body, 'IDP_CONFIG_NOT_FOUND');
    expect((await del(server, `/v2/idps/${id}`)).status).toBe(404);
  });

  it('keeps ids and issuers unique', async () => {
    const id = await createIdp();
    const again = await post(server, '/v2/idps', { identityProviderConfig: config(id) });
    expect(again.status).toBe(409);
    expectCantonError(again.body, 'IDP_CONFIG_ALREADY_EXISTS');
    const sameIssuer = await post(server, '/v2/idps', { identityProviderConfig: { ...config(fresh('idp')), issuer: config(id).issuer } });
    expect(sameIssuer.status).toBe(409);
    expectCantonError(sameIssuer.body, 'IDP_CONFIG_ISSUER_ALREADY_EXISTS');
  });

  const badCreates: { what: string; body: unknown; status: number; code?: string }[] = [
    { what: 'an empty id', body: { identityProviderConfig: { ...config('x'), identityProviderId: '' } }, status: 400, code: 'MISSING_FIELD' },
    { what: 'an id with bad characters', body: { identityProviderConfig: { ...config('x'), identityProviderId: 'a!b?c' } }, status: 400, code: 'INVALID_FIELD' },
    { what: 'a jwks URL that is not http(s)', body: { identityProviderConfig: { ...config('y'), jwksUrl: 'ftp://keys' } }, status: 400, code: 'INVALID_FIELD' },
    { what: 'no issuer', body: { identityProviderConfig: { ...config('z'), issuer: '' } }, status: 400, code: 'MISSING_FIELD' },
    { what: 'an unknown field', body: { identityProviderConfig: { ...config('w'), colour: 'red' } }, status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'no config', body: {}, status: 400 },
  ];
  it.each(badCreates)('refuses a create with $what', async ({ body, status, code }) => {
    const res = await post(server, '/v2/idps', body);
    expect(res.status).toBe(status);
    if (code !== undefined) expectCantonError(res.body, code);
  });

  const badUpdates: { what: string; mask: string[]; status: number; code: string; cause?: RegExp }[] = [
    { what: 'an empty mask', mask: [], status: 400, code: 'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST', cause: /no entries/ },
    { what: 'an unknown path', mask: ['colour'], status: 400, code: 'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST', cause: /The update path: 'colour' points to an unknown field/ },
    { what: 'the id as a path', mask: ['identity_provider_id'], status: 400, code: 'INVALID_IDENTITY_PROVIDER_UPDATE_REQUEST' },
  ];
  it.each(badUpdates)('refuses an update with $what', async ({ mask: paths, status, code, cause }) => {
    const id = await createIdp();
    const res = await patch(server, `/v2/idps/${id}`, { identityProviderConfig: config(id), updateMask: mask(...paths) });
    expect(res.status).toBe(status);
    expectCantonError(res.body, code, cause);
  });

  it('refuses an update of an unknown config (404) and of a config named differently in the body (400)', async () => {
    const unknown = await patch(server, '/v2/idps/nobody', { identityProviderConfig: config('nobody'), updateMask: mask('audience') });
    expect(unknown.status).toBe(404);
    expectCantonError(unknown.body, 'IDP_CONFIG_NOT_FOUND');
    const id = await createIdp();
    const mismatch = await patch(server, `/v2/idps/${id}`, { identityProviderConfig: config('other'), updateMask: mask('audience') });
    expect(mismatch.status).toBe(400);
  });

  it('needs ParticipantAdmin for every operation, identity provider admins included', async () => {
    const id = await createIdp();
    const idpAdmin = fresh('idp-admin');
    await post(server, '/v2/users', { user: { id: idpAdmin }, rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }] });
    const h = { headers: { 'x-test-user': idpAdmin } };
    expect((await get(server, '/v2/idps', h)).status).toBe(403);
    expect((await get(server, `/v2/idps/${id}`, h)).status).toBe(403);
    expect((await post(server, '/v2/idps', { identityProviderConfig: config(fresh('idp')) }, h)).status).toBe(403);
    expect((await patch(server, `/v2/idps/${id}`, { identityProviderConfig: config(id), updateMask: mask('audience') }, h)).status).toBe(403);
    expect((await del(server, `/v2/idps/${id}`, h)).status).toBe(403);
    expect((await get(server, `/v2/idps/${id}`, { headers: { 'x-test-user': 'participant_admin' } })).status).toBe(200);
  });
});

describe('users and identity providers', () => {
  it('moves a user to an identity provider and back; users and parties may be created in a configured one', async () => {
    const idp = await createIdp();
    const user = fresh('user');
    await post(server, '/v2/users', { user: { id: user } });
    const moved = await patch(server, `/v2/users/${user}/identity-provider-id`, { userId: user, sourceIdentityProviderId: '', targetIdentityProviderId: idp });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({});
    expect((await get(server, `/v2/users/${user}?identity-provider-id=${idp}`)).body.user.identityProviderId).toBe(idp);
    // The source must be where the user is.
    const wrongSource = await patch(server, `/v2/users/${user}/identity-provider-id`, { userId: user, sourceIdentityProviderId: '', targetIdentityProviderId: idp });
    expectRedactedDenial(wrongSource);
    expect((await patch(server, `/v2/users/${user}/identity-provider-id`, { userId: user, sourceIdentityProviderId: idp })).status).toBe(200);
    expect((await get(server, `/v2/users/${user}`)).body.user.identityProviderId).toBe('');
    const inIdp = await post(server, '/v2/users', { user: { id: fresh('user'), identityProviderId: idp } });
    expect(inIdp.body.user.identityProviderId).toBe(idp);
    const party = await post(server, '/v2/parties', { partyIdHint: fresh('p'), identityProviderId: idp });
    expect(party.body.partyDetails.identityProviderId).toBe(idp);
    const unknownIdp = await post(server, '/v2/users', { user: { id: fresh('user'), identityProviderId: 'nowhere' } });
    expectCantonError(unknownIdp.body, 'INVALID_ARGUMENT');
  });

  it('lists only the parties of a configured identity provider when asked for it', async () => {
    const idp = await createIdp();
    const inIdp = (await post(server, '/v2/parties', { partyIdHint: fresh('mine'), identityProviderId: idp })).body.partyDetails.party as string;
    const outside = (await post(server, '/v2/parties', { partyIdHint: fresh('other') })).body.partyDetails.party as string;
    const scoped = (await get(server, `/v2/parties?identity-provider-id=${idp}`)).body.partyDetails.map((p: { party: string }) => p.party);
    expect(scoped).toEqual([inIdp]);
    const all = (await get(server, '/v2/parties')).body.partyDetails.map((p: { party: string }) => p.party);
    expect(all).toEqual(expect.arrayContaining([inIdp, outside]));
  });

  const bad: { what: string; body: (user: string) => unknown; status: number; code: string }[] = [
    { what: 'an unknown target', body: (u) => ({ userId: u, targetIdentityProviderId: 'nowhere' }), status: 404, code: 'IDP_CONFIG_NOT_FOUND' },
    { what: 'a malformed target', body: (u) => ({ userId: u, targetIdentityProviderId: 'a!b' }), status: 400, code: 'INVALID_FIELD' },
    { what: 'a user id other than the path’s', body: () => ({ userId: 'someone-else' }), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'an unknown field', body: (u) => ({ userId: u, colour: 'red' }), status: 400, code: 'INVALID_ARGUMENT' },
  ];
  it.each(bad)('refuses a move with $what', async ({ body, status, code }) => {
    const user = fresh('user');
    await post(server, '/v2/users', { user: { id: user } });
    const res = await patch(server, `/v2/users/${user}/identity-provider-id`, body(user));
    expect(res.status).toBe(status);
    expectCantonError(res.body, code);
  });

  it('refuses a move of an unknown user (404), and any move by a non-ParticipantAdmin (403)', async () => {
    const res = await patch(server, '/v2/users/nobody-here/identity-provider-id', { userId: 'nobody-here' });
    expect(res.status).toBe(404);
    const idpAdmin = fresh('idp-admin');
    await post(server, '/v2/users', { user: { id: idpAdmin }, rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }] });
    expect((await patch(server, `/v2/users/${idpAdmin}/identity-provider-id`, { userId: idpAdmin }, { headers: { 'x-test-user': idpAdmin } })).status).toBe(403);
  });
});

/** A permission refusal as a participant answers it: 403, the cause redacted (it stays in the server's log). */
function expectRedactedDenial(res: { status: number; body: Record<string, unknown> }): void {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ grpcCodeValue: 7 });
}

describe('user management within an identity provider (Canton\'s MatchIdentityProviderId)', () => {
  const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party === undefined ? {} : { party } } } });
  const as = (user: string, idp?: string) => ({ headers: { 'x-test-user': user, ...(idp === undefined ? {} : { 'x-test-idp': idp }) } });
  const listAll = async (opts?: { headers: Record<string, string> }): Promise<string[]> => {
    const ids: string[] = [];
    let token = '';
    do {
      const page = await get(server, `/v2/users?pageSize=1000${token ? `&pageToken=${token}` : ''}`, opts);
      expect(page.status).toBe(200);
      ids.push(...(page.body.users as { id: string }[]).map((u) => u.id));
      token = page.body.nextPageToken as string;
    } while (token);
    return ids;
  };

  it('a participant admin works in the default identity provider unless the request names another', async () => {
    const idp = await createIdp();
    const inIdp = fresh('in-idp');
    const plain = fresh('plain');
    await post(server, '/v2/users', { user: { id: inIdp, identityProviderId: idp } });
    await post(server, '/v2/users', { user: { id: plain } });
    // GET /v2/users names no identity provider: the default one's users only.
    const listed = await listAll();
    expect(listed).toContain(plain);
    expect(listed).not.toContain(inIdp);
    expectRedactedDenial(await get(server, `/v2/users/${inIdp}`));
    expect((await get(server, `/v2/users/${inIdp}?identity-provider-id=${idp}`)).status).toBe(200);
    // The plain user is not in the named one.
    expect((await get(server, `/v2/users/${plain}?identity-provider-id=${idp}`)).status).toBe(403);
    // Rights and deletion: within the identity provider the request names (the JSON API's list and delete name none).
    const party = (await post(server, '/v2/parties', { partyIdHint: fresh('p') })).body.partyDetails.party as string;
    expect((await post(server, `/v2/users/${inIdp}/rights`, { userId: inIdp, rights: [right('CanReadAs', party)] })).status).toBe(403);
    expect((await post(server, `/v2/users/${inIdp}/rights`, { userId: inIdp, rights: [right('CanReadAs', party)], identityProviderId: idp })).status).toBe(200);
    expect((await get(server, `/v2/users/${inIdp}/rights`)).status).toBe(403);
    expect((await del(server, `/v2/users/${inIdp}`)).status).toBe(403);
    expect((await get(server, `/v2/users/${inIdp}?identity-provider-id=${idp}`)).status).toBe(200);
    // The same id in another identity provider is not "already exists" but not the caller's either.
    expectRedactedDenial(await post(server, '/v2/users', { user: { id: inIdp } }));
  });

  it('an identity provider admin sees and changes its own identity provider\'s users only', async () => {
    const idp = await createIdp();
    const admin = fresh('idp-admin');
    await post(server, '/v2/users', { user: { id: admin, identityProviderId: idp }, rights: [right('IdentityProviderAdmin')] });
    const outsider = fresh('outsider');
    await post(server, '/v2/users', { user: { id: outsider } });
    // A user it creates without naming an identity provider lands in its own.
    const made = await post(server, '/v2/users', { user: { id: fresh('made') } }, as(admin, idp));
    expect(made.status).toBe(200);
    expect(made.body.user.identityProviderId).toBe(idp);
    const mine = await listAll(as(admin, idp));
    expect(mine.sort()).toEqual([admin, made.body.user.id].sort());
    expect((await get(server, `/v2/users/${made.body.user.id}`, as(admin, idp))).status).toBe(200);
    // Another identity provider's user is refused, named or not.
    expect((await get(server, `/v2/users/${outsider}`, as(admin, idp))).status).toBe(403);
    // An empty id is no id (proto3): it means the admin's own identity provider, where the outsider is not.
    expect((await get(server, `/v2/users/${outsider}?identity-provider-id=`, as(admin, idp))).status).toBe(403);
    expect((await post(server, `/v2/users/${outsider}/rights`, { userId: outsider, rights: [right('CanReadAsAnyParty')], identityProviderId: '' }, as(admin, idp))).status).toBe(403);
    // Naming another identity provider is refused by the claims check itself.
    const other = await createIdp();
    expectRedactedDenial(await get(server, `/v2/users/${outsider}?identity-provider-id=${other}`, as(admin, idp)));
    expect((await patch(server, `/v2/users/${outsider}`, { user: { id: outsider, isDeactivated: true }, updateMask: mask('is_deactivated') }, as(admin, idp))).status).toBe(403);
    expect((await del(server, `/v2/users/${outsider}`, as(admin, idp))).status).toBe(403);
    const elsewhere = fresh('elsewhere');
    expectRedactedDenial(await post(server, '/v2/users', { user: { id: elsewhere, identityProviderId: other } }, as(admin, idp)));
    expect((await get(server, `/v2/users/${elsewhere}?identity-provider-id=${other}`)).status).toBe(404);
    // Nothing changed for the outsider.
    expect((await get(server, `/v2/users/${outsider}`)).body.user.isDeactivated).toBe(false);
    expect((await get(server, `/v2/users/${outsider}/rights`)).body.rights).toEqual([]);
  });

  it('refuses rights for parties the participant does not know, and stores none of them', async () => {
    const user = fresh('rights');
    const ghost = `ghost-${fresh('g')}::1220${'ab'.repeat(32)}`;
    const created = await post(server, '/v2/users', { user: { id: user }, rights: [right('CanActAs', ghost)] });
    expect(created.status).toBe(400);
    expectCantonError(created.body, 'INVALID_ARGUMENT', /Provided parties have not been found in identity_provider_id=``/);
    expect((await get(server, `/v2/users/${user}`)).status).toBe(404);
    await post(server, '/v2/users', { user: { id: user } });
    const granted = await post(server, `/v2/users/${user}/rights`, { userId: user, rights: [right('CanReadAs', ghost)] });
    expect(granted.status).toBe(400);
    expectCantonError(granted.body, 'INVALID_ARGUMENT');
    expect((await get(server, `/v2/users/${user}/rights`)).body.rights).toEqual([]);
  });
});

describe('party details updates', () => {
  const allocate = async (identityProviderId?: string): Promise<string> =>
    (await post(server, '/v2/parties', { partyIdHint: fresh('party'), ...(identityProviderId ? { identityProviderId } : {}) })).body.partyDetails.party as string;
  const update = (party: string, body: unknown, headers: Record<string, string> = {}) => patch(server, `/v2/parties/${encodeURIComponent(party)}`, body, { headers });

  it('merges annotations, bumps the resource version, and refuses a stale one with 409', async () => {
    const party = await allocate();
    const first = await update(party, { partyDetails: { party, localMetadata: { resourceVersion: '0', annotations: { team: 'treasury', desk: 'fx' } } }, updateMask: mask('local_metadata.annotations') });
    expect(first.status).toBe(200);
    expect(first.body.partyDetails.localMetadata).toEqual({ resourceVersion: '1', annotations: { team: 'treasury', desk: 'fx' } });
    const second = await update(party, { partyDetails: { party, localMetadata: { annotations: { desk: '' } } }, updateMask: mask('local_metadata') });
    expect(second.body.partyDetails.localMetadata).toEqual({ resourceVersion: '2', annotations: { team: 'treasury' } });
    const stale = await update(party, { partyDetails: { party, localMetadata: { resourceVersion: '1', annotations: { x: 'y' } } }, updateMask: mask('local_metadata.annotations') });
    expect(stale.status).toBe(409);
    expectCantonError(stale.body, 'CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED', `Update operation for party '${party}' failed due to a concurrent update to the same party`);
    expect((await get(server, `/v2/parties/${encodeURIComponent(party)}`)).body.partyDetails[0].localMetadata).toEqual({ resourceVersion: '2', annotations: { team: 'treasury' } });
  });

  const bad: { what: string; body: (p: string) => unknown; status: number; code: string; cause?: RegExp }[] = [
    { what: 'an empty mask', body: (p) => ({ partyDetails: { party: p }, updateMask: mask() }), status: 400, code: 'INVALID_PARTY_DETAILS_UPDATE_REQUEST', cause: /no entries/ },
    { what: 'an unknown mask path', body: (p) => ({ partyDetails: { party: p }, updateMask: mask('colour') }), status: 400, code: 'INVALID_PARTY_DETAILS_UPDATE_REQUEST', cause: /The update path: 'colour' points to an unknown field/ },
    { what: 'a changed is_local', body: (p) => ({ partyDetails: { party: p, isLocal: false }, updateMask: mask('is_local') }), status: 400, code: 'INVALID_PARTY_DETAILS_UPDATE_REQUEST', cause: /not-modifiable 'is_local'/ },
    { what: 'a changed identity provider', body: (p) => ({ partyDetails: { party: p, identityProviderId: 'other' }, updateMask: mask('identity_provider_id') }), status: 400, code: 'INVALID_PARTY_DETAILS_UPDATE_REQUEST' },
    { what: 'a malformed resource version', body: (p) => ({ partyDetails: { party: p, localMetadata: { resourceVersion: 'v2' } }, updateMask: mask('local_metadata') }), status: 400, code: 'INVALID_FIELD' },
    { what: 'a bad annotation key', body: (p) => ({ partyDetails: { party: p, localMetadata: { annotations: { 'bad key!': 'v' } } }, updateMask: mask('local_metadata') }), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'another party in the body', body: () => ({ partyDetails: { party: `other::1220${'0'.repeat(64)}` }, updateMask: mask('local_metadata') }), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'an unknown field', body: (p) => ({ partyDetails: { party: p, colour: 'red' }, updateMask: mask('local_metadata') }), status: 400, code: 'INVALID_ARGUMENT' },
  ];
  it.each(bad)('refuses $what', async ({ body, status, code, cause }) => {
    const party = await allocate();
    const res = await update(party, body(party));
    expect(res.status).toBe(status);
    expectCantonError(res.body, code, cause);
    expect((await get(server, `/v2/parties/${encodeURIComponent(party)}`)).body.partyDetails[0].localMetadata.resourceVersion).toBe('0');
  });

  it('accepts read-only paths named with their current values', async () => {
    const party = await allocate();
    const res = await update(party, { partyDetails: { party, isLocal: true, localMetadata: { annotations: { a: 'b' } } }, updateMask: mask('is_local', 'party', 'local_metadata.annotations') });
    expect(res.status).toBe(200);
    expect(res.body.partyDetails.localMetadata.annotations).toEqual({ a: 'b' });
  });

  it('answers an unknown party with 404 and a malformed one with 400', async () => {
    const unknown = `ghost::1220${'0'.repeat(64)}`;
    const res = await update(unknown, { partyDetails: { party: unknown }, updateMask: mask('local_metadata') });
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'PARTY_NOT_FOUND');
    expect((await update('not-a-party', { partyDetails: { party: 'not-a-party' }, updateMask: mask('local_metadata') })).status).toBe(400);
  });

  it('lets an identity provider admin update the parties of its own provider only; others get 403', async () => {
    const idp = await createIdp();
    const admin = fresh('idp-admin');
    await post(server, '/v2/users', { user: { id: admin, identityProviderId: idp }, rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }] });
    const own = await allocate(idp);
    const foreign = await allocate();
    const body = (p: string) => ({ partyDetails: { party: p, identityProviderId: idp, localMetadata: { annotations: { by: 'idp-admin' } } }, updateMask: mask('local_metadata') });
    expect((await update(own, body(own), { 'x-test-user': admin, 'x-test-idp': idp })).status).toBe(200);
    const other = await update(foreign, body(foreign), { 'x-test-user': admin, 'x-test-idp': idp });
    expect(other.status).toBe(404);
    expectCantonError(other.body, 'PARTY_NOT_FOUND');
    const plain = fresh('plain');
    await post(server, '/v2/users', { user: { id: plain } });
    expect((await update(own, body(own), { 'x-test-user': plain })).status).toBe(403);
  });
});
