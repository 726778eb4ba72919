import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { silentLogger } from '../../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers, type MockLedgerApi } from '../../../reference-server/src/msw/index.js';
import { DARS_DIR } from '../../daml/damlFixtures.js';

/**
 * createHandlers({ spliceDars, appWorld }) at `url` over a folder holding only `dars` (file names
 * under ../shared/upstream/daml/dars/splice), listening through msw; close the server after.
 */
export function startSpliceDarsMock(url: string, dars: readonly string[]): { mock: MockLedgerApi; server: ReturnType<typeof setupServer> } {
  const dir = mkdtempSync(join(tmpdir(), 'splice-dars-'));
  for (const dar of dars) copyFileSync(join(DARS_DIR, 'splice', dar), join(dir, dar));
  let mock: MockLedgerApi;
  try {
    mock = createHandlers({ ledgerUrl: url, spliceDars: dir, appWorld: true, log: silentLogger });
  } finally {
    rmSync(dir, { recursive: true });
  }
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return { mock, server };
}
