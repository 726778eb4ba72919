import type { CheckDefinition } from '../checks/types.js';
import type { RequestSpec } from '../target/exchange.js';
import type { StreamOptions } from '../target/websocket.js';

/**
 * Checks whose requests the oracle does not replay for another reason than reading the target's
 * own state (`CheckDefinition.readsTargetState`), each with the reason. Their own assertions still
 * run against the target.
 */
export const NOT_REPLAYED: Readonly<Record<string, string>> = {
  'ledger.streams.large-read-does-not-stall': 'it measures how the target streams ten thousand contracts, not what they are; replaying it doubles the run for nothing the other checks miss',
};

/** Why a whole check stays off the oracle, or undefined. */
export function checkExclusion(check: CheckDefinition): string | undefined {
  if (check.observer) return 'observers make no requests';
  // Authentication is the target's configuration (its issuer, audience, users), not ledger semantics.
  if (check.kind === 'auth') return 'authentication checks judge the target\'s token configuration, which the reference does not share';
  return NOT_REPLAYED[check.id] ?? check.readsTargetState;
}

/**
 * Requests about the caller: their answer is decided by the token, not by the request, so they are
 * judged by that rule (ledger.users.authenticated-user: the user the token's `sub` names) and not
 * against a reference that runs without the target's authentication and users.
 */
const CALLER_PATHS: ReadonlySet<string> = new Set(['/v2/authenticated-user']);

/** Why one request stays off the oracle, or undefined. `anonymousTwin`: the reference runs without the target's users. */
export function requestExclusion(spec: (Pick<RequestSpec, 'auth' | 'unreadInput'> | Pick<StreamOptions, 'auth' | 'protocols'>) & { readonly path?: string }, anonymousTwin = false): string | undefined {
  if ('unreadInput' in spec && spec.unreadInput !== undefined) return `the check judges it against the target's own answer: ${spec.unreadInput}`;
  if (anonymousTwin && spec.path !== undefined && CALLER_PATHS.has(spec.path.split('?')[0]!)) return 'the answer is the token\'s user, judged by rule (ledger.users.authenticated-user), not against a reference without the target\'s users';
  if (spec.auth !== undefined && spec.auth !== 'default') return 'the request carries its own credentials (an authentication probe)';
  if ('protocols' in spec && spec.protocols !== undefined) return 'the request offers its own subprotocols (a handshake probe)';
  return undefined;
}

