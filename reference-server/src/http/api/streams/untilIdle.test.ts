import { describe, expect, it } from 'vitest';
import { untilIdle } from './untilIdle.js';

describe('untilIdle', () => {
  it('passes a finite source through', async () => {
    async function* three() {
      yield* [1, 2, 3];
    }
    const out: number[] = [];
    for await (const x of untilIdle(three(), 1000)) out.push(x);
    expect(out).toEqual([1, 2, 3]);
  });

  it('ends a tailing source once it stays quiet, and releases it', async () => {
    let released = false;
    const values = [1, 2];
    // A subscription-like iterator: answers at once while it has values, then waits for more.
    const tail: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          const value = values.shift();
          return value === undefined ? new Promise<IteratorResult<number>>(() => undefined) : Promise.resolve({ value, done: false });
        },
        return: () => {
          released = true;
          return Promise.resolve({ value: undefined, done: true });
        },
      }),
    };
    const started = Date.now();
    const out: number[] = [];
    for await (const x of untilIdle(tail, 50)) out.push(x);
    expect(out).toEqual([1, 2]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(released).toBe(true);
  });
});
