/**
 * Package selection of `#name` ids, remembered while what it depends on stays the same: `stamp`
 * names that state (packages uploaded, vetting serials) and is undefined while a vetting bound
 * makes the answer depend on the time, when nothing is remembered.
 */
export function cachedSelection(
  select: (packageName: string, preference?: readonly string[]) => string | undefined,
  stamp: () => string | undefined,
): (packageName: string, preference?: readonly string[]) => string | undefined {
  let at: string | undefined;
  const memo = new Map<string, string | undefined>();
  return (packageName, preference = []) => {
    const now = stamp();
    if (now === undefined) return select(packageName, preference);
    if (now !== at) {
      memo.clear();
      at = now;
    }
    const key = preference.length === 0 ? packageName : `${packageName}\n${preference.join('\n')}`;
    if (memo.has(key)) return memo.get(key);
    const chosen = select(packageName, preference);
    memo.set(key, chosen);
    return chosen;
  };
}
