import { jsonResponse, type Fault, type ProxyResponse } from '../mutantProxy.js';

/**
 * A Scan of a later Splice release, by where it serves the earliest complete round of reward
 * accounting (CIP-0104): Splice 0.6.0 added it at `/v0/reward-accounting-process/...`, 0.6.5
 * moved it under `/v0/internal/` (PR #5576), and the scan.yaml of later releases (0.6.12's, in
 * /work/shared/upstream) has no route at the old path any more. A path without a route gets
 * pekko-http's default rejection: 404, a text body.
 */
const LEGACY = '/v0/reward-accounting-process/';
const noRoute: ProxyResponse = { status: 404, headers: { 'content-type': 'text/plain; charset=UTF-8' }, body: 'The requested resource could not be found.' };
const pathOf = (url: string) => url.split('?')[0]!;

/** A Scan of a release after 0.6.5 (as the upstream scan.yaml): the pre-0.6.5 path is gone. */
export const movedRoundPath: Fault = {
  request: (req) => (pathOf(req.url).startsWith(LEGACY) ? noRoute : req),
};

/**
 * A Scan of Splice 0.6.4, which says so (`GET /version`, its own commit time): it serves the
 * earliest round only at the pre-0.6.5 path, and has no route under `/v0/internal/` for it.
 */
export const SPLICE_064 = '0.6.4';
const CURRENT_ROUND = '/v0/internal/reward-accounting-process/';
const VERSION = /^(?:\/api\/scan)?\/version$/;

export const splice064: Fault = {
  request: (req) => {
    const path = pathOf(req.url);
    if (VERSION.test(path)) return jsonResponse(200, { version: SPLICE_064, commit_ts: '2026-04-20T09:12:44Z' });
    return path.startsWith(CURRENT_ROUND) || path.startsWith(`/api/scan${CURRENT_ROUND}`) ? noRoute : req;
  },
};

/** A Scan that does not say its release: no route at `/version` (judged as the newest). */
export const unsaidSpliceRelease: Fault = {
  request: (req) => (VERSION.test(pathOf(req.url)) ? noRoute : req),
};
