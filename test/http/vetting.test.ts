import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDalf, buildDar, freshPackageName, type BuiltDalf } from '../../conformance/src/generators/dar.js';
import { expectCantonError } from './support/cantonError.js';
import { get, post, send } from './support/ledgerApi.js';
import { upload } from './support/packages.js';
import { startServer, type TestServer } from './support/startServer.js';
import { headerUserAuthenticator } from './support/userPrincipal.js';

let server: TestServer;
let sync: string;
let otherSync: string;
let party: string;
beforeAll(async () => {
  server = await startServer({ authenticator: headerUserAuthenticator });
  [sync, otherSync] = server.ledger.config.synchronizers.map((s) => s.id) as [string, string];
  party = (await post(server, '/v2/parties', { partyIdHint: freshPackageName('p') })).body.partyDetails.party as string;
});
afterAll(() => server.close());

async function uploadVetted(d: BuiltDalf, on = sync): Promise<void> {
  expect((await upload(server, `/v2/dars?synchronizerId=${encodeURIComponent(on)}`, buildDar({ main: d }))).status).toBe(200);
}
const listOn = async (synchronizerId: string, name: string) => {
  const res = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageNamePrefixes: [name] }, topologyStateFilter: { synchronizerIds: [synchronizerId] } });
  expect(res.status).toBe(200);
  return res.body as { vettedPackages: { topologySerial: number; synchronizerId: string; packages: { packageId: string; validFromInclusive?: string }[] }[]; nextPageToken: string };
};
const update = (body: unknown, headers: Record<string, string> = {}) => post(server, '/v2/package-vetting/update', body, { headers });
const vet = (refs: unknown[], extra: Record<string, unknown> = {}) => ({ changes: [{ operation: { Vet: { value: { packages: refs, ...extra } } } }], synchronizerId: sync });
const unvet = (refs: unknown[]) => ({ changes: [{ operation: { Unvet: { value: { packages: refs } } } }], synchronizerId: sync });

describe('package vetting', () => {
  it('update then list agree: unvet removes, vet with bounds adds, each bumps the serial once', async () => {
    const d = buildDalf({ name: freshPackageName(), version: '1.0.0' });
    await uploadVetted(d);
    const serial = (await listOn(sync, d.packageName)).vettedPackages[0]?.topologySerial as number;
    const off = await update(unvet([{ packageId: d.packageId }]));
    expect(off.status).toBe(200);
    expect(off.body.pastVettedPackages.packages.map((p: { packageId: string }) => p.packageId)).toContain(d.packageId);
    expect(off.body.newVettedPackages.packages.map((p: { packageId: string }) => p.packageId)).not.toContain(d.packageId);
    expect(off.body.newVettedPackages.topologySerial).toBe(serial + 1);
    expect((await listOn(sync, d.packageName)).vettedPackages).toEqual([]);
    const on = await update(vet([{ packageName: d.packageName, packageVersion: '1.0.0' }], { newValidFromInclusive: '2020-01-01T00:00:00Z' }));
    expect(on.status).toBe(200);
    const listed = await listOn(sync, d.packageName);
    expect(listed.vettedPackages[0]?.packages).toEqual([{ packageId: d.packageId, packageName: d.packageName, packageVersion: '1.0.0', validFromInclusive: '2020-01-01T00:00:00Z' }]);
    expect(listed.vettedPackages[0]?.topologySerial).toBe(serial + 2);
    // Nothing happened on the other synchronizer.
    expect((await listOn(otherSync, d.packageName)).vettedPackages).toEqual([]);
  });

  it('a dry run answers the would-be state and changes nothing; an unchanged state keeps its serial', async () => {
    const d = buildDalf({ name: freshPackageName(), version: '1.0.0' });
    await uploadVetted(d);
    const before = await listOn(sync, d.packageName);
    const dry = await update({ ...unvet([{ packageId: d.packageId }]), dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.newVettedPackages.packages.map((p: { packageId: string }) => p.packageId)).not.toContain(d.packageId);
    expect(await listOn(sync, d.packageName)).toEqual(before);
    const same = await update(vet([{ packageId: d.packageId }]));
    expect(same.body.newVettedPackages.topologySerial).toBe(before.vettedPackages[0]?.topologySerial);
  });

  it('guards with expectedTopologySerial: the current serial passes, another is TOPOLOGY_SERIAL_MISMATCH', async () => {
    const d = buildDalf({ name: freshPackageName(), version: '1.0.0' });
    await uploadVetted(d);
    const serial = (await listOn(sync, d.packageName)).vettedPackages[0]?.topologySerial as number;
    const stale = await update({ ...unvet([{ packageId: d.packageId }]), expectedTopologySerial: { serial: { Prior: { value: serial - 1 } } } });
    expect(stale.status).toBe(400);
    expectCantonError(stale.body, 'TOPOLOGY_SERIAL_MISMATCH');
    const current = await update({ ...unvet([{ packageId: d.packageId }]), expectedTopologySerial: { serial: { Prior: { value: serial } } } });
    expect(current.status).toBe(200);
  });

  const bad: { what: string; body: () => unknown; status: number; code?: string; text?: RegExp }[] = [
    { what: 'no changes', body: () => ({ changes: [], synchronizerId: sync }), status: 400, code: 'MISSING_FIELD' },
    { what: 'no synchronizer on a two-synchronizer participant', body: () => ({ changes: unvet([{ packageId: 'a'.repeat(64) }]).changes }), status: 400, code: 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER' },
    { what: 'an unknown synchronizer', body: () => ({ ...unvet([{ packageName: 'x' }]), synchronizerId: 'nowhere::1220' }), status: 400, code: 'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER' },
    { what: 'a reference matching nothing', body: () => vet([{ packageId: 'e'.repeat(64) }]), status: 404, code: 'UNRESOLVED_VETTING_REFERENCE' },
    { what: 'a reference with neither id nor name', body: () => vet([{ packageVersion: '1.0.0' }]), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'an empty package list', body: () => vet([]), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'a malformed bound', body: () => vet([{ packageName: 'x' }], { newValidFromInclusive: 'yesterday' }), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'an unknown field', body: () => ({ ...vet([{ packageName: 'x' }]), colour: 'red' }), status: 400, code: 'INVALID_ARGUMENT' },
    { what: 'an operation of no known kind', body: () => ({ changes: [{ operation: { Rename: {} } }], synchronizerId: sync }), status: 400, text: /Invalid value for: body/ },
    { what: 'a body that is not JSON', body: () => '{oops', status: 400, text: /Invalid value for: body/ },
  ];
  it.each(bad)('refuses $what', async ({ body, status, code, text }) => {
    for (const path of ['/v2/package-vetting/update', '/v2/package-vetting']) {
      const res = await post(server, path, body());
      expect(res.status, path).toBe(status);
      if (code !== undefined) expectCantonError(res.body, code);
      if (text !== undefined) expect(res.text).toMatch(text);
    }
  });

  it('refuses a Vet reference matching two packages (AMBIGUOUS_VETTING_REFERENCE); Unvet takes them all', async () => {
    const name = freshPackageName();
    await uploadVetted(buildDalf({ name, version: '1.0.0' }));
    await uploadVetted(buildDalf({ name, version: '2.0.0' }));
    const res = await update(vet([{ packageName: name }]));
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'AMBIGUOUS_VETTING_REFERENCE');
    expect((await update(unvet([{ packageName: name }]))).status).toBe(200);
    expect((await listOn(sync, name)).vettedPackages).toEqual([]);
  });

  it('lists with filters and pages: by participant, by synchronizer, page size and tokens', async () => {
    const d = buildDalf({ name: freshPackageName(), version: '1.0.0' });
    await uploadVetted(d, sync);
    expect((await update({ ...vet([{ packageId: d.packageId }]), synchronizerId: otherSync })).status).toBe(200);
    const both = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [d.packageId] } });
    expect(both.body.vettedPackages.map((v: { synchronizerId: string }) => v.synchronizerId)).toEqual([sync, otherSync].sort());
    const page1 = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [d.packageId] }, pageSize: 1 });
    expect(page1.body.vettedPackages).toHaveLength(1);
    expect(page1.body.nextPageToken).not.toBe('');
    const page2 = await post(server, '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [d.packageId] }, pageSize: 1, pageToken: page1.body.nextPageToken });
    expect([...page1.body.vettedPackages, ...page2.body.vettedPackages]).toEqual(both.body.vettedPackages);
    expect(page2.body.nextPageToken).toBe('');
    const otherParticipant = await post(server, '/v2/package-vetting/list', { topologyStateFilter: { participantIds: ['participant9::1220'] } });
    expect(otherParticipant.body.vettedPackages).toEqual([]);
    for (const body of [{ pageSize: 101 }, { pageSize: -1 }, { pageToken: '!!' }]) {
      const res = await post(server, '/v2/package-vetting/list', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('the deprecated GET /v2/package-vetting lists everything without a body', async () => {
    const res = await get(server, '/v2/package-vetting');
    expect(res.status).toBe(200);
    expect(res.body.vettedPackages.length).toBe(2);
    const builtIn = server.ledger.catalogue.packages()[0]?.packageId;
    expect(res.body.vettedPackages[0].packages.map((p: { packageId: string }) => p.packageId)).toContain(builtIn);
    const filtered = await send(server, 'GET', '/v2/package-vetting', { body: { packageMetadataFilter: { packageIds: ['0'.repeat(64)] } } });
    expect(filtered.body.vettedPackages).toEqual([]);
  });

  it('listing is for anyone authenticated; updating needs ParticipantAdmin', async () => {
    const user = freshPackageName('user');
    await post(server, '/v2/users', { user: { id: user } });
    expect((await post(server, '/v2/package-vetting/list', {}, { headers: { 'x-test-user': user } })).status).toBe(200);
    for (const path of ['/v2/package-vetting/update', '/v2/package-vetting']) {
      const res = await post(server, path, unvet([{ packageName: 'x' }]), { headers: { 'x-test-user': user } });
      expect(res.status, path).toBe(403);
    }
  });
});

describe('preferred packages', () => {
  it('answers the highest vetted version, and follows vetting changes', async () => {
    const name = freshPackageName();
    const v1 = buildDalf({ name, version: '1.2.0' });
    const v2 = buildDalf({ name, version: '1.10.0' });
    await uploadVetted(v1);
    await uploadVetted(v2);
    const q = `/v2/interactive-submission/preferred-package-version?package-name=${name}&parties=${encodeURIComponent(party)}`;
    const first = await get(server, q);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ packagePreference: { packageReference: { packageId: v2.packageId, packageName: name, packageVersion: '1.10.0' }, synchronizerId: sync } });
    expect((await update(unvet([{ packageId: v2.packageId }]))).status).toBe(200);
    expect((await get(server, q)).body.packagePreference.packageReference.packageId).toBe(v1.packageId);
    const many = await post(server, '/v2/interactive-submission/preferred-packages', { packageVettingRequirements: [{ packageName: name, parties: [party] }] });
    expect(many.status).toBe(200);
    expect(many.body).toEqual({ packageReferences: [{ packageId: v1.packageId, packageName: name, packageVersion: '1.2.0' }], synchronizerId: sync });
  });

  it('respects vetting bounds at vetting_valid_at', async () => {
    const name = freshPackageName();
    const d = buildDalf({ name, version: '1.0.0' });
    await uploadVetted(d);
    expect((await update(vet([{ packageId: d.packageId }], { newValidFromInclusive: '2030-01-01T00:00:00Z' }))).status).toBe(200);
    const base = `/v2/interactive-submission/preferred-package-version?package-name=${name}&synchronizer-id=${encodeURIComponent(sync)}`;
    expect((await get(server, `${base}&vetting_valid_at=2031-01-01T00:00:00Z`)).body.packagePreference.packageReference.packageId).toBe(d.packageId);
    expect((await get(server, `${base}&vetting_valid_at=2029-01-01T00:00:00Z`)).body).toEqual({});
  });

  it('answers no preference (or PACKAGE_SELECTION_FAILED) when nothing is vetted, and refuses malformed queries', async () => {
    const none = await get(server, `/v2/interactive-submission/preferred-package-version?package-name=${freshPackageName('nothing')}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({});
    const failed = await post(server, '/v2/interactive-submission/preferred-packages', { packageVettingRequirements: [{ packageName: freshPackageName('nothing'), parties: [party] }] });
    expect(failed.status).toBe(400);
    expectCantonError(failed.body, 'PACKAGE_SELECTION_FAILED');
    const missingName = await get(server, '/v2/interactive-submission/preferred-package-version');
    expect(missingName.status).toBe(400);
    const badParty = await get(server, '/v2/interactive-submission/preferred-package-version?package-name=x&parties=not-a-party');
    expectCantonError(badParty.body, 'INVALID_ARGUMENT');
    const badTime = await get(server, '/v2/interactive-submission/preferred-package-version?package-name=x&vetting_valid_at=soon');
    expect(badTime.status).toBe(400);
    expect(badTime.text).toMatch(/vetting_valid_at/);
    const empty = await post(server, '/v2/interactive-submission/preferred-packages', { packageVettingRequirements: [] });
    expectCantonError(empty.body, 'MISSING_FIELD');
  });
});
