/** Time source of the ledger: injectable so tests can move time (dedup windows, record times). */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a seeding may move forward (ManualClock; SeedingClock while it is pinned). */
export interface SteppingClock extends Clock {
  advance(ms: number): void;
}

/** Can a seeding move `clock` forward? (The system clock cannot: a world seeded on it makes no history.) */
export function canStep(clock: Clock): clock is SteppingClock {
  return typeof (clock as Partial<SteppingClock>).advance === 'function' && (clock as { seeding?: boolean }).seeding !== false;
}

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: number | Date = Date.UTC(2025, 0, 1)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  set(time: number | Date): void {
    this.#now = typeof time === 'number' ? time : time.getTime();
  }
}

/**
 * The last two instants formatted: a transaction's answer prints its record time, its effective
 * time and its contracts' creation time, most often one or two instants (`toISOString` costs a
 * microsecond, several times per command).
 */
let lastMs = NaN;
let lastTs = '';
let prevMs = NaN;
let prevTs = '';

/** RFC 3339 with microsecond precision, the form Canton prints. */
export function toTimestamp(ms: number): string {
  if (ms === lastMs) return lastTs;
  if (ms === prevMs) return prevTs;
  const iso = new Date(ms).toISOString(); // 2025-01-01T00:00:00.000Z
  prevMs = lastMs;
  prevTs = lastTs;
  lastMs = ms;
  lastTs = `${iso.slice(0, 23)}000Z`;
  return lastTs;
}
