import type { Fault, ProxyResponse } from '../mutantProxy.js';

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
