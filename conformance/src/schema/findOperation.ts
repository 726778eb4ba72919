import { loadSpec } from './loadSpec.js';
import { SPEC_GROUPS } from './ourSpecFile.js';
import { resolveSpec } from './resolveSpec.js';
import type { CompiledSpec, OperationMatch, SpecGroup, SpecSource } from './types.js';

/**
 * The operation a concrete request selects. Without `spec`, our three specs are tried (their paths
 * do not overlap: /registry, /v2 + /docs + /livez + /readyz, /v0); the match says which group.
 */
export function findOperation(method: string, path: string, spec?: CompiledSpec | SpecSource): (OperationMatch & { group?: SpecGroup }) | undefined {
  if (spec !== undefined) return resolveSpec(spec).match(method, path);
  for (const group of SPEC_GROUPS) {
    const m = loadSpec(group).match(method, path);
    if (m) return { ...m, group };
  }
  return undefined;
}
