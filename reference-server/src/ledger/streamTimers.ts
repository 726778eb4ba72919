/**
 * The time a tailing stream keeps (when its next checkpoint is due) and waits on: injectable so
 * tests can move it without sleeping. Separate from the ledger's `Clock`, which dates commits.
 */
export interface StreamTimers {
  /** A monotonic time in milliseconds. */
  now(): number;
  /** Calls `fire` once after `ms`; the returned function cancels it. */
  after(ms: number, fire: () => void): () => void;
}

export const systemTimers: StreamTimers = {
  now: () => performance.now(),
  after: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

/** Timers that fire only when `advance` moves their time past them. */
export class ManualTimers implements StreamTimers {
  #now = 0;
  #pending = new Set<{ readonly at: number; readonly fire: () => void }>();

  now(): number {
    return this.#now;
  }

  after(ms: number, fire: () => void): () => void {
    const timer = { at: this.#now + ms, fire };
    this.#pending.add(timer);
    return () => this.#pending.delete(timer);
  }

  /** Moves time forward, firing (in order) every timer that falls due. */
  advance(ms: number): void {
    this.#now += ms;
    const due = [...this.#pending].filter((t) => t.at <= this.#now).sort((a, b) => a.at - b.at);
    for (const t of due) {
      this.#pending.delete(t);
      t.fire();
    }
  }

  /** How many timers are waiting (a test's way to know a stream is parked). */
  get waiting(): number {
    return this.#pending.size;
  }
}
