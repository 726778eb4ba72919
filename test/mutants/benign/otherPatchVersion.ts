import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * Another patch release of the same line: `/v2/version` answers 3.5.11, and the documents the
 * participant serves at `/docs/*` carry it as their `info.version` (it is the participant's
 * version, notes/api-semantics.md 1.1). Nothing of the 3.5 line changes within it.
 */
export const PATCH_VERSION = '3.5.11';

/** A participant that answers `version` on `/v2/version` and as its documents' `info.version`. */
export function versionAnswered(version: string): Fault {
  return {
    response(req, res) {
      const path = req.url.split('?')[0]!.replace(/\/{2,}/g, '/');
      if (path === '/v2/version') return rewriteJsonBody(res, (v) => (isObject(v) && typeof v.version === 'string' ? { ...v, version } : v));
      if (path === '/docs/openapi' || path === '/docs/asyncapi') return { ...res, body: res.body.replace(/^(\s+version:\s*['"]?)3\.5\.\d+(['"]?)$/m, `$1${version}$2`) };
      return res;
    },
  };
}

export const otherPatchVersion: Fault = versionAnswered(PATCH_VERSION);
