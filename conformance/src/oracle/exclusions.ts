import type { CheckDefinition } from '../checks/types.js';
import type { RequestSpec } from '../target/exchange.js';
import type { StreamOptions } from '../target/websocket.js';

/** Factory requests with arguments the Daml choice refuses: not decided by the request alone. */
const UNREAD_ARGUMENTS = "a registry may refuse choice arguments the Daml choice would refuse (400) or not read them (its factory, as Splice Scan's does): the request alone does not decide; the check judges both";

/**
 * Checks whose requests the oracle does not replay for another reason than reading the target's
 * own state (`CheckDefinition.readsTargetState`), each with the reason. Their own assertions still
 * run against the target.
 */
export const NOT_REPLAYED: Readonly<Record<string, string>> = {
  'ledger.streams.large-read-does-not-stall': 'it measures how the target streams ten thousand contracts, not what they are; replaying it doubles the run for nothing the other checks miss',
  'registry.transfer-factory.bad-input-400': UNREAD_ARGUMENTS,
  'registry.allocation-factory.bad-input-400': UNREAD_ARGUMENTS,
  'registry.allocation-factory.bad-input-400-v2': UNREAD_ARGUMENTS,
  'registry.settlement-factory.bad-input-400': UNREAD_ARGUMENTS,
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

/**
 * A page size the standard sets no bound on, which a registry may refuse or not read at all
 * (Splice Scan's instrument list reads no pageSize): out of range, the request alone does not
 * decide the answer. registry.metadata.instrument-list judges both answers.
 */
function unboundedPageSize(spec: { readonly path?: string; readonly query?: RequestSpec['query'] }): boolean {
  if (spec.path === undefined) return false;
  const [path, search] = spec.path.split('?') as [string, string | undefined];
  if (path !== '/registry/metadata/v1/instruments') return false;
  const size = spec.query?.pageSize ?? new URLSearchParams(search ?? '').get('pageSize');
  return size !== undefined && size !== null && !/^[1-9]\d*$/.test(String(size));
}

/** Why one request stays off the oracle, or undefined. `anonymousTwin`: the reference runs without the target's users. */
export function requestExclusion(spec: (Pick<RequestSpec, 'auth' | 'query'> | Pick<StreamOptions, 'auth' | 'protocols'>) & { readonly path?: string }, anonymousTwin = false): string | undefined {
  if (unboundedPageSize({ path: spec.path, query: 'query' in spec ? spec.query : undefined })) return 'a pageSize out of range, which a registry may refuse or not read (the standard sets no bound)';
  if (anonymousTwin && spec.path !== undefined && CALLER_PATHS.has(spec.path.split('?')[0]!)) return 'the answer is the token\'s user, judged by rule (ledger.users.authenticated-user), not against a reference without the target\'s users';
  if (spec.auth !== undefined && spec.auth !== 'default') return 'the request carries its own credentials (an authentication probe)';
  if ('protocols' in spec && spec.protocols !== undefined) return 'the request offers its own subprotocols (a handshake probe)';
  return undefined;
}

