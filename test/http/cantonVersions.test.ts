import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { absentOperations, API_VERSION, CANTON_VERSIONS, type CantonVersion } from '../../reference-server/src/http/api/cantonVersion.js';
import { ledgerApiRoutes } from '../../reference-server/src/http/api/routes/routeTable.js';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { startServer, type TestServer } from './support/startServer.js';
import { openStream } from './support/wsClient.js';

/** `serve --canton-version`: each line's /v2/version, and the operations its document lacks answering 404. */
const upstreamDir = join(import.meta.dirname, '..', '..', '..', 'shared', 'upstream', 'canton-json-api-v2');
const DOCS: Readonly<Record<CantonVersion, string>> = { '3.4': 'openapi.3.4.yaml', '3.5': 'openapi.3.5.10.yaml', '3.6': 'openapi.main-3.6.0-SNAPSHOT.yaml' };
const HEALTH = new Set(['GET /livez', 'GET /readyz']);

const key = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

describe.skipIf(!existsSync(upstreamDir))('the absent operations are those of the upstream documents (needs ../shared/upstream)', () => {
  const opsOf = (file: string) => {
    const doc = parse(readFileSync(join(upstreamDir, file), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    return new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => key(m, path))));
  };
  for (const v of CANTON_VERSIONS) {
    it(`${v}: our routes minus the absent ones are that document's operations (health endpoints kept)`, () => {
      const upstream = opsOf(DOCS[v]);
      const served = ledgerApiRoutes.filter((r) => r.group === 'B' && !absentOperations(v).has(r.operationId)).map((r) => key(r.method, r.path));
      // Everything served is in the document (but health and /docs), and everything the document has is served.
      expect(served.filter((op) => !upstream.has(op) && !HEALTH.has(op) && !op.includes('/docs/')).sort()).toEqual([]);
      expect([...upstream].filter((op) => !served.includes(op)).sort()).toEqual([]);
    });
  }
});

describe('serve --canton-version', () => {
  it('parses 3.4, 3.5 and 3.6 and refuses anything else', () => {
    for (const v of CANTON_VERSIONS) expect(parseServeArgs(['--canton-version', v], {})).toMatchObject({ cantonVersion: v });
    expect(() => parseServeArgs(['--canton-version', '3.7'], {})).toThrow(/--canton-version must be one of 3.4, 3.5, 3.6, got '3.7'/);
    expect(parseServeArgs([], {})).not.toHaveProperty('cantonVersion');
  });
});

describe.each(CANTON_VERSIONS)('the reference serving Canton %s', (v) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ cantonVersion: v });
  });
  afterAll(() => server.close());

  it(`answers ${API_VERSION[v]} on /v2/version`, async () => {
    expect((await server.http.get('/v2/version')).body.version).toBe(API_VERSION[v]);
  });

  it('answers 404 for the operations that line lacks, and serves the rest', async () => {
    const body = { eventFormat: { filtersByParty: {}, verbose: true } };
    const page = await server.http.post('/v2/state/active-contracts-page').send(body);
    expect(page.status).toBe(v === '3.4' ? 404 : 400);
    const completions = await server.http.post('/v2/commands/command-completions?stream_idle_timeout_ms=50').send({ parties: [] });
    expect(completions.status).toBe(v === '3.4' ? 404 : 200);
    const flats = await server.http.post('/v2/updates/flats?stream_idle_timeout_ms=50').send({ beginExclusive: 0, endInclusive: 0, filter: { filtersByParty: {} }, verbose: true });
    expect(flats.status === 404).toBe(v === '3.6');
    const ledgerEnd = await server.http.get('/v2/state/ledger-end');
    expect(ledgerEnd.status).toBe(200);
  });

  it(v === '3.4' ? 'has no GetCompletions WebSocket' : 'serves the GetCompletions WebSocket', async () => {
    if (v === '3.4') {
      await expect(openStream(server.url, '/v2/commands/command-completions', { parties: [] })).rejects.toThrow(/404/);
    } else {
      // The upgrade succeeds (an empty ledger has nothing to send yet).
      const session = await openStream(server.url, '/v2/commands/command-completions', { parties: [], beginExclusive: 0 });
      expect(session.protocol).toBe('daml.ws.auth');
      session.socket.close();
      await session.closed;
    }
  });
});

describe('createHandlers({ cantonVersion }) mocks the same line', () => {
  const mock = createHandlers({ ledgerUrl: 'http://participant-34.test', cantonVersion: '3.4', log: silentLogger });
  const mock36 = createHandlers({ ledgerUrl: 'http://participant-36.test', cantonVersion: '3.6', log: silentLogger });
  const server = setupServer(...mock.handlers, ...mock36.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('answers 3.4.0 and 404 for an operation 3.4 lacks', async () => {
    expect(((await (await fetch('http://participant-34.test/v2/version')).json()) as { version: string }).version).toBe('3.4.0');
    const page = await fetch('http://participant-34.test/v2/state/active-contracts-page', { method: 'POST', body: '{}' });
    expect(page.status).toBe(404);
    expect((await fetch('http://participant-34.test/v2/state/ledger-end')).status).toBe(200);
  });

  it("3.6: its operations and shapes, and the CanActAsAnyParty right 3.4 cannot decode", async () => {
    const json = { 'content-type': 'application/json' };
    const byHash = await fetch('http://participant-36.test/v2/commands/completion-by-hash', { method: 'POST', headers: json, body: JSON.stringify({ transactionHash: 'AAAA' }) });
    expect([byHash.status, ((await byHash.json()) as { code: string }).code]).toEqual([404, 'COMPLETION_NOT_FOUND']);
    expect(((await (await fetch('http://participant-36.test/v2/state/ledger-end')).json()) as { synchronizerTimes?: unknown[] }).synchronizerTimes?.length).toBe(2);
    const user = (id: string) => JSON.stringify({ user: { id, isDeactivated: false, identityProviderId: '' }, rights: [{ kind: { CanActAsAnyParty: { value: {} } } }] });
    expect((await fetch('http://participant-36.test/v2/users', { method: 'POST', headers: json, body: user('any36') })).status).toBe(200);
    expect((await fetch('http://participant-34.test/v2/users', { method: 'POST', headers: json, body: user('any34') })).status).toBe(400);
  });
});
