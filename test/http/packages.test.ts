import { createHash } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeArchive, encodeArchive } from '../../daml-engine/index.js';
import { samplePackage } from '../../reference-server/src/ledger/templates/samplePackage.js';
import { buildDalf, buildDar, buildLineageDalf, freshPackageName } from '../../conformance/src/generators/dar.js';
import { expectCantonError } from './support/cantonError.js';
import { get, post } from './support/ledgerApi.js';
import { fetchPackage, upload } from './support/packages.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';

let server: TestServer;
let sync: string;
let otherSync: string;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  [sync, otherSync] = server.ledger.config.synchronizers.map((s) => s.id) as [string, string];
});
afterAll(() => server.close());

const packageIds = async (): Promise<string[]> => (await get(server, '/v2/packages')).body.packageIds as string[];
const vettedOn = async (synchronizerId: string, packageId: string): Promise<boolean> => {
  const res = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [packageId] }, topologyStateFilter: { synchronizerIds: [synchronizerId] } });
  expect(res.status).toBe(200);
  return (res.body.vettedPackages as { packages: { packageId: string }[] }[]).some((v) => v.packages.some((p) => p.packageId === packageId));
};

describe('DAR upload', () => {
  it('records every package of the DAR: listed, fetchable byte-identical with its hash, registered, vetted where asked', async () => {
    const main = buildDalf({ name: freshPackageName(), version: '1.0.0' });
    const dep = buildDalf({ name: freshPackageName('dep'), version: '0.1.0' });
    const res = await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, buildDar({ main, dependencies: [dep] }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const ids = await packageIds();
    expect(ids).toEqual(expect.arrayContaining([main.packageId, dep.packageId]));
    for (const d of [main, dep]) {
      const got = await fetchPackage(server, d.packageId);
      expect(got.status).toBe(200);
      expect(got.contentType).toBe('application/octet-stream');
      expect(got.hash).toBe(d.packageId);
      expect(Buffer.compare(got.bytes, Buffer.from(d.payload))).toBe(0);
      expect(createHash('sha256').update(got.bytes).digest('hex')).toBe(d.packageId);
      expect((await get(server, `/v2/packages/${d.packageId}/status`)).body).toEqual({ packageStatus: 'PACKAGE_STATUS_REGISTERED' });
    }
    expect(await vettedOn(sync, main.packageId)).toBe(true);
    expect(await vettedOn(otherSync, main.packageId)).toBe(false);
    const list = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [main.packageId] } });
    expect(list.body.vettedPackages[0].packages[0]).toEqual({ packageId: main.packageId, packageName: main.packageName, packageVersion: '1.0.0' });
  });

  it('POST /v2/packages is the same upload; vetAllPackages=false records without vetting (no synchronizer needed)', async () => {
    const main = buildDalf({ name: freshPackageName(), version: '2.0.0' });
    const res = await upload(server, '/v2/packages?vetAllPackages=false', buildDar({ main }));
    expect(res.status).toBe(200);
    expect(await packageIds()).toContain(main.packageId);
    expect(await vettedOn(sync, main.packageId)).toBe(false);
    expect(await vettedOn(otherSync, main.packageId)).toBe(false);
  });

  it('uploading the same DAR again is accepted and changes nothing', async () => {
    const dar = buildDar({ main: buildDalf({ name: freshPackageName(), version: '1.0.0' }) });
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, dar)).status).toBe(200);
    const before = await packageIds();
    expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, dar)).status).toBe(200);
    expect(await packageIds()).toEqual(before);
  });

  const name = freshPackageName('bad');
  const good = buildDalf({ name, version: '1.0.0' });
  const goodDar = () => buildDar({ main: good });
  const badInputs: { what: string; bytes: () => Uint8Array; query?: string; status: number; code?: string; text?: RegExp }[] = [
    { what: 'not a zip', bytes: () => strToU8('definitely not a DAR'), status: 400, code: 'INVALID_DAR' },
    { what: 'a truncated zip', bytes: () => goodDar().slice(0, 60), status: 400, code: 'INVALID_DAR' },
    { what: 'a zip without a manifest', bytes: () => buildDar({ main: good, manifest: null }), status: 400, code: 'INVALID_DAR' },
    { what: 'a manifest naming a missing DALF', bytes: () => buildDar({ main: good, manifest: 'Manifest-Version: 1.0\r\nMain-Dalf: nowhere.dalf\r\n' }), status: 400, code: 'INVALID_DAR' },
    { what: 'a DALF whose hash is not its payload’s', bytes: () => buildDar({ main: buildDalf({ name, version: '1.0.0', hash: 'ab'.repeat(32) }) }), status: 400, code: 'DAR_PARSE_ERROR' },
    { what: 'a DALF that is not protobuf', bytes: () => zipSync({ 'META-INF/MANIFEST.MF': strToU8('Main-Dalf: x.dalf\r\n'), 'x.dalf': new Uint8Array([0xff, 0xff, 0xff]) }), status: 400, code: 'DAR_PARSE_ERROR' },
    { what: 'an empty body', bytes: () => new Uint8Array(0), status: 400, text: /Invalid value for: body/ },
    { what: 'a non-boolean vetAllPackages', bytes: goodDar, query: '?vetAllPackages=maybe', status: 400, text: /query parameter vetAllPackages/ },
    { what: 'vetting without a synchronizer on a two-synchronizer participant', bytes: goodDar, query: '', status: 400, code: 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER' },
    { what: 'an unknown synchronizer', bytes: goodDar, query: '?synchronizerId=nowhere%3A%3A1220', status: 400, code: 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER' },
  ];
  it.each(badInputs)('refuses $what with $status and records nothing', async ({ bytes, query, status, code, text }) => {
    const before = await packageIds();
    for (const path of ['/v2/dars', '/v2/packages']) {
      const res = await upload(server, `${path}${query ?? '?vetAllPackages=false'}`, bytes());
      expect(res.status, path).toBe(status);
      if (code !== undefined) expectCantonError(res.body, code);
      if (text !== undefined) expect(res.text).toMatch(text);
    }
    expect(await packageIds()).toEqual(before);
    expect(server.errors).toEqual([]);
  });

  it('refuses to vet a different package under a vetted name and version (KNOWN_PACKAGE_VERSION) and records none of that DAR', async () => {
    const pkgName = freshPackageName();
    const vetting = `/v2/dars?synchronizerId=${encodeURIComponent(sync)}`;
    expect((await upload(server, vetting, buildDar({ main: buildLineageDalf({ name: pkgName, version: '1.0.0' }) }))).status).toBe(200);
    const other = buildLineageDalf({ name: pkgName, version: '1.0.0', salt: 'different' });
    const dep = buildDalf({ name: freshPackageName('dep'), version: '1.0.0' });
    // Without vetting the clash is stored beside the first (Canton checks lineages when it vets).
    expect((await upload(server, '/v2/dars?vetAllPackages=false', buildDar({ main: other }))).status).toBe(200);
    const res = await upload(server, vetting, buildDar({ main: dep, dependencies: [other] }));
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'KNOWN_PACKAGE_VERSION');
    // Both packages named as Canton names them: id (name vVersion).
    expect((res.body as { cause: string }).cause).toContain(`${other.packageId} (${pkgName} v1.0.0)`);
    expect(await packageIds()).not.toContain(dep.packageId);
  });

  it('answers 413 above the upload limit, and registers nothing', async () => {
    const small = await startServer({ http: { maxUploadBodyBytes: 2048 } });
    try {
      const main = buildDalf({ name: freshPackageName(), version: '1.0.0' });
      const dar = buildDar({ main, extra: { 'filler.bin': new Uint8Array(4096).fill(7) } });
      const res = await small.http.post('/v2/dars?vetAllPackages=false').set('Content-Type', 'application/octet-stream').send(Buffer.from(dar));
      expect(res.status).toBe(413);
      expect((await get(small, '/v2/packages')).body.packageIds).not.toContain(main.packageId);
      // A JSON body stays under the JSON limit, not the upload one.
      expect((await upload(small, '/v2/dars?vetAllPackages=false', buildDar({ main }))).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('validates without recording: a valid DAR is an empty 200, a corrupt one INVALID_DAR', async () => {
    const main = buildDalf({ name: freshPackageName(), version: '1.0.0' });
    const res = await upload(server, '/v2/dars/validate', buildDar({ main }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await packageIds()).not.toContain(main.packageId);
    const bad = await upload(server, '/v2/dars/validate', strToU8('PK-not-really'));
    expect(bad.status).toBe(400);
    expectCantonError(bad.body, 'INVALID_DAR');
    const unknownSync = await upload(server, '/v2/dars/validate?synchronizerId=nowhere', buildDar({ main }));
    expectCantonError(unknownSync.body, 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER');
  });

  it('needs ParticipantAdmin to upload or validate; anyone authenticated may list and fetch', async () => {
    const user = freshPackageName('user');
    expect((await post(server, '/v2/users', { user: { id: user } })).status).toBe(200);
    const dar = buildDar({ main: buildDalf({ name: freshPackageName(), version: '1.0.0' }) });
    for (const path of ['/v2/dars?vetAllPackages=false', '/v2/packages?vetAllPackages=false', '/v2/dars/validate']) {
      const res = await upload(server, path, dar, { 'x-test-user': user });
      expect(res.status, path).toBe(403);
      // Security-sensitive refusals are masked, as on the participant.
      expect(res.body).toMatchObject({ code: 'NA', grpcCodeValue: 7 });
    }
    expect((await get(server, '/v2/packages', { headers: { 'x-test-user': user } })).status).toBe(200);
    const ok = await upload(server, '/v2/dars?vetAllPackages=false', dar, { 'x-test-user': 'participant_admin' });
    expect(ok.status).toBe(200);
  });
});

describe('packages', () => {
  it('lists the built-in catalogue packages too, with stable ids, fetchable and registered', async () => {
    const builtIn = server.ledger.catalogue.packages();
    expect(builtIn.length).toBeGreaterThan(0);
    expect(await packageIds()).toEqual(expect.arrayContaining(builtIn.map((p) => p.packageId)));
    const first = builtIn[0] as { packageId: string };
    const got = await fetchPackage(server, first.packageId);
    expect(got.status).toBe(200);
    expect(got.hash).toBe(first.packageId);
    expect(got.bytes.length).toBeGreaterThan(0);
    expect((await get(server, `/v2/packages/${first.packageId}/status`)).body.packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
  });

  it('serves the sample templates as a real Daml-LF package (its SHA-256 is its id); the hand-written ports without modules', async () => {
    const sample = samplePackage();
    const got = await fetchPackage(server, sample.id);
    expect(got.status).toBe(200);
    expect(createHash('sha256').update(got.bytes).digest('hex')).toBe(sample.id);
    const decoded = decodeArchive(encodeArchive(got.bytes).dalf);
    expect(decoded.ok && [...decoded.value.modules.keys()].sort()).toEqual(['Sample.Account', 'Sample.Asset', 'Sample.Holding']);
    const ports = server.ledger.catalogue.packages().filter((p) => p.packageId !== sample.id);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) {
      const bytes = (await fetchPackage(server, port.packageId)).bytes;
      const d = decodeArchive(encodeArchive(bytes).dalf);
      expect(d.ok && { name: d.value.metadata?.name, modules: d.value.modules.size }, port.packageName).toEqual({ name: port.packageName, modules: 0 });
    }
  });

  it('answers an unknown package id with 404 PACKAGE_NOT_FOUND and status UNSPECIFIED; a malformed id with 400', async () => {
    const unknown = 'f'.repeat(64);
    const got = await fetchPackage(server, unknown);
    expect(got.status).toBe(404);
    expectCantonError(got.json, 'PACKAGE_NOT_FOUND');
    expect((await get(server, `/v2/packages/${unknown}/status`)).body).toEqual({ packageStatus: 'PACKAGE_STATUS_UNSPECIFIED' });
    for (const bad of ['not-hex', 'F'.repeat(64), 'a'.repeat(63)]) {
      const res = await fetchPackage(server, bad);
      expect(res.status, bad).toBe(400);
      expectCantonError(res.json, 'INVALID_ARGUMENT');
      expect((await get(server, `/v2/packages/${bad}/status`)).status, bad).toBe(400);
    }
  });
});
