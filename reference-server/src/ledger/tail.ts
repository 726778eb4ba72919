import type { StreamTimers } from './streamTimers.js';
import { systemTimers } from './streamTimers.js';

/**
 * Which parties a stream can see updates for (`'all'`: any commit may concern it, e.g. a filter
 * for any party), and which parties a commit concerns (`'all'`: every stream must look).
 */
export type PartyInterest = ReadonlySet<string> | 'all';
export type Touched = Iterable<string> | 'all';

/**
 * The commits that may concern a stream since it last looked: their offsets in commit order, or
 * 'many' when more landed than a subscription keeps (the stream then reads the whole range).
 */
export type Concerning = readonly number[] | 'many';

/** One open stream's registration: told of every commit that may concern it. */
export interface PulseSubscription {
  /** The concerning commits since the last call; resets them. */
  take(): Concerning;
  /** Resolves at the next concerning commit ('change'), after `timeoutMs` ('timeout'), or on abort. */
  wait(signal: AbortSignal | undefined, timeoutMs: number | undefined): Promise<'change' | 'timeout' | 'aborted'>;
  close(): void;
}

/** A subscription keeps at most this many offsets; a stream this far behind reads its range. */
const MAX_PENDING = 256;

interface Subscriber {
  pending: number[] | 'many';
  wake: (() => void) | undefined;
}

/**
 * Wakes subscribers when the ledger end moves, but only those a commit may concern: subscribers
 * are indexed by the parties they read as, so a commit for alice costs nothing for a thousand
 * idle streams of bob, and each subscriber keeps the offsets of the commits that concern it, so
 * it reads those and not every commit since it last looked.
 */
export class CommitPulse {
  /** Every open subscription, for commits that concern everyone (topology). */
  readonly #all = new Set<Subscriber>();
  readonly #everything = new Set<Subscriber>();
  readonly #byParty = new Map<string, Set<Subscriber>>();

  constructor(readonly timers: StreamTimers = systemTimers) {}

  /** A commit at `offset` landed (the ledger end already includes it), touching these parties. */
  notify(offset: number, touched: Touched = 'all'): void {
    if (touched === 'all') {
      for (const s of this.#all) mark(s, offset);
      return;
    }
    for (const party of touched) {
      const set = this.#byParty.get(party);
      if (set !== undefined) for (const s of set) mark(s, offset);
    }
    for (const s of this.#everything) mark(s, offset);
  }

  subscribe(interest: PartyInterest): PulseSubscription {
    const s: Subscriber = { pending: [], wake: undefined };
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
      take: () => {
        const taken = s.pending;
        s.pending = [];
        return taken;
      },
      wait: (signal, timeoutMs) => {
        if (s.pending === 'many' || s.pending.length > 0) return Promise.resolve('change');
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
          if (timeoutMs !== undefined) cancel = this.timers.after(timeoutMs, () => settle('timeout'));
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

function mark(s: Subscriber, offset: number): void {
  if (s.pending !== 'many') {
    if (s.pending.length < MAX_PENDING) s.pending.push(offset);
    else s.pending = 'many';
  }
  s.wake?.();
}

/**
 * How a pass over a range may end. A pass whose last element is before its end offset ends with
 * a checkpoint at that offset only when one is `due`; otherwise the range records that one is
 * `owed`, and the stream sends it once the checkpoint interval has passed. The participant does
 * the same: its streams take checkpoints from a cache it renews every
 * offset-checkpoint-cache-update-interval, so a stream gets at most one per interval however many
 * commits of its parties pass it by (a commit by another user of the same party yields no
 * completion, one a template filter leaves out no update).
 */
export interface PassEnd {
  readonly due: boolean;
  owed: boolean;
}

/** A pass that ends with a checkpoint wherever its last element falls short (one-off reads of a range). */
export const checkpointAtEnd = (): PassEnd => ({ due: true, owed: false });

export interface TailOptions<T> {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly ledgerEnd: () => number;
  readonly pulse: CommitPulse;
  /** Elements for fromExclusive < offset <= toInclusive, ending with a checkpoint as `end` allows. */
  readonly range: (fromExclusive: number, toInclusive: number, end: PassEnd) => Iterable<T>;
  /**
   * Elements of the commits at `offsets` only (ascending, all in (fromExclusive, toInclusive]),
   * ending with a checkpoint at `toInclusive` as `end` allows: how a stream reads the commits that
   * concern it without rendering those between them. Without it, `range` is read.
   */
  readonly at?: (offsets: readonly number[], fromExclusive: number, toInclusive: number, end: PassEnd) => Iterable<T>;
  /** Parties whose commits can show in the stream; default 'all' (every commit is read). */
  readonly interest?: PartyInterest;
  /**
   * A checkpoint at `offset`, sent without reading the range when no commit since the last one
   * concerned the stream, at most once per `checkpointIntervalMs`. Without it every commit is
   * read through `range` as it lands.
   */
  readonly checkpoint?: (offset: number) => T;
  readonly checkpointIntervalMs?: number;
}

/**
 * Streams a range and then keeps streaming as the ledger grows, until `endInclusive` is reached
 * (if given), the signal aborts, or the consumer stops iterating. A commit that concerns the
 * stream is read at once (its updates, then a checkpoint where due); commits that do not are
 * only reported by a checkpoint once the checkpoint interval has passed, without being read: an
 * idle stream's work is one checkpoint per interval, however many commits passed it by.
 */
export async function* tail<T>(o: TailOptions<T>): AsyncGenerator<T, void, undefined> {
  const quietCheckpoints = o.checkpoint !== undefined && o.interest !== undefined && o.interest !== 'all';
  const subscription = o.pulse.subscribe(quietCheckpoints ? (o.interest as PartyInterest) : 'all');
  const clock = o.pulse.timers;
  const intervalMs = o.checkpointIntervalMs ?? 15_000;
  let cursor = o.beginExclusive;
  // The first pass reads the past, whatever it concerns; later passes read what concerns the stream.
  let pastRead = false;
  let lastCheckpoint = clock.now();
  // Whether the client knows of everything up to the cursor (an element or a checkpoint there).
  let told = true;
  try {
    for (;;) {
      if (o.signal?.aborted) return;
      // Taken before the ledger end is read: a commit after this marks the subscription again.
      // Every commit taken is at or before the end read next, so none is left for a later pass.
      const concerning = subscription.take();
      const end = o.ledgerEnd();
      const target = o.endInclusive !== undefined ? Math.min(o.endInclusive, end) : end;
      const readAll = !quietCheckpoints || !pastRead || concerning === 'many';
      const due = concerning === 'many' ? [] : concerning.filter((offset) => offset > cursor && offset <= target);
      // The past, the last pass of a bounded stream, and any pass an interval after the last checkpoint end with one.
      const last = o.endInclusive !== undefined && target >= o.endInclusive;
      const checkpointDue = o.checkpoint === undefined || !pastRead || last || clock.now() - lastCheckpoint >= intervalMs;
      if (target > cursor && (readAll || due.length > 0 || checkpointDue)) {
        const passEnd: PassEnd = { due: checkpointDue, owed: false };
        const quiet = !readAll && due.length === 0;
        const elements = readAll
          ? o.range(cursor, target, passEnd)
          : quiet
            ? [(o.checkpoint as (offset: number) => T)(target)]
            : o.at !== undefined
              ? o.at(due, cursor, target, passEnd)
              : o.range(cursor, target, passEnd);
        for (const item of elements) {
          if (o.signal?.aborted) return;
          yield item;
        }
        cursor = target;
        told = !passEnd.owed;
        if (quiet || (checkpointDue && told)) lastCheckpoint = clock.now();
      } else if (target === cursor && !told && checkpointDue && o.checkpoint !== undefined) {
        yield o.checkpoint(cursor);
        told = true;
        lastCheckpoint = clock.now();
      }
      pastRead = true;
      if (o.endInclusive !== undefined && cursor >= o.endInclusive) return;
      // Wait for a concerning commit; with a checkpoint owed or commits pending that do not
      // concern the stream, at most until the checkpoint interval has passed.
      const owes = o.checkpoint !== undefined && (!told || (quietCheckpoints && o.ledgerEnd() > cursor));
      const timeout = owes ? Math.max(0, intervalMs - (clock.now() - lastCheckpoint)) : quietCheckpoints ? intervalMs : undefined;
      const woken = await subscription.wait(o.signal, timeout);
      if (woken === 'aborted') return;
    }
  } finally {
    subscription.close();
  }
}
