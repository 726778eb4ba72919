import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import type { StartedServer } from '../../reference-server/src/startReferenceServer.js';
import { ES256_PUBLIC_PEM, nowSeconds, sign, strangerPrivateKey, userToken } from './support/tokens.js';

/**
 * Tokens of a configured identity provider, as a participant verifies them
 * (IdentityProviderAwareAuthService): a token the server's own key does not verify is verified
 * with the JWKS of the config whose issuer it names, and its user must belong to that identity
 * provider. The key set is served here on a local port; nothing waits on a clock.
 */
const warnings: string[] = [];
let server: StartedServer;
let jwks: Server;
let jwksUrl: string;
let admin: string;
const idpKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const idpPrivate = idpKey.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const KID = 'tenant-key-1';
const unique = () => randomBytes(4).toString('hex');

beforeAll(async () => {
  const publicJwk: JWK = { ...(await exportJWK(idpKey.publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
  jwks = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  server = await startReferenceServer({
    port: 0,
    host: '127.0.0.1',
    fixtures: undefined,
    auth: { mode: 'es256', key: { kind: 'public-key-file', path: ES256_PUBLIC_PEM } },
    log: { error: () => undefined, warn: (m: string) => void warnings.push(m), info: () => undefined },
  });
  admin = await userToken('participant_admin', 'ES256');
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => jwks?.close(() => resolve()));
});

async function call(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A configured identity provider (with `audience`, if given) and a user of it. */
async function tenant(audience = ''): Promise<{ idp: string; issuer: string; user: string }> {
  const idp = `tenant-${unique()}`;
  const issuer = `https://${idp}.example.com`;
  expect((await call(admin, 'POST', '/v2/idps', { identityProviderConfig: { identityProviderId: idp, issuer, jwksUrl, audience } })).status).toBe(200);
  const user = `${idp}-user`;
  expect((await call(admin, 'POST', '/v2/users', { user: { id: user, identityProviderId: idp } })).status).toBe(200);
  return { idp, issuer, user };
}

/** A token of the identity provider's issuer, signed with its key (or another). */
const idpToken = (issuer: string, sub: string, extra: Record<string, unknown> = {}, key = idpPrivate) =>
  sign({ iss: issuer, sub, exp: nowSeconds() + 3600, jti: unique(), ...extra }, 'ES256', key, { kid: KID });

describe('tokens of a configured identity provider', () => {
  it('authenticate its users, confined to it', async () => {
    const { idp, issuer, user } = await tenant();
    const me = await call(await idpToken(issuer, user), 'GET', '/v2/authenticated-user');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: user, identityProviderId: idp });
    // The same user with a token of the participant's own key: resolved in the default identity provider, where it is not.
    expect((await call(await userToken(user, 'ES256'), 'GET', '/v2/authenticated-user')).status).toBe(403);
    // The identity provider's token for a user of the default one is refused too.
    expect((await call(await idpToken(issuer, 'participant_admin'), 'GET', '/v2/users')).status).toBe(403);
  });

  it('are refused when their signature is not the key set\'s, their audience is not the config\'s, or the config is deactivated', async () => {
    const { idp, issuer, user } = await tenant('tenant-ledger');
    expect((await call(await idpToken(issuer, user, {}, strangerPrivateKey('ES256')), 'GET', '/v2/authenticated-user')).status).toBe(401);
    expect((await call(await idpToken(issuer, user), 'GET', '/v2/authenticated-user')).status).toBe(401);
    expect((await call(await idpToken(issuer, user, { aud: 'tenant-ledger' }), 'GET', '/v2/authenticated-user')).status).toBe(200);
    const off = await call(admin, 'PATCH', `/v2/idps/${idp}`, { identityProviderConfig: { identityProviderId: idp, issuer, jwksUrl, audience: 'tenant-ledger', isDeactivated: true }, updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } } });
    expect(off.status).toBe(200);
    expect((await call(await idpToken(issuer, user, { aud: 'tenant-ledger' }), 'GET', '/v2/authenticated-user')).status).toBe(401);
  });

  it('are refused, with a warning for the operator, when the key set cannot be fetched', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const idp = `tenant-${unique()}`;
    const issuer = `https://${idp}.example.com`;
    expect((await call(admin, 'POST', '/v2/idps', { identityProviderConfig: { identityProviderId: idp, issuer, jwksUrl: `http://127.0.0.1:${port}/jwks.json` } })).status).toBe(200);
    expect((await call(admin, 'POST', '/v2/users', { user: { id: `${idp}-user`, identityProviderId: idp } })).status).toBe(200);
    const before = warnings.length;
    expect((await call(await idpToken(issuer, `${idp}-user`), 'GET', '/v2/authenticated-user')).status).toBe(401);
    expect(warnings.slice(before).join('\n')).toMatch(/could not complete/);
  });

  it('give an identity provider admin its own users only', async () => {
    const { idp, issuer } = await tenant();
    const tenantAdmin = `${idp}-admin`;
    expect((await call(admin, 'POST', '/v2/users', { user: { id: tenantAdmin, identityProviderId: idp }, rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }] })).status).toBe(200);
    const token = await idpToken(issuer, tenantAdmin);
    const listed = await call(token, 'GET', '/v2/users');
    expect(listed.status).toBe(200);
    expect((listed.body.users as { id: string }[]).map((u) => u.id).sort()).toEqual([tenantAdmin, `${idp}-user`].sort());
    expect((await call(token, 'GET', '/v2/users/participant_admin')).status).toBe(403);
  });
});
