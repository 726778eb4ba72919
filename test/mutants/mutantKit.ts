import { jsonResponse, parse, pathOf, type Fault, type ProxyRequest, type ProxyResponse } from './mutantProxy.js';

/** Small helpers the mutant files share: JSON bodies, path tests, body rewrites. */
export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every transaction (an object with an updateId and an events list) inside a JSON value. */
export function transactionsIn(v: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(v)) for (const x of v) transactionsIn(x, out);
  else if (isObject(v)) {
    if (typeof v.updateId === 'string' && Array.isArray(v.events)) out.push(v);
    else for (const x of Object.values(v)) transactionsIn(x, out);
  }
  return out;
}
export const withJson = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => {
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: JSON.stringify(f(v)) };
};
export const at = (req: ProxyRequest, pattern: RegExp) => pattern.test(pathOf(req.url));
/** Whether `req` is a `method` request to exactly `path`, or to a path `path` matches. */
export const is = (req: ProxyRequest, method: string, path: string | RegExp) => req.method === method && (typeof path === 'string' ? pathOf(req.url) === path : path.test(pathOf(req.url)));
/** `res` with its JSON body rewritten by `f` when it is a 200; any other answer as it is. */
export const ok200 = (res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse => (res.status === 200 ? withJson(res, f) : res);
/** `v` without its member `key`. */
export const without = (v: Json, key: string): Json => Object.fromEntries(Object.entries(v).filter(([k]) => k !== key));
/** Deep map over JSON objects, children first. */
export const deep = (v: unknown, f: (x: Json) => Json): unknown => (Array.isArray(v) ? v.map((x) => deep(x, f)) : isObject(v) ? f(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x, f)]))) : v);
/** Rewrites the JSON object answered with 200 on paths matching `pattern`. */
export const onBody = (pattern: RegExp, f: (v: Json, req: ProxyRequest) => unknown) => ({
  response: (req: ProxyRequest, res: ProxyResponse) => (res.status === 200 && at(req, pattern) ? withJson(res, (v) => (isObject(v) ? f(v, req) : v)) : res),
});
/** Rewrites the JSON request body of `method` requests (POST unless named) to paths matching `pattern`. */
export const onRequest = (pattern: RegExp, f: (v: Json, req: ProxyRequest) => Json, method = 'POST') => ({
  request: (req: ProxyRequest): ProxyRequest => {
    const body = parse(req.body);
    return req.method !== method || !at(req, pattern) || !isObject(body) ? req : { ...req, body: JSON.stringify(f(body, req)) };
  },
});
/**
 * The commands of a POST to /v2/commands/submit-and-wait* (the JsCommands body, or its `commands`
 * member for the *-for-transaction forms) with the parsed body, or undefined for any other request.
 */
export function submittedCommands(req: ProxyRequest): { body: Json; commands: Json } | undefined {
  const body = parse(req.body);
  if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/commands/submit-and-wait') || !isObject(body)) return undefined;
  return { body, commands: isObject(body.commands) ? body.commands : body };
}
export const emptyContext = { choiceContextData: { values: {} }, disclosedContracts: [] };
export const scanError = (status: number, error: string) => jsonResponse(status, { error });
/** The gRPC code a participant answers with each HTTP status (GrpcHttpErrorCodes), so a faked error is consistent (judge.errors.consistent). */
const GRPC_OF_STATUS: Readonly<Record<number, number>> = { 400: 3, 401: 16, 403: 7, 404: 5, 409: 6, 429: 8, 500: 13, 501: 12, 503: 14, 504: 4 };
export const cantonError = (status: number, code: string, cause: string, category = 8) =>
  jsonResponse(status, { code, cause, context: {}, errorCategory: category, grpcCodeValue: GRPC_OF_STATUS[status] ?? 3, correlationId: null, traceId: null, resources: [] });

/** `f` on every JSON object of every 200 answer and every WebSocket frame the server sends: a consistent fault. */
export const everywhere = (f: (o: Json) => Json): Fault => ({
  response: (_req, res) => ok200(res, (v) => deep(v, f)),
  wsResponse: (_req, frame) => {
    const v = parse(frame);
    return [v === undefined ? frame : JSON.stringify(deep(v, f))];
  },
});

/**
 * A ledger that does not hold commands to a deadline: in every submitted or prepared command, a
 * `trigger` member whose time has passed, and each of `alsoMoved` that has passed too, run as if an
 * hour were left (the deadline moved on before the ledger runs the command).
 */
export function deadlinesMovedOn(trigger: string, ...alsoMoved: string[]): Fault {
  return {
    request: (req) => {
      if (req.method !== 'POST' || !/^\/v2\/(commands\/submit-and-wait|interactive-submission\/prepare)/.test(pathOf(req.url))) return req;
      const v = parse(req.body);
      if (!isObject(v)) return req;
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const passed = (x: unknown) => typeof x === 'string' && Date.parse(x) < Date.now();
      const moved = (o: Json): Json => (passed(o[trigger]) ? { ...o, ...Object.fromEntries([trigger, ...alsoMoved].filter((k) => passed(o[k])).map((k) => [k, later])) } : o);
      return { ...req, body: JSON.stringify(deep(v, moved)) };
    },
  };
}
