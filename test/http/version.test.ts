import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';
import { SPLICE_COMMIT_TS, SPLICE_VERSION } from '../../conformance/src/schema/spliceVersions.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ ledgerOptions: { apiVersion: '3.5.1', maxRightsPerUser: 77 } });
});
afterAll(() => server.close());

describe('GET /v2/version', () => {
  it('reports the configured version and the full features descriptor', async () => {
    const res = await get(server, '/v2/version');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      version: '3.5.1',
      features: {
        experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
        userManagement: { supported: true, maxRightsPerUser: 77, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: 10000 },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } } },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    });
  });

  it('ignores a body sent with the GET', async () => {
    const res = await get(server, '/v2/version', { body: 'not json at all' });
    expect(res.status).toBe(200);
  });

  it('answers through a doubled slash, as a base URL with a trailing slash produces', async () => {
    const res = await get(server, '//v2/version', { unchecked: true });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe('3.5.1');
  });
});

describe("GET /version (Splice's, on Scan and the validator)", () => {
  it('reports the Splice release our Scan follows, at the root and under /api/scan', async () => {
    for (const path of ['/version', '/api/scan/version']) {
      const res = await get(server, path, { unchecked: true });
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual({ version: SPLICE_VERSION, commit_ts: SPLICE_COMMIT_TS });
    }
  });
});
