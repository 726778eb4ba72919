import { ok } from '../../../reference-server/src/ledger/result.js';
import type { Authenticator } from '../../../reference-server/src/http/api/auth/types.js';

/**
 * A stand-in for the JWT authenticator of a later issue: the caller names its user in an
 * `x-test-user` header (no header: the wildcard principal). Lets tests drive the access rules.
 */
export const headerUserAuthenticator: Authenticator = {
  name: 'test-header',
  authenticate: ({ headers, subprotocols }) => {
    const fromProtocol = subprotocols?.find((p) => p.startsWith('test.user.'))?.slice('test.user.'.length);
    const userId = headers['x-test-user'] ?? fromProtocol;
    // `x-test-idp`: the token was issued by this identity provider (a user of it must say so, as its tokens would).
    const identityProviderId = headers['x-test-idp'];
    return ok(userId === undefined ? { kind: 'wildcard' } : { kind: 'user', userId, ...(identityProviderId === undefined ? {} : { identityProviderId }) });
  },
};
