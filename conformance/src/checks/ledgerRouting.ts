import { expectStatus } from './support/expect.js';
import { LedgerOp, UPSTREAM_B } from './ledgerOps.js';
import type { CheckDefinition } from './types.js';

/** Paths of real operations, each with a segment in another case. */
const RECASED = ['/V2/VERSION', '/v2/Version', '/v2/state/LEDGER-END'] as const;

export const ledgerRoutingChecks: readonly CheckDefinition[] = [
  {
    group: 'ledger',
    id: 'ledger.wire.path-case-sensitive',
    title: 'A path in another case (/V2/VERSION) names no endpoint: 404, as on the participant',
    operationId: LedgerOp.version,
    level: 'SHOULD',
    kind: 'negative',
    specRef: `${UPSTREAM_B}: its endpoints (tapir on pekko-http) match path segments exactly, so another case is an unknown path (404)`,
    async run(ctx) {
      for (const path of RECASED) {
        const e = await ctx.http.request('ledger', { method: 'GET', path });
        expectStatus(ctx, e, 404, `GET ${path} (a served path in another case)`);
      }
    },
  },
];
