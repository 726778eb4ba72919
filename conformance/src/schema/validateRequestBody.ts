import { loadSpec } from './loadSpec.js';
import { pickMediaType } from './mediaType.js';
import { SPEC_GROUPS } from './ourSpecFile.js';
import { resolveSpec } from './resolveSpec.js';
import type { CompiledOperation, CompiledSpec, SpecSource, ValidationResult } from './types.js';
import { validateBody } from './validateBody.js';

/** Our three specs' operations by id (operation ids are unique across them). */
let ours: Map<string, CompiledOperation> | undefined;

function ourOperation(operationId: string): CompiledOperation | undefined {
  if (!ours) {
    ours = new Map();
    for (const g of SPEC_GROUPS) for (const [id, op] of loadSpec(g).operations) ours.set(id, op);
  }
  return ours.get(operationId);
}

/**
 * Validates a request body (parsed JSON) against an operation's request schema: what the reference
 * server runs before it touches the ledger. Without `spec`, the operation is looked up in our three
 * specs. `contentType` defaults to JSON, because the real LedgerClient sends POSTs without one.
 */
export function validateRequestBody(
  operationId: string,
  body: unknown,
  options: { spec?: CompiledSpec | SpecSource; contentType?: string } = {},
): ValidationResult {
  const op = options.spec === undefined ? ourOperation(operationId) : resolveSpec(options.spec).operations.get(operationId);
  if (!op) return { ok: false, operationId: undefined, problems: [{ pointer: '', keyword: 'operation', message: `unknown operation ${operationId}` }] };
  const rb = op.requestBody;
  if (!rb) {
    const present = body !== undefined && body !== '';
    return present ? { ok: false, operationId, problems: [{ pointer: '', keyword: 'body', message: `${operationId} takes no request body` }] } : { ok: true, operationId };
  }
  if (body === undefined) {
    return rb.required ? { ok: false, operationId, problems: [{ pointer: '', keyword: 'required', message: `${operationId} requires a request body` }] } : { ok: true, operationId };
  }
  const mt = pickMediaType(rb.media, options.contentType || 'application/json');
  if (mt === undefined) {
    return {
      ok: false,
      operationId,
      problems: [{ pointer: '', keyword: 'contentType', message: `content type '${options.contentType}' is not accepted by ${operationId} (accepted: ${[...rb.media.keys()].join(', ')})` }],
    };
  }
  const problems = validateBody(rb.media.get(mt) ?? null, mt, body);
  return problems.length === 0 ? { ok: true, operationId } : { ok: false, operationId, problems };
}
