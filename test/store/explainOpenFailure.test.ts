/**
 * What `serve --data-dir` says when the directory cannot be used: better-sqlite3's native binding
 * missing or built for another Node is said as such (with how to build it), never as a damaged file.
 */
import { describe, expect, it } from 'vitest';
import { DataDirError } from '../../reference-server/src/store/sqlite/DataDirError.js';
import { explainOpenFailure } from '../../reference-server/src/store/sqlite/explainOpenFailure.js';

const failure = (message: string, code?: string): Error => Object.assign(new Error(message), code === undefined ? {} : { code });
const explain = (e: Error) => explainOpenFailure(e, '/data', '/data/ledger.sqlite');

describe('explainOpenFailure', () => {
  it('says the binding is missing, and how to build it, for each way better-sqlite3 fails to load', () => {
    const missing = [
      failure('Could not locate the bindings file. Tried:\n → /p/node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
      failure("The module '/p/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127.", 'ERR_DLOPEN_FAILED'),
      failure("Cannot find module 'better-sqlite3'\nRequire stack:\n- /p/dist/store.js", 'MODULE_NOT_FOUND'),
    ];
    for (const e of missing) {
      const r = explain(e);
      expect(r).toBeInstanceOf(DataDirError);
      expect(r.message).toMatch(/^--data-dir needs better-sqlite3's native SQLite binding, which cannot be loaded \(/);
      expect(r.message).toContain(e.message.split('\n')[0]!.replace(/\. Tried:$/, ''));
      expect(r.message).toMatch(/npm rebuild better-sqlite3/);
      expect(r.message).not.toMatch(/damaged|Tried:/);
    }
  });

  it('keeps what it said before for SQLite errors and unreadable records', () => {
    expect(explain(failure('database is locked', 'SQLITE_BUSY')).message).toMatch(/in use by another canton-conformance server/);
    expect(explain(failure('file is not a database', 'SQLITE_NOTADB')).message).toMatch(/not a canton-conformance ledger database/);
    expect(explain(failure('Unexpected token } in JSON')).message).toMatch(/holds a record that cannot be read back .* the file is damaged/);
    const own = new DataDirError('already said');
    expect(explain(own)).toBe(own);
  });
});
