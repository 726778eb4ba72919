import { loadSpec } from './loadSpec.js';
import { isJsonMediaType, pickMediaType } from './mediaType.js';
import { moreValuesThan } from './moreValuesThan.js';
import { resolveSpec } from './resolveSpec.js';
import type { CompiledSpec, Problem, SpecSource, ValidationResult } from './types.js';
import { validateBody } from './validateBody.js';

export interface ResponseToValidate {
  /** A compiled spec, a group name ('registry' | 'ledger' | 'scan') or a spec file path. */
  spec: CompiledSpec | SpecSource;
  method: string;
  /** The concrete request path relative to the group's base URL (query string allowed, ignored). */
  path: string;
  status: number;
  /** The response's Content-Type header; undefined or '' when the response had none. */
  contentType?: string | undefined;
  /** The parsed JSON body (or raw text; see validateBody); undefined when there was no body. */
  body?: unknown;
}

/** The document's entry for a status: exact code, then its range ('4XX'), then 'default'. */
export function declaredStatus<V>(responses: ReadonlyMap<string, V>, status: number): string | undefined {
  const exact = String(status);
  if (responses.has(exact)) return exact;
  const range = `${String(status)[0]}XX`;
  if (responses.has(range)) return range;
  return responses.has('default') ? 'default' : undefined;
}

/**
 * Past this many JSON values a body is checked by first-error validators: a target that gets one
 * field wrong in every item of a long list would otherwise hold the suite for minutes (8,000 such
 * items took 45 s), and a report needs the first problem, not a hundred thousand.
 */
const FULL_REPORT_MAX_VALUES = 5_000;

const empty = (body: unknown) => body === undefined || body === '' || body === null;

/** Checks a response's status, content type and body against the operation the path and method select. */
export function validateResponse(r: ResponseToValidate): ValidationResult {
  const spec = resolveSpec(r.spec);
  const match = spec.match(r.method, r.path);
  if (!match) {
    return fail(undefined, { pointer: '', keyword: 'operation', message: `no operation for ${r.method.toUpperCase()} ${r.path}` });
  }
  const op = spec.operations.get(match.operationId);
  if (!op) return fail(match.operationId, { pointer: '', keyword: 'operation', message: `unknown operation ${match.operationId}` });

  const key = declaredStatus(op.responses, r.status);
  if (key === undefined) {
    const declared = [...op.responses.keys()].join(', ');
    return fail(op.operationId, { pointer: '', keyword: 'status', message: `status ${r.status} is not declared for ${op.operationId} (declared: ${declared})` });
  }
  const media = op.responses.get(key) ?? new Map();
  if (media.size === 0) {
    // The document declares no body for this status: any body is a deviation.
    return empty(r.body) ? { ok: true, operationId: op.operationId } : fail(op.operationId, { pointer: '', keyword: 'body', message: `status ${key} of ${op.operationId} declares no body` });
  }
  const contentType = r.contentType ?? '';
  const mt = pickMediaType(media, contentType);
  if (mt === undefined) {
    const declared = [...media.keys()].join(', ');
    return fail(op.operationId, {
      pointer: '',
      keyword: 'contentType',
      message: `content type '${contentType || '(none)'}' is not declared for ${op.operationId} status ${key} (declared: ${declared})`,
    });
  }
  const validator = moreValuesThan(parsedForCounting(r.body, mt), FULL_REPORT_MAX_VALUES)
    ? (loadSpec(spec.file, { firstErrorOnly: true }).operations.get(op.operationId)?.responses.get(key)?.get(mt) ?? media.get(mt))
    : media.get(mt);
  const problems = validateBody(validator ?? null, mt, r.body);
  return problems.length === 0 ? { ok: true, operationId: op.operationId } : { ok: false, operationId: op.operationId, problems };
}

/** The body as JSON if it is JSON text (validateBody parses it again; this copy only sizes it). */
function parsedForCounting(body: unknown, mediaType: string): unknown {
  if (typeof body !== 'string' || !isJsonMediaType(mediaType)) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function fail(operationId: string | undefined, problem: Problem): ValidationResult {
  return { ok: false, operationId, problems: [problem] };
}
