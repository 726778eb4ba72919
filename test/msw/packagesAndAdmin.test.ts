import { strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDalf, buildDar } from '../../conformance/src/generators/dar.js';
import { startTwins, withoutTraceIds, type Probe, type Twins } from './support/twins.js';

const SYNC = `global-synchronizer::1220${'a1'.repeat(32)}`;
const NS = '1220' + 'c0ffee'.repeat(10) + 'c0ff';
const party = `pkg-owner::${NS}`;
const main = buildDalf({ name: 'twin-app', version: '1.0.0' });
const v2 = buildDalf({ name: 'twin-app', version: '2.0.0' });
const dep = buildDalf({ name: 'twin-dep', version: '0.1.0' });
const json = (value: unknown) => JSON.stringify(value);
const mask = (...paths: string[]) => ({ paths, unknownFields: { fields: {} } });
const idp = { identityProviderId: 'twin-idp', issuer: 'https://twin.example.com', jwksUrl: 'https://twin.example.com/jwks', audience: '' };

interface Row extends Probe {
  readonly title: string;
  readonly status: number;
}

/** One history of uploads, vetting and administration, sent to Koa and to msw alike; answers must be equal. */
const rows: readonly Row[] = [
  { title: 'upload a DAR', method: 'POST', path: `/v2/dars?synchronizerId=${encodeURIComponent(SYNC)}`, bytes: buildDar({ main, dependencies: [dep] }), status: 200 },
  { title: 'upload v2 by the deprecated path', method: 'POST', path: `/v2/packages?synchronizerId=${encodeURIComponent(SYNC)}`, bytes: buildDar({ main: v2 }), status: 200 },
  { title: 'upload a corrupt DAR', method: 'POST', path: '/v2/dars?vetAllPackages=false', bytes: strToU8('not a zip'), status: 400 },
  { title: 'upload with no body', method: 'POST', path: '/v2/dars', status: 400 },
  { title: 'validate a DAR', method: 'POST', path: '/v2/dars/validate', bytes: buildDar({ main: buildDalf({ name: 'twin-other', version: '1.0.0' }) }), status: 200 },
  { title: 'list packages', method: 'GET', path: '/v2/packages', status: 200 },
  { title: 'fetch a package', method: 'GET', path: `/v2/packages/${main.packageId}`, status: 200 },
  { title: 'fetch an unknown package', method: 'GET', path: `/v2/packages/${'f'.repeat(64)}`, status: 404 },
  { title: 'package status', method: 'GET', path: `/v2/packages/${dep.packageId}/status`, status: 200 },
  { title: 'list vetted packages', method: 'POST', path: '/v2/package-vetting/list', body: json({ packageMetadataFilter: { packageNamePrefixes: ['twin-'] } }), status: 200 },
  { title: 'list vetted packages, deprecated GET', method: 'GET', path: '/v2/package-vetting', status: 200 },
  { title: 'allocate a party', method: 'POST', path: '/v2/parties', body: json({ partyIdHint: 'pkg-owner' }), status: 200 },
  { title: 'preferred version', method: 'GET', path: `/v2/interactive-submission/preferred-package-version?package-name=twin-app&parties=${encodeURIComponent(party)}`, status: 200 },
  {
    title: 'unvet v2',
    method: 'POST',
    path: '/v2/package-vetting/update',
    body: json({ changes: [{ operation: { Unvet: { value: { packages: [{ packageId: v2.packageId }] } } } }], synchronizerId: SYNC }),
    status: 200,
  },
  { title: 'preferred packages after unvetting', method: 'POST', path: '/v2/interactive-submission/preferred-packages', body: json({ packageVettingRequirements: [{ packageName: 'twin-app', parties: [party] }] }), status: 200 },
  { title: 'vet an unknown reference, deprecated POST', method: 'POST', path: '/v2/package-vetting', body: json({ changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'nope' }] } } } }], synchronizerId: SYNC }), status: 404 },
  { title: 'create an idp', method: 'POST', path: '/v2/idps', body: json({ identityProviderConfig: idp }), status: 200 },
  { title: 'create it again', method: 'POST', path: '/v2/idps', body: json({ identityProviderConfig: idp }), status: 409 },
  { title: 'list idps', method: 'GET', path: '/v2/idps', status: 200 },
  { title: 'update the idp', method: 'PATCH', path: '/v2/idps/twin-idp', body: json({ identityProviderConfig: { ...idp, audience: 'ledger' }, updateMask: mask('audience') }), status: 200 },
  { title: 'update with an unknown path', method: 'PATCH', path: '/v2/idps/twin-idp', body: json({ identityProviderConfig: idp, updateMask: mask('colour') }), status: 400 },
  { title: 'get the idp', method: 'GET', path: '/v2/idps/twin-idp', status: 200 },
  { title: 'create a user', method: 'POST', path: '/v2/users', body: json({ user: { id: 'twin-user' } }), status: 200 },
  { title: 'move the user', method: 'PATCH', path: '/v2/users/twin-user/identity-provider-id', body: json({ userId: 'twin-user', targetIdentityProviderId: 'twin-idp' }), status: 200 },
  { title: 'annotate the party', method: 'PATCH', path: `/v2/parties/${encodeURIComponent(party)}`, body: json({ partyDetails: { party, localMetadata: { resourceVersion: '0', annotations: { a: 'b' } } }, updateMask: mask('local_metadata.annotations') }), status: 200 },
  { title: 'annotate with a stale version', method: 'PATCH', path: `/v2/parties/${encodeURIComponent(party)}`, body: json({ partyDetails: { party, localMetadata: { resourceVersion: '0', annotations: { a: 'c' } } }, updateMask: mask('local_metadata') }), status: 409 },
  { title: 'delete the idp', method: 'DELETE', path: '/v2/idps/twin-idp', status: 200 },
  { title: 'delete it again', method: 'DELETE', path: '/v2/idps/twin-idp', status: 404 },
];

describe('the msw handlers answer packages, vetting and administration as the Koa reference server does', () => {
  let twins: Twins;
  beforeAll(async () => {
    twins = await startTwins();
  });
  afterAll(() => twins.close());

  for (const row of rows) {
    it(`${row.method} ${row.path.slice(0, 60)}: ${row.title} (${row.status})`, async () => {
      const { koa, msw } = await twins.send(row);
      expect(koa.status, koa.body.slice(0, 300)).toBe(row.status);
      expect({ ...msw, body: withoutTraceIds(msw.body) }).toEqual({ ...koa, body: withoutTraceIds(koa.body) });
    });
  }

  it('logs no unexpected failure on either face', () => {
    expect(twins.errors).toEqual([]);
  });
});

// Its own block: two msw servers listening at once would both read the same request.
describe('the msw upload limit', () => {
  it('the msw face refuses an upload above its limit with 413 and registers nothing', async () => {
    const small = await startTwins({ http: { maxUploadBodyBytes: 1024 } });
    try {
      const big = buildDalf({ name: 'twin-big', version: '1.0.0' });
      const probe = { method: 'POST', path: '/v2/dars?vetAllPackages=false', bytes: buildDar({ main: big, extra: { 'filler.bin': new Uint8Array(2048).fill(1) } }) };
      const { koa, msw } = await small.send(probe);
      expect(koa.status).toBe(413);
      expect(msw.status).toBe(413);
      expect(small.mock.ledger.listPackages().packageIds).not.toContain(big.packageId);
    } finally {
      await small.close();
    }
  });
});
