import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import { ok } from './result.js';

/** Page sizes of the paged reads: absent or 0 takes the default, above the maximum takes the maximum. */
export const DEFAULT_READ_PAGE_SIZE = 100;
export const MAX_READ_PAGE_SIZE = 1000;

export function readPageSize(value: unknown, field = 'max_page_size'): Result<number, LedgerError> {
  if (value === undefined || value === null || value === 0) return ok(DEFAULT_READ_PAGE_SIZE);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    return fail('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${field} must be a non-negative integer`, { context: { field_name: field } });
  }
  return ok(Math.min(value, MAX_READ_PAGE_SIZE));
}
