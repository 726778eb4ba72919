import type { CreateUserRequest, Right } from '../../../reference-server/src/ledger/wire.js';
import { createLedger, type Ledger } from '../../../reference-server/src/ledger/index.js';
import { createAuthenticator, type AuthConfig } from '../../../reference-server/src/http/api/auth/authConfig.js';
import { startServer, type TestServer } from '../../http/support/startServer.js';
import { newKey, type TestKey } from '../../interactive/support/keys.js';
import { HS256_SECRET } from './tokens.js';

export const canActAs = (party: string): Right => ({ kind: { CanActAs: { value: { party } } } });
export const canReadAs = (party: string): Right => ({ kind: { CanReadAs: { value: { party } } } });
export const canExecuteAs = (party: string): Right => ({ kind: { CanExecuteAs: { value: { party } } } });
export const readAsAnyParty: Right = { kind: { CanReadAsAnyParty: { value: {} } } };
export const executeAsAnyParty: Right = { kind: { CanExecuteAsAnyParty: { value: {} } } };
export const participantAdmin: Right = { kind: { ParticipantAdmin: { value: {} } } };
export const idpAdmin: Right = { kind: { IdentityProviderAdmin: { value: {} } } };

export interface SecuredWorld {
  readonly server: TestServer;
  readonly ledger: Ledger;
  readonly alice: string;
  readonly bob: string;
  /** An external party (Ed25519) and its key, for interactive submission. */
  readonly ext: { readonly party: string; readonly key: TestKey };
}

function must<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; cause: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.cause}`);
  return r.value;
}

/**
 * A server with the given auth over a small world set up through the core, so the HTTP surface is
 * only touched by the tests themselves:
 * - parties alice and bob, and ext, an external party with an Ed25519 key;
 * - users: alice (CanActAs alice), bob (CanActAs bob), auditor (read as any party), reader
 *   (CanReadAs alice), executor (CanExecuteAs alice), idp (IdentityProviderAdmin), gone
 *   (deactivated, CanActAs alice), and root, who holds every right any operation needs (so a 401
 *   can only come from the credential).
 */
export async function startSecuredWorld(auth: AuthConfig = { mode: 'hs256', key: { kind: 'secret', secret: HS256_SECRET } }): Promise<SecuredWorld> {
  const ledger = createLedger();
  const alice = must(ledger.allocateParty({ partyIdHint: 'alice' })).partyDetails.party;
  const bob = must(ledger.allocateParty({ partyIdHint: 'bob' })).partyDetails.party;
  const key = newKey('ed25519');
  const ext = must(ledger.allocateExternalParty('ext', key.publicKey)).party;
  const user = (id: string, rights: Right[], extra: Partial<CreateUserRequest['user']> = {}) =>
    must(ledger.createUser({ user: { id, isDeactivated: false, identityProviderId: '', ...extra }, rights }));
  user('alice', [canActAs(alice)], { primaryParty: alice });
  user('bob', [canActAs(bob)], { primaryParty: bob });
  user('auditor', [readAsAnyParty]);
  user('reader', [canReadAs(alice)]);
  user('executor', [canExecuteAs(alice)]);
  user('idp', [idpAdmin]);
  user('gone', [canActAs(alice)], { isDeactivated: true });
  user('root', [participantAdmin, canActAs(alice), canActAs(bob), readAsAnyParty, executeAsAnyParty]);
  const authenticator = await createAuthenticator(auth, { participantId: ledger.config.participantId });
  const server = await startServer({ ledger, authenticator });
  return { server, ledger, alice, bob, ext: { party: ext, key } };
}
