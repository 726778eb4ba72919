import { absentChannels, absentOperations, API_VERSION, type CantonVersion } from './cantonVersions.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The mark our ledger documents put on a member or `oneOf` branch only some lines have. */
export const LINES_MARK = 'x-canton-lines';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Does a node belong to the line? Unmarked nodes belong to every line. */
const onLine = (node: unknown, line: CantonVersion): boolean => {
  const lines = isObject(node) ? node[LINES_MARK] : undefined;
  return !Array.isArray(lines) || lines.includes(line);
};

/**
 * Our ledger document (OpenAPI or AsyncAPI, every line's surface, `x-canton-lines` marking what
 * only some lines have) as one line's document: the operations and channels the line lacks
 * (`ABSENT_OPERATIONS`, `ABSENT_CHANNELS`) removed, the marked members and `oneOf` branches of
 * other lines removed (with their `required` entries), the marks dropped, and the component
 * schemas nothing references any more removed. Pure: the input is not modified.
 */
export function lineDocument(source: Json, line: CantonVersion): Json {
  const doc = structuredClone(source);
  const absent = absentOperations(line);
  if (isObject(doc['info'])) doc['info'] = { ...doc['info'], version: API_VERSION[line] };
  if (isObject(doc['paths'])) {
    const paths = doc['paths'];
    for (const [template, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      for (const method of Object.keys(item)) {
        const op = item[method];
        if (METHODS.has(method) && isObject(op) && typeof op['operationId'] === 'string' && absent.has(op['operationId'])) delete item[method];
      }
      if (!Object.keys(item).some((k) => METHODS.has(k))) delete paths[template];
    }
  }
  if (isObject(doc['channels'])) {
    const channels = doc['channels'];
    for (const channel of absentChannels(line)) delete channels[channel];
  }
  const pruned = pruneMarks(doc, line) as Json;
  dropUnreferencedSchemas(pruned);
  return pruned;
}

function pruneMarks(node: unknown, line: CantonVersion): unknown {
  if (Array.isArray(node)) return node.filter((n) => onLine(n, line)).map((n) => pruneMarks(n, line));
  if (!isObject(node)) return node;
  const out: Json = {};
  const removed: string[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === LINES_MARK) continue;
    if (k === 'properties' && isObject(v)) {
      const props: Json = {};
      for (const [name, schema] of Object.entries(v)) {
        if (onLine(schema, line)) props[name] = pruneMarks(schema, line);
        else removed.push(name);
      }
      out[k] = props;
    } else out[k] = pruneMarks(v, line);
  }
  if (removed.length > 0 && Array.isArray(out['required'])) out['required'] = out['required'].filter((r) => !removed.includes(r as string));
  return out;
}

/** Component schemas reachable from nothing but other unreachable ones go, until none is left. */
function dropUnreferencedSchemas(doc: Json): void {
  const components = doc['components'];
  if (!isObject(components) || !isObject(components['schemas'])) return;
  const schemas = components['schemas'];
  const prefix = '#/components/schemas/';
  const refsIn = (node: unknown, into: Set<string>): Set<string> => {
    if (Array.isArray(node)) for (const n of node) refsIn(n, into);
    else if (isObject(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) into.add(decodeURIComponent(v.slice(prefix.length)));
        else refsIn(v, into);
      }
    }
    return into;
  };
  // Everything outside components.schemas is a root (paths, channels, messages, responses).
  const reachable = refsIn({ ...doc, components: { ...components, schemas: {} } }, new Set());
  const queue = [...reachable];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    for (const r of refsIn(schemas[name], new Set())) {
      if (!reachable.has(r)) {
        reachable.add(r);
        queue.push(r);
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!reachable.has(name)) delete schemas[name];
}
