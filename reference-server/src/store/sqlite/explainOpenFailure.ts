/**
 * What went wrong opening or reading a data directory, said for the person who started the server:
 * the `DataDirError` `serve` prints before it exits 2.
 */
import { join } from 'node:path';
import { LEDGER_END_FILE } from './AcknowledgedEnd.js';
import { DataDirError } from './DataDirError.js';
import { readOnlyPath } from './readOnlyPath.js';

/**
 * better-sqlite3's native binding missing or built for another Node (its install script did not
 * run: `npm install --ignore-scripts`, npm 11's `allowScripts` left unapproved, or Node upgraded
 * since): the `bindings` package's "Could not locate the bindings file", or Node's failed dlopen.
 */
const NO_BINDING = /Could not locate the bindings file|NODE_MODULE_VERSION|better_sqlite3\.node/;

export function explainOpenFailure(e: unknown, directory: string, file: string): Error {
  if (e instanceof DataDirError) return e;
  const code = (e as { code?: unknown }).code;
  const message = (e as Error).message;
  if (code === 'ERR_DLOPEN_FAILED' || (code === 'MODULE_NOT_FOUND' && /better-sqlite3/.test(message)) || NO_BINDING.test(message)) {
    // The first line says what failed (`bindings` goes on to list every path it tried).
    const first = message.split('\n')[0]!.trim().replace(/\.? Tried:$/, '');
    return new DataDirError(
      `--data-dir needs better-sqlite3's native SQLite binding, which cannot be loaded (${first}); its install script has not built it for this Node. `
      + 'Run `npm rebuild better-sqlite3` in the project that installed canton-conformance (npm 11 first asks for `npm install-scripts approve better-sqlite3`)',
    );
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new DataDirError(`the data directory ${directory} is in use by another canton-conformance server (its database ${file} is locked); stop that server or pick another --data-dir`);
  }
  if (code === 'SQLITE_NOTADB') return new DataDirError(`${file} is not a canton-conformance ledger database (not an SQLite file); move it away or pick another --data-dir`);
  if (code === 'SQLITE_CORRUPT') return new DataDirError(`${file} is damaged (${message}); restore it from a copy or pick another --data-dir`);
  if (typeof code === 'string' && /^SQLITE_(CANTOPEN|READONLY|PERM|IOERR|AUTH)/.test(code)) {
    // SQLite reports a file it may not write as "disk I/O error" (SQLITE_IOERR_LOCK) or the like: say what is wrong.
    const readOnly = readOnlyPath([directory, file, `${file}-wal`, join(directory, LEDGER_END_FILE)]);
    if (readOnly !== undefined) return new DataDirError(`the data directory ${directory} is read-only: ${readOnly} cannot be written (${code}); give the server write access or pick another --data-dir`);
    if (!code.startsWith('SQLITE_IOERR')) return new DataDirError(`cannot open ${file} for writing (${message})`);
  }
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return new DataDirError(`cannot use ${file}: ${message} (${code})`);
  // Anything else while reading back: a record that does not hold what it should.
  return new DataDirError(`${file} holds a record that cannot be read back (${message}); the file is damaged`);
}
