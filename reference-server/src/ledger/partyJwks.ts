import type { LedgerContext } from './context.js';
import { fail, type LedgerError } from './errors.js';
import { partyKeyOf } from './interactive/signingKeys.js';
import { isValidPartyId } from './parties.js';
import { ok, type Result } from './result.js';
import { show } from './values.js';
import type { GetJwksResponse } from './wire.js';

/**
 * Canton 3.6's JoseService.GetJwks: the keys a party's external signatures verify with, as JWKs
 * (RFC 7517; the key's fingerprint is its `kid`). A local party signs nothing itself and an unknown
 * party or synchronizer has no key mapping there: both answer an empty set. Ids that cannot be
 * ids are refused.
 */
export function partyJwks(ctx: LedgerContext, synchronizerId: string, party: string): Result<GetJwksResponse, LedgerError> {
  // Synchronizer ids have a party id's shape: an identifier, `::`, a namespace.
  if (!isValidPartyId(synchronizerId)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: '${show(synchronizerId, 80)}' is not a valid synchronizer id`, { context: { field_name: 'synchronizer_id' } });
  }
  if (!isValidPartyId(party)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: '${show(party, 80)}' is not a valid party id`, { context: { field_name: 'party_id' } });
  }
  const registered = ctx.store.party(party)?.externalKey;
  const connected = ctx.config.synchronizers.some((s) => s.id === synchronizerId);
  if (registered === undefined || !connected) return ok({ keys: [] });
  const key = partyKeyOf(registered);
  // A stored key was checked when the party was allocated; one that no longer reads is not served.
  if (!key.ok) return ok({ keys: [] });
  const jwk = key.value.key.export({ format: 'jwk' });
  return ok({ keys: [{ ...jwk, kid: key.value.fingerprint, use: 'sig', alg: key.value.algorithm === 'ed25519' ? 'EdDSA' : 'ES256' }] });
}
