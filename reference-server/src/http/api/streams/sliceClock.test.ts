import { describe, expect, it } from 'vitest';
import { jsonArrayChunks } from './jsonArrayChunks.js';
import { sliced } from './sliceClock.js';

/** A synchronous source that takes a while per element and records how far it got. */
function slowSource(n: number, progress: { at: number }): Iterable<{ i: number }> {
  return (function* () {
    for (let i = 0; i < n; i++) {
      const until = performance.now() + 0.02;
      while (performance.now() < until) {
        // busy: a rendering step of a large read
      }
      progress.at = i;
      yield { i };
    }
  })();
}

/** Where the source was when a timer set at the start first got to run. */
async function whereTimerRan(consume: () => Promise<void>, progress: { at: number }): Promise<number> {
  let seenAt = -1;
  setTimeout(() => {
    seenAt = progress.at;
  }, 0);
  await consume();
  return seenAt;
}

describe('streams yield to the event loop while they work through a large source', () => {
  it('jsonArrayChunks: a timer runs long before the array is written', async () => {
    const progress = { at: 0 };
    const n = 5000;
    const at = await whereTimerRan(async () => {
      for await (const _ of jsonArrayChunks(slowSource(n, progress))) {
        // a fast consumer
      }
    }, progress);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(n / 2);
  });

  it('sliced: the same for the WebSocket channels, whose consumer resolves each send at once', async () => {
    const progress = { at: 0 };
    const n = 5000;
    const at = await whereTimerRan(async () => {
      for await (const _ of sliced(slowSource(n, progress))) await Promise.resolve();
    }, progress);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(n / 2);
  });
});
