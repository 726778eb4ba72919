import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Lists whose order the API leaves to the server, in another order (reversed): a completion's
 * `actAs` ("the order of the parties need not be the same as in the submission"), the party
 * details of a lookup ("may not be in the same order as requested"), an event's witnesses,
 * signatories, observers, acting parties and implemented interfaces (sets of parties and
 * interfaces), its interface views (one per interface), a user's rights, the connected
 * synchronizers, the package ids. Within a page only: pages keep following one another.
 */
const SETS = new Set([
  'actAs', 'partyDetails', 'witnessParties', 'signatories', 'observers', 'actingParties', 'implementedInterfaces',
  'interfaceViews', 'rights', 'newlyGrantedRights', 'newlyRevokedRights', 'connectedSynchronizers', 'packageIds',
]);
const reversed = (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, SETS.has(k) && Array.isArray(v) ? [...v].reverse() : v]));
const rewrite = (v: unknown) => mapApiObjects(v, reversed);

export const otherListOrders: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
