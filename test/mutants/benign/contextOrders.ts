import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Lists the registry and Scan leave unordered, reversed: a choice context's `disclosedContracts`
 * (the contracts to disclose to the participant, a set to the ledger; transfer-instruction-v1.yaml
 * ChoiceContext), Scan's `sv_node_states`, and every checkpoint's `synchronizerTimes` ("the times
 * associated with each synchronizer at this offset", one per synchronizer).
 */
const SETS = new Set(['disclosedContracts', 'sv_node_states', 'synchronizerTimes']);
const reversed = (o: Json): Json => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, SETS.has(k) && Array.isArray(v) ? [...v].reverse() : v]));
const rewrite = (v: unknown) => mapApiObjects(v, reversed);

export const contextOrders: Fault = {
  response: (_req, res) => rewriteJsonBody(res, rewrite),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
