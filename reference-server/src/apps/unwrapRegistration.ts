import type { LedgerError, Result } from '../ledger/index.js';

/** Template declarations are code: a refusal is a programming error, reported loudly at start-up. */
export function unwrapRegistration<T>(r: Result<T, LedgerError>): T {
  if (!r.ok) throw new Error(`app templates: ${r.error.cause}`);
  return r.value;
}
