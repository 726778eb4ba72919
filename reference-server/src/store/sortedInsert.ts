/** Inserts into an ascending string array (no duplicates); used for paged listings. */
export function sortedInsert(array: string[], value: string): void {
  const i = lowerBound(array, value);
  if (array[i] !== value) array.splice(i, 0, value);
}

export function sortedRemove(array: string[], value: string): void {
  const i = lowerBound(array, value);
  if (array[i] === value) array.splice(i, 1);
}

/** First index whose element is >= value. */
export function lowerBound(array: readonly string[], value: string): number {
  let lo = 0;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((array[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
