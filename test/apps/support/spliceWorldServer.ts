import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpliceDars, seedSpliceAppWorld, type SpliceAppWorld } from '../../../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import type { SpliceAmulet } from '../../../reference-server/src/apps/splice/SpliceAmulet.js';
import { readSpliceDars } from '../../../reference-server/src/apps/splice/spliceDars.js';
import { DARS_DIR } from '../../daml/damlFixtures.js';
import { startAppServer, type AppServer } from './appServer.js';

/**
 * The app server over the default world built on Splice's DARs (as `serve --splice-dars` builds it),
 * from a folder holding only `dars` (paths under ../shared/upstream/daml/dars): the rest of a
 * release folder adds upload time, nothing the tests read.
 */
export async function startSpliceWorldServer(dars: readonly string[]): Promise<{ server: AppServer; splice: SpliceAmulet; world: SpliceAppWorld }> {
  const dir = mkdtempSync(join(tmpdir(), 'splice-dars-'));
  for (const dar of dars) copyFileSync(join(DARS_DIR, dar), join(dir, dar.split('/').at(-1)!));
  const set = readSpliceDars(dir);
  rmSync(dir, { recursive: true });
  if (!set.ok) throw new Error(set.error);
  let splice: SpliceAmulet | undefined;
  let world: SpliceAppWorld | undefined;
  const server = await startAppServer({
    load: (ledger) => {
      const loaded = loadSpliceDars(ledger, set.value);
      if (!loaded.ok) throw new Error(loaded.error);
      splice = loaded.value;
      return { splice };
    },
    prepare: (ledger) => {
      const seeded = seedSpliceAppWorld(ledger, splice!);
      if (!seeded.ok) throw new Error(`${seeded.error.code}: ${seeded.error.cause}`);
      world = seeded.value;
    },
  });
  return { server, splice: splice!, world: world! };
}
