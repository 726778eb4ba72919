import type { TemplateDef } from '../ledger/templates/Catalogue.js';
import { MemoryAdminStore, type AdminState, type StoredIdentityProvider, type StoredPackage, type SynchronizerVetting } from './AdminStore.js';
import type { ActiveScope, LedgerStore } from './LedgerStore.js';
import type { LogEntry } from './LogEntry.js';
import type { DedupRecord, StoredParty, StoredUser, TemplateDeclaration } from './records.js';
import { lowerBound, sortedInsert, sortedRemove } from './sortedInsert.js';
import type { StoredContract } from './StoredContract.js';

/**
 * The in-memory store. Every lookup the ledger makes is an index hit: contracts by id, active
 * contracts by stakeholder and by template, contracts by key, updates by offset and by id,
 * deduplication records by change id.
 */
export class MemoryStore implements LedgerStore {
  // Offsets are dense, so the log is an array: entry for offset o sits at o - 1 - #logBase.
  #log: LogEntry[] = [];
  #logBase = 0;
  #ledgerEnd = 0;
  #prunedUpTo = 0;
  readonly #updateIds = new Map<string, number>();

  readonly #contracts = new Map<string, StoredContract>();
  readonly #activeByParty = new Map<string, Set<StoredContract>>();
  readonly #activeByTemplate = new Map<TemplateDef, Set<StoredContract>>();
  readonly #activeByKey = new Map<string, StoredContract[]>();
  // Archived contracts in archive order, for ACS queries at past offsets.
  #archived: StoredContract[] = [];

  // Keyed by command id first: the command id string is already held by the log entry.
  readonly #dedup = new Map<string, DedupRecord | DedupRecord[]>();

  readonly #parties = new Map<string, StoredParty>();
  readonly #partyIds: string[] = [];
  readonly #users = new Map<string, StoredUser>();
  readonly #userIds: string[] = [];
  readonly #meta = new Map<string, string>();
  readonly #templateDeclarations = new Map<string, TemplateDeclaration>();

  get ledgerEnd(): number {
    return this.#ledgerEnd;
  }
  get prunedUpTo(): number {
    return this.#prunedUpTo;
  }

  append(entry: LogEntry, effects: { created: readonly StoredContract[]; archived: readonly StoredContract[] }): void {
    if (entry.offset !== this.#ledgerEnd + 1) {
      throw new Error(`store: append at ${entry.offset}, expected ${this.#ledgerEnd + 1}`);
    }
    this.#log.push(entry);
    this.#ledgerEnd = entry.offset;
    if (entry.kind !== 'rejection') this.#updateIds.set(entry.updateId, entry.offset);
    for (const c of effects.created) {
      this.#contracts.set(c.contractId, c);
      if (c.isActive) this.#index(c);
    }
    for (const c of effects.archived) {
      this.#contracts.set(c.contractId, c);
      this.#unindex(c);
      this.#archived.push(c);
    }
  }

  entryAt(offset: number): LogEntry | undefined {
    if (offset <= this.#prunedUpTo || offset > this.#ledgerEnd) return undefined;
    return this.#log[offset - 1 - this.#logBase];
  }

  *entries(fromExclusive: number, toInclusive: number): Iterable<LogEntry> {
    const from = Math.max(fromExclusive, this.#prunedUpTo);
    // Re-read the bounds each step: pruning may move the base while a consumer iterates.
    for (let o = from + 1; o <= Math.min(toInclusive, this.#ledgerEnd); o++) {
      const e = this.entryAt(o);
      if (e) yield e;
    }
  }

  offsetOfUpdate(updateId: string): number | undefined {
    return this.#updateIds.get(updateId);
  }

  contract(contractId: string): StoredContract | undefined {
    return this.#contracts.get(contractId);
  }

  // No separate set of all active contracts: the template sets partition it, which saves an
  // entry per contract.
  #set(scope: Exclude<ActiveScope, { kind: 'all' }>): ReadonlySet<StoredContract> | undefined {
    switch (scope.kind) {
      case 'party':
        return this.#activeByParty.get(scope.party);
      case 'template':
        return this.#activeByTemplate.get(scope.template);
    }
  }

  activeSnapshot(scope: ActiveScope): StoredContract[] {
    if (scope.kind === 'all') return [...this.#activeByTemplate.values()].flatMap((s) => Array.from(s));
    const set = this.#set(scope);
    return set ? Array.from(set) : [];
  }

  activeCount(scope: ActiveScope): number {
    if (scope.kind === 'all') return [...this.#activeByTemplate.values()].reduce((n, s) => n + s.size, 0);
    return this.#set(scope)?.size ?? 0;
  }

  archivedAfter(offset: number): StoredContract[] {
    // #archived is in archive order; find the first archived above `offset`.
    let lo = 0;
    let hi = this.#archived.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#archived[mid] as StoredContract).archivedOffset <= offset) lo = mid + 1;
      else hi = mid;
    }
    return this.#archived.slice(lo);
  }

  activeByKey(keyHash: string): readonly StoredContract[] {
    return this.#activeByKey.get(keyHash) ?? [];
  }

  dedup(userId: string, actAsKey: string, commandId: string): DedupRecord | undefined {
    const slot = this.#dedup.get(commandId);
    if (slot === undefined) return undefined;
    if (!Array.isArray(slot)) return slot.userId === userId && slot.actAsKey === actAsKey ? slot : undefined;
    return slot.find((r) => r.userId === userId && r.actAsKey === actAsKey);
  }

  putDedup(record: DedupRecord): void {
    const slot = this.#dedup.get(record.commandId);
    const same = (r: DedupRecord) => r.userId === record.userId && r.actAsKey === record.actAsKey;
    if (slot === undefined || (!Array.isArray(slot) && same(slot))) {
      this.#dedup.set(record.commandId, record);
    } else if (!Array.isArray(slot)) {
      this.#dedup.set(record.commandId, [slot, record]);
    } else {
      const i = slot.findIndex(same);
      if (i >= 0) slot[i] = record;
      else slot.push(record);
    }
  }

  party(id: string): StoredParty | undefined {
    return this.#parties.get(id);
  }
  putParty(party: StoredParty): void {
    if (!this.#parties.has(party.party)) sortedInsert(this.#partyIds, party.party);
    this.#parties.set(party.party, party);
  }
  parties(afterId: string | undefined, limit: number, filter?: (p: StoredParty) => boolean): StoredParty[] {
    return page(this.#partyIds, this.#parties, afterId, limit, filter);
  }

  user(id: string): StoredUser | undefined {
    return this.#users.get(id);
  }
  putUser(user: StoredUser): void {
    if (!this.#users.has(user.id)) sortedInsert(this.#userIds, user.id);
    this.#users.set(user.id, user);
  }
  deleteUser(id: string): boolean {
    if (!this.#users.delete(id)) return false;
    sortedRemove(this.#userIds, id);
    return true;
  }
  users(afterId: string | undefined, limit: number, identityProviderId?: string): StoredUser[] {
    return page(this.#userIds, this.#users, afterId, limit, identityProviderId === undefined ? undefined : (u) => u.identityProviderId === identityProviderId);
  }

  prune(upToInclusive: number): void {
    const upTo = Math.min(upToInclusive, this.#ledgerEnd);
    if (upTo <= this.#prunedUpTo) return;
    const drop = upTo - this.#logBase;
    for (const e of this.#log.slice(0, drop)) if (e.kind !== 'rejection') this.#updateIds.delete(e.updateId);
    this.#log = this.#log.slice(drop);
    this.#logBase = upTo;
    this.#prunedUpTo = upTo;
    const keep = this.archivedAfter(upTo);
    for (const c of this.#archived.slice(0, this.#archived.length - keep.length)) this.#contracts.delete(c.contractId);
    this.#archived = keep;
  }

  meta(key: string): string | undefined {
    return this.#meta.get(key);
  }
  putMeta(key: string, value: string | undefined): void {
    if (value === undefined) this.#meta.delete(key);
    else this.#meta.set(key, value);
  }

  // ---- participant administration (packages, vetting, identity providers), kept here so that a
  // durable store journals it like every other change (sqlite/persistedState.ts)
  readonly #admin = new MemoryAdminStore();
  package(packageId: string): StoredPackage | undefined {
    return this.#admin.package(packageId);
  }
  packages(): readonly StoredPackage[] {
    return this.#admin.packages();
  }
  putPackages(packages: readonly StoredPackage[]): void {
    this.#admin.putPackages(packages);
  }
  vetting(synchronizerId: string): SynchronizerVetting | undefined {
    return this.#admin.vetting(synchronizerId);
  }
  putVetting(synchronizerId: string, vetting: SynchronizerVetting): void {
    this.#admin.putVetting(synchronizerId, vetting);
  }
  identityProvider(id: string): StoredIdentityProvider | undefined {
    return this.#admin.identityProvider(id);
  }
  identityProviders(): readonly StoredIdentityProvider[] {
    return this.#admin.identityProviders();
  }
  putIdentityProvider(config: StoredIdentityProvider): void {
    this.#admin.putIdentityProvider(config);
  }
  deleteIdentityProvider(id: string): boolean {
    return this.#admin.deleteIdentityProvider(id);
  }
  snapshot(): AdminState {
    return this.#admin.snapshot();
  }

  templateDeclarations(): readonly TemplateDeclaration[] {
    return [...this.#templateDeclarations.values()];
  }
  putTemplateDeclaration(declaration: TemplateDeclaration): void {
    this.#templateDeclarations.set(declaration.templateId, declaration);
  }

  #index(c: StoredContract): void {
    for (const p of c.stakeholders) {
      let s = this.#activeByParty.get(p);
      if (!s) this.#activeByParty.set(p, (s = new Set()));
      s.add(c);
    }
    let t = this.#activeByTemplate.get(c.template);
    if (!t) this.#activeByTemplate.set(c.template, (t = new Set()));
    t.add(c);
    if (c.keyHash !== undefined) {
      const list = this.#activeByKey.get(c.keyHash);
      if (list) list.push(c);
      else this.#activeByKey.set(c.keyHash, [c]);
    }
  }

  #unindex(c: StoredContract): void {
    for (const p of c.stakeholders) this.#activeByParty.get(p)?.delete(c);
    this.#activeByTemplate.get(c.template)?.delete(c);
    if (c.keyHash !== undefined) {
      const list = this.#activeByKey.get(c.keyHash);
      if (list) {
        const rest = list.filter((x) => x !== c);
        if (rest.length) this.#activeByKey.set(c.keyHash, rest);
        else this.#activeByKey.delete(c.keyHash);
      }
    }
  }
}

function page<T>(ids: readonly string[], byId: ReadonlyMap<string, T>, afterId: string | undefined, limit: number, filter?: (t: T) => boolean): T[] {
  const out: T[] = [];
  let i = afterId === undefined ? 0 : lowerBound(ids, afterId);
  if (afterId !== undefined && ids[i] === afterId) i++;
  for (; i < ids.length && out.length < limit; i++) {
    const t = byId.get(ids[i] as string);
    if (t !== undefined && (!filter || filter(t))) out.push(t);
  }
  return out;
}
