import { findOperation, loadSpec } from '../schema/index.js';
import type { SpecGroup } from '../schema/index.js';

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where the oracle stands in an answer's response schema (our specs): which members the document
 * requires there, and the schema of a member or an element. A member the schema leaves optional
 * is the server's to send or not (a registry's debug fields, an instrument's supply, a
 * participant's trace context, an error's context entries); where a request field decides it
 * (includeCreatedEventBlob, excludeDebugFields), a dedicated check judges the target's answer.
 */
export class SchemaCursor {
  private constructor(
    private readonly document: Schema,
    /** The schema here with its `$ref`s followed and its allOf/oneOf/anyOf branches spread. */
    private readonly schemas: readonly Schema[],
  ) {}

  static of(document: Schema, schema: unknown): SchemaCursor | undefined {
    const schemas = spread(document, schema, 0);
    return schemas.length === 0 ? undefined : new SchemaCursor(document, schemas);
  }

  /**
   * Whether an answer must hold `key` here. A member required by any branch counts (a oneOf's
   * variant member: answering another variant is a difference); one the schema does not declare
   * at all counts too, as it did before schemas were read. Only a declared optional member or a
   * map's entry is not required.
   */
  requires(key: string): boolean {
    if (this.schemas.some((s) => Array.isArray(s.required) && s.required.includes(key))) return true;
    const declared = this.schemas.some((s) => isObject(s.properties) && key in s.properties);
    return !declared && !this.#isMap();
  }

  member(key: string): SchemaCursor | undefined {
    const declared = this.schemas.flatMap((s) => (isObject(s.properties) && key in s.properties ? [s.properties[key]] : []));
    const under = declared.length > 0 ? declared : this.schemas.flatMap((s) => (isObject(s.additionalProperties) ? [s.additionalProperties] : []));
    return this.#cursor(under);
  }

  items(): SchemaCursor | undefined {
    return this.#cursor(this.schemas.flatMap((s) => (s.items === undefined ? [] : [s.items])));
  }

  /** A map (`additionalProperties` a schema, no declared members): its keys are the server's. */
  #isMap(): boolean {
    return this.schemas.some((s) => isObject(s.additionalProperties)) && !this.schemas.some((s) => isObject(s.properties));
  }

  #cursor(schemas: readonly unknown[]): SchemaCursor | undefined {
    const spreadOut = schemas.flatMap((s) => spread(this.document, s, 0));
    return spreadOut.length === 0 ? undefined : new SchemaCursor(this.document, spreadOut);
  }
}

/** `schema` and its branches, each with its local `$ref` followed (bounded: recursive schemas stop). */
function spread(document: Schema, schema: unknown, depth: number): Schema[] {
  if (!isObject(schema) || depth > 16) return [];
  if (typeof schema.$ref === 'string') return spread(document, resolveRef(document, schema.$ref), depth + 1);
  const branches = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : []));
  return [schema, ...branches.flatMap((b) => spread(document, b, depth + 1))];
}

function resolveRef(document: Schema, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = document;
  for (const part of ref.slice(2).split('/')) at = isObject(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return at;
}

/** The JSON response schema our spec gives `method path` answered with `status`; undefined when it has none. */
export function responseSchemaOf(group: SpecGroup, method: string, path: string, status: number): SchemaCursor | undefined {
  const spec = loadSpec(group);
  const op = findOperation(method, path, spec);
  if (op === undefined) return undefined;
  const operation = (spec.document.paths as Schema | undefined)?.[op.template];
  const responses = isObject(operation) && isObject(operation[method.toLowerCase()]) ? (operation[method.toLowerCase()] as Schema).responses : undefined;
  if (!isObject(responses)) return undefined;
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  const response = isObject(declared) && typeof declared.$ref === 'string' ? resolveRef(spec.document as Schema, declared.$ref) : declared;
  const content = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  return isObject(content) ? SchemaCursor.of(spec.document as Schema, content.schema) : undefined;
}
