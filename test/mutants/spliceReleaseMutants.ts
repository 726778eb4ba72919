import type { Mutant } from './mutants.js';
import { jsonResponse, pathOf, type Fault, type ProxyResponse } from './mutantProxy.js';

/**
 * A Scan is judged by the Splice release it says (GET /version): the earliest round where that
 * release serves it. What it says is no way out of a rule: a Scan of a release with the moved path
 * must serve it, one that says an older release must serve the old path, and what /version answers
 * is Splice's Version.
 */
const VERSION = /^(?:\/api\/scan)?\/version$/;
const CURRENT_ROUND = /^(?:\/api\/scan)?\/v0\/internal\/reward-accounting-process\//;
const LEGACY_ROUND = /^(?:\/api\/scan)?\/v0\/reward-accounting-process\//;
/** pekko-http's default rejection of a path it does not route. */
const noRoute: ProxyResponse = { status: 404, headers: { 'content-type': 'text/plain; charset=UTF-8' }, body: 'The requested resource could not be found.' };
/** A Scan whose /version answers `body`, with no route at the paths `gone` matches. */
const says = (body: unknown, gone: RegExp | undefined): Fault => ({
  request: (req) => {
    const path = pathOf(req.url);
    if (VERSION.test(path)) return jsonResponse(200, body);
    return gone !== undefined && gone.test(path) ? noRoute : req;
  },
});

export const SPLICE_RELEASE_MUTANTS: readonly Mutant[] = [
  {
    name: 'splice-0.6.12-without-internal-round',
    description: 'a Scan that says Splice 0.6.12 has no route for the earliest round under /v0/internal/ (an SV app of 0.6.12 asks there and is told nothing)',
    caughtBy: 'scan.earliest-round.shape',
    fault: says({ version: '0.6.12', commit_ts: '2026-05-29T08:00:00Z' }, CURRENT_ROUND),
  },
  {
    name: 'splice-says-0.6.4-without-legacy-round',
    description: 'a Scan that says Splice 0.6.4 serves the earliest round only under /v0/internal/: the clients of 0.6.4 ask at the old path',
    caughtBy: 'scan.earliest-round.shape',
    fault: says({ version: '0.6.4', commit_ts: '2026-04-20T09:12:44Z' }, LEGACY_ROUND),
  },
  {
    name: 'splice-version-without-commit-ts',
    description: "GET /version answers the release without commit_ts, which Splice's Version requires",
    caughtBy: 'scan.version.shape',
    fault: says({ version: '0.6.12' }, undefined),
  },
  {
    name: 'splice-version-commit-ts-not-a-time',
    description: 'GET /version answers commit_ts as a commit hash, not the date-time Splice writes',
    caughtBy: 'scan.version.shape',
    fault: says({ version: '0.6.12', commit_ts: '3f9c2ab' }, undefined),
  },
];
