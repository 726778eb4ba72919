import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ABSENT_CHANNELS, ABSENT_OPERATIONS, API_VERSION, CANTON_VERSIONS } from '../../conformance/src/schema/cantonVersions.js';
import { lineDocument } from '../../conformance/src/schema/lineDocument.js';
import { lineSpecFile, lineSpecText, type LedgerDocumentKind } from '../../conformance/src/schema/lineSpecText.js';
import { loadSpec } from '../../conformance/src/schema/index.js';
import { yaml11Problems } from './yaml11Portable.js';

/** specs/ledger.<line>.{openapi,asyncapi}.yaml: each line's document, derived from ours and kept current. */
const KINDS: readonly LedgerDocumentKind[] = ['openapi', 'asyncapi'];
const update = process.env['UPDATE_LINE_SPECS'] === '1';

type Json = Record<string, unknown>;
const operationIds = (doc: Json) =>
  new Set(Object.values(doc['paths'] as Record<string, Record<string, { operationId?: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId)));

describe.each(CANTON_VERSIONS)('our Canton %s ledger documents', (line) => {
  it.each(KINDS)(`specs/ledger.${line}.%s.yaml is the derivation of ours, YAML 1.1 safe`, (kind) => {
    const file = lineSpecFile(line, kind);
    const text = lineSpecText(line, kind);
    if (update) writeFileSync(file, text);
    expect(existsSync(file), `${file} is missing: regenerate with UPDATE_LINE_SPECS=1`).toBe(true);
    expect(readFileSync(file, 'utf8') === text, `${file} is stale: regenerate with UPDATE_LINE_SPECS=1`).toBe(true);
    expect(yaml11Problems(text)).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document and a valid AsyncAPI document', async () => {
    const openapi = await new Validator().validate(lineSpecFile(line));
    expect(openapi.errors ?? []).toEqual([]);
    const file = lineSpecFile(line, 'asyncapi');
    const { diagnostics } = await new Parser().parse(readFileSync(file, 'utf8'), { source: file });
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
  }, 60_000);

  it('has exactly the operations the line has, and its version', () => {
    const ours = parse(readFileSync(join(import.meta.dirname, '..', '..', 'specs', 'ledger.openapi.yaml'), 'utf8')) as Json;
    const doc = parse(readFileSync(lineSpecFile(line), 'utf8')) as Json;
    const expected = [...operationIds(ours)].filter((id) => !ABSENT_OPERATIONS[line].includes(id as string)).sort();
    expect([...operationIds(doc)].sort()).toEqual(expected);
    expect((doc['info'] as Json)['version']).toBe(API_VERSION[line]);
    const channels = Object.keys((parse(readFileSync(lineSpecFile(line, 'asyncapi'), 'utf8')) as { channels: Json }).channels);
    for (const c of ABSENT_CHANNELS[line]) expect(channels).not.toContain(c);
    // It compiles as the suite and the server compile a spec.
    expect(loadSpec(lineSpecFile(line)).operations.size).toBe(expected.length);
  });

  it(line === '3.6' ? "keeps 3.6's members: transactionHash, the ledger end's synchronizerTimes, CanActAsAnyParty" : 'has none of 3.6 members', () => {
    const schemas = (parse(readFileSync(lineSpecFile(line), 'utf8')) as { components: { schemas: Record<string, { properties?: Json; oneOf?: { required: string[] }[] }> } }).components.schemas;
    const has = line === '3.6';
    expect('transactionHash' in (schemas['Completion1']?.properties ?? {})).toBe(has);
    expect('transactionHash' in (schemas['JsTransaction']?.properties ?? {})).toBe(has);
    expect('synchronizerTimes' in (schemas['GetLedgerEndResponse']?.properties ?? {})).toBe(has);
    expect(schemas['KindInput']?.oneOf?.some((b) => b.required.includes('CanActAsAnyParty'))).toBe(has);
    expect('CanActAsAnyPartyInput' in schemas).toBe(has);
    expect(JSON.stringify(schemas)).not.toContain('x-canton-lines');
  });
});

describe('lineDocument', () => {
  const source: Json = {
    info: { version: 'x' },
    paths: { '/a': { post: { operationId: 'postV2UpdatesFlats' } }, '/b': { get: { operationId: 'keep', responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/B' } } } } } } } },
    components: {
      schemas: {
        B: { required: ['x', 'y'], properties: { x: { type: 'string' }, y: { type: 'string', 'x-canton-lines': ['3.6'] } }, oneOf: [{ $ref: '#/components/schemas/C' }, { $ref: '#/components/schemas/D', 'x-canton-lines': ['3.6'] }] },
        C: { type: 'object' },
        D: { type: 'object' },
        Orphan: { type: 'object' },
      },
    },
  };

  it("drops other lines' operations, marked members (and their required entries), branches and the schemas left unreferenced", () => {
    const on35 = lineDocument(source, '3.5');
    expect(Object.keys(on35['paths'] as Json)).toEqual(['/a', '/b']);
    const on36 = lineDocument(source, '3.6');
    expect(Object.keys(on36['paths'] as Json)).toEqual(['/b']);
    const schemas35 = (on35['components'] as { schemas: Record<string, Json> }).schemas;
    expect(schemas35['B']).toEqual({ required: ['x'], properties: { x: { type: 'string' } }, oneOf: [{ $ref: '#/components/schemas/C' }] });
    expect(Object.keys(schemas35).sort()).toEqual(['B', 'C']);
    const schemas36 = (on36['components'] as { schemas: Record<string, Json> }).schemas;
    expect(Object.keys(schemas36).sort()).toEqual(['B', 'C', 'D']);
    expect(schemas36['B']?.['properties']).toEqual({ x: { type: 'string' }, y: { type: 'string' } });
    expect((source['components'] as { schemas: Json }).schemas).toHaveProperty('Orphan');
  });
});
