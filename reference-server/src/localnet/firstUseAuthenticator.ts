import type { Ledger } from '../ledger/index.js';
import type { Authenticator, Principal } from '../http/api/auth/types.js';
import type { LedgerError } from '../ledger/errors.js';
import type { Result } from '../ledger/result.js';

/**
 * LocalNet's participants trust any token signed with its shared secret; a user named by such a
 * token that the participant does not know yet is created on first use, with no rights (rights
 * are granted by an admin, as on any participant). The token was verified before: this only
 * makes its `sub` exist.
 */
export function firstUseAuthenticator(inner: Authenticator, ledger: () => Ledger): Authenticator {
  const ensure = (result: Result<Principal, LedgerError>): Result<Principal, LedgerError> => {
    if (result.ok && result.value.kind === 'user') {
      const l = ledger();
      const userId = result.value.userId;
      if (!l.getUser(userId).ok) l.createUser({ user: { id: userId, isDeactivated: false, identityProviderId: '' }, rights: [] });
    }
    return result;
  };
  return {
    name: inner.name,
    authenticate: (input) => {
      const result = inner.authenticate(input);
      return result instanceof Promise ? result.then(ensure) : ensure(result);
    },
  };
}
