// Known mistakes of published API documents, tolerated when a run validates against them (--spec).

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A documented deviation of an upstream document from what every real server of that document
 * sends. Tolerating it keeps `--spec <upstream document>` about the server, not the document.
 */
export interface SpecQuirk {
  /** Stable name, shown in the report's warnings. */
  readonly id: string;
  /** What the document says, what servers do, and why the suite accepts the latter. */
  readonly reason: string;
  /** Whether a parsed document is one this quirk belongs to. */
  readonly appliesTo: (doc: Json) => boolean;
  /** Widens the document in place; answers where (empty: the document does not have the quirk). */
  readonly tolerate: (doc: Json) => readonly string[];
}

/** A quirk found in, and tolerated for, one document. */
export interface ToleratedQuirk {
  readonly id: string;
  readonly reason: string;
  /** Operations (`METHOD /path`) or schema members the tolerance widened. */
  readonly places: readonly string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const JS_CANTON_ERROR = '#/components/schemas/JsCantonError';

/** Canton's JSON Ledger API document (every 3.x release publishes it under this title). */
const isCantonLedgerApi = (doc: Json): boolean =>
  isObject(doc['info']) && doc['info']['title'] === 'JSON Ledger API HTTP endpoints' && isObject(doc['components']) && isObject(doc['components']['schemas']) && isObject(doc['components']['schemas']['JsCantonError']);

function* operations(doc: Json): Generator<[string, Json]> {
  if (!isObject(doc['paths'])) return;
  for (const [path, item] of Object.entries(doc['paths'])) {
    if (!isObject(item)) continue;
    for (const m of METHODS) if (isObject(item[m])) yield [`${m.toUpperCase()} ${path}`, item[m]];
  }
}

/** The quirks of upstream documents the suite tolerates, each with its reason: the one list. */
export const SPEC_QUIRKS: readonly SpecQuirk[] = [
  {
    id: 'canton-json-400-bodies',
    reason:
      "Canton's JSON Ledger API document declares every 400 as text/plain only (the request decoder's failures) and JsCantonError only under `default`, " +
      'while participants answer every INVALID_ARGUMENT-category refusal (a malformed party id, an offset beyond the ledger end, ...) with 400 and a JsCantonError JSON body: ' +
      "a 400 may also carry the operation's `default` JSON body",
    appliesTo: isCantonLedgerApi,
    tolerate(doc) {
      const places: string[] = [];
      for (const [name, op] of operations(doc)) {
        const responses = op['responses'];
        if (!isObject(responses) || !isObject(responses['400']) || !isObject(responses['default'])) continue;
        const bad = responses['400']['content'];
        const fallback = responses['default']['content'];
        if (!isObject(bad) || !isObject(fallback) || Object.keys(bad).some((m) => m.includes('json'))) continue;
        const json = fallback['application/json'];
        if (!isObject(json) || !isObject(json['schema']) || json['schema']['$ref'] !== JS_CANTON_ERROR) continue;
        bad['application/json'] = { schema: { $ref: JS_CANTON_ERROR } };
        places.push(name);
      }
      return places;
    },
  },
  {
    id: 'canton-null-error-members',
    reason:
      "Canton's JSON Ledger API document types JsCantonError's optional members (correlationId, traceId, retryInfo, definiteAnswer, ...) without null, " +
      'while participants send an absent one as an explicit null (e.g. "correlationId":null): optional members may be null',
    appliesTo: isCantonLedgerApi,
    tolerate(doc) {
      const schema = ((doc['components'] as Json)['schemas'] as Json)['JsCantonError'] as Json;
      const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : []);
      const properties = isObject(schema['properties']) ? schema['properties'] : {};
      const places: string[] = [];
      const openapi31 = typeof doc['openapi'] === 'string' && doc['openapi'].startsWith('3.1');
      for (const [name, member] of Object.entries(properties)) {
        if (required.has(name) || !isObject(member)) continue;
        if (openapi31) properties[name] = { anyOf: [member, { type: 'null' }] };
        else if (typeof member['type'] === 'string' && member['nullable'] !== true) member['nullable'] = true;
        else if (typeof member['$ref'] === 'string') properties[name] = { anyOf: [member, { type: 'null' }] };
        else continue;
        places.push(`JsCantonError.${name}`);
      }
      return places;
    },
  },
];

/** Applies every quirk that belongs to the document, in place; answers those that changed something. */
export function tolerateQuirks(doc: Json): ToleratedQuirk[] {
  return SPEC_QUIRKS.filter((q) => q.appliesTo(doc)).flatMap((q) => {
    const places = q.tolerate(doc);
    return places.length === 0 ? [] : [{ id: q.id, reason: q.reason, places }];
  });
}
