import { normalizePath } from './normalizePath.js';
import type { RouteGroup } from './types.js';

/** The group a path belongs to when no route matched it, so even a 404 speaks that group's error dialect. */
export function groupOfPath(path: string): RouteGroup {
  const p = normalizePath(path);
  if (p.startsWith('/registry/')) return 'A';
  if (p.startsWith('/v0/') || p.startsWith('/api/scan/')) return 'C';
  return 'B';
}
