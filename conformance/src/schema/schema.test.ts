import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createPathRouter } from './createPathRouter.js';
import { findOperation, loadSpec, packageRoot, SpecLoadError, validateRequestBody, validateResponse } from './index.js';

// The upstream Canton document sits beside the repo (../shared/upstream) on the project machines.
const upstreamFile = join(packageRoot(), '..', 'shared', 'upstream', 'canton-json-api-v2', 'openapi.3.5.yaml');

// A small 3.1 document exercising what our specs use: path params, a literal sibling of a param,
// two media types under one status, a recursive schema, a closed request schema, $ref'd responses.
const fixture = {
  openapi: '3.1.0',
  info: { title: 'fixture', version: '1' },
  paths: {
    '/v2/users/{user-id}': {
      get: { operationId: 'getUser', responses: { '200': { $ref: '#/components/responses/User' }, default: { $ref: '#/components/responses/Error' } } },
      delete: { operationId: 'deleteUser', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } } },
    },
    '/v2/users/me': { get: { operationId: 'getMe', responses: { '200': { $ref: '#/components/responses/User' } } } },
    '/v2/values': {
      post: {
        operationId: 'postValue',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Request' } } } },
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/AnyValue' } } } },
          '400': {
            description: 'bad',
            content: { 'text/plain': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
          '5XX': { description: 'server', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/livez': { get: { operationId: 'livez', responses: { '200': { description: 'alive' } } } },
  },
  components: {
    responses: {
      User: { description: 'a user', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } },
      Error: { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
    schemas: {
      User: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, offset: { type: 'integer', format: 'int64' } } },
      Error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
      Request: { type: 'object', additionalProperties: false, required: ['value'], properties: { value: { $ref: '#/components/schemas/AnyValue' } } },
      AnyValue: {
        oneOf: [
          { type: 'object', required: ['tag', 'value'], properties: { tag: { const: 'AV_Text' }, value: { type: 'string' } } },
          { type: 'object', required: ['tag', 'value'], properties: { tag: { const: 'AV_List' }, value: { type: 'array', items: { $ref: '#/components/schemas/AnyValue' } } } },
        ],
      },
    },
  },
};

const dir = mkdtempSync(join(tmpdir(), 'schema-test-'));
const file = join(dir, 'fixture.yaml');
writeFileSync(file, stringify(fixture));
const spec = loadSpec(file);

describe('createPathRouter', () => {
  const r = createPathRouter<string>();
  r.add('get', '/v2/parties/{party}', 'byParty');
  r.add('get', '/v2/parties/participant-id', 'participantId');
  r.add('post', '/v2/parties', 'allocate');

  it('prefers a literal segment over a parameter', () => {
    expect(r.find('GET', '/v2/parties/participant-id')?.value).toBe('participantId');
    expect(r.find('GET', '/v2/parties/alice')?.value).toBe('byParty');
  });

  it('percent-decodes parameters and ignores query strings and duplicate slashes', () => {
    expect(r.find('get', '//v2/parties/alice%3A%3A1220ab?x=1')).toEqual({ value: 'byParty', template: '/v2/parties/{party}', params: { party: 'alice::1220ab' } });
  });

  it('does not match an undeclared method or a longer path', () => {
    expect(r.find('delete', '/v2/parties/alice')).toBeUndefined();
    expect(r.find('get', '/v2/parties/alice/extra')).toBeUndefined();
  });
});

describe('loadSpec', () => {
  it('indexes every operation and caches per file', () => {
    expect([...spec.operations.keys()].sort()).toEqual(['deleteUser', 'getMe', 'getUser', 'livez', 'postValue']);
    expect(loadSpec(file)).toBe(spec);
    expect(loadSpec(file, { reload: true })).not.toBe(spec);
  });

  it('refuses unreadable, unparsable or non-OpenAPI files with SpecLoadError', () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'openapi: [');
    expect(() => loadSpec(bad)).toThrow(SpecLoadError);
    writeFileSync(bad, 'asyncapi: 2.6.0\n');
    expect(() => loadSpec(bad, { reload: true })).toThrow(/not an OpenAPI 3.x document/);
    expect(() => loadSpec(join(dir, 'missing.yaml'))).toThrow(/cannot read/);
  });

  it('compileOnFirstUse: a spec of its own, the same verdicts and errors, a schema that does not compile refused at its first use', () => {
    const lazy = loadSpec(file, { compileOnFirstUse: true });
    expect(lazy).not.toBe(spec);
    expect(loadSpec(file, { compileOnFirstUse: true })).toBe(lazy);
    for (const body of [{ value: { tag: 'AV_Text', value: 'x' } }, { value: { tag: 'AV_Text', value: 'x' }, extra: 1 }, { value: 3 }, {}]) {
      expect(validateRequestBody('postValue', body, { spec: lazy })).toEqual(validateRequestBody('postValue', body, { spec }));
    }
    const broken = join(dir, 'broken-schema.yaml');
    writeFileSync(broken, stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/x': { post: { operationId: 'postX', requestBody: { content: { 'application/json': { schema: { type: 'nonsense' } } } }, responses: {} } } } }));
    expect(() => loadSpec(broken)).toThrow(/does not compile/);
    const brokenLazy = loadSpec(broken, { compileOnFirstUse: true });
    expect(() => validateRequestBody('postX', {}, { spec: brokenLazy })).toThrow(SpecLoadError);
  });

  it.skipIf(!existsSync(upstreamFile))('loads the upstream Canton 3.0.3 document and validates against it', () => {
    const upstream = loadSpec(upstreamFile);
    const body = {
      version: '3.4.11',
      features: {
        experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
        userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: 10000 },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } } },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    };
    expect(validateResponse({ spec: upstream, method: 'GET', path: '/v2/version', status: 200, contentType: 'application/json', body })).toEqual({ ok: true, operationId: 'getV2Version' });
    const { features: _f, ...noFeatures } = body;
    const r = validateResponse({ spec: upstream, method: 'GET', path: '/v2/version', status: 200, contentType: 'application/json', body: noFeatures });
    expect(r).toMatchObject({ ok: false, problems: [{ pointer: '', keyword: 'required' }] });
  });
});

describe('validateResponse', () => {
  const base = { spec, method: 'GET', path: '/v2/users/alice', contentType: 'application/json; charset=utf-8' };

  it('accepts a conforming body, following $ref responses', () => {
    expect(validateResponse({ ...base, status: 200, body: { id: 'alice', offset: 3 } })).toEqual({ ok: true, operationId: 'getUser' });
  });

  it('reports every body violation with a JSON pointer and keyword', () => {
    const r = validateResponse({ ...base, status: 200, body: { offset: 1.5 } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual(
      expect.arrayContaining([
        { pointer: '', keyword: 'required', message: "must have required property 'id'", property: 'id' },
        expect.objectContaining({ pointer: '/offset', keyword: 'type' }),
      ]),
    );
  });

  it('parses a JSON body given as text, and says when it is not JSON', () => {
    expect(validateResponse({ ...base, status: 200, body: '{"id":"a"}' }).ok).toBe(true);
    expect(validateResponse({ ...base, status: 200, body: '<html>' })).toMatchObject({ ok: false, problems: [{ keyword: 'json' }] });
  });

  it('falls back to default and to status ranges; an undeclared status is a problem', () => {
    expect(validateResponse({ ...base, status: 404, body: { code: 'USER_NOT_FOUND' } }).ok).toBe(true);
    const post = { spec, method: 'POST', path: '/v2/values', contentType: 'application/json' };
    expect(validateResponse({ ...post, status: 503, body: { code: 'UNAVAILABLE' } }).ok).toBe(true);
    expect(validateResponse({ ...post, status: 404, body: { code: 'X' } })).toMatchObject({ ok: false, operationId: 'postValue', problems: [{ keyword: 'status' }] });
  });

  it('chooses the schema by content type when a status has two', () => {
    const post = { spec, method: 'POST', path: '/v2/values', status: 400 };
    expect(validateResponse({ ...post, contentType: 'text/plain; charset=UTF-8', body: 'Invalid value for: body' }).ok).toBe(true);
    expect(validateResponse({ ...post, contentType: 'application/json', body: 'Invalid value for: body' }).ok).toBe(false);
    expect(validateResponse({ ...post, contentType: 'text/html', body: 'x' })).toMatchObject({ ok: false, problems: [{ keyword: 'contentType' }] });
    expect(validateResponse({ ...post, contentType: undefined, body: 'x' })).toMatchObject({ ok: false, problems: [{ keyword: 'contentType' }] });
  });

  it('validates recursive schemas', () => {
    const post = { spec, method: 'POST', path: '/v2/values', status: 200, contentType: 'application/json' };
    expect(validateResponse({ ...post, body: { tag: 'AV_List', value: [{ tag: 'AV_Text', value: 'x' }] } }).ok).toBe(true);
    expect(validateResponse({ ...post, body: { tag: 'AV_List', value: [{ tag: 'AV_Text', value: 1 }] } }).ok).toBe(false);
  });

  it('treats a status declared without content as "no body"', () => {
    expect(validateResponse({ spec, method: 'GET', path: '/livez', status: 200, body: undefined }).ok).toBe(true);
    expect(validateResponse({ spec, method: 'GET', path: '/livez', status: 200, contentType: 'application/json', body: { up: true } })).toMatchObject({ ok: false, problems: [{ keyword: 'body' }] });
  });

  it('reports a request no operation matches', () => {
    expect(validateResponse({ spec, method: 'PUT', path: '/v2/users/alice', status: 200, body: {} })).toMatchObject({ ok: false, operationId: undefined, problems: [{ keyword: 'operation' }] });
  });
});

describe('validateRequestBody', () => {
  it('accepts a valid body and rejects unknown fields (request schemas are closed)', () => {
    expect(validateRequestBody('postValue', { value: { tag: 'AV_Text', value: 'x' } }, { spec })).toEqual({ ok: true, operationId: 'postValue' });
    const r = validateRequestBody('postValue', { value: { tag: 'AV_Text', value: 'x' }, extra: 1 }, { spec });
    expect(r).toMatchObject({ ok: false, problems: [{ pointer: '', keyword: 'additionalProperties', message: "must NOT have additional properties ('extra')", property: 'extra' }] });
  });

  it('requires a required body, and refuses one where none is taken', () => {
    expect(validateRequestBody('postValue', undefined, { spec })).toMatchObject({ ok: false, problems: [{ keyword: 'required' }] });
    expect(validateRequestBody('getUser', { a: 1 }, { spec })).toMatchObject({ ok: false, problems: [{ keyword: 'body' }] });
    expect(validateRequestBody('getUser', undefined, { spec }).ok).toBe(true);
  });

  it('reports an unknown operation id and an unaccepted content type', () => {
    expect(validateRequestBody('nope', {}, { spec })).toMatchObject({ ok: false, operationId: undefined, problems: [{ keyword: 'operation' }] });
    expect(validateRequestBody('postValue', 'x', { spec, contentType: 'text/plain' })).toMatchObject({ ok: false, problems: [{ keyword: 'contentType' }] });
  });
});

describe('findOperation', () => {
  it('matches against a given spec and returns path parameters', () => {
    expect(findOperation('get', '/v2/users/bob%40x', spec)).toEqual({ operationId: 'getUser', template: '/v2/users/{user-id}', pathParams: { 'user-id': 'bob@x' } });
    expect(findOperation('get', '/v2/users/me', spec)?.operationId).toBe('getMe');
    expect(findOperation('get', '/nowhere', spec)).toBeUndefined();
  });
});

describe('problems of variant (oneOf) schemas', () => {
  const ledger = loadSpec('ledger');
  const submit = (command: unknown) => validateRequestBody('postV2CommandsSubmit-and-wait', { commands: [command], commandId: 'c1', actAs: ['alice::1220ab'] }, { spec: ledger });

  it('reports an unknown field inside the chosen variant, not the other variants', () => {
    const r = submit({ CreateCommand: { templateId: '#pkg:M:T', createArguments: {}, colour: 'red' } });
    expect(r).toEqual({
      ok: false,
      operationId: 'postV2CommandsSubmit-and-wait',
      problems: [{ pointer: '/commands/0/CreateCommand', keyword: 'additionalProperties', message: "must NOT have additional properties ('colour')", property: 'colour' }],
    });
  });

  it('reports an unknown variant as one oneOf problem', () => {
    const r = submit({ FrobnicateCommand: {} });
    expect(r).toMatchObject({ ok: false, problems: [{ pointer: '/commands/0', keyword: 'oneOf' }] });
    if (!r.ok) expect(r.problems).toHaveLength(1);
  });
});

describe('bodies with thousands of problems', () => {
  // One wrong field in every item of a long list: collecting every error is quadratic in their
  // number (8,000 such items took 45 s), so large bodies report their first problem instead.
  const entry = { contractEntry: { JsActiveContract: { createdEvent: { offset: 'x', nodeId: 'y' }, synchronizerId: 3 } } };
  const acs = { spec: 'ledger' as const, method: 'POST', path: '/v2/state/active-contracts', status: 200, contentType: 'application/json' };

  it('judges 8,000 malformed list items with first-error validators, still as a failure with a pointer into the list', () => {
    // What makes it quick, independent of the machine's speed: the first problem, not 8,000 x k
    // (collecting them all is quadratic: 45 s for this body).
    const r = validateResponse({ ...acs, body: JSON.stringify(Array(8000).fill(entry)) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.map((p) => p.pointer)).toEqual([expect.stringMatching(/^\/\d+\//)]);
  });

  it('reports every problem of a small body', () => {
    const r = validateResponse({ ...acs, body: JSON.stringify(Array(3).fill(entry)) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(new Set(r.problems.map((p) => p.pointer.split('/')[1])).size).toBe(3);
  });

  it('accepts a large valid body', () => {
    const r = validateResponse({ spec: 'ledger', method: 'GET', path: '/v2/parties', status: 200, contentType: 'application/json', body: JSON.stringify({ partyDetails: Array(3000).fill({ party: 'a::1220ab', isLocal: true, identityProviderId: '' }) }) });
    expect(r.ok ? [] : r.problems.slice(0, 3)).toEqual([]);
  });
});
