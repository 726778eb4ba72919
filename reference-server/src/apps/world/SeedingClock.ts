import type { Clock } from '../../ledger/index.js';

/**
 * A clock that stands still at a fixed time while a world is seeded, then follows the system
 * clock (never going back behind the fixed time). Ledger time goes into contract ids, so seeding
 * under it gives the same ids on every start: the ids the README names.
 */
export class SeedingClock implements Clock {
  #pinned: number | undefined;
  #floor: number;

  /** `system`: the clock followed once released (tests inject one). */
  constructor(at: number, private readonly system: () => number = Date.now) {
    this.#pinned = at;
    this.#floor = at;
  }

  now(): number {
    return this.#pinned ?? Math.max(this.system(), this.#floor);
  }

  /**
   * While pinned, moves the pinned time forward (a seeding that needs ledger time to pass: the
   * real rounds' history); the floor follows, so ledger time never goes back behind it.
   */
  advance(ms: number): void {
    if (this.#pinned === undefined) return;
    this.#pinned += ms;
    this.#floor = Math.max(this.#floor, this.#pinned);
  }

  /** From now on, follow the system clock (never going back behind `notBefore` either). */
  release(notBefore = this.#floor): void {
    this.#pinned = undefined;
    this.#floor = Math.max(this.#floor, notBefore);
  }

  get seeding(): boolean {
    return this.#pinned !== undefined;
  }
}
