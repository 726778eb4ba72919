import type { Mutant } from './mutants.js';
import { pathOf } from './mutantProxy.js';

/** Streams that stall the server, and streams that outlive their user's rights. */
export const STREAM_MUTANTS: readonly Mutant[] = [
  {
    name: 'large-read-stalls-server',
    description: 'while an active-contracts WebSocket is streaming, no other request is answered (one reader freezes everyone)',
    caughtBy: 'ledger.streams.large-read-does-not-stall',
    fault: () => {
      const open = new Set<Promise<void>>();
      return {
        upgraded(req, closed) {
          if (pathOf(req.url) !== '/v2/state/active-contracts') return;
          open.add(closed);
          void closed.then(() => open.delete(closed));
        },
        async request(req) {
          while (open.size > 0) await Promise.all(open);
          return req;
        },
      };
    },
  },
  {
    name: 'stream-ignores-revoked-rights',
    description: "an open /v2/updates stream keeps serving after its user's read right is revoked (access checked only when it opens)",
    caughtBy: 'ledger.auth.stream-ends-on-revoked-right',
    fault: {},
    server: { http: { streamAccessChecks: 'at-open' } },
  },
];
