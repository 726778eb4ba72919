/**
 * Shares party strings and party-set arrays between contracts and events: with a million
 * contracts over a handful of parties, each party id and each stakeholder set exists once.
 */
export class Interner {
  readonly #strings = new Map<string, string>();
  readonly #sets = new Map<string, readonly string[]>();
  static readonly EMPTY: readonly string[] = Object.freeze([]);

  string(s: string): string {
    const known = this.#strings.get(s);
    if (known !== undefined) return known;
    this.#strings.set(s, s);
    return s;
  }

  /** Sorted, deduplicated, frozen and shared. */
  set(parties: Iterable<string>): readonly string[] {
    // Most sets arrive sorted already (the engine's are): sorting allocates even then.
    const sorted = Array.isArray(parties) && isStrictlySorted(parties) ? parties as readonly string[] : [...new Set(parties)].sort();
    if (sorted.length === 0) return Interner.EMPTY;
    // A set of one is keyed by its party: no key string to build (parties hold no newline).
    const key = sorted.length === 1 ? sorted[0]! : sorted.join('\n');
    const known = this.#sets.get(key);
    if (known !== undefined) return known;
    const frozen = Object.freeze(sorted.map((p) => this.string(p)));
    this.#sets.set(key, frozen);
    return frozen;
  }

  union(a: readonly string[], b: readonly string[]): readonly string[] {
    if (b.length === 0 || a === b) return a;
    if (a.length === 0) return b;
    return this.set([...a, ...b]);
  }
}

function isStrictlySorted(xs: readonly string[]): boolean {
  for (let i = 1; i < xs.length; i++) if (!(xs[i - 1]! < xs[i]!)) return false;
  return true;
}
