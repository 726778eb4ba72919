/**
 * A DAR upload reads, decodes and checks its packages in slices that yield to the event loop
 * (issue 30: "no upload under the bound stalls other clients"), with the same answer as the
 * synchronous check, and records all or none afterwards. Proven by events, never clocks: work
 * scheduled after the check started runs before it ends; the outcome is the synchronous one.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder, type BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { createLedger } from '../../reference-server/src/ledger/index.js';
import { darEntryWanted, readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { unzipDar } from '../../reference-server/src/ledger/packages/unzipDar.js';
import { validateDarPackages, validateDarPackagesAsync } from '../../reference-server/src/ledger/packages/validateDarPackages.js';
import { startServer, type TestServer } from './support/startServer.js';

/** A package of `n` small values: n definitions, so n steps of the check. */
function manyValues(name: string, n: number, body: (i: number) => ReturnType<typeof E.int64> = (i) => E.int64(BigInt(i))): BuiltPackage {
  const b = new PackageBuilder({ name, version: '1.0.0' });
  const m = b.module('Many');
  for (let i = 0; i < n; i++) m.value(`v${i}`, T.int64, body(i));
  return b.build();
}
const packagesOf = (dar: Uint8Array) => {
  const parsed = readDar(dar, unzipDar(dar, darEntryWanted));
  if (!parsed.ok) throw new Error(parsed.error.reason);
  return parsed.value.packages;
};
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('validateDarPackagesAsync', () => {
  it('gives the synchronous answer, and other work runs while it checks', async () => {
    const built = manyValues('sliced-check-ok', 200);
    const packages = packagesOf(built.dar());
    const sync = validateDarPackages(packages, () => undefined);
    const events: string[] = [];
    let pauses = 0;
    const checking = validateDarPackagesAsync(packages, () => undefined, { sliceMs: 0, pause: async () => { pauses++; await turn(); } }).then((r) => {
      events.push('check done');
      return r;
    });
    setImmediate(() => events.push('other request served'));
    const r = await checking;
    expect(r.ok && r.value.map((p) => p.id)).toEqual(sync.ok && sync.value.map((p) => p.id));
    expect(events).toEqual(['other request served', 'check done']);
    // A step per definition (and per package decoded): the check never holds the loop for a whole package.
    expect(pauses).toBeGreaterThanOrEqual(200);
  });

  it('refuses what the synchronous check refuses, with the same error', async () => {
    // v7 is ill-typed: a text where an Int64 is declared.
    const built = manyValues('sliced-check-bad', 20, (i) => (i === 7 ? E.text('seven') : E.int64(BigInt(i))) as ReturnType<typeof E.int64>);
    const packages = packagesOf(built.dar());
    const sync = validateDarPackages(packages, () => undefined);
    expect(sync.ok).toBe(false);
    expect(await validateDarPackagesAsync(packages, () => undefined, { sliceMs: 0 })).toEqual(sync);
  });
});

describe('uploads over HTTP check ahead, then record all or none', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const upload = (dar: Uint8Array) => server.http.post(`/v2/dars?synchronizerId=${encodeURIComponent(server.ledger.config.synchronizers[0]!.id)}`).set('content-type', 'application/octet-stream').send(Buffer.from(dar));
  const listed = async () => ((await server.http.get('/v2/packages')).body as { packageIds: string[] }).packageIds;

  it('the same DAR sent twice at once: both answer 200, its packages recorded once', async () => {
    const built = manyValues('sliced-twice', 50);
    const [a, b] = await Promise.all([upload(built.dar()), upload(built.dar())]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await listed()).filter((id) => id === built.id)).toHaveLength(1);
  });

  it('a refused DAR leaves no trace, and the next upload is checked afresh and recorded', async () => {
    const bad = manyValues('sliced-refused', 20, (i) => (i === 3 ? E.text('three') : E.int64(BigInt(i))) as ReturnType<typeof E.int64>);
    const before = await listed();
    const refused = await upload(bad.dar());
    expect([refused.status, (refused.body as { code: string }).code]).toEqual([400, 'DAR_VALIDATION_ERROR']);
    expect(await listed()).toEqual(before);
    const good = manyValues('sliced-after-refusal', 20);
    expect((await upload(good.dar())).status).toBe(200);
    expect(await listed()).toContain(good.id);
  });

  it('a check made ahead for one ledger is never taken by another, nor twice', async () => {
    const built = manyValues('sliced-other-ledger', 10);
    const bytes = built.dar();
    const inflated = unzipDar(bytes, darEntryWanted);
    const first = createLedger();
    const second = createLedger();
    await first.prepareDar(bytes, inflated);
    // An upload abandoned after its check (the client left): the next one on another ledger checks for itself.
    const options = { synchronizerId: first.config.synchronizers[0]!.id };
    expect(second.uploadDar(bytes, options, inflated)).toEqual({ ok: true, value: {} });
    expect(first.uploadDar(bytes, options, inflated)).toEqual({ ok: true, value: {} });
    expect(first.listPackages().packageIds).toContain(built.id);
    expect(second.listPackages().packageIds).toContain(built.id);
    expect(createHash('sha256').update(packagesOf(bytes)[0]!.payload).digest('hex')).toBe(built.id);
  });
});
