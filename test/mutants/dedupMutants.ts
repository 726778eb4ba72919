import type { Mutant } from './mutants.js';
import { parse, pathOf } from './mutantProxy.js';

/** Mutants of command deduplication beyond the change id itself. */
export const DEDUP_MUTANTS: readonly Mutant[] = [
  {
    name: 'dedup-ignores-requested-duration',
    description: 'a requested DeduplicationDuration is replaced by an hour, so a change id stays refused long after the period the client asked for',
    caughtBy: 'ledger.dedup.reuse-after-period',
    fault: {
      request(req) {
        if (req.method !== 'POST' || pathOf(req.url) !== '/v2/commands/submit-and-wait') return req;
        const body = parse(req.body);
        if (typeof body !== 'object' || body === null || !('deduplicationPeriod' in body)) return req;
        return { ...req, body: JSON.stringify({ ...body, deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 3600, nanos: 0 } } } }) };
      },
    },
  },
];
