import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../conformance/src/schema/index.js';
import { toProblems } from '../../conformance/src/schema/toProblems.js';
import { SCAN_OPERATION_RELEASES, SPLICE_COMMIT_TS, SPLICE_VERSION } from '../../conformance/src/schema/spliceVersions.js';
import { asyncApiFile, documentCompiler, openApiFiles, readDocument, reportSchemaFile } from './specDocs.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function operations(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries(doc['paths'] as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ method, path, op: op as Json })),
  );
}

/** Follows a local $ref (of a response or request body) to its definition. */
function deref(doc: Json, v: unknown): unknown {
  while (isObject(v) && typeof v['$ref'] === 'string') {
    v = (v['$ref'] as string).slice(2).split('/').reduce<unknown>((at, k) => (isObject(at) ? at[k.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  }
  return v;
}

describe.each(openApiFiles)('%s', (file) => {
  const doc = readDocument(file);

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(file);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc['openapi']).toBe('3.1.0');
  });

  it('every component schema compiles with Ajv', () => {
    const compile = documentCompiler(doc);
    const names = Object.keys((doc['components'] as Json)['schemas'] as Json);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(() => compile(`/components/schemas/${name}`), name).not.toThrow();
  });

  it('every operation has a unique operationId, a summary and our own description', () => {
    const ids = operations(doc).map(({ method, path, op }) => {
      expect(op['operationId'], `${method} ${path}`).toEqual(expect.any(String));
      expect(op['description'], `${method} ${path}`).toMatch(/\S{3,}.*\s.*\S/);
      return op['operationId'];
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every response with a body and every request body carries at least one example per media type', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      const bodies: [string, unknown][] = Object.entries((op['responses'] ?? {}) as Json).map(([s, r]) => [`${method} ${path} ${s}`, deref(doc, r)]);
      if (op['requestBody'] !== undefined) bodies.push([`${method} ${path} request`, deref(doc, op['requestBody'])]);
      for (const [where, body] of bodies) {
        const content = isObject(body) && isObject(body['content']) ? body['content'] : {};
        for (const [media, entry] of Object.entries(content)) {
          const e = entry as Json;
          const count = ('example' in e ? 1 : 0) + (isObject(e['examples']) ? Object.keys(e['examples']).length : 0);
          if (count === 0) missing.push(`${where} ${media}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('ledger.openapi.yaml conventions', () => {
  const file = openApiFiles[1] as string;
  const doc = readDocument(file);
  const ops = operations(doc);
  const schemas = (doc['components'] as Json)['schemas'] as Json;

  it('every /v2 operation declares 400 as both text/plain (undecodable) and JsCantonError, and needs a bearer token', () => {
    for (const { method, path, op } of ops.filter((o) => o.path.startsWith('/v2/'))) {
      const r400 = deref(doc, (op['responses'] as Json)['400']) as Json;
      expect(Object.keys(r400['content'] as Json).sort(), `${method} ${path}`).toEqual(['application/json', 'text/plain']);
      expect(op['security'], `${method} ${path}`).toEqual([{ httpAuth: [] }]);
      for (const status of ['401', '403', '500', '503']) expect((op['responses'] as Json)[status], `${method} ${path} ${status}`).toBeDefined();
    }
  });

  it('/docs, /livez and /readyz need no token; the docs are text/plain', () => {
    for (const { path, op } of ops.filter((o) => !o.path.startsWith('/v2/'))) {
      expect(op['security'], path).toEqual([]);
      if (path.startsWith('/docs/')) expect(Object.keys(((op['responses'] as Json)['200'] as Json)['content'] as Json)).toEqual(['text/plain']);
    }
  });

  it('streaming list endpoints take limit and stream_idle_timeout_ms and answer a JSON array', () => {
    for (const path of ['/v2/updates', '/v2/commands/completions', '/v2/state/active-contracts']) {
      const op = (doc['paths'] as Json)[path] as Json;
      const post = op['post'] as Json;
      expect((post['parameters'] as Json[]).map((p) => p['name']).sort(), path).toEqual(['limit', 'stream_idle_timeout_ms']);
      const schema = ((((post['responses'] as Json)['200'] as Json)['content'] as Json)['application/json'] as Json)['schema'] as Json;
      expect(schema['type'], path).toBe('array');
      expect((post['responses'] as Json)['413'], path).toBeDefined();
    }
  });

  // Walks every schema reachable from a starting point, following $refs once each.
  function reachable(start: unknown): Json[] {
    const seen = new Set<string>();
    const out: Json[] = [];
    const walk = (s: unknown): void => {
      if (Array.isArray(s)) return s.forEach(walk);
      if (!isObject(s)) return;
      if (typeof s['$ref'] === 'string') {
        const name = (s['$ref'] as string).split('/').pop() as string;
        if (!seen.has(name)) {
          seen.add(name);
          walk(schemas[name]);
        }
        return;
      }
      out.push(s);
      for (const [k, v] of Object.entries(s)) if (k === 'properties') Object.values(v as Json).forEach(walk); else if (typeof v === 'object') walk(v);
    };
    walk(start);
    return out;
  }
  const objectNodes = (nodes: Json[]) => nodes.filter((n) => n['type'] === 'object' || isObject(n['properties']));
  const bodySchemas = (kind: 'request' | 'response') =>
    ops.flatMap(({ op }) => {
      const owners = kind === 'request' ? [op['requestBody']] : Object.values(op['responses'] as Json);
      return owners.flatMap((o) => Object.values(((deref(doc, o) as Json | undefined)?.['content'] ?? {}) as Json).map((m) => (m as Json)['schema']));
    });

  it('request schemas are closed at every depth: unknown fields are rejected', () => {
    const open = objectNodes(bodySchemas('request').flatMap(reachable)).filter((n) => n['additionalProperties'] === undefined);
    expect(open).toEqual([]);
  });

  it('response schemas are open at every depth: vendors may add fields', () => {
    const closed = objectNodes(bodySchemas('response').flatMap(reachable)).filter((n) => n['additionalProperties'] === false);
    expect(closed).toEqual([]);
  });

  it('int64 fields are JSON integers with format int64', () => {
    const offset = ((schemas['CreatedEvent'] as Json)['properties'] as Json)['offset'];
    expect(offset).toEqual({ type: 'integer', format: 'int64' });
  });
});

describe('scan.openapi.yaml', () => {
  const doc = readDocument(openApiFiles[2] as string);
  it('keeps the pre-0.6.5 earliest-round path, deprecated, with its own operationId', () => {
    const legacy = ((doc['paths'] as Json)['/v0/reward-accounting-process/rounds/earliest-available'] as Json)['get'] as Json;
    const current = ((doc['paths'] as Json)['/v0/internal/reward-accounting-process/rounds/earliest-available'] as Json)['get'] as Json;
    expect(legacy['deprecated']).toBe(true);
    expect(current['deprecated']).toBeUndefined();
    expect(current['operationId']).toBe('getRewardAccountingEarliestAvailableRound');
    expect(legacy['operationId']).not.toBe(current['operationId']);
  });

  it("says the release it follows, the one the reference's GET /version reports, with the operations not every release has", () => {
    expect((doc['info'] as Json)['version']).toBe(SPLICE_VERSION);
    const version = (((((doc['paths'] as Json)['/version'] as Json)['get'] as Json)['responses'] as Json)['200'] as Json)['content'] as Json;
    expect((((version['application/json'] as Json)['examples'] as Json)['release'] as Json)['value']).toEqual({ version: SPLICE_VERSION, commit_ts: SPLICE_COMMIT_TS });
    const ids = new Set(operations(doc).map((o) => o.op['operationId']));
    expect(Object.keys(SCAN_OPERATION_RELEASES).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('ledger.asyncapi.yaml', () => {
  const text = readFileSync(asyncApiFile, 'utf8');
  const doc = readDocument(asyncApiFile);
  const ledger = readDocument(openApiFiles[1] as string);

  it('parses and validates with @asyncapi/parser, without errors', async () => {
    const { document, diagnostics } = await new Parser().parse(text, { source: asyncApiFile });
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
    expect(document?.channels().all().map((c) => c.address()).sort()).toEqual(['/v2/commands/command-completions', '/v2/commands/completions', '/v2/state/active-contracts', '/v2/updates', '/v2/updates/flats', '/v2/updates/trees']);
  });

  it('names both authentication subprotocols and the ledger.ws.auth alias', () => {
    const description = String((doc['info'] as Json)['description']);
    for (const s of ['jwt.token.<JWT>', 'daml.ws.auth', 'ledger.ws.auth']) expect(description).toContain(s);
  });

  it('its schemas are exactly the OpenAPI schemas of the same name', () => {
    const ours = (doc['components'] as Json)['schemas'] as Json;
    const theirs = (ledger['components'] as Json)['schemas'] as Json;
    for (const [name, schema] of Object.entries(ours)) expect(schema, name).toEqual(theirs[name]);
  });

  it('every message example validates against its payload schema', () => {
    // AsyncAPI 2's top-level `id` is a draft-04 keyword to Ajv; it is not a schema id here.
    const { id: _id, ...asSchemaRoot } = doc;
    const compile = documentCompiler(asSchemaRoot);
    const messages = (doc['components'] as Json)['messages'] as Json;
    const failures: string[] = [];
    let count = 0;
    for (const [name, message] of Object.entries(messages)) {
      const m = message as Json;
      const validate = compile(`/components/messages/${name}/payload`);
      expect(m['examples'], name).toEqual(expect.arrayContaining([expect.anything()]));
      for (const ex of m['examples'] as Json[]) {
        count++;
        if (!validate(ex['payload'])) failures.push(`${name} ${String(ex['name'])}: ${JSON.stringify(toProblems(validate.errors))}`);
      }
    }
    expect(count).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
});

describe('report.schema.json', () => {
  const schema = JSON.parse(readFileSync(reportSchemaFile, 'utf8')) as Json;
  const validate = createAjv().compile(schema);
  const example = (schema['examples'] as Json[])[0] as Json;

  it('compiles (JSON Schema 2020-12) and accepts its example report', () => {
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it('requires the members design.md lists, and their enums', () => {
    expect(schema['required']).toEqual(['tool', 'target', 'startedAt', 'durationMs', 'seed', 'summary', 'checks']);
    const { summary: _s, ...noSummary } = example;
    expect(validate(noSummary)).toBe(false);
    const checks = example['checks'] as Json[];
    expect(validate({ ...example, checks: [{ ...checks[0], status: 'passed' }] })).toBe(false);
    expect(validate({ ...example, checks: [{ ...checks[0], level: 'SHALL' }] })).toBe(false);
    expect(validate({ ...example, checks: [{ ...checks[0], baseline: 'known' }] })).toBe(false);
  });

  it('leaves room to extend: unknown members and checks without evidence are fine', () => {
    const checks = example['checks'] as Json[];
    const { evidence: _e, ...noEvidence } = checks[1] as Json;
    expect(validate({ ...example, extra: { note: 'x' }, checks: [{ ...noEvidence, x: 1 }] })).toBe(true);
  });
});
