/**
 * Wakes subscribers when the ledger end moves. One shared list of waiters instead of an emitter
 * per subscriber, so thousands of idle streams cost nothing per commit beyond a function call.
 */
export class CommitPulse {
  #waiters = new Set<() => void>();

  notify(): void {
    if (this.#waiters.size === 0) return;
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const w of waiters) w();
  }

  /** Resolves true once `ledgerEnd()` > offset, false if `signal` aborts first. */
  waitBeyond(offset: number, ledgerEnd: () => number, signal?: AbortSignal): Promise<boolean> {
    if (ledgerEnd() > offset) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#waiters.delete(wake);
        resolve(false);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        if (ledgerEnd() > offset) resolve(true);
        else this.#waiters.add(wake);
      };
      this.#waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

export interface TailOptions<T> {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly ledgerEnd: () => number;
  readonly pulse: CommitPulse;
  /** Elements for fromExclusive < offset <= toInclusive, ending with a checkpoint where due. */
  readonly range: (fromExclusive: number, toInclusive: number) => Iterable<T>;
}

/**
 * Streams a range and then keeps streaming as the ledger grows, until `endInclusive` is reached
 * (if given), the signal aborts, or the consumer stops iterating.
 */
export async function* tail<T>(o: TailOptions<T>): AsyncGenerator<T, void, undefined> {
  let cursor = o.beginExclusive;
  for (;;) {
    if (o.signal?.aborted) return;
    const end = o.ledgerEnd();
    const target = o.endInclusive !== undefined ? Math.min(o.endInclusive, end) : end;
    if (target > cursor) {
      for (const item of o.range(cursor, target)) {
        if (o.signal?.aborted) return;
        yield item;
      }
      cursor = target;
    }
    if (o.endInclusive !== undefined && cursor >= o.endInclusive) return;
    if (!(await o.pulse.waitBeyond(cursor, o.ledgerEnd, o.signal))) return;
  }
}
