import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importPKCS8, SignJWT, type JWTPayload } from 'jose';
import type { AuthProfile } from '../runner/profile.js';
import { TokenSourceError, type TokenProvider } from './tokenProvider.js';

export type Signing = NonNullable<AuthProfile['signing']>;

/** Claims a target with this signing configuration accepts for `sub` (scope- or audience-based). */
export function claimsFor(signing: Signing | undefined, sub: string, lifetimeS = 300): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub,
    ...(signing?.audience ? { aud: signing.audience } : {}),
    ...(signing?.scope ? { scope: signing.scope } : signing?.audience ? {} : { scope: 'daml_ledger_api' }),
    ...(signing?.issuer ? { iss: signing.issuer } : {}),
    iat: now,
    exp: now + lifetimeS,
  };
}

/** Signs claims with the profile's key, or (for "wrongly signed") with a random HS256 secret. */
export async function mintToken(signing: Signing | undefined, claims: JWTPayload, foreign = false): Promise<string> {
  if (foreign || !signing) return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(randomBytes(32));
  if (signing.alg === 'HS256') {
    if (!signing.secret) throw new TokenSourceError('auth.signing.alg is HS256 but auth.signing.secret is not set');
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(signing.secret));
  }
  if (!signing.privateKeyFile) throw new TokenSourceError(`auth.signing.alg is ${signing.alg} but auth.signing.privateKeyFile is not set`);
  let pem: string;
  try {
    pem = readFileSync(signing.privateKeyFile, 'utf8');
  } catch (e) {
    throw new TokenSourceError(`cannot read auth.signing.privateKeyFile: ${(e as Error).message}`);
  }
  const key = await importPKCS8(pem, signing.alg);
  return new SignJWT(claims).setProtectedHeader({ alg: signing.alg, typ: 'JWT' }).sign(key);
}

/** The run's own tokens, minted from the profile's key for `signing.userId` (fresh on refresh). */
export function signingTokens(signing: Signing, defaultUser: string): TokenProvider {
  const sub = signing.userId ?? defaultUser;
  let current: Promise<string> | undefined;
  return {
    describe: `tokens minted for '${sub}' with the profile's ${signing.alg} key`,
    token: () => (current ??= mintToken(signing, claimsFor(signing, sub, 3600))),
    refresh: async () => (current = mintToken(signing, claimsFor(signing, sub, 3600))),
  };
}
