/** The package id a `#name` id runs as; `uploadedOnly` leaves out the built-in models. */
export type PackageSelection = (packageName: string, preference?: readonly string[], uploadedOnly?: boolean) => string | undefined;

/**
 * Package selection of `#name` ids, remembered while what it depends on stays the same: `stamp`
 * names that state (packages uploaded, vetting serials) and is undefined while a vetting bound
 * makes the answer depend on the time, when nothing is remembered.
 */
export function cachedSelection(
  select: PackageSelection,
  stamp: () => string | undefined,
): PackageSelection {
  let at: string | undefined;
  const memo = new Map<string, string | undefined>();
  return (packageName, preference = [], uploadedOnly = false) => {
    const now = stamp();
    if (now === undefined) return select(packageName, preference, uploadedOnly);
    if (now !== at) {
      memo.clear();
      at = now;
    }
    const key = `${uploadedOnly ? 'uploaded' : 'any'}\n${packageName}\n${preference.join('\n')}`;
    if (memo.has(key)) return memo.get(key);
    const chosen = select(packageName, preference, uploadedOnly);
    memo.set(key, chosen);
    return chosen;
  };
}
