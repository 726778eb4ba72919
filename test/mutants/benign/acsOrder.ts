import { isObject } from '../mutantKit.js';
import { parse, type Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * Active contracts in another order: the HTTP list of `/v2/state/active-contracts` answered
 * whole (no `limit`, no continuation token) with its elements in the reverse of the reference's
 * order. The API gives the active contract set no order (GetActiveContractsResponse: a set of
 * contracts at an offset; the JSON list is the stream's elements, and a participant streams its
 * ACS in its own storage order, per synchronizer and in parallel slices).
 */
const ACS = /^\/v2\/state\/active-contracts$/;

export const acsOrder: Fault = {
  response(req, res) {
    const [path, query] = req.url.split('?') as [string, string | undefined];
    if (req.method !== 'POST' || res.status !== 200 || !ACS.test(path!.replace(/\/{2,}/g, '/'))) return res;
    if (new URLSearchParams(query ?? '').get('limit') !== null) return res;
    const body = parse(req.body);
    if (isObject(body) && typeof body.streamContinuationToken === 'string' && body.streamContinuationToken !== '') return res;
    return rewriteJsonBody(res, (v) => (Array.isArray(v) && !v.some((e) => isObject(e) && typeof e.streamContinuationToken === 'string' && e.streamContinuationToken !== '') ? [...v].reverse() : v));
  },
};
