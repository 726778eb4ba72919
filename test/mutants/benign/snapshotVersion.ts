import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A participant built between patch releases: `/v2/version` answers `3.5.11-SNAPSHOT` (Canton's
 * builds from a release branch carry the next patch with -SNAPSHOT, as main's documents carry
 * 3.6.0-SNAPSHOT, wire-shapes.md §2.0), and `/docs/*` the same `info.version`. The client only
 * checks the 3.5 prefix (wire-shapes.md §3).
 */
export const SNAPSHOT = '3.5.11-SNAPSHOT';

export const snapshotVersion: Fault = {
  response(req, res) {
    const path = req.url.split('?')[0]!.replace(/\/{2,}/g, '/');
    if (path === '/v2/version') return rewriteJsonBody(res, (v) => (isObject(v) && typeof v.version === 'string' ? { ...v, version: SNAPSHOT } : v));
    if (path === '/docs/openapi' || path === '/docs/asyncapi') return { ...res, body: res.body.replace(/^(\s+version:\s*['"]?)3\.5\.\d+(['"]?)$/m, `$1${SNAPSHOT}$2`) };
    return res;
  },
};
