import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { JSONWebKeySet } from 'jose';
import type { IssuerConfig, JwtAlgorithm, TokenTarget, VerificationKey } from './jwtAuthenticator.js';
import { noneAuthenticator } from './noneAuthenticator.js';
import type { Authenticator } from './types.js';

/** Where the verification key comes from (exactly one of them). */
export type KeySource =
  | { readonly kind: 'secret'; readonly secret: string }
  | { readonly kind: 'public-key-file'; readonly path: string }
  | {
      readonly kind: 'jwks';
      readonly url: string;
      /** Least time between two fetches of a remote set (default 30 s). */
      readonly cooldownMs?: number;
    };

/** What `serve --auth ...` describes; `createAuthenticator` turns it into an Authenticator. */
export type AuthConfig =
  | { readonly mode: 'none' }
  | {
      readonly mode: 'hs256' | 'rs256' | 'es256';
      readonly key: KeySource;
      /** Audience-based tokens for this audience, or scope-based tokens for `scope` (default daml_ledger_api). */
      readonly audience?: string;
      readonly scope?: string;
    };

/** A configuration that cannot work (unreadable key file, key of the wrong kind...). */
export class AuthConfigError extends Error {
  override readonly name = 'AuthConfigError';
}

export interface CreateAuthenticatorContext {
  /** For the default audience `https://daml.com/jwt/aud/participant/<participantId>`. */
  readonly participantId: string;
  readonly log?: { warn(message: string): void };
  /** Passed through to the JWT authenticator (tests pin the clock or disable the cache). */
  readonly now?: () => number;
  /** The identity provider configs by issuer: their tokens are verified with their JWKS. */
  readonly issuers?: (issuer: string) => IssuerConfig | undefined;
}

/** Builds the authenticator for a configuration, loading its key. Rejects with AuthConfigError. */
export async function createAuthenticator(config: AuthConfig, context: CreateAuthenticatorContext): Promise<Authenticator> {
  if (config.mode === 'none') return noneAuthenticator;
  const algorithm = config.mode.toUpperCase() as JwtAlgorithm;
  if (config.audience !== undefined && config.scope !== undefined) throw new AuthConfigError('give either an audience or a scope, not both');
  const key = await loadVerificationKey(algorithm, config.key);
  // JWT verification (jose, some fifty modules) is loaded only when a start asks for it.
  const { createJwtAuthenticator, DEFAULT_SCOPE, PARTICIPANT_AUDIENCE_PREFIX } = await import('./jwtAuthenticator.js');
  const target: TokenTarget =
    config.audience !== undefined
      ? { kind: 'audience', audience: config.audience }
      : config.scope !== undefined
        ? { kind: 'scope', scope: config.scope }
        : { kind: 'scope', scope: DEFAULT_SCOPE, participantAudience: PARTICIPANT_AUDIENCE_PREFIX + context.participantId };
  return createJwtAuthenticator({
    algorithm,
    key,
    target,
    ...(context.log === undefined ? {} : { log: context.log }),
    ...(context.now === undefined ? {} : { now: context.now }),
    ...(context.issuers === undefined ? {} : { issuers: context.issuers }),
  });
}

/**
 * HS256 takes the secret's UTF-8 bytes; RS256/ES256 take a PEM public key or certificate, a JWK
 * or JWKS file, or a JWKS URL (fetched when a token needs it, cached, refetched on an unknown
 * `kid` so keys can rotate).
 */
export async function loadVerificationKey(algorithm: JwtAlgorithm, source: KeySource): Promise<VerificationKey> {
  if (algorithm === 'HS256') {
    if (source.kind !== 'secret') throw new AuthConfigError('--auth hs256 needs --auth-secret (a shared secret), not a public key or JWKS');
    if (source.secret === '') throw new AuthConfigError('--auth-secret must not be empty');
    return new TextEncoder().encode(source.secret);
  }
  if (source.kind === 'secret') throw new AuthConfigError(`--auth ${algorithm.toLowerCase()} needs --auth-public-key FILE or --auth-jwks URL, not a secret`);
  const { createRemoteJWKSet, importSPKI, importX509 } = await import('jose');
  if (source.kind === 'jwks') {
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      return localKeySet(source.url, algorithm);
    }
    if (url.protocol === 'file:') return localKeySet(fileURLToPath(url), algorithm);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AuthConfigError(`--auth-jwks must be an http(s) or file URL, got ${source.url}`);
    // Unknown kids trigger a refetch at most every 30 s; the set is refreshed after 10 min anyway.
    return createRemoteJWKSet(url, { cooldownDuration: source.cooldownMs ?? 30_000, cacheMaxAge: 600_000, timeoutDuration: 5_000 });
  }
  const text = await readText(source.path);
  try {
    if (text.includes('-----BEGIN CERTIFICATE-----')) return await importX509(text, algorithm);
    if (text.includes('-----BEGIN PUBLIC KEY-----')) return await importSPKI(text, algorithm);
  } catch (e) {
    throw new AuthConfigError(`${source.path} does not hold a ${algorithm} public key: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (text.trimStart().startsWith('{')) return keySetOf(parseJson(text, source.path), source.path, algorithm);
  throw new AuthConfigError(`${source.path} is neither a PEM public key (BEGIN PUBLIC KEY), a certificate, nor a JWK/JWKS document`);
}

async function localKeySet(path: string, algorithm: JwtAlgorithm): Promise<VerificationKey> {
  return keySetOf(parseJson(await readText(path), path), path, algorithm);
}

/** A single JWK is served as a one-key set, so kid matching works the same way. */
async function keySetOf(doc: unknown, path: string, algorithm: JwtAlgorithm): Promise<VerificationKey> {
  const { createLocalJWKSet } = await import('jose');
  const set = (doc !== null && typeof doc === 'object' && Array.isArray((doc as { keys?: unknown }).keys) ? doc : { keys: [doc] }) as JSONWebKeySet;
  const usable = set.keys.filter((k) => k.alg === undefined || k.alg === algorithm);
  if (usable.length === 0) throw new AuthConfigError(`${path} has no key for ${algorithm}`);
  try {
    return createLocalJWKSet({ keys: usable });
  } catch (e) {
    throw new AuthConfigError(`${path} is not a valid JWKS: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new AuthConfigError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AuthConfigError(`${path} is not valid JSON`);
  }
}
