import { GROUPS, type CheckDefinition } from '../checks/types.js';
import type { Profile } from './profile.js';

/**
 * The groups a check needs that the profile does not serve (`registry`, `scan and registry`...),
 * or undefined: such a check does not apply to the target, as one its Canton line lacks does not.
 */
export function groupsNotServed(check: CheckDefinition, profile: Profile): string | undefined {
  const groups = check.requires?.groups ?? [check.group];
  // In GROUPS' order, so checks that need the same groups share one reason (doctor counts by it).
  const missing = GROUPS.filter((g) => groups.includes(g) && !profile.groups.includes(g));
  return missing.length > 0 ? missing.join(' and ') : undefined;
}

/** Why a check cannot run against a target with this profile, or undefined when it can. */
export function skipReason(check: CheckDefinition, profile: Profile): string | undefined {
  const missing = groupsNotServed(check, profile);
  if (missing !== undefined) return `profile '${profile.name}' does not serve the ${missing} group${missing.includes(' and ') ? 's' : ''}`;
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
