import type { Catalogue, TemplateDef } from '../ledger/templates/Catalogue.js';
import type { AdminStore } from './AdminStore.js';
import type { LogEntry } from './LogEntry.js';
import type { DedupRecord, StoredParty, StoredUser, TemplateDeclaration } from './records.js';
import type { StoredContract } from './StoredContract.js';

/** Where a query looks for active contracts: the index that answers it. */
export type ActiveScope =
  | { readonly kind: 'all' }
  | { readonly kind: 'party'; readonly party: string }
  | { readonly kind: 'template'; readonly template: TemplateDef };

/**
 * Persistence behind the ledger. Synchronous on purpose: the core's commit is a single critical
 * section, and embedded durable stores (SQLite, LMDB) are synchronous too.
 *
 * The store keeps and indexes; it never decides. Validation, authorization and offsets belong
 * to the core.
 *
 * Every change of state goes through a method of this interface, so that a durable store can
 * journal it: state kept anywhere else is lost on a restart with `--data-dir`. To add a kind of
 * state: a method here and in MemoryStore, then one entry in `sqlite/persistedState.ts`.
 * Participant administration (packages, vetting, identity providers) is part of it: AdminStore.
 */
export interface LedgerStore extends AdminStore {
  // ---- the update log: one entry per offset, dense from prunedUpTo + 1 to ledgerEnd
  readonly ledgerEnd: number;
  readonly prunedUpTo: number;
  /** Appends at `ledgerEnd + 1` and applies its contract effects to the indexes. */
  append(entry: LogEntry, effects: { created: readonly StoredContract[]; archived: readonly StoredContract[] }): void;
  entryAt(offset: number): LogEntry | undefined;
  /** Entries with fromExclusive < offset <= toInclusive, ascending. */
  entries(fromExclusive: number, toInclusive: number): Iterable<LogEntry>;
  offsetOfUpdate(updateId: string): number | undefined;

  // ---- contracts
  contract(contractId: string): StoredContract | undefined;
  /** A snapshot of the active contracts in one index, safe to iterate while the ledger moves on. */
  activeSnapshot(scope: ActiveScope): StoredContract[];
  activeCount(scope: ActiveScope): number;
  /** Contracts archived at an offset above `offset`, still retained (not pruned). */
  archivedAfter(offset: number): StoredContract[];
  /** Active contracts with this key, oldest first. */
  activeByKey(keyHash: string): readonly StoredContract[];

  // ---- deduplication
  dedup(userId: string, actAsKey: string, commandId: string): DedupRecord | undefined;
  putDedup(record: DedupRecord): void;

  // ---- parties and users
  party(id: string): StoredParty | undefined;
  putParty(party: StoredParty): void;
  /** Parties ordered by id, after `afterId` (exclusive). */
  parties(afterId: string | undefined, limit: number, filter?: (p: StoredParty) => boolean): StoredParty[];
  user(id: string): StoredUser | undefined;
  putUser(user: StoredUser): void;
  deleteUser(id: string): boolean;
  /** Users by id after `afterId`; with `identityProviderId`, only that identity provider's. */
  users(afterId: string | undefined, limit: number, identityProviderId?: string): StoredUser[];

  /** Drops log entries and archived contracts at or below `upToInclusive`. */
  prune(upToInclusive: number): void;

  // ---- small named values (counters, settings of other services); `undefined` removes
  meta(key: string): string | undefined;
  putMeta(key: string, value: string | undefined): void;

  // ---- templates declared at run time (fixture files), re-declared before a durable store replays
  templateDeclarations(): readonly TemplateDeclaration[];
  putTemplateDeclaration(declaration: TemplateDeclaration): void;

  /**
   * A durable store keeps the update log it found on disk until the catalogue knows every
   * template it names; the ledger then calls this once, and each entry is put back in offset
   * order and handed to `onEntry` (the ledger's commit listeners, so derived views rebuild).
   * Absent (or a no-op) for a store that starts empty.
   */
  recover?(catalogue: Catalogue, onEntry: (entry: LogEntry) => void): void;
}
