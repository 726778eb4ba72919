import type { ErrorObject } from 'ajv';
import type { Problem } from './types.js';

/** Ajv errors as problems; the message names the offending property where Ajv keeps it in params. */
export function toProblems(errors: readonly ErrorObject[] | null | undefined): Problem[] {
  return (errors ?? []).map((e) => {
    const p = e.params as Record<string, unknown>;
    const detail =
      e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties'
        ? ` ('${String(p['additionalProperty'] ?? p['unevaluatedProperty'])}')`
        : e.keyword === 'enum'
          ? ` (${JSON.stringify(p['allowedValues'])})`
          : e.keyword === 'const'
            ? ` (${JSON.stringify(p['allowedValue'])})`
            : '';
    const problem: Problem = { pointer: e.instancePath, message: `${e.message ?? 'is invalid'}${detail}`, keyword: e.keyword };
    const property = p['additionalProperty'] ?? p['unevaluatedProperty'] ?? p['missingProperty'];
    if (typeof property === 'string') problem.property = property;
    return problem;
  });
}
