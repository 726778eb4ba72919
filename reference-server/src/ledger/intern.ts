/**
 * Shares party strings and party-set arrays between contracts and events: with a million
 * contracts over a handful of parties, each party id and each stakeholder set exists once.
 */
export class Interner {
  readonly #strings = new Map<string, string>();
  /** Sets by their sorted members, one level per member: a look-up builds no key string. */
  readonly #sets = new Map<string, SetNode>();
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
    let node = this.#member(this.#sets, sorted[0]!);
    for (let i = 1; i < sorted.length; i++) node = this.#member(node.next ??= new Map(), sorted[i]!);
    if (node.set !== undefined) return node.set;
    node.set = Object.freeze(sorted.map((p) => this.string(p)));
    return node.set;
  }

  #member(level: Map<string, SetNode>, party: string): SetNode {
    let node = level.get(party);
    if (node === undefined) {
      node = { set: undefined, next: undefined };
      level.set(party, node);
    }
    return node;
  }

  union(a: readonly string[], b: readonly string[]): readonly string[] {
    if (b.length === 0 || a === b) return a;
    if (a.length === 0) return b;
    return this.set([...a, ...b]);
  }
}

/** One member of an interned set's sorted members: the set ending here, and the longer ones going on. */
interface SetNode {
  set: readonly string[] | undefined;
  next: Map<string, SetNode> | undefined;
}

function isStrictlySorted(xs: readonly string[]): boolean {
  for (let i = 1; i < xs.length; i++) if (!(xs[i - 1]! < xs[i]!)) return false;
  return true;
}
