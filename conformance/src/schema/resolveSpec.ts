import { loadSpec } from './loadSpec.js';
import type { CompiledSpec, SpecSource } from './types.js';

/** Accepts a compiled spec or anything loadSpec takes (cached, so this is a map lookup after the first call). */
export function resolveSpec(spec: CompiledSpec | SpecSource): CompiledSpec {
  return typeof spec === 'string' ? loadSpec(spec) : spec;
}
