import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * Connected synchronizers without a permission when no party was asked about: openapi 3.5.10,
 * ConnectedSynchronizer.permission: "The permission on the synchronizer. Set if a party was used
 * in the request, otherwise unspecified. Optional" (required in 3.4, optional since 3.5.1,
 * wire-shapes.md §2.3). The reference answers its own permission either way; this participant
 * leaves the member out (proto3's unspecified enum) unless the request names a party.
 */
export const permissionOnlyWithParty: Fault = {
  response(req, res) {
    const [path, query] = req.url.split('?') as [string, string | undefined];
    if (res.status !== 200 || path!.replace(/\/{2,}/g, '/') !== '/v2/state/connected-synchronizers') return res;
    const party = new URLSearchParams(query ?? '').get('party');
    if (party !== null && party !== '') return res;
    return rewriteJsonBody(res, (v) =>
      isObject(v) && Array.isArray(v.connectedSynchronizers)
        ? { ...v, connectedSynchronizers: v.connectedSynchronizers.map((s) => (isObject(s) ? Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'permission')) : s)) }
        : v,
    );
  },
};
