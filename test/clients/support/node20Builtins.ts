/**
 * The ES2024/2025 builtins the published clients call that Node 20 lacks, as the standard defines
 * them: the packages support Node 20, so the tests give it these rather than skip the clients' own
 * paths. Imported for its effect by every test that runs the clients.
 *
 * - core-acs-reader's cache calls Set.prototype.union (Node 22+);
 * - wallet-sdk's utxos.merge calls Object.groupBy (Node 21+).
 */
const setProto = Set.prototype as { union?: (other: Set<unknown>) => Set<unknown> };
if (typeof setProto.union !== 'function') {
  Object.defineProperty(Set.prototype, 'union', {
    configurable: true,
    writable: true,
    value(this: Set<unknown>, other: Set<unknown>) {
      return new Set([...this, ...other]);
    },
  });
}

const objectCtor = Object as { groupBy?: unknown };
if (typeof objectCtor.groupBy !== 'function') {
  Object.defineProperty(Object, 'groupBy', {
    configurable: true,
    writable: true,
    value<T>(items: Iterable<T>, key: (item: T, index: number) => PropertyKey) {
      const groups: Record<PropertyKey, T[]> = Object.create(null) as Record<PropertyKey, T[]>;
      let i = 0;
      for (const item of items) (groups[key(item, i++)] ??= []).push(item);
      return groups;
    },
  });
}

export {};
