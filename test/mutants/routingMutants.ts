import type { Mutant } from './mutants.js';

/** Mutants of how requests are routed. */
export const ROUTING_MUTANTS: readonly Mutant[] = [
  {
    name: 'routes-match-any-case',
    description: 'paths are matched case-insensitively (the default of path-to-regexp routers such as @koa/router), so GET /V2/VERSION is served as /v2/version',
    caughtBy: 'ledger.wire.path-case-sensitive',
    fault: {
      request(req) {
        const q = req.url.indexOf('?');
        const path = q < 0 ? req.url : req.url.slice(0, q);
        return { ...req, url: path.toLowerCase() + (q < 0 ? '' : req.url.slice(q)) };
      },
    },
  },
];
