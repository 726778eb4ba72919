import { isJsonMediaType } from './mediaType.js';
import { toProblems } from './toProblems.js';
import type { BodyValidator, Problem } from './types.js';

/**
 * Validates one body against its compiled schema. JSON bodies are expected parsed; a string given for
 * a JSON media type is parsed here (so callers can pass raw text), and unparseable text is a problem.
 */
export function validateBody(validate: BodyValidator, mediaType: string, body: unknown): Problem[] {
  if (validate === null) return [];
  let value = body;
  if (isJsonMediaType(mediaType) && typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return [{ pointer: '', keyword: 'json', message: `is not valid JSON (${mediaType})` }];
    }
  }
  return validate(value) ? [] : toProblems(validate.errors);
}
