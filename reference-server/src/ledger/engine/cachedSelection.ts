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
  // Without a preference (most commands), by the name alone: no key string to build.
  const plain = [new Map<string, string | undefined>(), new Map<string, string | undefined>()] as const;
  return (packageName, preference = [], uploadedOnly = false) => {
    const now = stamp();
    if (now === undefined) return select(packageName, preference, uploadedOnly);
    if (now !== at) {
      memo.clear();
      plain[0].clear();
      plain[1].clear();
      at = now;
    }
    if (preference.length === 0) {
      const byName = plain[uploadedOnly ? 1 : 0];
      if (byName.has(packageName)) return byName.get(packageName);
      const chosen = select(packageName, preference, uploadedOnly);
      byName.set(packageName, chosen);
      return chosen;
    }
    const key = `${uploadedOnly ? 'uploaded' : 'any'}\n${packageName}\n${preference.join('\n')}`;
    if (memo.has(key)) return memo.get(key);
    const chosen = select(packageName, preference, uploadedOnly);
    memo.set(key, chosen);
    return chosen;
  };
}
