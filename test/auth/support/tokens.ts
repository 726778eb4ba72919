import { readFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, UnsecuredJWT, importPKCS8, type JWTPayload } from 'jose';
import { fixtureKeyPath } from '../../../conformance/src/cli/fixtureKeyPath.js';

/** The TEST-ONLY fixture keys, as a server under test loads them. */
export const HS256_SECRET = readFileSync(fixtureKeyPath('hs256.secret'), 'utf8');
export const ES256_PUBLIC_PEM = fixtureKeyPath('es256-public.pem');
export const RS256_PUBLIC_PEM = fixtureKeyPath('rs256-public.pem');
const ES256_PRIVATE = readFileSync(fixtureKeyPath('es256-private.pem'), 'utf8');
const RS256_PRIVATE = readFileSync(fixtureKeyPath('rs256-private.pem'), 'utf8');

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export type Alg = 'HS256' | 'ES256' | 'RS256';

/** Signs arbitrary claims with a fixture key (or the given one). */
export async function sign(claims: JWTPayload, alg: Alg = 'HS256', key?: Uint8Array | string, header: Record<string, unknown> = {}): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT', ...header });
  if (alg === 'HS256') return jwt.sign(typeof key === 'string' || key === undefined ? new TextEncoder().encode(key ?? HS256_SECRET) : key);
  const pem = typeof key === 'string' ? key : alg === 'ES256' ? ES256_PRIVATE : RS256_PRIVATE;
  return jwt.sign(await importPKCS8(pem, alg));
}

/** A valid scope-based token for `user`, one hour. */
export const userToken = (user: string, alg: Alg = 'HS256', extra: JWTPayload = {}) =>
  sign({ sub: user, scope: 'daml_ledger_api', exp: nowSeconds() + 3600, ...extra }, alg);

/** A key pair nobody configured: signatures by it must fail. */
export function strangerPrivateKey(alg: 'ES256' | 'RS256'): string {
  const pair = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

export interface BadCredential {
  readonly name: string;
  /** Request headers to send (empty: no credentials at all). */
  readonly headers: Record<string, string>;
}

/**
 * Every kind of credential a participant must refuse with 401, for a server that verifies `alg`
 * tokens with the fixture key and the default scope. `user` exists and holds every right the
 * operations need, so only the credential can be at fault.
 */
export async function badCredentials(user: string, alg: Alg): Promise<BadCredential[]> {
  const now = nowSeconds();
  const good = { sub: user, scope: 'daml_ledger_api' };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const wrongKey = alg === 'HS256' ? 'some-other-secret-of-sufficient-length-0123456789' : strangerPrivateKey(alg);
  // Algorithm confusion: an HMAC token keyed with the server's public key, or an RS/ES token at an HS server.
  const confused =
    alg === 'HS256'
      ? await sign({ ...good, exp: now + 3600 }, 'ES256')
      : await sign({ ...good, exp: now + 3600 }, 'HS256', new TextEncoder().encode(readFileSync(alg === 'ES256' ? ES256_PUBLIC_PEM : RS256_PUBLIC_PEM, 'utf8')));
  return [
    { name: 'missing', headers: {} },
    { name: 'not a bearer header', headers: { authorization: `Basic ${Buffer.from('alice:secret').toString('base64')}` } },
    { name: 'empty bearer', headers: { authorization: 'Bearer ' } },
    { name: 'malformed', headers: bearer('not-a.jwt') },
    { name: 'garbage segments', headers: bearer('eyJhbGciOi.eyJzdWIi.c2ln') },
    { name: 'expired', headers: bearer(await sign({ ...good, exp: now - 120 }, alg)) },
    { name: 'not yet valid', headers: bearer(await sign({ ...good, nbf: now + 600, exp: now + 3600 }, alg)) },
    { name: 'wrong signature', headers: bearer(await sign({ ...good, exp: now + 3600 }, alg, wrongKey)) },
    { name: 'alg none', headers: bearer(new UnsecuredJWT({ ...good, exp: now + 3600 }).encode()) },
    { name: 'algorithm confusion', headers: bearer(confused) },
    { name: 'wrong scope', headers: bearer(await sign({ sub: user, scope: 'openid profile', exp: now + 3600 }, alg)) },
    { name: 'wrong audience', headers: bearer(await sign({ sub: user, aud: 'https://daml.com/jwt/aud/participant/someone-else', exp: now + 3600 }, alg)) },
    { name: 'no sub', headers: bearer(await sign({ scope: 'daml_ledger_api', exp: now + 3600 }, alg)) },
    { name: 'tampered payload', headers: bearer(tamper(await sign({ ...good, exp: now + 3600 }, alg))) },
  ];
}

/** Swaps the payload for another user's while keeping the signature. */
function tamper(token: string): string {
  const [h, p, s] = token.split('.') as [string, string, string];
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  return [h, Buffer.from(JSON.stringify({ ...payload, sub: 'participant_admin' })).toString('base64url'), s].join('.');
}
