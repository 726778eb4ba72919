import type { Claim, Ledger } from '../../../ledger/index.js';
import type { LedgerError } from '../../../ledger/errors.js';
import { ok, type Result } from '../../../ledger/result.js';
import type { Principal, RequiredAccess } from './types.js';

/**
 * The single authorization check every route goes through. The wildcard principal (no auth
 * configured) passes everything; a user's claims are checked by the ledger against the rights in
 * its user store at call time, so a revoked right takes effect at once.
 */
export function checkAccess(principal: Principal, required: RequiredAccess, ledger: Pick<Ledger, 'authorize'>): Result<void, LedgerError> {
  if (principal.kind === 'wildcard') return ok(undefined);
  return ledger.authorize(principal.userId, claimsOf(required, principal.userId), principal.identityProviderId ?? '');
}

/** What a route's declared access means as ledger claims for this caller. */
export function claimsOf(required: RequiredAccess, callerUserId: string): Claim[] {
  const claims: Claim[] = [];
  // The identity provider admin claim is also held by ParticipantAdmin (the participant's rule).
  if (required.admin === true || (required.self !== undefined && required.self !== callerUserId)) {
    claims.push({ kind: 'identityProviderAdmin' });
  }
  if (required.participantAdmin === true) claims.push({ kind: 'participantAdmin' });
  for (const party of required.actAs ?? []) claims.push({ kind: 'actAs', party });
  for (const party of required.readAs ?? []) claims.push({ kind: 'readAs', party });
  for (const party of required.executeAs ?? []) claims.push({ kind: 'executeAs', party });
  if (required.readAsAnyParty === true) claims.push({ kind: 'readAsAnyParty' });
  return claims;
}
