/**
 * Ends an open-ended stream once no element arrived for `idleMs` (the list endpoints'
 * `stream_idle_timeout_ms`). A finite source simply ends when it ends.
 */
export async function* untilIdle<T>(source: AsyncIterable<T>, idleMs: number): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<'idle'>((resolve) => {
        timer = setTimeout(() => resolve('idle'), idleMs);
      });
      const next = await Promise.race([iterator.next(), idle]).finally(() => clearTimeout(timer));
      if (next === 'idle') return;
      if (next.done === true) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Release the source (a tailing subscription) without waiting for its pending read.
    if (!finished) void iterator.return?.()?.catch(() => undefined);
  }
}
