/**
 * A segment trie over path templates (`/v2/users/{user-id}/rights`): lookup costs one map probe per
 * path segment, whatever the number of operations. A literal segment wins over a parameter, so
 * `/v2/parties/participant-id` is not taken for `/v2/parties/{party}`.
 */
interface Node<T> {
  literal: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  /** Values at this node, by lower-case HTTP method. */
  values: Map<string, T>;
}

export interface RouteMatch<T> {
  value: T;
  template: string;
  params: Record<string, string>;
}

export interface PathRouter<T> {
  add(method: string, template: string, value: T): void;
  find(method: string, path: string): RouteMatch<T> | undefined;
}

const node = <T>(): Node<T> => ({ literal: new Map(), values: new Map() });

/** Splits a concrete or template path into segments; a query string and empty segments (`//`) are dropped. */
export function pathSegments(path: string): string[] {
  let end = path.length;
  const q = path.indexOf('?');
  if (q !== -1) end = q;
  const h = path.indexOf('#');
  if (h !== -1 && h < end) end = h;
  const out: string[] = [];
  for (const s of path.slice(0, end).split('/')) if (s !== '') out.push(s);
  return out;
}

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray '%' is still a usable identifier to report back
  }
}

export function createPathRouter<T>(): PathRouter<T> {
  const root = node<T>();
  const templates = new Map<Node<T>, string>();

  return {
    add(method, template, value) {
      let at = root;
      for (const seg of pathSegments(template)) {
        const param = /^\{([^}]+)\}$/.exec(seg);
        if (param) {
          const name = param[1] as string;
          at.param ??= { name, node: node<T>() };
          at = at.param.node;
        } else {
          let next = at.literal.get(seg);
          if (!next) at.literal.set(seg, (next = node<T>()));
          at = next;
        }
      }
      at.values.set(method.toLowerCase(), value);
      templates.set(at, template);
    },

    find(method, path) {
      const segs = pathSegments(path);
      const m = method.toLowerCase();
      const params: Record<string, string> = {};
      // Literal-first with backtracking to the parameter branch: depth is the segment count.
      const walk = (at: Node<T>, i: number): Node<T> | undefined => {
        if (i === segs.length) return at.values.has(m) ? at : undefined;
        const raw = segs[i] as string;
        const lit = at.literal.get(decode(raw));
        const viaLiteral = lit && walk(lit, i + 1);
        if (viaLiteral) return viaLiteral;
        if (at.param) {
          const found = walk(at.param.node, i + 1);
          if (found) {
            params[at.param.name] = decode(raw);
            return found;
          }
        }
        return undefined;
      };
      const end = walk(root, 0);
      const value = end?.values.get(m);
      if (end === undefined || value === undefined) return undefined;
      return { value, template: templates.get(end) as string, params };
    },
  };
}
