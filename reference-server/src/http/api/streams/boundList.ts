import { err, ok, type Result } from '../../../ledger/result.js';
import type { Problem } from '../types.js';
import { SliceClock } from './sliceClock.js';
import { ViewSettler, withoutQueuedViews } from '../../../ledger/pendingViews.js';

export type ListSource<T> = Iterable<T> | AsyncIterable<T>;

/**
 * Applies the list endpoints' size rules before the first byte is sent: a `limit` within the
 * server maximum truncates the result; otherwise (no limit, or one above the maximum, which the
 * participant ignores) a result of more than `max` elements is refused with 413.
 *
 * Arrays are judged by their length. A synchronous source that can be opened again (`reopen`) is
 * counted in a first pass that keeps nothing, then streamed from a fresh copy: cheaper than holding
 * every element, and the first byte leaves as soon as the count is known. Other sources are read
 * ahead into memory, up to `max + 1` elements. Synchronous sources stay synchronous, so streaming
 * them costs no promise per element. Counting and reading ahead pause for the event loop now and
 * then (`SliceClock`), so a count over a million elements does not hold up other requests.
 */
export async function boundList<T>(
  source: ListSource<T>,
  opts: { readonly limit: number | undefined; readonly max: number },
  reopen?: () => Iterable<T>,
): Promise<Result<ListSource<T>, Problem>> {
  const { limit, max } = opts;
  if (limit !== undefined && limit <= max) return ok(take(source, limit));
  if (Array.isArray(source)) {
    const array = source as readonly T[];
    return array.length > max ? err({ kind: 'list-too-large', limit: max }) : ok(array);
  }
  const clock = new SliceClock();
  if (!isAsync(source) && reopen !== undefined) {
    let count = 0;
    // Only counted: interface views rendered on the way are not evaluated (the copy streamed is).
    const it = source[Symbol.iterator]();
    while (!withoutQueuedViews(() => it.next()).done) {
      if (++count > max) return err({ kind: 'list-too-large', limit: max });
      if (clock.due()) await clock.pause();
    }
    return ok(reopen());
  }
  const buffered: T[] = [];
  // Elements read ahead are written later: their interface views are evaluated (in slices) now.
  const views = new ViewSettler();
  if (isAsync(source)) {
    for await (const element of source) {
      if (views.due()) await views.settle();
      buffered.push(element);
      if (buffered.length > max) return err({ kind: 'list-too-large', limit: max });
      if (clock.due()) {
        await clock.pause();
        views.skip();
      }
    }
  } else {
    for (const element of source) {
      if (views.due()) await views.settle();
      buffered.push(element);
      if (buffered.length > max) return err({ kind: 'list-too-large', limit: max });
      if (clock.due()) {
        await clock.pause();
        views.skip();
      }
    }
  }
  return ok(buffered);
}

function take<T>(source: ListSource<T>, count: number): ListSource<T> {
  return isAsync(source) ? takeAsync(source, count) : takeSync(source, count);
}

function* takeSync<T>(source: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  let n = 0;
  for (const element of source) {
    yield element;
    if (++n >= count) return;
  }
}

async function* takeAsync<T>(source: AsyncIterable<T>, count: number): AsyncGenerator<T> {
  if (count <= 0) return;
  let n = 0;
  for await (const element of source) {
    yield element;
    if (++n >= count) return;
  }
}

export function isAsync<T>(source: ListSource<T>): source is AsyncIterable<T> {
  return typeof (source as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function';
}
