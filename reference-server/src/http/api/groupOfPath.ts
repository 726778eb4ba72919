import { normalizePath } from './normalizePath.js';
import type { RouteGroup } from './types.js';

/** The group a path belongs to when no route matched it, so even a 404 speaks that group's error dialect. */
export function groupOfPath(path: string): RouteGroup {
  const p = normalizePath(path);
  // The validator's scan proxy serves the registry under its prefix (`serve --localnet`); the
  // test tokens' registries are under `/registries/{admin}`.
  if (p.startsWith('/registry/') || p.startsWith('/registries/') || p.startsWith('/api/validator/v0/scan-proxy/registry/')) return 'A';
  if (p.startsWith('/v0/') || p.startsWith('/api/scan/') || p.startsWith('/api/validator/')) return 'C';
  return 'B';
}
