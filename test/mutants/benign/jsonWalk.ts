import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault, type ProxyRequest, type ProxyResponse } from '../mutantProxy.js';

/**
 * Members whose value is the application's data (Daml values, Scan payloads, choice contexts):
 * a benign variant rewrites the API's own members, never what a template defines (a Daml record
 * field may be called `offset` or `updateId`).
 */
export const DAML_VALUE_MEMBERS: ReadonlySet<string> = new Set([
  'createArgument', 'createArguments', 'choiceArgument', 'exerciseResult', 'viewValue', 'contractKey',
  'payload', 'debugPayload', 'choiceContextData', 'choiceArguments', 'contractKeyHash',
]);

/** `f` on every JSON object outside application data, children first (arrays mapped element-wise). */
export function mapApiObjects(v: unknown, f: (o: Json) => Json): unknown {
  if (Array.isArray(v)) return v.map((x) => mapApiObjects(x, f));
  if (!isObject(v)) return v;
  return f(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, DAML_VALUE_MEMBERS.has(k) ? x : mapApiObjects(x, f)])));
}

/** The same, asynchronously (request rewrites that must ask the upstream). */
export async function mapApiObjectsAsync(v: unknown, f: (o: Json) => Promise<Json>): Promise<unknown> {
  if (Array.isArray(v)) return Promise.all(v.map((x) => mapApiObjectsAsync(x, f)));
  if (!isObject(v)) return v;
  const entries: [string, unknown][] = [];
  for (const [k, x] of Object.entries(v)) entries.push([k, DAML_VALUE_MEMBERS.has(k) ? x : await mapApiObjectsAsync(x, f)]);
  return f(Object.fromEntries(entries));
}

/** A string leaf of a JSON value rewritten by `f` wherever it is (arrays and objects mapped). */
export function mapStrings(v: unknown, f: (s: string) => string): unknown {
  return typeof v === 'string' ? f(v) : Array.isArray(v) ? v.map((x) => mapStrings(x, f)) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)])) : v;
}

/** Scan's answers (`/v0/...`, `/api/scan/...`) with every contract `payload`'s strings rewritten by `f`: Scan's own codec. */
export function scanPayloadStrings(f: (s: string) => string): Fault {
  const payloads = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(payloads) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'payload' ? mapStrings(x, f) : payloads(x)])) : v;
  return { response: (req, res) => (/^\/+(v0|api\/scan)\//.test(req.url) ? rewriteJsonBody(res, payloads) : res) };
}

/** A JSON answer with its parsed body rewritten by `f` (any status); other answers as they are. */
export function rewriteJsonBody(res: ProxyResponse, f: (v: unknown) => unknown): ProxyResponse {
  if (!(res.headers['content-type'] ?? '').includes('json')) return res;
  const v = parse(res.body);
  return v === undefined ? res : { ...res, body: JSON.stringify(f(v)) };
}

/** A JSON request with its parsed body rewritten by `f`; other requests as they are. */
export async function rewriteJsonRequest(req: ProxyRequest, f: (v: unknown) => unknown): Promise<ProxyRequest> {
  if (req.body === '') return req;
  const v = parse(req.body);
  return v === undefined ? req : { ...req, body: JSON.stringify(await f(v)) };
}

/** A text frame rewritten through its JSON; a frame that is not JSON as it is. */
export function rewriteFrame(frame: string, f: (v: unknown) => unknown): string {
  const v = parse(frame);
  return v === undefined ? frame : JSON.stringify(f(v));
}

export const isLedgerPath = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/').startsWith('/v2/');
