import type { Ledger } from '../ledger/index.js';
import type { TemplateDef } from '../ledger/templates/Catalogue.js';
import type { LogEntry } from '../store/LogEntry.js';
import type { StoredContract } from '../store/StoredContract.js';

/**
 * Active contracts of one template by key(s) of their create argument, kept current from the
 * ledger's commit stream: what the real apps do with their own stores, and what makes a lookup
 * independent of how many contracts the ledger holds. Built from the active set when attached,
 * then updated by every commit (creates add, archives remove; reassignments change nothing here,
 * a contract's synchronizer is read from the contract when answering).
 */
export class ContractIndex {
  readonly #byKey = new Map<string, StoredContract[]>();
  readonly #unsubscribe: () => void;

  constructor(
    ledger: Ledger,
    readonly template: TemplateDef,
    /** The keys a contract is found under (several for a contract that answers for many). */
    readonly keysOf: (contract: StoredContract) => readonly string[],
    /** Order within one key; the first element is what `first` returns. Default: oldest first. */
    readonly order?: (a: StoredContract, b: StoredContract) => number,
  ) {
    for (const c of ledger.store.activeSnapshot({ kind: 'template', template })) this.#add(c);
    this.#unsubscribe = ledger.onCommit((entry) => this.#apply(entry));
  }

  /** Active contracts under `key`, in index order (do not mutate). */
  get(key: string): readonly StoredContract[] {
    return this.#byKey.get(key) ?? [];
  }

  first(key: string): StoredContract | undefined {
    return this.#byKey.get(key)?.[0];
  }

  /** Number of keys with at least one active contract. */
  get size(): number {
    return this.#byKey.size;
  }

  /** Stops following the ledger. */
  detach(): void {
    this.#unsubscribe();
  }

  #apply(entry: LogEntry): void {
    if (entry.kind !== 'transaction') return;
    for (const node of entry.nodes) {
      if (node.contract.template !== this.template) continue;
      if (node.kind === 'create') {
        if (!node.transient) this.#add(node.contract);
      } else if (node.archivesInput) {
        this.#remove(node.contract);
      }
    }
  }

  #add(c: StoredContract): void {
    for (const key of this.keysOf(c)) {
      const list = this.#byKey.get(key);
      if (list === undefined) {
        this.#byKey.set(key, [c]);
        continue;
      }
      if (list.includes(c)) continue;
      // Lists are short (a receiver's preapprovals, an admin's rules): insertion keeps them sorted.
      let i = list.length;
      while (i > 0 && this.#compare(c, list[i - 1] as StoredContract) < 0) i--;
      list.splice(i, 0, c);
    }
  }

  #remove(c: StoredContract): void {
    for (const key of this.keysOf(c)) {
      const list = this.#byKey.get(key);
      if (list === undefined) continue;
      const i = list.indexOf(c);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.#byKey.delete(key);
    }
  }

  #compare(a: StoredContract, b: StoredContract): number {
    const byOrder = this.order?.(a, b) ?? 0;
    return byOrder !== 0 ? byOrder : a.createdOffset - b.createdOffset || a.createdNodeId - b.createdNodeId;
  }
}
