import type { ErrorObject } from 'ajv';
import type { Problem } from './types.js';

const under = (path: string, parent: string) => path === parent || path.startsWith(parent + '/');

/**
 * Drops the noise of failed `oneOf`/`anyOf` branches. Our variants are single-key wrappers
 * (`{CreateCommand: {...}}`), so every non-chosen branch reports "must have required property
 * 'ExerciseCommand'" and "must NOT have additional properties ('CreateCommand')" at the variant's
 * own path. When some branch got deeper than that, the deeper errors are the real ones: keep them
 * and drop the shallow branch errors and the oneOf summary. When none did, keep only the summary.
 */
export function pruneBranchErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<number>();
  errors.forEach((e, k) => {
    if ((e.keyword !== 'oneOf' && e.keyword !== 'anyOf') || (e.params as { passingSchemas?: unknown }).passingSchemas) return;
    const branch: number[] = [];
    for (let j = 0; j < k; j++) if (!dropped.has(j) && under((errors[j] as ErrorObject).instancePath, e.instancePath)) branch.push(j);
    const shallow = branch.filter((j) => {
      const b = errors[j] as ErrorObject;
      return b.instancePath === e.instancePath && b.schemaPath.startsWith(e.schemaPath + '/');
    });
    const deeper = branch.some((j) => (errors[j] as ErrorObject).instancePath !== e.instancePath);
    for (const j of shallow) dropped.add(j);
    if (deeper) dropped.add(k);
  });
  return errors.filter((_, i) => !dropped.has(i));
}

/** Ajv errors as problems; the message names the offending property where Ajv keeps it in params. */
export function toProblems(errors: readonly ErrorObject[] | null | undefined): Problem[] {
  return pruneBranchErrors(errors ?? []).map((e) => {
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
