import { decodePathSegment } from './decodePathSegment.js';
import { normalizePath } from './normalizePath.js';

/** What the matcher needs of a route: its method and OpenAPI-style path template. */
export interface Matchable {
  readonly method: string;
  readonly path: string;
}

export type RouteMatch<R extends Matchable> =
  | { readonly kind: 'match'; readonly route: R; readonly params: Readonly<Record<string, string>>; readonly path: string }
  /** The path exists but not for this method. */
  | { readonly kind: 'method'; readonly allowed: readonly string[]; readonly path: string }
  | { readonly kind: 'none'; readonly path: string };

/**
 * Finds the route of a request. `path` in the answer is the request's path as routed (doubled
 * slashes collapsed), what errors and handlers quote.
 */
export type RouteMatcher<R extends Matchable> = (method: string, rawPath: string) => RouteMatch<R>;

/** One route at the end of a template, with its parameter names in path order. */
interface Endpoint<R> {
  readonly route: R;
  readonly names: readonly string[];
}

/** A node of the template trie: one path segment deeper per level. */
interface TrieNode<R> {
  readonly statics: Map<string, TrieNode<R>>;
  param: TrieNode<R> | undefined;
  readonly endpoints: Map<string, Endpoint<R>>;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Compiles a route table once: paths without parameters in a Map (one lookup for the whole path),
 * templates in a trie keyed by segment, a literal segment tried before a parameter at each level.
 * So `/v2/parties/participant-id` is never read as `/v2/parties/{party}`, and a request costs one
 * Map lookup per segment however many routes the table has.
 *
 * Matching is exact, case included: the participant (tapir on pekko-http) and Splice's apps
 * (pekko-http) compare path segments as strings, so `/V2/VERSION` is an unknown path there too.
 */
export function createRouteMatcher<R extends Matchable>(routes: readonly R[]): RouteMatcher<R> {
  const statics = new Map<string, Map<string, Endpoint<R>>>();
  const root = trieNode<R>();

  for (const route of routes) {
    if (!route.path.includes('{')) {
      const byMethod = statics.get(route.path) ?? new Map<string, Endpoint<R>>();
      addOnce(byMethod, route, []);
      statics.set(route.path, byMethod);
      continue;
    }
    let node = root;
    const names: string[] = [];
    for (const segment of route.path.split('/').slice(1)) {
      if (segment.startsWith('{') && segment.endsWith('}')) {
        names.push(segment.slice(1, -1));
        node = node.param ??= trieNode<R>();
      } else {
        let next = node.statics.get(segment);
        if (next === undefined) node.statics.set(segment, (next = trieNode<R>()));
        node = next;
      }
    }
    addOnce(node.endpoints, route, names);
  }

  return (method, rawPath) => {
    const path = normalizePath(rawPath);
    const key = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const upper = method.toUpperCase();
    const fixed = statics.get(key);
    if (fixed !== undefined) return pick(fixed, upper, path, undefined);

    const parts = key.split('/');
    const values: string[] = [];
    // parts[0] is the empty string before the leading slash.
    const found = key.startsWith('/') ? walk(root, parts, 1, values) : undefined;
    if (found === undefined) return { kind: 'none', path };
    return pick(found.endpoints, upper, path, values);
  };
}

function trieNode<R>(): TrieNode<R> {
  return { statics: new Map(), param: undefined, endpoints: new Map() };
}

/** Depth-first, literal before parameter; `values` holds the raw parameter segments of the path taken. */
function walk<R>(node: TrieNode<R>, parts: readonly string[], i: number, values: string[]): TrieNode<R> | undefined {
  if (i === parts.length) return node.endpoints.size > 0 ? node : undefined;
  const part = parts[i]!;
  const literal = node.statics.get(part);
  if (literal !== undefined) {
    const found = walk(literal, parts, i + 1, values);
    if (found !== undefined) return found;
  }
  if (node.param === undefined || part === '') return undefined;
  values.push(part);
  const found = walk(node.param, parts, i + 1, values);
  if (found === undefined) values.pop();
  return found;
}

function addOnce<R extends Matchable>(byMethod: Map<string, Endpoint<R>>, route: R, names: readonly string[]): void {
  const method = route.method.toUpperCase();
  if (byMethod.has(method)) throw new Error(`duplicate route ${method} ${route.path}`);
  byMethod.set(method, { route, names });
}

function pick<R extends Matchable>(byMethod: Map<string, Endpoint<R>>, method: string, path: string, values: readonly string[] | undefined): RouteMatch<R> {
  // HEAD is answered like GET (Node drops the body), as HTTP servers generally do.
  const endpoint = byMethod.get(method) ?? (method === 'HEAD' ? byMethod.get('GET') : undefined);
  if (endpoint === undefined) return { kind: 'method', allowed: [...byMethod.keys()], path };
  if (values === undefined) return { kind: 'match', route: endpoint.route, params: NO_PARAMS, path };
  const params: Record<string, string> = {};
  endpoint.names.forEach((name, i) => {
    params[name] = decodePathSegment(values[i]!);
  });
  return { kind: 'match', route: endpoint.route, params, path };
}
