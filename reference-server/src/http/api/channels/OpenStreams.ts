import { ledgerError, type LedgerError } from '../../../ledger/errors.js';
import { err, ok, type Result } from '../../../ledger/result.js';
import type { Principal } from '../auth/types.js';

/**
 * Open WebSocket streams per user, under a limit (`maxStreamsPerUser`): a user at the limit is
 * refused a new one with the participant's rate-limiting error. The unsecured sandbox has one
 * caller, so there the limit is the server's.
 */
export class OpenStreams {
  readonly #count = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Counts a new stream for `principal`; the release function is called once, when it ends. */
  open(principal: Principal, path: string): Result<() => void, LedgerError> {
    const key = principal.kind === 'user' ? `user:${principal.userId}` : 'sandbox';
    const value = this.#count.get(key) ?? 0;
    if (value >= this.limit) {
      return err(
        ledgerError('MAXIMUM_NUMBER_OF_STREAMS', `The number of streams in use (${value}) has reached or exceeded the limit (${this.limit}) of streams per user.`, {
          context: { value: String(value), limit: String(this.limit), fullMethodName: path },
        }),
      );
    }
    this.#count.set(key, value + 1);
    let released = false;
    return ok(() => {
      if (released) return;
      released = true;
      const left = (this.#count.get(key) ?? 1) - 1;
      if (left <= 0) this.#count.delete(key);
      else this.#count.set(key, left);
    });
  }

  /** Open streams of one user (tests, diagnostics). */
  of(principal: Principal): number {
    return this.#count.get(principal.kind === 'user' ? `user:${principal.userId}` : 'sandbox') ?? 0;
  }
}
