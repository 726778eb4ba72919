import { loadSpec, moreValuesThan, validateRequestBody, type CompiledSpec, type Problem as SchemaProblem } from '../../../../conformance/src/schema/index.js';
import type { RequestBodyCheck, RequestBodyValidator } from './validation.js';

const UNKNOWN_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties']);
/** How many rounds of stripping unknown members before a body counts as misshapen. */
const MAX_ROUNDS = 8;
/** With first-error validators each round reveals one unknown member, so allow more rounds. */
const MAX_FIRST_ERROR_ROUNDS = 32;
/**
 * Bodies with more JSON values than this are validated with first-error validators: collecting
 * every error is quadratic in their number (2,000 bad array items take ~0.1 s, 20,000 take ~15 s
 * of a blocked event loop), and an 80 kB body can hold 20,000.
 */
const FULL_DIAGNOSIS_MAX_VALUES = 2_000;

/**
 * Request validation against our spec (request schemas are closed), split the way the participant
 * splits it: a body that only fails because of members the schema does not declare is an
 * "Unexpected fields" INVALID_ARGUMENT; anything else is a decoding failure.
 *
 * Telling the two apart needs care with `oneOf` (every non-matching variant also reports the
 * matching variant's key as unknown), so unknown members are removed deepest first, round by round,
 * until the body passes (unknown fields) or no unknown member is left to remove (misshapen).
 */
export function specBodyValidator(fullSpec: CompiledSpec): RequestBodyValidator {
  return (operationId, body) => {
    const large = moreValuesThan(body, FULL_DIAGNOSIS_MAX_VALUES);
    // Loaded on the first large body only (most processes never see one), each schema compiled on its first use.
    const spec = large ? loadSpec(fullSpec.file, { firstErrorOnly: true, compileOnFirstUse: true }) : fullSpec;
    const maxRounds = large ? MAX_FIRST_ERROR_ROUNDS : MAX_ROUNDS;
    const first = validateRequestBody(operationId, body, { spec });
    if (first.ok) return { ok: true };
    if (!first.problems.some((p) => UNKNOWN_KEYWORDS.has(p.keyword))) return shape(first.problems);

    const candidate: unknown = structuredClone(body);
    let problems = first.problems;
    const removed: string[] = [];
    for (let round = 0; round < maxRounds; round++) {
      const unknown = problems.filter((p) => UNKNOWN_KEYWORDS.has(p.keyword)).map(unknownMember);
      if (unknown.length === 0) break;
      const deepest = Math.max(...unknown.map((u) => u.depth));
      for (const u of unknown.filter((x) => x.depth === deepest)) {
        if (u.name !== undefined && removeMember(candidate, u.pointer, u.name)) removed.push(u.name);
      }
      const again = validateRequestBody(operationId, candidate, { spec });
      if (again.ok) return { ok: false, kind: 'unknown-fields', fields: [...new Set(removed)] };
      problems = again.problems;
    }
    return shape(problems);
  };
}

function shape(problems: readonly SchemaProblem[]): RequestBodyCheck {
  const first = problems.find((p) => p.keyword !== 'oneOf' && p.keyword !== 'anyOf') ?? problems[0];
  const where = first === undefined || first.pointer === '' ? '' : ` at '${first.pointer}'`;
  return { ok: false, kind: 'shape', message: `Invalid value for: body (${first?.message ?? 'does not match the request schema'}${where})` };
}

/** The member an additional-properties problem names. */
function unknownMember(p: SchemaProblem): { pointer: string; name: string | undefined; depth: number } {
  const name = p.property ?? /\('(.*)'\)$/.exec(p.message)?.[1];
  return { pointer: p.pointer, name, depth: p.pointer === '' ? 0 : p.pointer.split('/').length - 1 };
}

function removeMember(doc: unknown, pointer: string, name: string): boolean {
  let at: unknown = doc;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (at === null || typeof at !== 'object') return false;
    at = (at as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (at === null || typeof at !== 'object' || Array.isArray(at) || !(name in at)) return false;
  delete (at as Record<string, unknown>)[name];
  return true;
}
