import type { LedgerError } from '../../../ledger/errors.js';
import { err, ok, type Result } from '../../../ledger/result.js';
import { jsonStreamResponse } from '../apiResponse.js';
import { refused } from '../ledgerResult.js';
import type { RouteResult } from '../route.js';
import { boundList, isAsync, type ListSource } from './boundList.js';

/**
 * A ledger list answer as a streamed JSON array, under the list endpoints' size rules. `open`
 * asks the ledger for the list; it may be called a second time for a fresh copy of a synchronous
 * list (a fixed range or offset: the same answer twice), see `boundList`.
 */
export async function listResult<T>(
  open: () => Result<ListSource<T>, LedgerError>,
  opts: { readonly limit: number | undefined; readonly max: number },
): Promise<RouteResult> {
  const source = open();
  if (!source.ok) return refused(source.error);
  const reopen = (): Iterable<T> => {
    const again = open();
    if (!again.ok || isAsync(again.value)) throw new Error(`a list the ledger just answered cannot be opened again: ${again.ok ? 'async' : again.error.cause}`);
    return again.value;
  };
  const bounded = await boundList(source.value, opts, reopen);
  return bounded.ok ? ok(jsonStreamResponse(bounded.value)) : err(bounded.error);
}
