import { GROUPS, type CheckDefinition } from '../checks/types.js';
import type { Profile } from './profile.js';

/** Why a check cannot run against a target with this profile, or undefined when it can. */
export function skipReason(check: CheckDefinition, profile: Profile): string | undefined {
  const groups = check.requires?.groups ?? [check.group];
  // In GROUPS' order, so checks that need the same groups share one reason (doctor counts by it).
  const missing = GROUPS.filter((g) => groups.includes(g) && !profile.groups.includes(g));
  if (missing.length > 0) return `profile '${profile.name}' does not serve the ${missing.join(' and ')} group${missing.length > 1 ? 's' : ''}`;
  if (check.requires?.writes && !profile.writes) return `profile '${profile.name}' is read-only (writes: false) and this check creates data`;
  const auth = check.requires?.auth;
  if (auth !== undefined) {
    if (profile.auth?.required !== true) return `profile '${profile.name}' declares no authentication (auth.required)`;
    if (auth === 'signing' && profile.auth.signing === undefined) return `profile '${profile.name}' gives no signing key (auth.signing), so the suite cannot mint a token that differs only in this respect`;
    if (auth === 'no-rights' && profile.auth.noRightsToken === undefined && (profile.auth.signing === undefined || profile.auth.noRightsUser === undefined)) {
      return `profile '${profile.name}' names no user without rights (auth.noRightsUser with auth.signing, or auth.noRightsToken)`;
    }
  }
  return undefined;
}
