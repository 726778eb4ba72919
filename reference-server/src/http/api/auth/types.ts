import type { Result } from '../../../ledger/result.js';
import type { LedgerError } from '../../../ledger/errors.js';

/**
 * Who is calling. `wildcard` is the unsecured sandbox: every right, no user. `user` comes from a
 * verified token whose `sub` is the user id; its rights live in the user store, not the token.
 */
export type Principal =
  | { readonly kind: 'wildcard' }
  | {
      readonly kind: 'user';
      readonly userId: string;
      /**
       * The identity provider whose issuer signed the token (verified with its config's JWKS);
       * absent for a token of the participant's own `--auth` key: the default identity provider.
       * The user must belong to it.
       */
      readonly identityProviderId?: string;
      /** When the token stops counting (its `exp` plus the leeway), in ms; absent for a token without `exp`. */
      readonly validUntilMs?: number;
    };

/** What a route needs from its caller, derived from the request (body and path parameters). */
export interface RequiredAccess {
  /** Parties the caller submits as (CanActAs). */
  readonly actAs?: readonly string[];
  /** Parties the caller reads as (CanReadAs, implied by CanActAs). */
  readonly readAs?: readonly string[];
  /** Parties the caller prepares or executes for (CanExecuteAs, implied by CanActAs). */
  readonly executeAs?: readonly string[];
  /** Reads for every party (`filtersForAnyParty`): CanReadAsAnyParty. */
  readonly readAsAnyParty?: boolean;
  /** User or party management: ParticipantAdmin or IdentityProviderAdmin. */
  readonly admin?: boolean;
  /** Needs ParticipantAdmin itself (an identity provider admin may not hand out ParticipantAdmin). */
  readonly participantAdmin?: boolean;
  /** Needs admin (as `admin`), unless the caller is this very user (its own record, rights, submissions). */
  readonly self?: string;
  /** Any authenticated caller (e.g. the version service). */
  readonly authenticated?: boolean;
}

/**
 * Turns the credentials of a request into a principal. HTTP passes its headers; WebSocket also
 * passes the offered subprotocols (`jwt.token.<JWT>` entries carry the token there).
 */
export interface Authenticator {
  readonly name: string;
  authenticate(input: {
    readonly headers: Readonly<Record<string, string | undefined>>;
    readonly subprotocols?: readonly string[];
  }): Result<Principal, LedgerError> | Promise<Result<Principal, LedgerError>>;
}
