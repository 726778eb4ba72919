import { decodePathSegment } from './decodePathSegment.js';
import { normalizePath } from './normalizePath.js';

/** What the matcher needs of a route: its method and OpenAPI-style path template. */
export interface Matchable {
  readonly method: string;
  readonly path: string;
}

export type RouteMatch<R extends Matchable> =
  | { readonly kind: 'match'; readonly route: R; readonly params: Readonly<Record<string, string>> }
  /** The path exists but not for this method. */
  | { readonly kind: 'method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

interface Compiled<R> {
  readonly segments: readonly (string | { readonly param: string })[];
  readonly byMethod: Map<string, R>;
}

/**
 * Builds a matcher over a route table: static paths in a Map (one lookup), templated paths
 * precompiled into segment lists and tried in table order. Static paths win over templates, so
 * `/v2/parties/participant-id` is never read as `/v2/parties/{party}`.
 */
export function createRouteMatcher<R extends Matchable>(routes: readonly R[]): (method: string, rawPath: string) => RouteMatch<R> {
  const statics = new Map<string, Map<string, R>>();
  const templates: Compiled<R>[] = [];
  const templateIndex = new Map<string, Compiled<R>>();

  for (const route of routes) {
    if (!route.path.includes('{')) {
      const byMethod = statics.get(route.path) ?? new Map<string, R>();
      addOnce(byMethod, route);
      statics.set(route.path, byMethod);
      continue;
    }
    let compiled = templateIndex.get(route.path);
    if (compiled === undefined) {
      const segments = route.path
        .split('/')
        .slice(1)
        .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : s));
      compiled = { segments, byMethod: new Map() };
      templateIndex.set(route.path, compiled);
      templates.push(compiled);
    }
    addOnce(compiled.byMethod, route);
  }

  return (method, rawPath) => {
    const path = trimTrailingSlash(normalizePath(rawPath));
    const upper = method.toUpperCase();
    const fixed = statics.get(path);
    if (fixed !== undefined) return pick(fixed, upper, {});

    const parts = path.split('/').slice(1);
    for (const t of templates) {
      const params = matchSegments(t.segments, parts);
      if (params !== undefined) return pick(t.byMethod, upper, params);
    }
    return { kind: 'none' };
  };
}

function addOnce<R extends Matchable>(byMethod: Map<string, R>, route: R): void {
  const method = route.method.toUpperCase();
  if (byMethod.has(method)) throw new Error(`duplicate route ${method} ${route.path}`);
  byMethod.set(method, route);
}

function pick<R extends Matchable>(byMethod: Map<string, R>, method: string, params: Record<string, string>): RouteMatch<R> {
  // HEAD is answered like GET (Node drops the body), as HTTP servers generally do.
  const route = byMethod.get(method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined);
  if (route !== undefined) return { kind: 'match', route, params };
  return { kind: 'method', allowed: [...byMethod.keys()] };
}

function matchSegments(
  segments: readonly (string | { readonly param: string })[],
  parts: readonly string[],
): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (typeof segment === 'string') {
      if (segment !== part) return undefined;
    } else {
      if (part === '') return undefined;
      params[segment.param] = decodePathSegment(part);
    }
  }
  return params;
}

function trimTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
