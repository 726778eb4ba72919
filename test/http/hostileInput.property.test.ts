import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse } from '../../conformance/src/schema/index.js';
import { ledgerApiRoutes as allRoutes } from '../../reference-server/src/http/api/routes/routeTable.js';
import { absentOperations, DEFAULT_CANTON_VERSION } from '../../conformance/src/schema/cantonVersions.js';
import type { Route } from '../../reference-server/src/http/api/route.js';
import { expectCantonError } from './support/cantonError.js';
import { rawRequest, type RawResponse } from './support/raw.js';
import { startServer, type TestServer } from './support/startServer.js';
import { ASSET, allocateParty } from './support/world.js';

// Whatever a client sends, on every route: never a 5xx, never a stack trace, never a body our
// specs do not declare, and the server logs no error.
let server: TestServer;
let party: string;
beforeAll(async () => {
  server = await startServer();
  party = await allocateParty(server, 'hostile');
});
afterAll(() => server.close());

const SPEC_OF = { A: 'registry', B: 'ledger', C: 'scan' } as const;
/** The routes the server serves on its (default) Canton line: another line's operations answer 404 by design. */
const absent = absentOperations(DEFAULT_CANTON_VERSION);
const ledgerApiRoutes = allRoutes.filter((r) => r.group !== 'B' || !absent.has(r.operationId));
const CONTRACT_ID = `00${'ab'.repeat(33)}`;

/** A concrete path for a route, its parameters filled with `value` (or a plausible default). */
function pathOf(route: Route, value?: string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (value !== undefined) return value;
    if (name === 'party') return encodeURIComponent(party);
    return name === 'allocationInstructionId' ? CONTRACT_ID : 'hostile-user';
  });
}

function expectSane(route: Route, method: string, path: string, res: RawResponse): void {
  const what = `${method} ${path.slice(0, 120)} -> ${res.status} ${res.text.slice(0, 200)}`;
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  expect(res.text, what).not.toMatch(/\bat .+\.[jt]s:\d+/);
  const result = validateResponse({
    spec: SPEC_OF[route.group],
    method,
    // Scan is served under /api/scan too, a test token's registry under /registries/{admin}; the spec describes each from its base URL.
    path: path.replace(/\/{2,}/g, '/').replace(/^\/api\/scan\//, '/').replace(/^\/registries\/[^/]+\/registry\//, '/registry/'),
    status: res.status,
    contentType: res.headers['content-type'] as string | undefined,
    body: res.text === '' ? undefined : res.text,
  });
  expect(result.ok ? [] : result.problems, what).toEqual([]);
}

const send = (method: string, path: string, body: string | undefined, contentType?: string) =>
  rawRequest(server.url, method, path, {
    headers: { ...(contentType === undefined ? {} : { 'content-type': contentType }), ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
    ...(body === undefined ? {} : { body }),
  });

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const hostileText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.constantFrom('{', '', 'null', '1e400', '-0', '99999999999999999999', '"NaN"', '\u0000', '{"a":NaN}', deep(10_000), `{"x":"${'a'.repeat(100_000)}"}`),
  fc.string({ maxLength: 50 }),
);
/** A hostile value for one member: wrong types, out-of-range numbers, odd strings. */
const hostileMember = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('-1', '1e400', '-0', '9223372036854775808', '"-1"', '"%00"', '"\\ud800"', '[null]', '{"__proto__":{}}'),
);
const memberNames = ['commands', 'commandId', 'userId', 'actAs', 'readAs', 'activeAtOffset', 'beginExclusive', 'endInclusive', 'limit', 'filter', 'eventFormat', 'updateFormat', 'partyIdHint', 'user', 'rights', 'meta', 'excludeDebugFields', 'preparedTransaction', 'partySignatures', 'synchronizer', 'parties', 'verbose'];
const contentTypes = fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data');

describe('hostile input on every route', () => {
  it('answers bodies of any shape with a declared status and body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ledgerApiRoutes), hostileText, contentTypes, async (route, body, contentType) => {
        const path = pathOf(route);
        expectSane(route, route.method, path, await send(route.method, path, route.method === 'GET' ? undefined : body, contentType));
      }),
      { numRuns: 150 },
    );
  });

  it('answers objects with hostile members with a declared status and body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ledgerApiRoutes.filter((r) => r.body === 'json')),
        fc.dictionary(fc.constantFrom(...memberNames), hostileMember, { minKeys: 1, maxKeys: 4 }),
        async (route, members) => {
          const body = `{${Object.entries(members).map(([k, v]) => `${JSON.stringify(k)}:${typeof v === 'string' && !v.startsWith('"') ? v : JSON.stringify(v)}`).join(',')}}`;
          const path = pathOf(route);
          expectSane(route, route.method, path, await send(route.method, path, body));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers odd path parameters with a declared status and body', async () => {
    const values = ['%', '%ZZ', '%00', '%E0%A4%A', '%C0%AF', '%2F', '..', 'x'.repeat(5_000), 'a%20b', '-1'];
    for (const route of ledgerApiRoutes.filter((r) => r.path.includes('{'))) {
      for (const value of values) {
        const path = pathOf(route, value);
        expectSane(route, route.method, path, await send(route.method, path, route.body === 'json' ? '{}' : undefined));
      }
    }
  });

  it('answers bad query values, doubled slashes and other methods without a 5xx', async () => {
    for (const route of ledgerApiRoutes) {
      const path = pathOf(route);
      for (const query of ['?limit=-1', '?limit=1e400', '?limit=abc', '?%ZZ=1', '?stream_idle_timeout_ms=-1', '?pageToken=%ZZ']) {
        expectSane(route, route.method, path + query, await send(route.method, path + query, route.body === 'json' ? '{}' : undefined));
      }
      expectSane(route, route.method, `/${path}`, await send(route.method, `/${path}`, route.body === 'json' ? '{}' : undefined));
      for (const method of ['PUT', 'OPTIONS', 'HEAD', 'TRACE']) {
        const res = await send(method, path, undefined);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
  });

  it('logged no error', () => {
    expect(server.errors).toEqual([]);
  });
});

describe('bodies with thousands of errors', () => {
  it('refuses 20,000 malformed commands at once, without blocking the server', async () => {
    const body = JSON.stringify({ commands: Array<string>(20_000).fill('a'), commandId: 'c', userId: 'participant_admin', actAs: [party] });
    const started = Date.now();
    const res = await send('POST', '/v2/commands/submit-and-wait', body);
    // Tens of milliseconds with first-error validators; collecting every error took ~15 s on a
    // quiet machine. The bound tells the two apart, not a fast machine from a busy one.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^Invalid value for: body \(/);
  });

  it('still names the unknown fields of a large body', async () => {
    const create = { CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '1.0', observers: null } } };
    const body = JSON.stringify({ commands: Array<unknown>(1_000).fill(create), commandId: 'c', userId: 'participant_admin', actAs: [party], colour: 1, flavour: 2 });
    const res = await send('POST', '/v2/commands/submit-and-wait', body);
    expect(res.status, res.text).toBe(400);
    expectCantonError(JSON.parse(res.text), 'INVALID_ARGUMENT', /Unexpected fields: colour, flavour|Unexpected fields: flavour, colour/);
  });

  it('still names an unknown field inside one command of a large body', async () => {
    const create = { CreateCommand: { templateId: ASSET, createArguments: { issuer: party, owner: party, amount: '1.0', observers: null } } };
    const commands: unknown[] = Array<unknown>(1_000).fill(create);
    commands[500] = { CreateCommand: { ...create.CreateCommand, colour: 1 } };
    const res = await send('POST', '/v2/commands/submit-and-wait', JSON.stringify({ commands, commandId: 'c', userId: 'participant_admin', actAs: [party] }));
    expect(res.status, res.text).toBe(400);
    expectCantonError(JSON.parse(res.text), 'INVALID_ARGUMENT', /Unexpected fields: colour$/);
  });
});
