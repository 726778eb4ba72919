import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type KeyObject, type CryptoKey } from 'jose';
import { ledgerError, type LedgerError } from '../../../ledger/errors.js';
import { err, ok, type Result } from '../../../ledger/result.js';
import { credentialToken } from './credentialToken.js';
import type { Authenticator, Principal } from './types.js';
import { VerifiedTokenCache } from './VerifiedTokenCache.js';

/** The signing algorithms `serve --auth` offers. Exactly one is accepted per server. */
export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

/** A fixed key (HMAC secret or public key) or a key set resolved by `kid` (JWKS). */
export type VerificationKey = Uint8Array | CryptoKey | KeyObject | JWTVerifyGetKey;

/**
 * Which tokens are meant for this participant. Audience-based: `aud` must contain `audience`.
 * Scope-based: `scope` (or `scp`) must contain `scope`; when `participantAudience` is set, a token
 * whose `aud` names this participant is accepted too (the participant's default, which takes
 * both formats when no target is configured).
 */
export type TokenTarget =
  | { readonly kind: 'audience'; readonly audience: string }
  | { readonly kind: 'scope'; readonly scope: string; readonly participantAudience?: string };

export interface JwtAuthenticatorOptions {
  readonly algorithm: JwtAlgorithm;
  readonly key: VerificationKey;
  readonly target: TokenTarget;
  /** Tolerance on `exp` and `nbf`, in seconds. Default 5. */
  readonly leewaySeconds?: number;
  /** Clock in ms (tests pin it). */
  readonly now?: () => number;
  /** Verified-token cache; `false` verifies every request. Default 10 000 tokens for at most 30 s. */
  readonly cache?: { readonly maxEntries: number; readonly maxAgeMs: number } | false;
  /** Problems the operator must see (an unreachable JWKS), never the details of a refused token. */
  readonly log?: { warn(message: string): void };
  /**
   * The identity provider configs (`/v2/idps`) by issuer. A token the server's own key does not
   * verify is verified with the JWKS of the config whose issuer it names (and that config's
   * audience, if any), as a participant's IdentityProviderAwareAuthService does; its user must
   * then belong to that identity provider.
   */
  readonly issuers?: (issuer: string) => IssuerConfig | undefined;
}

/** An identity provider config as token verification reads it. */
export interface IssuerConfig {
  readonly identityProviderId: string;
  readonly jwksUrl: string;
  /** Empty: any audience. */
  readonly audience: string;
  readonly isDeactivated: boolean;
}

/** What an identity provider's JWKS may sign with (a participant's JwksVerifier: RSA and EC keys). */
const ISSUER_ALGORITHMS = ['RS256', 'ES256', 'ES512'];

export const DEFAULT_SCOPE = 'daml_ledger_api';
/** The audience a participant accepts by default: this prefix followed by its participant id. */
export const PARTICIPANT_AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

/** A refused credential. The HTTP face redacts the cause; it stays useful in tests and logs. */
export const unauthenticated = (reason: string): Result<never, LedgerError> =>
  err(ledgerError('UNAUTHENTICATED', `The request could not be authenticated: ${reason}`));

/**
 * Verifies Ledger API JWTs: signature with the one configured algorithm (so `alg: none` and
 * algorithm confusion are refused), `exp`/`nbf` with a small leeway, audience or scope, and a
 * non-empty `sub`, which is the user id. Rights are not in the token: they are checked per
 * request against the user store.
 */
export function createJwtAuthenticator(options: JwtAuthenticatorOptions): Authenticator {
  const now = options.now ?? Date.now;
  const leeway = options.leewaySeconds ?? 5;
  const cacheOptions = options.cache ?? { maxEntries: 10_000, maxAgeMs: 30_000 };
  const cache = cacheOptions === false ? undefined : new VerifiedTokenCache(cacheOptions.maxEntries, cacheOptions.maxAgeMs);
  // Open streams end when the token stops counting (with the same leeway as the check at the start).
  const user = (userId: string, expSeconds: number | undefined, identityProviderId?: string): Result<Principal, LedgerError> =>
    ok({
      kind: 'user',
      userId,
      ...(identityProviderId === undefined ? {} : { identityProviderId }),
      ...(expSeconds === undefined ? {} : { validUntilMs: (expSeconds + leeway) * 1000 }),
    });
  // One key set per JWKS URL, fetched when a token needs it and refetched on an unknown kid.
  const keySets = new Map<string, JWTVerifyGetKey>();
  const keySetAt = (url: URL): JWTVerifyGetKey => {
    let set = keySets.get(url.href);
    if (set === undefined) keySets.set(url.href, (set = createRemoteJWKSet(url, { cooldownDuration: 30_000, cacheMaxAge: 600_000, timeoutDuration: 5_000 })));
    return set;
  };

  /** A token of an identity provider's issuer: undefined when it names none that is configured. */
  async function verifyForIssuer(token: string): Promise<Result<Principal, LedgerError> | undefined> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return undefined;
    }
    const config = typeof issuer === 'string' ? options.issuers?.(issuer) : undefined;
    if (config === undefined) return undefined;
    if (config.isDeactivated) return unauthenticated(`the identity provider ${config.identityProviderId} that issued the token is deactivated`);
    let url: URL;
    try {
      url = new URL(config.jwksUrl);
    } catch {
      return unauthenticated(`the JWKS URL of identity provider ${config.identityProviderId} is not a URL`);
    }
    const at = now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySetAt(url), {
        algorithms: ISSUER_ALGORITHMS,
        clockTolerance: leeway,
        currentDate: new Date(at),
        ...(config.audience === '' ? {} : { audience: config.audience }),
      }));
    } catch (e) {
      return unauthenticated(`${rejectionReason(e, options.log)} (identity provider ${config.identityProviderId})`);
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') return unauthenticated('the token has no "sub" (user id) claim');
    const exp = typeof payload.exp === 'number' ? payload.exp : undefined;
    cache?.put(token, payload.sub, at, exp, config.identityProviderId);
    return user(payload.sub, exp, config.identityProviderId);
  }

  async function verify(token: string): Promise<Result<Principal, LedgerError>> {
    const own = await verifyOwn(token);
    if (own.ok || options.issuers === undefined) return own;
    return (await verifyForIssuer(token)) ?? own;
  }

  async function verifyOwn(token: string): Promise<Result<Principal, LedgerError>> {
    const at = now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, options.key, {
        algorithms: [options.algorithm],
        clockTolerance: leeway,
        currentDate: new Date(at),
        ...(options.target.kind === 'audience' ? { audience: options.target.audience } : {}),
      }));
    } catch (e) {
      return unauthenticated(rejectionReason(e, options.log));
    }
    const target = checkTarget(payload, options.target);
    if (!target.ok) return target;
    if (typeof payload.sub !== 'string' || payload.sub === '') return unauthenticated('the token has no "sub" (user id) claim');
    const exp = typeof payload.exp === 'number' ? payload.exp : undefined;
    cache?.put(token, payload.sub, at, exp);
    return user(payload.sub, exp);
  }

  return {
    name: options.algorithm.toLowerCase(),
    authenticate: (input) => {
      const credential = credentialToken(input);
      if (credential.kind === 'none') return unauthenticated('no token: send "Authorization: Bearer <JWT>" (or the jwt.token.<JWT> WebSocket subprotocol)');
      if (credential.kind === 'malformed') return unauthenticated(credential.reason);
      const cached = cache?.lookup(credential.token, now());
      // A cache hit answers synchronously: no promise on the hot path.
      return cached !== undefined ? user(cached.userId, cached.expSeconds, cached.identityProviderId) : verify(credential.token);
    },
  };
}

function claimList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(' ').filter((s) => s !== '');
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string');
  return [];
}

function checkTarget(payload: JWTPayload, target: TokenTarget): Result<void, LedgerError> {
  // Audience-based targets are checked by jwtVerify itself.
  if (target.kind === 'audience') return ok(undefined);
  const scopes = [...claimList(payload['scope']), ...claimList(payload['scp'])];
  if (scopes.includes(target.scope)) return ok(undefined);
  if (target.participantAudience !== undefined && claimList(payload.aud).includes(target.participantAudience)) return ok(undefined);
  return unauthenticated(
    target.participantAudience === undefined
      ? `the token's scope does not include "${target.scope}"`
      : `the token's scope does not include "${target.scope}" and its audience does not name this participant`,
  );
}

/** Why jose refused a token, in words; infrastructure failures also go to the operator log. */
function rejectionReason(e: unknown, log: JwtAuthenticatorOptions['log']): string {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'nbf') return 'the token is not valid yet (nbf)';
    if (e.claim === 'aud') return 'the token is not meant for this participant (aud)';
    if (e.claim === 'iat') return 'the token was issued in the future (iat)';
    return `the token's "${e.claim}" claim is invalid`;
  }
  if (e instanceof errors.JOSEAlgNotAllowed) return 'the token is not signed with the algorithm this server accepts';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'the token signature does not verify';
  if (e instanceof errors.JWKSNoMatchingKey) return 'no key of the key set matches the token (kid)';
  if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid) return 'the token is malformed';
  if (e instanceof errors.JWKSTimeout || !(e instanceof errors.JOSEError) || e.code === 'ERR_JOSE_GENERIC') {
    log?.warn(`JWT verification could not complete: ${e instanceof Error ? e.message : String(e)}`);
    return 'the token could not be verified (key set unavailable)';
  }
  return `the token was refused (${e.code})`;
}
