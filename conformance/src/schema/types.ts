import type { ValidateFunction } from 'ajv';
import type { ToleratedQuirk } from './specQuirks.js';

/** One of our own documents in specs/, by the endpoint group it describes. */
export type SpecGroup = 'registry' | 'ledger' | 'scan';

/** Where a spec comes from: one of ours by group, or a YAML/JSON file path (e.g. the upstream Canton 3.0.3 document). */
export type SpecSource = SpecGroup | (string & {});

/** One thing wrong with a body (or with the status/content type it came with). */
export interface Problem {
  /** JSON pointer into the body ('' for the body as a whole, or for status/content-type problems). */
  pointer: string;
  message: string;
  /** The failing JSON Schema keyword, or one of ours: 'operation' | 'status' | 'contentType' | 'body' | 'json'. */
  keyword: string;
  /** The member concerned, for 'additionalProperties' (the unknown field) and 'required' (the missing one). */
  property?: string;
}

/** The outcome of a validation: data, never an exception. */
export type ValidationResult =
  | { ok: true; operationId: string }
  | { ok: false; operationId: string | undefined; problems: Problem[] };

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** A compiled body schema; `null` when the document declares the media type without a schema (anything goes). */
export type BodyValidator = ValidateFunction | null;

export interface CompiledOperation {
  operationId: string;
  method: HttpMethod;
  /** The path template as written in the document, e.g. `/v2/users/{user-id}`. */
  template: string;
  deprecated: boolean;
  /** Absent when the operation takes no body. */
  requestBody?: { required: boolean; media: ReadonlyMap<string, BodyValidator> };
  /** Keyed by the document's status keys: '200', '4XX', 'default'. An empty media map means "no body". */
  responses: ReadonlyMap<string, ReadonlyMap<string, BodyValidator>>;
}

/** A concrete request path matched to an operation. */
export interface OperationMatch {
  operationId: string;
  template: string;
  /** Percent-decoded path parameters, by the template's names. */
  pathParams: Record<string, string>;
}

export interface CompiledSpec {
  /** Absolute path of the file the spec was read from. */
  readonly file: string;
  /** The parsed document (read-only by convention; shared by every caller). */
  readonly document: Readonly<Record<string, unknown>>;
  /** `openapi` field of the document, e.g. '3.1.0' or '3.0.3'. */
  readonly openapi: string;
  readonly operations: ReadonlyMap<string, CompiledOperation>;
  /** Documented quirks of the document that were tolerated (specQuirks.ts); empty for ours. */
  readonly tolerated: readonly ToleratedQuirk[];
  /** Matches a concrete path (query string ignored, duplicate slashes tolerated) to an operation. */
  match(method: string, path: string): OperationMatch | undefined;
}
