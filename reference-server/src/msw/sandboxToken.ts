/**
 * An unsigned (`alg: none`) JWT for an unsecured ledger. The real clients decode the token they
 * send and refuse an expired one, even where the server checks nothing, so a test needs a token
 * that decodes, names its user (`sub`) and expires later than the test runs.
 */
export function sandboxToken(userId = 'participant_admin', lifetimeSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: userId, scope: 'daml_ledger_api', iat: now, exp: now + lifetimeSeconds })}.`;
}
