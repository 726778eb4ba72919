// Shared helpers of the spec tests: which documents we ship, and every example inside them with the
// schema it claims to satisfy.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAjv, packageRoot, readDocument } from '../../conformance/src/schema/index.js';
import { escapeToken } from '../../conformance/src/schema/jsonPointer.js';

export const root = packageRoot();
export const specsDir = join(root, 'specs');
export const openApiFiles = ['registry.openapi.yaml', 'ledger.openapi.yaml', 'scan.openapi.yaml'].map((f) => join(specsDir, f));
export const asyncApiFile = join(specsDir, 'ledger.asyncapi.yaml');
export const reportSchemaFile = join(specsDir, 'report.schema.json');
/** The service description beside the repo, when this checkout has one (project machines do). */
export const serviceDescriptionFile = join(root, '..', 'shared', 'service-description.md');
export const hasServiceDescription = existsSync(serviceDescriptionFile);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Example {
  /** Human-readable location, e.g. `POST /v2/users request application/json example 'example'`. */
  where: string;
  /** JSON pointer of the schema the example must satisfy. */
  schemaPointer: string;
  value: unknown;
}

const ptr = (...tokens: string[]) => tokens.map((t) => '/' + escapeToken(t)).join('');

function mediaExamples(content: unknown, at: string, where: string, out: Example[]): void {
  if (!isObject(content)) return;
  for (const [media, entry] of Object.entries(content)) {
    if (!isObject(entry) || entry['schema'] === undefined) continue;
    const schemaPointer = `${at}/content/${escapeToken(media)}/schema`;
    if ('example' in entry) out.push({ where: `${where} ${media} example`, schemaPointer, value: entry['example'] });
    if (isObject(entry['examples'])) {
      for (const [name, ex] of Object.entries(entry['examples'])) {
        if (isObject(ex) && 'value' in ex) out.push({ where: `${where} ${media} example '${name}'`, schemaPointer, value: ex['value'] });
      }
    }
  }
}

/** Every example of an OpenAPI document: request bodies, responses, shared responses and parameters. */
export function collectExamples(doc: Json): Example[] {
  const out: Example[] = [];
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op)) continue;
      const at = ptr('paths', template, method);
      const name = `${method.toUpperCase()} ${template}`;
      const rb = op['requestBody'];
      if (isObject(rb)) mediaExamples(rb['content'], `${at}/requestBody`, `${name} request`, out);
      const responses = isObject(op['responses']) ? op['responses'] : {};
      for (const [status, r] of Object.entries(responses)) {
        if (isObject(r)) mediaExamples(r['content'], `${at}/responses/${escapeToken(status)}`, `${name} ${status}`, out);
      }
      const params = Array.isArray(op['parameters']) ? op['parameters'] : [];
      params.forEach((p, i) => {
        if (isObject(p) && 'example' in p) out.push({ where: `${name} parameter ${String(p['name'])}`, schemaPointer: `${at}/parameters/${i}/schema`, value: p['example'] });
      });
    }
  }
  const components = isObject(doc['components']) ? doc['components'] : {};
  const responses = isObject(components['responses']) ? components['responses'] : {};
  for (const [name, r] of Object.entries(responses)) {
    if (isObject(r)) mediaExamples(r['content'], ptr('components', 'responses', name), `components.responses.${name}`, out);
  }
  return out;
}

/** Compiles schemas at pointers inside a whole document, so their local $refs resolve. */
export function documentCompiler(doc: Json) {
  const ajv = createAjv();
  const id = 'https://canton-conformance.invalid/test/' + Math.random().toString(36).slice(2) + '.json';
  ajv.addSchema(doc, id);
  return (pointer: string) => ajv.compile({ $ref: `${id}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
}

export { readDocument };
