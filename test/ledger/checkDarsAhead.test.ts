/**
 * The start-up check of a Splice folder's DARs (checkDarsAhead): split into parts (a worker's and
 * this thread's), it passes exactly the folders the sequential upload check passes, and refuses
 * exactly those it refuses; the ledger then lists and vets what uploading each DAR would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpliceDars } from '../../reference-server/src/apps/splice/spliceDars.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { checkDarsAhead, checkDarsInOrder, checkPart, type DarsToCheck } from '../../reference-server/src/ledger/packages/checkDarsAhead.js';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { recordCheckedDars, uploadDars } from '../../reference-server/src/ledger/packages/startupDars.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';

describe.skipIf(!HAS_DARS)('checkDarsAhead (needs ../shared/upstream/daml/dars)', () => {
  it("LocalNet's folder: every part passes, and the ledger lists and vets what uploading each DAR does", async () => {
    const set = readSpliceDars(DARS_DIR);
    if (!set.ok) throw new Error(set.error);
    const input: DarsToCheck = { dars: set.value.dars.map((d) => d.parsed.packages) };
    const ids = [...new Set(input.dars.flat().map((p) => p.packageId))];
    const half = new Set(ids.filter((_, i) => i % 2 === 0));
    expect(checkPart(input, half)).toBe(true);
    expect(checkPart(input, new Set(ids.filter((id) => !half.has(id))))).toBe(true);
    const ahead = await checkDarsAhead(input);
    expect(ahead.verdict).toEqual({ ok: true });

    const recorded = createLedger();
    expect(recordCheckedDars(set.value.dars, ahead)(recorded)).toEqual({ ok: true, value: undefined });
    const uploaded = createLedger();
    expect(uploadDars(uploaded, set.value.dars.map(({ name, bytes }) => ({ name, bytes })))).toEqual({ ok: true, value: undefined });
    expect(recorded.listPackages()).toEqual(uploaded.listPackages());
    expect(uploaded.listPackages().packageIds).toEqual(expect.arrayContaining(ids));
    for (const sync of uploaded.config.synchronizers) {
      const req = { packageMetadataFilter: {}, topologyStateFilter: { participantIds: [], synchronizerIds: [sync.id] } };
      const vetted = uploaded.listVettedPackages(req);
      expect(vetted.ok && vetted.value.vettedPackages[0]!.packages.length).toBeGreaterThan(40);
      expect(recorded.listVettedPackages(req)).toEqual(vetted);
    }
  }, 300_000);

  it('a DAR whose dependencies only a later DAR carries: refused as its upload would be, by every part that holds it', async () => {
    const amulet = readFileSync(join(DARS_DIR, 'splice-amulet-0.1.14.dar'));
    const parsed = readDar(amulet);
    if (!parsed.ok) throw new Error(parsed.error.reason);
    const main = parsed.value.packages[0]!;
    // The main package alone first (its dependencies are not known yet), then the whole DAR.
    const input: DarsToCheck = { dars: [[main], parsed.value.packages] };
    const sequential = checkDarsInOrder(input);
    expect(sequential).toMatchObject({ ok: false, index: 0, error: { code: 'DAR_NOT_SELF_CONSISTENT' } });
    expect(checkPart(input, new Set([main.packageId]))).toBe(false);
    expect(checkPart(input, new Set(parsed.value.packages.slice(1).map((p) => p.packageId)))).toBe(true);
    expect((await checkDarsAhead(input)).verdict).toEqual(sequential);
  }, 300_000);
});
