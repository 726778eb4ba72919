/** Where a request's token was found, or why none could be read. */
export type CredentialToken =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'token'; readonly token: string; readonly source: 'header' | 'subprotocol' };

/** Clients put the JWT in this WebSocket subprotocol entry (`jwt.token.<JWT>`). */
export const JWT_SUBPROTOCOL_PREFIX = 'jwt.token.';

/**
 * On a WebSocket, the upgrade is always accepted and the credentials are checked when the request
 * frame arrives, before any data: a refusal is the stream's one message (a redacted
 * JsCantonError, 401- or 403-coded in grpcCodeValue), then a normal close. That is what the
 * participant does, and what real clients surface best: they hand every frame to the
 * application, while a refused upgrade only reaches it as "WebSocket Handshake/Connection failed".
 *
 * Reads the token of a request: `Authorization: Bearer <JWT>` on HTTP and on a WebSocket upgrade,
 * else the first `jwt.token.<JWT>` subprotocol. The header wins when both are present, as on the
 * participant; a header that is present but not a bearer token is an error, not a fallback.
 */
export function credentialToken(input: {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly subprotocols?: readonly string[];
}): CredentialToken {
  const header = input.headers['authorization'];
  if (header !== undefined) {
    const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) return { kind: 'malformed', reason: 'the Authorization header is not of the form "Bearer <JWT>"' };
    return { kind: 'token', token: match[1] as string, source: 'header' };
  }
  const entry = input.subprotocols?.find((p) => p.startsWith(JWT_SUBPROTOCOL_PREFIX));
  if (entry !== undefined) {
    const token = entry.slice(JWT_SUBPROTOCOL_PREFIX.length);
    if (token === '') return { kind: 'malformed', reason: 'the jwt.token. subprotocol carries no token' };
    return { kind: 'token', token, source: 'subprotocol' };
  }
  return { kind: 'none' };
}
