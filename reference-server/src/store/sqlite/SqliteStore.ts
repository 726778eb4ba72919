import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Catalogue } from '../../ledger/templates/Catalogue.js';
import type { LogEntry } from '../LogEntry.js';
import { makeDirs } from '../../../../conformance/src/fs/makeDirs.js';
import { MemoryStore } from '../MemoryStore.js';
import type { DedupRecord } from '../records.js';
import type { StoredContract } from '../StoredContract.js';
import { AcknowledgedEnd } from './AcknowledgedEnd.js';
import { DataDirError } from './DataDirError.js';
import { explainOpenFailure } from './explainOpenFailure.js';
import { decodeEntry, encodeEntry } from './entryCodec.js';
import { PERSISTED_STATE } from './persistedState.js';

let sqliteModule: typeof Database | undefined;
/**
 * better-sqlite3 (a native addon), loaded by the first store opened: a start without `--data-dir`
 * needs none. Its binding is loaded here too (an in-memory database), so a binding its install
 * script never built is refused before the data directory is touched.
 */
function sqlite(directory: string): typeof Database {
  if (sqliteModule !== undefined) return sqliteModule;
  try {
    const loaded = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
    new loaded(':memory:').close();
    sqliteModule = loaded;
  } catch (e) {
    throw explainOpenFailure(e, directory, join(directory, DATABASE_FILE));
  }
  return sqliteModule;
}

/** The database file inside a data directory. */
export const DATABASE_FILE = 'ledger.sqlite';
const APPLICATION = 'canton-conformance';
/** Bumped when the layout on disk changes in a way older versions cannot read. */
const FORMAT = 1;

export interface SqliteStoreOptions {
  /** The ledger that writes here; a directory written by another participant is refused. */
  readonly participantId: string;
  /**
   * SQLite's `synchronous` setting. NORMAL (default): in WAL mode a commit is written to the
   * operating system before it is acknowledged, so it survives `kill -9` of the process; a crash
   * of the operating system or a power cut may lose the last commits (never corrupt the file).
   * FULL also waits for the disk (fsync on every commit): survives those too, and costs a disk
   * flush per command.
   */
  readonly synchronous?: 'NORMAL' | 'FULL';
  /**
   * A write that failed after the ledger had already changed in memory (disk full, I/O error):
   * the process should stop before it answers more. Default: throw (an uncaught error).
   */
  readonly onFailure?: (error: Error) => void;
}

type Row = { kind: string; key: string; body: string };

/**
 * The durable store: SQLite (WAL) as the journal of every change of state, the MemoryStore it
 * extends as the index every read is answered from. Each change is written in the same
 * synchronous step that makes it; the writes of one step (one command: its update, its
 * deduplication record) form one SQLite transaction, committed in a microtask, before the
 * step's answer can reach the client (streams learn of a commit through a promise, so after it
 * too). At open the journal is read back: keyed state
 * (persistedState.ts) at once, the update log once the catalogue is complete (`recover`).
 *
 * One server per directory: the database is opened in exclusive locking mode, so a second
 * server is refused, and the lock goes with the process however it ends.
 */
export class SqliteStore extends MemoryStore {
  readonly directory: string;
  /** Key of the createdEventBlob MAC, kept with the ledger so that blobs stay valid across restarts. */
  readonly blobKey: Uint8Array;
  /** True when the directory held no ledger: the caller seeds its world. */
  readonly isNew: boolean;
  readonly #db: Database.Database;
  readonly #options: SqliteStoreOptions;
  readonly #insertEntry: Database.Statement<[number, string, string | null]>;
  readonly #attachDedup: Database.Statement<[string, number]>;
  readonly #putRow: Database.Statement<[string, string, string]>;
  readonly #deleteRow: Database.Statement<[string, string]>;
  readonly #putMetaRow: Database.Statement<[string, string]>;
  /** The highest acknowledged offset, kept outside the database (see AcknowledgedEnd). */
  readonly #acknowledged: AcknowledgedEnd;
  /** The last update of this step, written at the end of the step with its deduplication record. */
  #staged: { entry: LogEntry; body: string; dedup: string | null } | undefined;
  #inTransaction = false;
  #replaying = false;
  #recovered = false;
  #failed: Error | undefined;
  #closed = false;

  private constructor(directory: string, db: Database.Database, options: SqliteStoreOptions, isNew: boolean, blobKey: Uint8Array, acknowledged: AcknowledgedEnd) {
    super();
    this.directory = directory;
    this.#db = db;
    this.#acknowledged = acknowledged;
    this.#options = options;
    this.isNew = isNew;
    this.blobKey = blobKey;
    this.#insertEntry = db.prepare('INSERT INTO entries (offset, body, dedup) VALUES (?, ?, ?)');
    this.#attachDedup = db.prepare('UPDATE entries SET dedup = ? WHERE offset = ?');
    this.#putRow = db.prepare('INSERT OR REPLACE INTO state (kind, key, body) VALUES (?, ?, ?)');
    this.#deleteRow = db.prepare('DELETE FROM state WHERE kind = ? AND key = ?');
    this.#putMetaRow = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    this.#journalKeyedState();
  }

  /**
   * Opens (or creates) the ledger in `directory` and reads its keyed state back. Every reason
   * the directory cannot be used is a DataDirError with a message for a person.
   */
  static open(directory: string, options: SqliteStoreOptions): SqliteStore {
    let found;
    try {
      found = statSync(directory, { throwIfNoEntry: false });
    } catch (e) {
      throw new DataDirError(`cannot reach the data directory ${directory}: ${(e as Error).message}`);
    }
    if (found?.isDirectory() === false) throw new DataDirError(`${directory} is not a directory`);
    const Sqlite = sqlite(directory);
    try {
      makeDirs(directory);
    } catch (e) {
      throw new DataDirError(`cannot create the data directory ${directory}: ${(e as Error).message}`);
    }
    const file = join(directory, DATABASE_FILE);
    let db: Database.Database | undefined;
    let acknowledged: AcknowledgedEnd | undefined;
    try {
      // Before SQLite touches anything: a database that lost what was acknowledged is refused as found.
      acknowledged = AcknowledgedEnd.open(directory, file);
      // timeout 0: a directory in use is refused at once rather than after a wait.
      db = new Sqlite(file, { timeout: 0 });
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
      // Checkpoint (copy the WAL into the database, with its fsyncs) every ~40 MB rather than 4 MB:
      // the log's pages are rewritten by every commit, so most WAL frames are superseded by then.
      db.pragma('wal_autocheckpoint = 10000');
      // And give back the disk of a WAL that one large transaction (a big fixture world) grew.
      db.pragma('journal_size_limit = 67108864');
      // Take the lock now (a write transaction), not at the first command.
      db.exec('BEGIN IMMEDIATE');
      const { isNew, blobKey } = SqliteStore.#prepareSchema(db, file, options);
      const lastOffset = (db.prepare('SELECT MAX(offset) AS o FROM entries').get() as { o: number | null }).o ?? 0;
      acknowledged.check(isNew, lastOffset);
      const store = new SqliteStore(directory, db, options, isNew, blobKey, acknowledged);
      if (isNew) {
        // The world the caller seeds next joins this first transaction: a start that dies
        // before it is done leaves the directory new.
        store.#inTransaction = true;
        queueMicrotask(() => store.#commit());
      } else {
        db.exec('COMMIT');
        store.#loadKeyedState();
      }
      return store;
    } catch (e) {
      try {
        if (db?.inTransaction) db.exec('ROLLBACK');
        db?.close();
        acknowledged?.close();
      } catch {
        // Already failing; the first error is the one to report.
      }
      throw explainOpenFailure(e, directory, file);
    }
  }

  /** Creates the tables in an empty database, or checks that an existing one is ours. */
  static #prepareSchema(db: Database.Database, file: string, options: SqliteStoreOptions): { isNew: boolean; blobKey: Uint8Array } {
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    if (tables.size === 0) {
      const blobKey = randomBytes(32);
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE entries (offset INTEGER PRIMARY KEY, body TEXT NOT NULL, dedup TEXT);
        CREATE TABLE state (kind TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, key));
      `);
      const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      put.run('application', APPLICATION);
      put.run('format', String(FORMAT));
      put.run('participantId', options.participantId);
      put.run('blobKey', Buffer.from(blobKey).toString('hex'));
      put.run('prunedUpTo', '0');
      return { isNew: true, blobKey };
    }
    const meta = tables.has('meta') ? new Map((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value])) : new Map<string, string>();
    if (meta.get('application') !== APPLICATION || !tables.has('entries') || !tables.has('state')) {
      throw new DataDirError(`${file} is an SQLite database of something else, not a canton-conformance ledger; move it away or pick another --data-dir`);
    }
    const format = Number(meta.get('format'));
    if (!(format >= 1)) throw new DataDirError(`${file} has an unreadable format version '${meta.get('format') ?? ''}'; the file is damaged`);
    if (format > FORMAT) throw new DataDirError(`${file} was written by a newer canton-conformance (format ${format}; this one reads ${FORMAT})`);
    if (meta.get('participantId') !== options.participantId) {
      throw new DataDirError(`${file} holds the ledger of participant ${meta.get('participantId') ?? '?'}, not of ${options.participantId}`);
    }
    const key = meta.get('blobKey') ?? '';
    if (!/^[0-9a-f]{64}$/.test(key)) throw new DataDirError(`${file} has no readable blob key; the file is damaged`);
    return { isNew: false, blobKey: Uint8Array.from(Buffer.from(key, 'hex')) };
  }

  // ------------------------------------------------------------------ writing

  override append(entry: LogEntry, effects: { created: readonly StoredContract[]; archived: readonly StoredContract[] }): void {
    if (!this.#replaying) {
      const body = encodeEntry(entry, effects.archived);
      this.#write(() => {
        this.#writeStaged();
        this.#staged = { entry, body, dedup: null };
      });
    }
    super.append(entry, effects);
  }

  /** A deduplication record is kept in the row of the update it names (its completion offset). */
  override putDedup(record: DedupRecord): void {
    super.putDedup(record);
    if (this.#replaying) return;
    this.#write(() => {
      const staged = this.#staged;
      if (staged?.entry.offset !== record.offset) this.#attachDedup.run(JSON.stringify(record), record.offset);
      // The usual case, the record of the command the update commits, is a mark: it is read back from the update.
      else staged.dedup = sameDedup(dedupOf(staged.entry), record) ? IMPLIED : JSON.stringify(record);
    });
  }

  #writeStaged(): void {
    const staged = this.#staged;
    if (staged === undefined) return;
    this.#staged = undefined;
    this.#insertEntry.run(staged.entry.offset, staged.body, staged.dedup);
  }

  override prune(upToInclusive: number): void {
    super.prune(upToInclusive);
    if (!this.#replaying) this.#write(() => this.#putMetaRow.run('prunedUpTo', String(this.prunedUpTo)));
  }

  /** Wraps every method named in PERSISTED_STATE: the call, then its row. */
  #journalKeyedState(): void {
    const self = this as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const [kind, spec] of Object.entries(PERSISTED_STATE)) {
      for (const [method, writer] of Object.entries(spec.writes) as [string, (...args: unknown[]) => readonly [string, unknown]][]) {
        const base = (MemoryStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>)[method];
        if (base === undefined) throw new Error(`persistedState: MemoryStore has no method ${method}`);
        self[method] = (...args: unknown[]) => {
          const result = base.apply(this, args);
          if (!this.#replaying) {
            const [key, body] = writer(...args);
            this.#write(() => (body === undefined ? this.#deleteRow.run(kind, key) : this.#putRow.run(kind, key, JSON.stringify(body))));
          }
          return result;
        };
      }
    }
  }

  #write(statement: () => unknown): void {
    if (this.#failed) throw new DataDirError(`the data directory ${this.directory} can no longer be written (${this.#failed.message}); restart the server`);
    if (this.#closed) throw new DataDirError(`the ledger in ${this.directory} is closed`);
    // Writing before the log is read back would put new updates at offsets already taken.
    if (!this.isNew && !this.#recovered) throw new DataDirError(`the ledger in ${this.directory} has not been read back yet (Ledger.recover)`);
    try {
      if (!this.#inTransaction) {
        this.#db.exec('BEGIN');
        this.#inTransaction = true;
        // Runs when the current synchronous step ends: before any answer of that step is sent.
        queueMicrotask(() => this.#commit());
      }
      statement();
    } catch (e) {
      this.#fail(e as Error);
      throw e;
    }
  }

  #commit(): void {
    if (!this.#inTransaction || this.#closed) return;
    this.#inTransaction = false;
    try {
      this.#writeStaged();
      this.#db.exec('COMMIT');
      // After the commit: the mark never runs ahead of what the database holds.
      this.#acknowledged.advance(this.ledgerEnd);
    } catch (e) {
      this.#fail(e as Error);
    }
  }

  #fail(e: Error): void {
    if (this.#failed) return;
    this.#failed = e;
    (this.#options.onFailure ?? ((error) => {
      throw error;
    }))(e);
  }

  /** Commits what the current step wrote (normally done in a microtask). */
  flush(): void {
    this.#commit();
  }

  /** Commits and closes the database (the lock is released). */
  close(): void {
    if (this.#closed) return;
    this.#commit();
    this.#closed = true;
    this.#db.close();
    this.#acknowledged.close();
  }

  /** Drops what the current step wrote and closes: a start that failed leaves the directory as it was. */
  abandon(): void {
    if (this.#closed) return;
    if (this.#inTransaction) this.#db.exec('ROLLBACK');
    this.#inTransaction = false;
    this.#staged = undefined;
    this.#closed = true;
    this.#db.close();
    this.#acknowledged.close();
  }

  // ------------------------------------------------------------------ reading back

  #loadKeyedState(): void {
    this.#replaying = true;
    try {
      for (const row of this.#db.prepare('SELECT kind, key, body FROM state ORDER BY rowid').iterate() as IterableIterator<Row>) {
        if (typeof row.body !== 'string') throw new DataDirError(`the ${row.kind} record ${row.key} in ${this.directory} is damaged`);
        const spec = PERSISTED_STATE[row.kind];
        if (spec === undefined) throw new DataDirError(`the data directory ${this.directory} holds state of an unknown kind '${row.kind}' (written by a newer version?)`);
        spec.replay(this, row.key, JSON.parse(row.body));
      }
    } finally {
      this.#replaying = false;
    }
  }

  recover(catalogue: Catalogue, onEntry: (entry: LogEntry) => void): void {
    if (this.#recovered || this.isNew) return;
    this.#recovered = true;
    const shared = new Map<string, readonly string[]>();
    const env = {
      catalogue,
      contract: (id: string) => this.contract(id),
      parties: (list: readonly string[]) => {
        const key = list.join('\n');
        let known = shared.get(key);
        if (known === undefined) shared.set(key, (known = Object.freeze([...list])));
        return known;
      },
    };
    this.#replaying = true;
    try {
      // Rows as arrays (raw): no object per row for a log of a million updates.
      for (const [offset, body, dedup] of this.#db.prepare('SELECT offset, body, dedup FROM entries ORDER BY offset').raw(true).iterate() as IterableIterator<[number, string, string | null]>) {
        const row = { offset, body, dedup };
        if (row.offset !== this.ledgerEnd + 1) throw new DataDirError(`the update log in ${this.directory} has a gap: offset ${row.offset} follows ${this.ledgerEnd}`);
        let decoded;
        try {
          decoded = decodeEntry(row.body, env);
        } catch (e) {
          if (e instanceof DataDirError) throw e;
          throw new DataDirError(`the update at offset ${row.offset} in ${join(this.directory, DATABASE_FILE)} cannot be read back (${(e as Error).message}); the file is damaged`);
        }
        super.append(decoded.entry, decoded);
        if (row.dedup !== null) {
          const r = row.dedup === IMPLIED ? dedupOf(decoded.entry) : (JSON.parse(row.dedup) as DedupRecord);
          if (r === undefined) throw new DataDirError(`the update at offset ${row.offset} has no submission to deduplicate`);
          super.putDedup({ ...r, submissionId: r.submissionId });
        }
        onEntry(decoded.entry);
      }
      const prunedUpTo = Number((this.#db.prepare("SELECT value FROM meta WHERE key = 'prunedUpTo'").get() as { value: string } | undefined)?.value ?? 0);
      if (prunedUpTo > 0) super.prune(prunedUpTo);
    } catch (e) {
      throw explainOpenFailure(e, this.directory, join(this.directory, DATABASE_FILE));
    } finally {
      this.#replaying = false;
    }
  }
}

/** The `dedup` column of an update whose record is the one its own submission implies. */
const IMPLIED = '=';

/** The deduplication record a committed transaction implies (what Ledger.commit puts). */
function dedupOf(entry: LogEntry): DedupRecord | undefined {
  if (entry.kind !== 'transaction' || entry.submission === undefined) return undefined;
  const s = entry.submission;
  return { userId: s.userId, actAsKey: s.actAs.join('\n'), commandId: s.commandId, offset: entry.offset, recordTime: entry.recordTime, submissionId: s.submissionId };
}

function sameDedup(a: DedupRecord | undefined, b: DedupRecord): boolean {
  return (
    a !== undefined &&
    a.userId === b.userId &&
    a.actAsKey === b.actAsKey &&
    a.commandId === b.commandId &&
    a.offset === b.offset &&
    a.recordTime === b.recordTime &&
    a.submissionId === b.submissionId
  );
}
