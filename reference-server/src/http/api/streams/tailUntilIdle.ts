import type { LedgerError } from '../../../ledger/errors.js';
import { ok, type Result } from '../../../ledger/result.js';
import { untilIdle } from './untilIdle.js';

/**
 * An open-ended ledger subscription cut into a list: elements until none arrived for `idleMs`,
 * then the subscription is cancelled (its signal aborted) whoever stopped reading first.
 */
export function tailUntilIdle<T>(
  subscribe: (signal: AbortSignal) => Result<AsyncIterable<T>, LedgerError>,
  idleMs: number,
): Result<AsyncIterable<T>, LedgerError> {
  const controller = new AbortController();
  const subscription = subscribe(controller.signal);
  if (!subscription.ok) return subscription;
  return ok(cancelling(untilIdle(subscription.value, idleMs), controller));
}

async function* cancelling<T>(source: AsyncIterable<T>, controller: AbortController): AsyncGenerator<T> {
  try {
    yield* source;
  } finally {
    controller.abort();
  }
}
