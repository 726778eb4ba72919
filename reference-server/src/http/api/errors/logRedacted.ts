import type { LedgerError } from '../../../ledger/errors.js';
import type { ApiLogger } from '../services.js';

/**
 * The server log's line for a refusal whose cause the caller sees redacted (a token signed with
 * another key, an unknown user, a missing right): what was asked, why it was refused, and the
 * trace id the caller holds, so the operator can answer "why was I refused?".
 */
export function logRedacted(log: ApiLogger, what: string): (error: LedgerError, traceId: string) => void {
  return (error, traceId) => log.info(`${what} refused (tid ${traceId}): ${error.code}: ${error.cause}`);
}
