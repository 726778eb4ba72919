import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthConfigError, createAuthenticator, loadVerificationKey } from '../../reference-server/src/http/api/auth/authConfig.js';
import { createJwtAuthenticator, type JwtAuthenticatorOptions } from '../../reference-server/src/http/api/auth/jwtAuthenticator.js';
import type { Authenticator, Principal } from '../../reference-server/src/http/api/auth/types.js';
import { VerifiedTokenCache } from '../../reference-server/src/http/api/auth/VerifiedTokenCache.js';
import type { LedgerError } from '../../reference-server/src/ledger/errors.js';
import type { Result } from '../../reference-server/src/ledger/result.js';
import { fixtureKeyPath } from '../../conformance/src/cli/fixtureKeyPath.js';
import { mintToken } from '../../conformance/src/cli/token.js';
import { badCredentials, HS256_SECRET, nowSeconds, sign, userToken } from './support/tokens.js';

const PARTICIPANT = 'participant1::1220' + 'ab'.repeat(32);
const hs256 = (extra: Partial<JwtAuthenticatorOptions> = {}) =>
  createJwtAuthenticator({
    algorithm: 'HS256',
    key: new TextEncoder().encode(HS256_SECRET),
    target: { kind: 'scope', scope: 'daml_ledger_api', participantAudience: `https://daml.com/jwt/aud/participant/${PARTICIPANT}` },
    ...extra,
  });

async function run(auth: Authenticator, headers: Record<string, string | undefined>, subprotocols?: string[]): Promise<Result<Principal, LedgerError>> {
  return auth.authenticate({ headers, ...(subprotocols === undefined ? {} : { subprotocols }) });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('JWT authenticator', () => {
  it('accepts a scope-based HS256 token and names its sub as the user', async () => {
    expect(await run(hs256(), bearer(await userToken('alice')))).toEqual({ ok: true, value: { kind: 'user', userId: 'alice', validUntilMs: expect.any(Number) } });
  });

  it('accepts the bearer scheme in any case, and scp as a list', async () => {
    const token = await sign({ sub: 'bob', scp: ['openid', 'daml_ledger_api'], exp: nowSeconds() + 60 });
    expect(await run(hs256(), { authorization: `bearer ${token}` })).toMatchObject({ ok: true, value: { userId: 'bob' } });
  });

  it("accepts a token for this participant's audience when no target is configured", async () => {
    const token = await sign({ sub: 'alice', aud: `https://daml.com/jwt/aud/participant/${PARTICIPANT}`, exp: nowSeconds() + 60 });
    expect(await run(hs256(), bearer(token))).toMatchObject({ ok: true });
  });

  it('refuses every bad credential with UNAUTHENTICATED and says why', async () => {
    const reasons: Record<string, RegExp> = {
      missing: /no token/,
      'not a bearer header': /not of the form "Bearer/,
      'empty bearer': /not of the form "Bearer/,
      malformed: /malformed/,
      'garbage segments': /malformed/,
      expired: /expired/,
      'not yet valid': /not valid yet/,
      'wrong signature': /signature does not verify/,
      'alg none': /algorithm this server accepts/,
      'algorithm confusion': /algorithm this server accepts/,
      'wrong scope': /scope does not include "daml_ledger_api"/,
      'wrong audience': /scope does not include/,
      'no sub': /no "sub"/,
      'tampered payload': /signature does not verify/,
    };
    const auth = hs256({ cache: false });
    const bad = await badCredentials('alice', 'HS256');
    expect(bad.map((b) => b.name).sort()).toEqual(Object.keys(reasons).sort());
    for (const credential of bad) {
      const result = await run(auth, credential.headers);
      expect(result.ok, credential.name).toBe(false);
      if (result.ok) continue;
      expect(result.error.code, credential.name).toBe('UNAUTHENTICATED');
      expect(result.error.cause, credential.name).toMatch(reasons[credential.name] as RegExp);
    }
  });

  it('allows a few seconds of clock skew on exp and nbf, not more', async () => {
    const now = nowSeconds();
    const auth = hs256({ cache: false, leewaySeconds: 5 });
    expect(await run(auth, bearer(await sign({ sub: 'a', scope: 'daml_ledger_api', exp: now - 2 })))).toMatchObject({ ok: true });
    expect(await run(auth, bearer(await sign({ sub: 'a', scope: 'daml_ledger_api', nbf: now + 2, exp: now + 60 })))).toMatchObject({ ok: true });
    expect(await run(auth, bearer(await sign({ sub: 'a', scope: 'daml_ledger_api', exp: now - 30 })))).toMatchObject({ ok: false });
    expect(await run(auth, bearer(await sign({ sub: 'a', scope: 'daml_ledger_api', nbf: now + 30, exp: now + 60 })))).toMatchObject({ ok: false });
  });

  it('in audience mode requires the configured audience and ignores scope', async () => {
    const audience = 'https://daml.com/jwt/aud/participant/p1';
    const auth = createJwtAuthenticator({ algorithm: 'HS256', key: new TextEncoder().encode(HS256_SECRET), target: { kind: 'audience', audience } });
    expect(await run(auth, bearer(await sign({ sub: 'a', aud: [audience, 'other'], exp: nowSeconds() + 60 })))).toMatchObject({ ok: true });
    const scoped = await run(auth, bearer(await userToken('a')));
    expect(scoped).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
  });

  it('with a custom scope refuses the default one', async () => {
    const auth = createJwtAuthenticator({ algorithm: 'HS256', key: new TextEncoder().encode(HS256_SECRET), target: { kind: 'scope', scope: 'ledger:write' } });
    expect(await run(auth, bearer(await sign({ sub: 'a', scope: 'openid ledger:write', exp: nowSeconds() + 60 })))).toMatchObject({ ok: true });
    expect(await run(auth, bearer(await userToken('a')))).toMatchObject({ ok: false });
  });

  describe('on a WebSocket upgrade', () => {
    it('reads the token from the jwt.token.<JWT> subprotocol', async () => {
      const token = await userToken('alice');
      expect(await run(hs256(), {}, [`jwt.token.${token}`, 'daml.ws.auth'])).toMatchObject({ ok: true, value: { userId: 'alice' } });
    });

    it('lets the Authorization header win over the subprotocol', async () => {
      const good = await userToken('alice');
      const expired = await sign({ sub: 'bob', scope: 'daml_ledger_api', exp: nowSeconds() - 600 });
      expect(await run(hs256(), bearer(good), [`jwt.token.${expired}`])).toMatchObject({ ok: true, value: { userId: 'alice' } });
      expect(await run(hs256(), bearer(expired), [`jwt.token.${good}`])).toMatchObject({ ok: false });
    });

    it('refuses an empty jwt.token. entry', async () => {
      expect(await run(hs256(), {}, ['jwt.token.', 'daml.ws.auth'])).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    });
  });

  describe('verified-token cache', () => {
    it('answers a repeated token synchronously', async () => {
      const auth = hs256();
      const headers = bearer(await userToken('alice'));
      const first = auth.authenticate({ headers });
      expect(first).toBeInstanceOf(Promise);
      await first;
      const second = auth.authenticate({ headers });
      expect(second).not.toBeInstanceOf(Promise);
      expect(second).toEqual(await first);
    });

    it('carries the token expiry (exp plus the leeway) into the principal, from the cache too', async () => {
      const auth = hs256();
      const exp = nowSeconds() + 120;
      const headers = bearer(await sign({ sub: 'alice', scope: 'daml_ledger_api', exp }));
      const expected = { ok: true, value: { kind: 'user', userId: 'alice', validUntilMs: (exp + 5) * 1000 } };
      expect(await auth.authenticate({ headers })).toEqual(expected);
      expect(auth.authenticate({ headers })).toEqual(expected);
    });

    it('never honours a cached token past its exp', async () => {
      let clock = Date.now();
      const auth = hs256({ now: () => clock, leewaySeconds: 0 });
      const exp = Math.floor(clock / 1000) + 10;
      const headers = bearer(await sign({ sub: 'alice', scope: 'daml_ledger_api', exp }));
      expect(await auth.authenticate({ headers })).toMatchObject({ ok: true });
      clock = exp * 1000 + 1;
      expect(await auth.authenticate({ headers })).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    });

    it('is bounded: the oldest entry goes first', () => {
      const cache = new VerifiedTokenCache(2, 60_000);
      cache.put('t1', 'a', 0, undefined);
      cache.put('t2', 'b', 0, undefined);
      cache.put('t3', 'c', 0, undefined);
      expect([cache.get('t1', 1), cache.get('t2', 1), cache.get('t3', 1), cache.size]).toEqual([undefined, 'b', 'c', 2]);
    });

    it('forgets entries after their maximum age and does not keep expired tokens', () => {
      const cache = new VerifiedTokenCache(10, 1000);
      cache.put('t', 'a', 0, undefined);
      cache.put('gone', 'a', 5000, 4);
      expect([cache.get('t', 999), cache.get('t', 1000), cache.get('gone', 5000)]).toEqual(['a', undefined, undefined]);
    });
  });
});

describe('key loading (serve --auth-...)', () => {
  it('loads the fixture ES256 public key and accepts the token command output', async () => {
    const auth = await createAuthenticator(
      { mode: 'es256', key: { kind: 'public-key-file', path: fixtureKeyPath('es256-public.pem') } },
      { participantId: PARTICIPANT },
    );
    expect(await run(auth, bearer(await mintToken({ user: 'alice', algorithm: 'es256' })))).toMatchObject({ ok: true, value: { userId: 'alice' } });
    expect(await run(auth, bearer(await mintToken({ user: 'alice', algorithm: 'rs256' })))).toMatchObject({ ok: false });
  });

  it('loads the fixture JWKS from a path and a file: URL and picks the key by kid', async () => {
    for (const url of [fixtureKeyPath('jwks.json'), pathToFileURL(fixtureKeyPath('jwks.json')).href]) {
      const rs = await createAuthenticator({ mode: 'rs256', key: { kind: 'jwks', url } }, { participantId: PARTICIPANT });
      expect(await run(rs, bearer(await mintToken({ user: 'bob', algorithm: 'rs256' })))).toMatchObject({ ok: true });
      const es = await createAuthenticator({ mode: 'es256', key: { kind: 'jwks', url } }, { participantId: PARTICIPANT });
      expect(await run(es, bearer(await mintToken({ user: 'bob', algorithm: 'es256' })))).toMatchObject({ ok: true });
    }
  });

  it('mints audience-based tokens the audience mode accepts', async () => {
    const audience = `https://daml.com/jwt/aud/participant/${PARTICIPANT}`;
    const auth = await createAuthenticator({ mode: 'hs256', key: { kind: 'secret', secret: HS256_SECRET }, audience }, { participantId: PARTICIPANT });
    expect(await run(auth, bearer(await mintToken({ user: 'alice', algorithm: 'hs256', audience })))).toMatchObject({ ok: true });
    expect(await run(auth, bearer(await mintToken({ user: 'alice', algorithm: 'hs256' })))).toMatchObject({ ok: false });
  });

  it('refuses configurations that cannot work, with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-keys-'));
    const notAKey = join(dir, 'note.txt');
    writeFileSync(notAKey, 'hello');
    const cases: [Parameters<typeof loadVerificationKey>, RegExp][] = [
      [['HS256', { kind: 'public-key-file', path: fixtureKeyPath('es256-public.pem') }], /needs --auth-secret/],
      [['HS256', { kind: 'secret', secret: '' }], /must not be empty/],
      [['ES256', { kind: 'secret', secret: 'x' }], /needs --auth-public-key/],
      [['ES256', { kind: 'public-key-file', path: join(dir, 'missing.pem') }], /cannot read .*ENOENT/],
      [['ES256', { kind: 'public-key-file', path: notAKey }], /neither a PEM public key/],
      [['ES256', { kind: 'public-key-file', path: fixtureKeyPath('rs256-public.pem') }], /does not hold a ES256 public key/],
      [['ES256', { kind: 'jwks', url: 'ftp://example.invalid/jwks' }], /http\(s\) or file URL/],
    ];
    for (const [args, message] of cases) await expect(loadVerificationKey(...args)).rejects.toThrow(message);
    await expect(loadVerificationKey('ES256', { kind: 'public-key-file', path: notAKey })).rejects.toBeInstanceOf(AuthConfigError);
  });
});

describe('remote JWKS (--auth-jwks URL)', () => {
  let server: Server;
  let url: string;
  let served: { keys: unknown[] } = { keys: [] };
  let fetches = 0;
  const pair = (): { privateKey: KeyObject; publicKey: KeyObject } => generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const first = pair();
  const second = pair();
  const jwk = (k: KeyObject, kid: string) => ({ ...k.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' });
  const token = (key: KeyObject, kid: string) =>
    new SignJWT({ sub: 'alice', scope: 'daml_ledger_api' }).setProtectedHeader({ alg: 'ES256', kid }).setExpirationTime('1h').sign(key);

  beforeAll(async () => {
    server = createServer((_req, res) => {
      fetches++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches the set, caches it, and follows a key rotation by kid', async () => {
    served = { keys: [jwk(first.publicKey, 'k1')] };
    fetches = 0;
    const auth = await createAuthenticator({ mode: 'es256', key: { kind: 'jwks', url, cooldownMs: 0 } }, { participantId: PARTICIPANT });
    expect(await run(auth, bearer(await token(first.privateKey, 'k1')))).toMatchObject({ ok: true });
    expect(await run(auth, bearer(await token(first.privateKey, 'k1')))).toMatchObject({ ok: true });
    expect(fetches).toBe(1);

    // Rotation: the issuer now publishes k2 only; a k2 token makes the server refetch.
    served = { keys: [jwk(second.publicKey, 'k2')] };
    expect(await run(auth, bearer(await token(second.privateKey, 'k2')))).toMatchObject({ ok: true });
    expect(fetches).toBe(2);
    // A k2 kid with the wrong key still fails.
    expect(await run(auth, bearer(await token(first.privateKey, 'k2')))).toMatchObject({ ok: false });
  });

  it('answers 401-style refusals while the key set is unreachable, and tells the operator', async () => {
    const warnings: string[] = [];
    const auth = await createAuthenticator(
      { mode: 'es256', key: { kind: 'jwks', url: 'http://127.0.0.1:9/jwks.json' } },
      { participantId: PARTICIPANT, log: { warn: (m) => warnings.push(m) } },
    );
    const result = await run(auth, bearer(await token(first.privateKey, 'k1')));
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    expect(warnings.join('\n')).toMatch(/could not complete/);
  });
});
