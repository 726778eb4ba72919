import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { isAsync, type ListSource } from './boundList.js';

/**
 * How long a stream may keep the event loop before it lets other work run: short enough that a
 * `/livez` or a small request sent during a million-element read is answered in milliseconds.
 */
export const SLICE_MS = 5;

/**
 * Cuts long synchronous work into slices: `due()` says the current slice is used up (a clock read
 * every few calls, so it costs next to nothing per element); `pause()` yields to the event loop
 * (timers, I/O, other requests) and starts the next slice.
 */
export class SliceClock {
  #started = performance.now();
  #calls = 0;

  constructor(private readonly budgetMs: number = SLICE_MS) {}

  due(): boolean {
    if (++this.#calls < 16) return false;
    this.#calls = 0;
    return performance.now() - this.#started >= this.budgetMs;
  }

  async pause(): Promise<void> {
    await nextMacrotask();
    this.#started = performance.now();
    this.#calls = 0;
  }
}

/**
 * The same elements, with a pause for the event loop whenever a slice is used up. Every stream
 * served to a client goes through this (HTTP arrays and WebSocket channels alike), so a new
 * stream gets it without asking.
 */
export async function* sliced<T>(source: ListSource<T>, clock: SliceClock = new SliceClock()): AsyncGenerator<T> {
  if (isAsync(source)) {
    for await (const element of source) {
      yield element;
      if (clock.due()) await clock.pause();
    }
  } else {
    for (const element of source) {
      yield element;
      if (clock.due()) await clock.pause();
    }
  }
}
