/** A synchronous list the ledger answered, as the async stream a channel sends. */
export async function* fromIterable<T>(source: Iterable<T>): AsyncGenerator<T> {
  yield* source;
}
