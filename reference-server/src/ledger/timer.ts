/**
 * Wall-clock waiting, apart from the ledger's Clock (which is ledger time and may stand still in
 * tests): what paces the streams' offset checkpoints. Injectable so tests move it by hand instead
 * of sleeping through intervals, which a busy machine stretches.
 */
export interface Timer {
  /** Milliseconds on a monotonic scale (only differences matter). */
  now(): number;
  /** Calls `fn` once `ms` have passed; answers a function that cancels the call. */
  after(ms: number, fn: () => void): () => void;
}

export const systemTimer: Timer = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

/** A timer that only moves when told to: `advance` runs what fell due, earliest first. */
export class ManualTimer implements Timer {
  #now = 0;
  #seq = 0;
  readonly #due = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.#now;
  }

  after(ms: number, fn: () => void): () => void {
    const id = this.#seq++;
    this.#due.set(id, { at: this.#now + Math.max(0, ms), fn });
    return () => void this.#due.delete(id);
  }

  /** Moves time forward by `ms`, calling every callback that falls due on the way, in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#due) if (entry[1].at <= end && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.#due.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].fn();
    }
    this.#now = end;
  }

  /** How many calls are waiting. */
  get pending(): number {
    return this.#due.size;
  }
}
