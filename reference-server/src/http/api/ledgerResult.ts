import type { LedgerError } from '../../ledger/errors.js';
import { err, ok, type Result } from '../../ledger/result.js';
import { jsonResponse } from './apiResponse.js';
import type { RouteResult } from './route.js';
import type { Problem } from './types.js';

/** A ledger refusal as a routing problem. */
export const refused = (error: LedgerError): { readonly ok: false; readonly error: Problem } => err({ kind: 'ledger', error });

/** A ledger answer as a 200 JSON response (or its refusal). */
export function jsonResult<T>(result: Result<T, LedgerError>): RouteResult {
  return result.ok ? ok(jsonResponse(result.value)) : refused(result.error);
}
