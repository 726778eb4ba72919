import { closeSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataDirError } from './DataDirError.js';
import { readOnlyPath } from './readOnlyPath.js';

/** The file next to the database that records the highest offset ever acknowledged. */
export const LEDGER_END_FILE = 'ledger.end';
/** Fixed width, so that each mark overwrites the last in place with one write. */
const WIDTH = 20;

/**
 * The highest acknowledged offset, kept outside the SQLite database and its write-ahead log, so
 * that losing either (a WAL removed after `kill -9`, a database truncated to 0 bytes) shows as a
 * ledger that ends before what it acknowledged, instead of a shorter ledger that starts without a
 * word. It is written after each commit, with the same guarantee as the commit (handed to the
 * operating system): it never runs ahead of the database, so it never refuses a sound one.
 */
export class AcknowledgedEnd {
  #fd: number | undefined;
  #marked: number;

  private constructor(
    readonly path: string,
    readonly databaseFile: string,
    /** What the file said at open; undefined for a directory written before it existed. */
    readonly recorded: number | undefined,
  ) {
    this.#marked = recorded ?? 0;
  }

  /**
   * Reads the mark of `directory` and refuses, before the database is opened, a database file
   * that is missing or empty while the mark says updates were acknowledged, or that is empty
   * without any mark. A directory that holds nothing yet gets a mark of 0 first, so that a first
   * start that dies before its first commit leaves a directory that is still new.
   */
  static open(directory: string, databaseFile: string): AcknowledgedEnd {
    const path = join(directory, LEDGER_END_FILE);
    const recorded = readMark(path);
    const wal = `${databaseFile}-wal`;
    const dbSize = sizeOf(databaseFile);
    if ((dbSize ?? 0) === 0 && (sizeOf(wal) ?? 0) === 0) {
      if (recorded !== undefined && recorded > 0) {
        throw new DataDirError(
          `${databaseFile} ${dbSize === undefined ? 'is missing' : 'is empty (0 bytes)'}, but ${path} records acknowledged updates up to offset ${recorded}: the ledger was lost. ` +
            `Nothing was changed. Restore ${databaseFile} (with ${wal}) from a copy, or remove both files to start a new, empty ledger.`,
        );
      }
      if (dbSize === 0 && recorded === undefined) {
        throw new DataDirError(`${databaseFile} is empty (0 bytes): it holds no ledger (truncated or damaged?). Nothing was changed. Restore it from a copy, or remove it to start a new, empty ledger.`);
      }
      if (recorded === undefined) writeFresh(path);
    }
    return new AcknowledgedEnd(path, databaseFile, recorded ?? (dbSize === undefined ? 0 : undefined));
  }

  /**
   * Refuses a database that ends before the acknowledged end (`lastOffset`: its last update;
   * `isNew`: it holds no ledger at all), then takes the file for writing. A directory without a
   * mark (written by an earlier version) gets one at its current end.
   */
  check(isNew: boolean, lastOffset: number): void {
    const wal = `${this.databaseFile}-wal`;
    const recorded = this.recorded;
    if (recorded !== undefined && recorded > lastOffset) {
      throw new DataDirError(
        isNew
          ? `${this.databaseFile} holds no ledger, but ${this.path} records acknowledged updates up to offset ${recorded}: the ledger was lost (its write-ahead log ${wal} removed?). ` +
              `Nothing was changed. Restore ${this.databaseFile} with ${wal} from a copy, or remove both files to start a new, empty ledger.`
          : `${this.databaseFile} ends at offset ${lastOffset}, but ${this.path} records acknowledged updates up to offset ${recorded}: ${recorded - lastOffset} acknowledged updates are missing ` +
              `(was its write-ahead log ${wal} removed after a crash?). Nothing was changed. Restore ${this.databaseFile} with ${wal} from a copy, or remove ${this.path} to keep the ledger as it is.`,
      );
    }
    this.#fd = openForMarks(this.path);
    if (recorded === undefined || recorded < lastOffset) this.advance(lastOffset);
  }

  /** Records `end` as acknowledged (called after the commit that made it durable). */
  advance(end: number): void {
    if (this.#fd === undefined || end <= this.#marked) return;
    writeSync(this.#fd, encode(end), 0, 'latin1');
    this.#marked = end;
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

function encode(end: number): string {
  return `${String(end).padStart(WIDTH, '0')}\n`;
}

function sizeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.size;
}

function readMark(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataDirError(`cannot read ${path}: ${(e as Error).message}`);
  }
  if (!/^\d{1,20}\n?$/.test(text)) throw new DataDirError(`${path} is damaged (it should hold one offset); restore it from a copy, or remove it to accept the database as it is`);
  return Number(text.trim());
}

/** The mark of a directory that holds nothing yet, on disk (synced, with its directory entry) before the database is created. */
function writeFresh(path: string): void {
  try {
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, encode(0), 0, 'latin1');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    syncDirectory(dirname(path));
  } catch (e) {
    throw unwritable(path, e);
  }
}

function openForMarks(path: string): number {
  try {
    // r+ keeps what is there until the first mark overwrites it in place; w+ creates a missing file.
    return openSync(path, statSync(path, { throwIfNoEntry: false }) === undefined ? 'w+' : 'r+');
  } catch (e) {
    throw unwritable(path, e);
  }
}

function syncDirectory(directory: string): void {
  try {
    const fd = openSync(directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every platform syncs a directory; the mark is then as durable as the file system makes it.
  }
}

function unwritable(path: string, e: unknown): DataDirError {
  const directory = dirname(path);
  const readOnly = readOnlyPath([path, directory]);
  if (readOnly !== undefined) return new DataDirError(`the data directory ${directory} is read-only: ${readOnly} cannot be written; give the server write access or pick another --data-dir`);
  return new DataDirError(`cannot write ${path}: ${(e as Error).message}`);
}
