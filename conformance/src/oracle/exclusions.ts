import type { CheckDefinition } from '../checks/types.js';
import type { RequestSpec } from '../target/exchange.js';
import type { StreamOptions } from '../target/websocket.js';

/**
 * Checks whose requests the oracle does not replay, each with the reason. Their own assertions
 * still run against the target.
 */
export const NOT_REPLAYED: Readonly<Record<string, string>> = {
  'ledger.streams.large-read-does-not-stall': 'it measures how the target streams ten thousand contracts, not what they are; replaying it doubles the run for nothing the other checks miss',
  // Page walks over whole lists: a target holding more (other clients' users and parties, those the
  // authentication checks create, which are not replayed) puts other elements on each page.
  'ledger.lists.complete-on-every-page': 'it walks whole party and user lists page by page; pages of a target that holds more than the run wrote hold other elements, and the check judges completeness itself',
  'ledger.lists.size-bounds': 'it reads bounded slices of the whole update history, parties and users, whose elements depend on everything the target did before (checks not replayed, other clients); it judges the bounds itself',
  'ledger.lookups.agree-with-lists': 'it looks up entries of whole lists, which on a target hold parties and users the reference never saw; the check compares each lookup with the target\'s own list',
  'ledger.reinterpret.target-history': 'it reads the target\'s history from before the run (its own and other applications\' transactions), which the reference never had; it judges each transaction by re-running it with the engine',
  'ledger.wire.state-reads-not-cacheable': 'it judges the caching headers of whole-list reads (parties, users), whose elements on a target include what the reference never saw; the bodies are not what it judges',
};

/** Why a whole check stays off the oracle, or undefined. */
export function checkExclusion(check: CheckDefinition): string | undefined {
  if (check.observer) return 'observers make no requests';
  // Authentication is the target's configuration (its issuer, audience, users), not ledger semantics.
  if (check.kind === 'auth') return 'authentication checks judge the target\'s token configuration, which the reference does not share';
  return NOT_REPLAYED[check.id];
}

/**
 * Requests about the caller: their answer is decided by the token, not by the request, so they are
 * judged by that rule (ledger.users.authenticated-user: the user the token's `sub` names) and not
 * against a reference that runs without the target's authentication and users.
 */
const CALLER_PATHS: ReadonlySet<string> = new Set(['/v2/authenticated-user']);

/** Why one request stays off the oracle, or undefined. `anonymousTwin`: the reference runs without the target's users. */
export function requestExclusion(spec: (Pick<RequestSpec, 'auth'> | Pick<StreamOptions, 'auth' | 'protocols'>) & { readonly path?: string }, anonymousTwin = false): string | undefined {
  if (anonymousTwin && spec.path !== undefined && CALLER_PATHS.has(spec.path.split('?')[0]!)) return 'the answer is the token\'s user, judged by rule (ledger.users.authenticated-user), not against a reference without the target\'s users';
  if (spec.auth !== undefined && spec.auth !== 'default') return 'the request carries its own credentials (an authentication probe)';
  if ('protocols' in spec && spec.protocols !== undefined) return 'the request offers its own subprotocols (a handshake probe)';
  return undefined;
}

