import type { MemoryStore } from '../MemoryStore.js';
import type { StoredIdentityProvider, StoredPackage, SynchronizerVetting } from '../AdminStore.js';
import type { StoredParty, StoredUser, TemplateDeclaration } from '../records.js';

/**
 * THE ONE PLACE that says which store methods change keyed state and how that state is written
 * to disk. The durable store journals every call of a method named here as a row
 * (kind, key) -> body; the latest row per key is the state, `undefined` removes it. At start-up
 * the rows are replayed, oldest write first, through `replay` (MemoryStore's own method), so the
 * in-memory indexes are rebuilt as they were.
 *
 * To persist a new kind of state: give LedgerStore and MemoryStore the method that changes it
 * (`putThing(thing)`), then add an entry here (a `kind` name never used before, the key, a JSON
 * body, and how to call the method again with it). `persistedState.test.ts` fails while a
 * put/delete method of MemoryStore is missing here. The update log is not keyed state:
 * SqliteStore writes it itself (LOG_METHODS, entryCodec.ts).
 */

/**
 * Methods that SqliteStore journals itself, not through this table: the update log, the pruning
 * offset, and deduplication records, which are written with the update they deduplicate (one
 * row per command instead of two, and no random-key index to update).
 */
export const LOG_METHODS = ['append', 'prune', 'putDedup'] as const;

type Method = {
  [M in keyof MemoryStore]: MemoryStore[M] extends (...args: never[]) => unknown ? M : never;
}[keyof MemoryStore];

/** How one store method is written: the row it sets (body undefined: the row is removed). */
type Writer<M extends Method> = (...args: Parameters<MemoryStore[M]>) => readonly [key: string, body: unknown];

export interface PersistedKind {
  /** Calls of these methods write rows of this kind. */
  readonly writes: { readonly [M in Method]?: Writer<M> };
  /** Puts one row back (through MemoryStore's method; nothing is journaled during replay). */
  replay(store: MemoryStore, key: string, body: unknown): void;
}

const userDoc = (u: StoredUser) => ({ ...u, rights: [...u.rights] });
// A package's archive bytes travel as base64 in the JSON body.
const packageDoc = (p: StoredPackage) => ({ ...p, payload: Buffer.from(p.payload).toString('base64') });
const packageOf = (d: ReturnType<typeof packageDoc>): StoredPackage => ({ ...d, payload: new Uint8Array(Buffer.from(d.payload, 'base64')) });

export const PERSISTED_STATE: Readonly<Record<string, PersistedKind>> = {
  party: {
    writes: { putParty: (p: StoredParty) => [p.party, p] },
    replay: (s, _key, body) => s.putParty(body as StoredParty),
  },
  user: {
    writes: { putUser: (u: StoredUser) => [u.id, userDoc(u)], deleteUser: (id: string) => [id, undefined] },
    replay: (s, _key, body) => {
      const u = body as ReturnType<typeof userDoc>;
      s.putUser({ ...u, rights: new Set(u.rights) });
    },
  },
  meta: {
    writes: { putMeta: (key: string, value: string | undefined) => [key, value] },
    replay: (s, key, body) => s.putMeta(key, body as string),
  },
  // One row per upload: a DAR's packages are registered whole or not at all.
  packages: {
    writes: { putPackages: (ps: readonly StoredPackage[]) => [ps.map((p) => p.packageId).join(' '), ps.map(packageDoc)] },
    replay: (s, _key, body) => s.putPackages((body as ReturnType<typeof packageDoc>[]).map(packageOf)),
  },
  vetting: {
    writes: { putVetting: (synchronizerId: string, v: SynchronizerVetting) => [synchronizerId, v] },
    replay: (s, key, body) => s.putVetting(key, body as SynchronizerVetting),
  },
  identityProvider: {
    writes: {
      putIdentityProvider: (c: StoredIdentityProvider) => [c.identityProviderId, c],
      deleteIdentityProvider: (id: string) => [id, undefined],
    },
    replay: (s, _key, body) => s.putIdentityProvider(body as StoredIdentityProvider),
  },
  template: {
    writes: { putTemplateDeclaration: (d: TemplateDeclaration) => [d.templateId, d] },
    replay: (s, _key, body) => s.putTemplateDeclaration(body as TemplateDeclaration),
  },
};
