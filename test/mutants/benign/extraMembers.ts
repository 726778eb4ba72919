import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { mapApiObjects, rewriteFrame, rewriteJsonBody, rewriteJsonRequest } from './jsonWalk.js';

/**
 * A newer server's members the suite does not know: every message object of every answer and
 * frame (ledger, registry, Scan; error bodies too) carries one more member, `vendorBuild`. The
 * upstream OpenAPI documents never close a response schema (no `additionalProperties: false`),
 * and specs/README.md says it in so many words: "Response schemas are open: vendors may add
 * members". Canton itself grows messages between patch releases (3.5 added
 * `representativePackageId`, `paidTrafficCost`, `contractKeyHash`, ...; wire-shapes.md §2.3).
 * Left alone: one-member variant wrappers (`{"Transaction": ...}`, `{"value": ...}`, `{}`), maps
 * whose keys are data (error context, annotations, filters by party, trees by node id, choice
 * context values, API version maps, Scan's rounds by contract id), and Daml values. The member
 * is taken out of requests again, as the server would accept its own member back.
 */
export const EXTRA = 'vendorBuild';
const MAPS = new Set([
  'context', 'annotations', 'filtersByParty', 'eventsById', 'values', 'fields', 'supportedApis', 'open_mining_rounds', 'issuing_mining_rounds', 'meta', 'unknownFields',
]);

function add(v: unknown, parentIsMap = false, member = EXTRA): unknown {
  if (Array.isArray(v)) return v.map((x) => add(x, false, member));
  if (!isObject(v)) return v;
  const entries = Object.entries(v).map(([k, x]) => [k, k === 'createArgument' || k === 'createArguments' || k === 'choiceArgument' || k === 'exerciseResult' || k === 'viewValue' || k === 'contractKey' || k === 'payload' || k === 'debugPayload' || k === 'choiceContextData' ? x : add(x, MAPS.has(k), member)] as const);
  const o = Object.fromEntries(entries) as Json;
  const keys = Object.keys(o);
  if (parentIsMap || keys.length < 2) return o;
  return { ...o, [member]: '2026.1' };
}
const strip = (o: Json): Json => (EXTRA in o ? Object.fromEntries(Object.entries(o).filter(([k]) => k !== EXTRA)) : o);

const isRegistry = (url: string) => /^\/+registry\//.test(url);

/** The ledger's and Scan's answers (a participant takes its own members back). */
export const extraMembers: Fault = {
  request: (req) => rewriteJsonRequest(req, (v) => mapApiObjects(v, strip)),
  response: (req, res) => (isRegistry(req.url) ? res : rewriteJsonBody(res, (v) => add(v))),
  wsRequest: (_req, frame) => rewriteFrame(frame, (v) => mapApiObjects(v, strip)),
  wsResponse: (_req, frame) => [rewriteFrame(frame, (v) => add(v))],
};

/**
 * The registry's answers alone, with a member of its own (`registryBuild`), taken out of nothing:
 * the participant is a real Canton one, which refuses members it does not know ("Unexpected
 * fields", api-semantics.md §1.1), so a client must build the ledger's DisclosedContract from the
 * four members the ledger defines, not pass the registry's object through.
 */
export const registryExtraMembers: Fault = {
  response: (req, res) => (isRegistry(req.url) ? rewriteJsonBody(res, (v) => add(v, false, 'registryBuild')) : res),
};
