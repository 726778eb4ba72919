import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * Failed completions with the rich error details a Canton participant attaches to its gRPC status:
 * a `google.rpc.ErrorInfo` (reason = the error code id, domain, metadata with the category) as a
 * ProtoAny in the status's `details`, where the reference sends none. JsStatus.details is
 * `ProtoAny[]` ("Optional"), ProtoAny `{typeUrl, value (base64 protobuf), unknownFields}`
 * (wire-shapes.md §2.1); Canton's errors carry ErrorInfo, RetryInfo, RequestInfo and
 * ResourceInfo details (the same error's JsCantonError shows them as code, retryInfo,
 * correlationId and resources).
 */
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
const field = (tag: number, bytes: Buffer): Buffer => Buffer.concat([Buffer.from([tag, ...varint(bytes.length)]), bytes]);
const str = (tag: number, s: string) => field(tag, Buffer.from(s, 'utf8'));

export function errorInfo(reason: string, metadata: Record<string, string>): Json {
  const entries = Object.entries(metadata).map(([k, v]) => field(0x1a, Buffer.concat([str(0x0a, k), str(0x12, v)])));
  const bytes = Buffer.concat([str(0x0a, reason), str(0x12, 'com.digitalasset.canton'), ...entries]);
  return { typeUrl: 'type.googleapis.com/google.rpc.ErrorInfo', value: bytes.toString('base64'), unknownFields: { fields: {} } };
}

function withDetails(o: Json): Json {
  if (!(typeof o.commandId === 'string' && typeof o.userId === 'string' && Array.isArray(o.actAs) && isObject(o.status))) return o;
  const s = o.status;
  if (typeof s.code !== 'number' || s.code === 0) return o;
  const reason = /^([A-Z][A-Z0-9_]+)/.exec(String(s.message ?? ''))?.[1] ?? 'UNKNOWN';
  const details = Array.isArray(s.details) ? s.details : [];
  return { ...o, status: { ...s, details: [...details, errorInfo(reason, { category: String(s.code), definite_answer: 'false' })] } };
}
const rewrite = (v: unknown) => mapApiObjects(v, withDetails);

export const failedCompletionDetails: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
