import { systemTimer, type Timer } from './timer.js';

/**
 * Which parties a stream can see updates for (`'all'`: any commit may concern it, e.g. a filter
 * for any party), and which parties a commit concerns (`'all'`: every stream must look).
 */
export type PartyInterest = ReadonlySet<string> | 'all';
export type Touched = Iterable<string> | 'all';

/** One open stream's registration: marked dirty by every commit that may concern it. */
export interface PulseSubscription {
  /** True when a commit that may concern the stream landed since the last call; resets the mark. */
  takeDirty(): boolean;
  /** Resolves at the next concerning commit ('change'), after `timeoutMs` on `timer` ('timeout'), or on abort. */
  wait(signal: AbortSignal | undefined, timeoutMs: number | undefined, timer?: Timer): Promise<'change' | 'timeout' | 'aborted'>;
  close(): void;
}

interface Subscriber {
  dirty: boolean;
  wake: (() => void) | undefined;
}

/**
 * Wakes subscribers when the ledger end moves, but only those a commit may concern: subscribers
 * are indexed by the parties they read as, so a commit for alice costs nothing for a thousand
 * idle streams of bob (issue 14: every commit used to wake, and send a checkpoint to, every stream).
 */
export class CommitPulse {
  /** Every open subscription, for commits that concern everyone (topology). */
  readonly #all = new Set<Subscriber>();
  readonly #everything = new Set<Subscriber>();
  readonly #byParty = new Map<string, Set<Subscriber>>();

  notify(touched: Touched = 'all'): void {
    if (touched === 'all') {
      for (const s of this.#all) mark(s);
      return;
    }
    for (const party of touched) {
      const set = this.#byParty.get(party);
      if (set !== undefined) for (const s of set) mark(s);
    }
    for (const s of this.#everything) mark(s);
  }

  subscribe(interest: PartyInterest): PulseSubscription {
    const s: Subscriber = { dirty: false, wake: undefined };
    this.#all.add(s);
    if (interest === 'all') this.#everything.add(s);
    else {
      for (const party of interest) {
        let set = this.#byParty.get(party);
        if (set === undefined) this.#byParty.set(party, (set = new Set()));
        set.add(s);
      }
    }
    return {
      takeDirty: () => {
        const dirty = s.dirty;
        s.dirty = false;
        return dirty;
      },
      wait: (signal, timeoutMs, timer = systemTimer) => {
        if (s.dirty) return Promise.resolve('change');
        if (signal?.aborted) return Promise.resolve('aborted');
        return new Promise((resolve) => {
          let cancel: (() => void) | undefined;
          const settle = (outcome: 'change' | 'timeout' | 'aborted') => {
            s.wake = undefined;
            cancel?.();
            signal?.removeEventListener('abort', onAbort);
            resolve(outcome);
          };
          const onAbort = () => settle('aborted');
          s.wake = () => settle('change');
          if (timeoutMs !== undefined) cancel = timer.after(timeoutMs, () => settle('timeout'));
          signal?.addEventListener('abort', onAbort, { once: true });
        });
      },
      close: () => {
        this.#all.delete(s);
        this.#everything.delete(s);
        if (interest === 'all') return;
        for (const party of interest) {
          const set = this.#byParty.get(party);
          set?.delete(s);
          if (set?.size === 0) this.#byParty.delete(party);
        }
      },
    };
  }
}

function mark(s: Subscriber): void {
  s.dirty = true;
  s.wake?.();
}

export interface TailOptions<T> {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly ledgerEnd: () => number;
  readonly pulse: CommitPulse;
  /** Elements for fromExclusive < offset <= toInclusive, ending with a checkpoint where due. */
  readonly range: (fromExclusive: number, toInclusive: number) => Iterable<T>;
  /** Parties whose commits can show in the stream; default 'all' (every commit is read). */
  readonly interest?: PartyInterest;
  /**
   * A checkpoint at `offset`, sent without reading the range when no commit since the last one
   * concerned the stream, at most once per `checkpointIntervalMs`. Without it every commit is
   * read through `range` as it lands.
   */
  readonly checkpoint?: (offset: number) => T;
  readonly checkpointIntervalMs?: number;
  /** What measures the checkpoint interval; the system's by default. */
  readonly timer?: Timer;
}

/**
 * Streams a range and then keeps streaming as the ledger grows, until `endInclusive` is reached
 * (if given), the signal aborts, or the consumer stops iterating. A commit that concerns the
 * stream is read at once (its updates, then a checkpoint where due); commits that do not are
 * only reported by a checkpoint once the checkpoint interval has passed.
 */
export async function* tail<T>(o: TailOptions<T>): AsyncGenerator<T, void, undefined> {
  const quietCheckpoints = o.checkpoint !== undefined && o.interest !== undefined && o.interest !== 'all';
  const subscription = o.pulse.subscribe(quietCheckpoints ? (o.interest as PartyInterest) : 'all');
  const intervalMs = o.checkpointIntervalMs ?? 15_000;
  const timer = o.timer ?? systemTimer;
  let cursor = o.beginExclusive;
  // The first pass reads the past, whatever it concerns.
  let concerned = true;
  let lastReport = 0;
  try {
    for (;;) {
      if (o.signal?.aborted) return;
      // Taken together, synchronously: a commit after this read marks the subscription again.
      concerned = subscription.takeDirty() || concerned || !quietCheckpoints;
      const end = o.ledgerEnd();
      const target = o.endInclusive !== undefined ? Math.min(o.endInclusive, end) : end;
      const due = timer.now() - lastReport >= intervalMs;
      if (target > cursor && (concerned || due)) {
        if (concerned) {
          for (const item of o.range(cursor, target)) {
            if (o.signal?.aborted) return;
            yield item;
          }
        } else {
          yield (o.checkpoint as (offset: number) => T)(target);
        }
        cursor = target;
        concerned = false;
        lastReport = timer.now();
      }
      if (o.endInclusive !== undefined && cursor >= o.endInclusive) return;
      // Wait for a concerning commit; with commits pending that do not concern the stream, at
      // most until the checkpoint interval has passed.
      const pendingQuiet = quietCheckpoints && o.ledgerEnd() > cursor;
      const timeout = pendingQuiet ? Math.max(0, intervalMs - (timer.now() - lastReport)) : quietCheckpoints ? intervalMs : undefined;
      const woken = await subscription.wait(o.signal, timeout, timer);
      if (woken === 'aborted') return;
      if (woken === 'change') concerned = true;
    }
  } finally {
    subscription.close();
  }
}
