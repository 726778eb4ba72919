/**
 * `serve --splice-dars DIR --data-dir D` started twice: the restored ledger keeps what the first
 * start made of Splice's packages: `#splice-amulet` names the loaded package (not the port, which
 * `/v2/packages` does not list), and the seeded round history answers Scan's earliest round.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appsOf } from '../../reference-server/src/apps/index.js';
import { packageIdOf } from '../../reference-server/src/ledger/templates/Catalogue.js';
import { openLedger } from '../../reference-server/src/startReferenceServer.js';
import { DARS_DIR } from '../daml/damlFixtures.js';

const DAR = join(DARS_DIR, 'splice', 'splice-amulet-0.1.22.dar');

describe.skipIf(!existsSync(DAR))('a --splice-dars ledger restored from its --data-dir (needs ../shared/upstream/daml/dars/splice)', () => {
  let root: string | undefined;
  afterAll(() => root !== undefined && rmSync(root, { recursive: true, force: true }));

  it('names Splice\'s splice-amulet by package name and keeps the round history after a restart', () => {
    root = mkdtempSync(join(tmpdir(), 'splice-restart-'));
    const dars = join(root, 'dars');
    const dataDir = join(root, 'data');
    mkdirSync(dars);
    copyFileSync(DAR, join(dars, 'splice-amulet-0.1.22.dar'));
    const observe = () => {
      const { ledger, store } = openLedger({ fixtures: undefined, spliceDars: dars, dataDir });
      try {
        const amulet = ledger.catalogue.resolve('#splice-amulet:Splice.Amulet:Amulet');
        const listed = ledger.listPackages().packageIds;
        return {
          packageName: amulet.ok ? amulet.value.packageName : amulet.error.code,
          uploaded: amulet.ok && ledger.admin.package(amulet.value.packageId) !== undefined,
          portListed: listed.includes(packageIdOf('splice-amulet')),
          earliest: appsOf(ledger).scan.earliestAvailableRound(),
        };
      } finally {
        store?.close();
      }
    };
    const first = observe();
    expect(first).toMatchObject({ packageName: 'splice-amulet', uploaded: true, portListed: false, earliest: { ok: true, value: { earliest_round: 1 } } });
    expect(observe()).toEqual(first);
  });
});
