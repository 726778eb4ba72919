import type { Mutant } from './mutants.js';
import { pathOf } from './mutantProxy.js';

/**
 * The twelfth benign hunt's guard: the suite now repeats a request refused with 429/503 and
 * Retry-After (conformance/src/target/retryAfter.ts). A target that never stops refusing is
 * judged on its refusal: a client gets nothing from it, however often it retries.
 */
export const BENIGN12_MUTANTS: readonly Mutant[] = [
  {
    name: 'benign12-version-sheds-forever',
    description: 'GET /v2/version answers 429 with Retry-After: 0 every time: a client retrying as asked never learns the version or features',
    caughtBy: 'ledger.version.shape',
    fault: {
      request: (req) => (req.method === 'GET' && pathOf(req.url) === '/v2/version' ? { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, body: 'Too Many Requests' } : req),
    },
  },
];
