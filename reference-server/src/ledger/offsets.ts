import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import { ok } from './result.js';

/** An offset from a request: a non-negative int64 that JSON can carry exactly. */
export function parseOffset(value: unknown, field: string, required: boolean): Result<number | undefined, LedgerError> {
  if (value === undefined || value === null) {
    return required ? fail('MISSING_FIELD', `The submitted request is missing a mandatory field: ${field}`, { context: { field_name: field } }) : ok(undefined);
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} must be an integer offset`, { context: { field_name: field } });
  }
  if (value < 0) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} must be a non-negative integer, got ${value}`, {
      context: { field_name: field },
    });
  }
  if (!Number.isSafeInteger(value)) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} ${value} is beyond any offset this ledger can reach`, {
      context: { field_name: field },
    });
  }
  return ok(value);
}
