import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createLedger, resolveConfig, type Ledger, type ManualClock } from '../../../reference-server/src/ledger/index.js';
import { SqliteStore } from '../../../reference-server/src/store/sqlite/SqliteStore.js';

/**
 * Ledgers on a `--data-dir` that a test stops and starts again: a fresh directory per test, every
 * store closed and every directory removed after each test.
 */
export function restartableLedgers(): {
  /** A data directory inside a fresh temporary one. */
  newDataDir(prefix: string): string;
  /** A ledger recovered from `dir`, as `serve --data-dir` starts. */
  ledgerOn(dir: string, clock: ManualClock): Ledger;
  /** Stops every ledger started so far (closes its store), as a restart does. */
  stopAll(): void;
} {
  const dirs: string[] = [];
  const stores: SqliteStore[] = [];
  const stopAll = () => stores.splice(0).forEach((s) => s.close());
  afterEach(() => {
    stopAll();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    newDataDir(prefix) {
      const base = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(base);
      return join(base, 'data');
    },
    ledgerOn(dir, clock) {
      const store = SqliteStore.open(dir, { participantId: resolveConfig().participantId });
      stores.push(store);
      const ledger = createLedger({ clock, store, blobKey: store.blobKey });
      ledger.recover();
      return ledger;
    },
    stopAll,
  };
}
