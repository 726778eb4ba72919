import { err, ok, type Result } from '../../../ledger/result.js';
import type { Problem } from '../types.js';

export type ListSource<T> = readonly T[] | Iterable<T> | AsyncIterable<T>;

/**
 * Applies the list endpoints' size rules before the first byte is sent: a `limit` within the
 * server maximum truncates the result; otherwise (no limit, or one above the maximum, which the
 * participant ignores) a result of more than `max` elements is refused with 413. Arrays are judged
 * by their length and streamed lazily; other sources are read ahead up to `max + 1` elements.
 */
export async function boundList<T>(
  source: ListSource<T>,
  opts: { readonly limit: number | undefined; readonly max: number },
): Promise<Result<AsyncIterable<T>, Problem>> {
  const { limit, max } = opts;
  if (limit !== undefined && limit <= max) return ok(take(source, limit));
  if (Array.isArray(source)) {
    const array = source as readonly T[];
    return array.length > max ? err({ kind: 'list-too-large', limit: max }) : ok(take(array, array.length));
  }
  const buffered: T[] = [];
  for await (const element of toAsync(source)) {
    buffered.push(element);
    if (buffered.length > max) return err({ kind: 'list-too-large', limit: max });
  }
  return ok(take(buffered, buffered.length));
}

async function* take<T>(source: ListSource<T>, count: number): AsyncGenerator<T> {
  if (count <= 0) return;
  let n = 0;
  for await (const element of toAsync(source)) {
    yield element;
    if (++n >= count) return;
  }
}

function toAsync<T>(source: ListSource<T>): AsyncIterable<T> {
  if (Symbol.asyncIterator in source) return source;
  const sync = source as Iterable<T>;
  return {
    async *[Symbol.asyncIterator]() {
      yield* sync;
    },
  };
}
