import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { readBuiltDocument } from './builtDocuments.js';
import { createAjv } from './createAjv.js';
import { lazyYaml } from './lazyYaml.js';
import { createPathRouter } from './createPathRouter.js';
import { escapeToken, resolvePointer, toPointer } from './jsonPointer.js';
import { normalizeMediaType } from './mediaType.js';
import { parseOurYaml } from './parseOurYaml.js';
import { isSpecGroup, ourSpecFile, packageRoot } from './ourSpecFile.js';
import { fetchedSpecText, isSpecUrl } from './remoteSpec.js';
import { SpecLoadError } from './SpecLoadError.js';
import { tolerateQuirks } from './specQuirks.js';
import type { BodyValidator, CompiledOperation, CompiledSpec, HttpMethod, SpecSource } from './types.js';

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * One compiled spec per file, error mode and compile mode per process: compiling the ledger
 * document takes far longer than any request. `byFile` keyed by the resolved file, `bySource` by
 * what callers pass ('ledger', a path): the per-request lookup skips path resolution.
 */
const caches = new Map<string, { byFile: Map<string, CompiledSpec>; bySource: Map<string, CompiledSpec> }>();
const cachesOf = (options: LoadSpecOptions) => {
  const mode = `${options.firstErrorOnly === true}:${options.compileOnFirstUse === true}`;
  let c = caches.get(mode);
  if (c === undefined) caches.set(mode, (c = { byFile: new Map(), bySource: new Map() }));
  return c;
};
let documents = 0;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves the file behind a source: a group name means our document in specs/; a URL stays itself (fetchSpec). */
export function specFile(source: SpecSource): string {
  return isSpecGroup(source) ? ourSpecFile(source) : isSpecUrl(source) ? source : resolve(source);
}

export interface LoadSpecOptions {
  /** Read the file again instead of answering from the cache. */
  reload?: boolean;
  /**
   * Validators that stop at the first error: the same verdicts, a fraction of the cost on a body
   * with thousands of errors (which a hostile client can send in a few kilobytes).
   */
  firstErrorOnly?: boolean;
  /**
   * Compile each body schema when it first validates a body, not at load: a server validates the
   * request bodies of the operations its clients call, a small part of the document. For our own
   * documents only (the suite compiles them whole, so a schema that does not compile is found
   * there); a schema that does not compile then throws SpecLoadError at that first use.
   */
  compileOnFirstUse?: boolean;
}

/**
 * Loads an OpenAPI 3.x document (YAML or JSON), compiles every request and response body schema
 * with Ajv, and indexes its operations by id and by path template. Cached per file; pass
 * `{ reload: true }` to read the file again. Throws SpecLoadError for a file that cannot be used.
 */
export function loadSpec(source: SpecSource, options: LoadSpecOptions = {}): CompiledSpec {
  const { byFile: cache, bySource } = cachesOf(options);
  if (!options.reload) {
    const hit = bySource.get(source);
    if (hit) return hit;
  }
  const file = specFile(source);
  let compiled = options.reload ? undefined : cache.get(file);
  if (!compiled) {
    compiled = compileSpec(file, readDocument(file), options.firstErrorOnly !== true, options.compileOnFirstUse === true);
    cache.set(file, compiled);
    // A reload replaces the file's entry for every alias it was known by.
    for (const [key, spec] of bySource) if (spec.file === file) bySource.set(key, compiled);
  }
  bySource.set(source, compiled);
  return compiled;
}

/** A document this package ships (specs/*.yaml), as opposed to one a user names. */
function isOurDocument(file: string): boolean {
  return !isSpecUrl(file) && dirname(resolve(file)) === join(packageRoot(), 'specs');
}

/** Reads and parses a YAML or JSON document (YAML is a superset of JSON, so one parser serves both). */
export function readDocument(file: string): Json {
  let text: string;
  try {
    text = isSpecUrl(file) ? fetchedSpecText(file) : readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof SpecLoadError) throw e;
    throw new SpecLoadError(file, `cannot read: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    // A URL names no extension; JSON parses as YAML too, only slower on big documents. Our own
    // documents (specs/) come from their form built from exactly this text when there is one,
    // else through js-yaml (parseOurYaml); a user's document keeps `yaml`, the stricter reader.
    doc = /\.json$/i.test(file) || (isSpecUrl(file) && text.trimStart().startsWith('{'))
      ? JSON.parse(text)
      : isOurDocument(file) ? readBuiltDocument(file, text) ?? parseOurYaml(text) : lazyYaml().parse(text, { maxAliasCount: -1 });
  } catch (e) {
    throw new SpecLoadError(file, `cannot parse: ${(e as Error).message}`);
  }
  if (!isObject(doc)) throw new SpecLoadError(file, 'not an object document');
  return doc;
}

function compileSpec(file: string, doc: Json, allErrors: boolean, onFirstUse: boolean): CompiledSpec {
  const openapi = doc['openapi'];
  if (typeof openapi !== 'string' || !openapi.startsWith('3.')) {
    throw new SpecLoadError(file, `not an OpenAPI 3.x document (openapi: ${JSON.stringify(openapi)})`);
  }
  // Before compiling: the tolerances widen the document's schemas and responses.
  const tolerated = tolerateQuirks(doc);
  const ajv = createAjv({ allErrors });
  const id = `https://canton-conformance.invalid/spec/${++documents}.json`;
  ajv.addSchema(doc, id);
  const compileAt = validatorFactory(ajv, id, doc, file, onFirstUse);

  const operations = new Map<string, CompiledOperation>();
  const router = createPathRouter<string>();
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = ['paths', template, method];
      const operationId = typeof op['operationId'] === 'string' ? op['operationId'] : `${method.toUpperCase()} ${template}`;
      if (operations.has(operationId)) throw new SpecLoadError(file, `duplicate operationId '${operationId}'`);
      const compiled: CompiledOperation = {
        operationId,
        method,
        template,
        deprecated: op['deprecated'] === true,
        responses: compileResponses(doc, [...at, 'responses'], compileAt),
      };
      if (op['requestBody'] !== undefined) {
        const { value: body, pointer } = deref(doc, toPointer([...at, 'requestBody']));
        if (isObject(body)) {
          compiled.requestBody = { required: body['required'] === true, media: compileContent(doc, pointer, compileAt) };
        }
      }
      operations.set(operationId, compiled);
      router.add(method, template, operationId);
    }
  }

  return {
    file,
    document: doc,
    openapi,
    operations,
    tolerated,
    match(method, path) {
      const m = router.find(method, path);
      return m && { operationId: m.value, template: m.template, pathParams: m.params };
    },
  };
}

type CompileAt = (schemaPointer: string) => BodyValidator;

function compileResponses(doc: Json, at: string[], compileAt: CompileAt): Map<string, Map<string, BodyValidator>> {
  const out = new Map<string, Map<string, BodyValidator>>();
  const responses = resolvePointer(doc, toPointer(at));
  if (!isObject(responses)) return out;
  for (const status of Object.keys(responses)) {
    const { value: response, pointer } = deref(doc, toPointer([...at, status]));
    out.set(status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(), isObject(response) ? compileContent(doc, pointer, compileAt) : new Map());
  }
  return out;
}

/** `content` of a request body or response: media type -> compiled schema. */
function compileContent(doc: Json, ownerPointer: string, compileAt: CompileAt): Map<string, BodyValidator> {
  const out = new Map<string, BodyValidator>();
  const content = resolvePointer(doc, ownerPointer + '/content');
  if (!isObject(content)) return out;
  for (const [media, entry] of Object.entries(content)) {
    const hasSchema = isObject(entry) && entry['schema'] !== undefined;
    out.set(normalizeMediaType(media), hasSchema ? compileAt(`${ownerPointer}/content/${escapeToken(media)}/schema`) : null);
  }
  return out;
}

/** Follows local `$ref`s of non-schema objects (responses, request bodies) to where they are defined. */
function deref(doc: Json, pointer: string): { value: unknown; pointer: string } {
  let value = resolvePointer(doc, pointer);
  for (let hops = 0; isObject(value) && typeof value['$ref'] === 'string' && hops < 32; hops++) {
    const ref = value['$ref'];
    if (!ref.startsWith('#')) break; // external refs are not followed: we only resolve within the document
    pointer = decodeURIComponent(ref.slice(1));
    value = resolvePointer(doc, pointer);
  }
  return { value, pointer };
}

/**
 * Compiles the schema at a pointer inside the document, against the document itself so its local
 * `$ref`s resolve. A schema that is only a `$ref` compiles its target, so all operations sharing
 * `JsCantonError` share one validator.
 */
function validatorFactory(ajv: Ajv2020, id: string, doc: Json, file: string, onFirstUse: boolean): CompileAt {
  const byPointer = new Map<string, BodyValidator>();
  return (schemaPointer) => {
    let pointer = schemaPointer;
    for (let hops = 0; hops < 32; hops++) {
      const s = resolvePointer(doc, pointer);
      if (!isObject(s) || typeof s['$ref'] !== 'string' || Object.keys(s).length !== 1 || !s['$ref'].startsWith('#')) break;
      pointer = decodeURIComponent(s['$ref'].slice(1));
    }
    const known = byPointer.get(pointer);
    if (known !== undefined) return known;
    const compile = (): ValidateFunction => {
      try {
        const fragment = pointer.split('/').map(encodeURIComponent).join('/');
        return ajv.compile({ $ref: `${id}#${fragment}` });
      } catch (e) {
        throw new SpecLoadError(file, `schema at #${pointer} does not compile: ${(e as Error).message}`);
      }
    };
    const validate = onFirstUse ? compiledOnFirstUse(compile) : compile();
    byPointer.set(pointer, validate);
    return validate;
  };
}

/** A validator that compiles on its first call, then answers (and reports `errors`) as the compiled one. */
function compiledOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  validate.errors = null;
  return validate;
}
