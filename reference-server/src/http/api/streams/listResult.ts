import type { LedgerError } from '../../../ledger/errors.js';
import { err, ok, type Result } from '../../../ledger/result.js';
import { jsonStreamResponse } from '../apiResponse.js';
import { refused } from '../ledgerResult.js';
import type { RouteResult } from '../route.js';
import { boundList, type ListSource } from './boundList.js';

/** A ledger list answer as a streamed JSON array, under the list endpoints' size rules. */
export async function listResult<T>(
  source: Result<ListSource<T>, LedgerError>,
  opts: { readonly limit: number | undefined; readonly max: number },
): Promise<RouteResult> {
  if (!source.ok) return refused(source.error);
  const bounded = await boundList(source.value, opts);
  return bounded.ok ? ok(jsonStreamResponse(bounded.value)) : err(bounded.error);
}
