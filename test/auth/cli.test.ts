import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { mintToken, parseDuration, run as token } from '../../conformance/src/cli/token.js';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';
import { ES256_PUBLIC_PEM, HS256_SECRET } from './support/tokens.js';

const serve = (...argv: string[]) => parseServeArgs(argv, {});

describe('serve --auth flags', () => {
  it('defaults to no authentication', () => {
    expect(serve()).toMatchObject({ auth: { mode: 'none' } });
  });

  it('reads each mode with its key source and target', () => {
    expect(serve('--auth', 'hs256', '--auth-secret', 's3cret')).toMatchObject({ auth: { mode: 'hs256', key: { kind: 'secret', secret: 's3cret' } } });
    expect(serve('--auth', 'es256', '--auth-public-key', 'k.pem', '--scope', 'ledger')).toMatchObject({
      auth: { mode: 'es256', key: { kind: 'public-key-file', path: 'k.pem' }, scope: 'ledger' },
    });
    expect(serve('--auth', 'rs256', '--auth-jwks', 'https://issuer/jwks', '--audience', 'https://daml.com/jwt/aud/participant/p')).toMatchObject({
      auth: { mode: 'rs256', key: { kind: 'jwks', url: 'https://issuer/jwks' }, audience: 'https://daml.com/jwt/aud/participant/p' },
    });
  });

  it.each([
    [['--auth', 'rs512'], /must be none, hs256, rs256 or es256/],
    [['--auth', 'hs256'], /needs --auth-secret/],
    [['--auth', 'es256'], /needs --auth-public-key FILE, --auth-jwks URL or --auth-test-key/],
    [['--auth', 'es256', '--auth-public-key', 'a', '--auth-jwks', 'b'], /one key source/],
    [['--auth', 'hs256', '--auth-secret', 's', '--audience', 'a', '--scope', 'b'], /either --audience or --scope/],
    [['--auth-secret', 's'], /--auth-secret needs --auth hs256/],
    [['--audience', 'a'], /--audience needs --auth/],
    [['--auth', 'hs256', '--auth-secret', 's', '--scope', ''], /must not be empty/],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => serve(...argv)).toThrow(UsageError);
    expect(() => serve(...argv)).toThrow(message);
  });
});

describe('the served reference server in secured mode', () => {
  it('serves the default world and lets a fixture user in with a minted token, nobody without', async () => {
    const server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth: { mode: 'es256', key: { kind: 'public-key-file', path: ES256_PUBLIC_PEM } } });
    try {
      const jwt = await mintToken({ user: 'alice', algorithm: 'es256' });
      const me = await fetch(`${server.url}/v2/authenticated-user`, { headers: { authorization: `Bearer ${jwt}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { user: { id: string } }).user.id).toBe('alice');
      expect((await fetch(`${server.url}/v2/authenticated-user`)).status).toBe(401);
      expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a key file that cannot be loaded before listening', async () => {
    await expect(
      startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, auth: { mode: 'es256', key: { kind: 'public-key-file', path: '/nonexistent/key.pem' } } }),
    ).rejects.toMatchObject({ name: 'AuthConfigError' });
  });
});

describe('canton-conformance token', () => {
  afterEach(() => vi.restoreAllMocks());

  async function printed(...argv: string[]): Promise<string> {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    expect(await token(argv)).toBe(0);
    return lines.join('\n');
  }

  it('mints a scope-based HS256 token for a user, valid for an hour by default', async () => {
    const jwt = await printed('--user', 'alice');
    const claims = decodeJwt(jwt);
    expect(decodeProtectedHeader(jwt).alg).toBe('HS256');
    expect(claims).toMatchObject({ sub: 'alice', scope: 'daml_ledger_api' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
  });

  it('mints ES256 and RS256 tokens naming the fixture kid, with audience and lifetime', async () => {
    const es = await printed('--user', 'bob', '--auth', 'es256', '--expires-in', '15m', '--audience', 'https://daml.com/jwt/aud/participant/p');
    expect(decodeProtectedHeader(es)).toMatchObject({ alg: 'ES256', kid: 'canton-conformance-test-es256' });
    expect(decodeJwt(es)).toMatchObject({ sub: 'bob', aud: 'https://daml.com/jwt/aud/participant/p' });
    expect(decodeJwt(es)).not.toHaveProperty('scope');
    const rs = await printed('--user', 'bob', '--auth', 'rs256');
    expect(decodeProtectedHeader(rs)).toMatchObject({ alg: 'RS256', kid: 'canton-conformance-test-rs256' });
  });

  it('signs with a secret given on the command line', async () => {
    const jwt = await printed('--user', 'alice', '--secret', 'another-secret');
    expect(jwt).not.toBe(await mintToken({ user: 'alice', algorithm: 'hs256', key: HS256_SECRET, now: decodeJwt(jwt).iat as number }));
    expect(jwt).toBe(await mintToken({ user: 'alice', algorithm: 'hs256', key: 'another-secret', now: decodeJwt(jwt).iat as number }));
  });

  it.each([
    [[], /--user ID is required/],
    [['--user', 'a', '--auth', 'ps256'], /must be hs256, rs256 or es256/],
    [['--user', 'a', '--expires-in', 'soon'], /invalid duration/],
    [['--user', 'a', '--audience', 'x', '--scope', 'y'], /either --audience or --scope/],
    [['--user', 'a', '--auth', 'es256', '--secret', 'x'], /--secret is for hs256/],
    [['--user', 'a', '--private-key', 'k.pem'], /--private-key is for rs256\/es256/],
    [['--user', 'a', '--auth', 'es256', '--private-key', '/nonexistent.pem'], /cannot read/],
  ])('refuses %j as a usage error', async (argv, message) => {
    await expect(token(argv)).rejects.toThrow(message);
  });

  it('reads durations in seconds, minutes, hours and days', () => {
    expect(['90', '90s', '15m', '1h', '7d'].map(parseDuration)).toEqual([90, 90, 900, 3600, 604800]);
    expect(() => parseDuration('0s')).toThrow(/positive/);
  });
});
