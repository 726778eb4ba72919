import { createHash } from 'node:crypto';
import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault, type ProxyResponse } from '../mutantProxy.js';
import { rewriteFrame } from './jsonWalk.js';

/**
 * Errors in the participant's own words: every JsCantonError's `cause` reworded, another
 * `traceId` (and `tid`), a `correlationId`, more `context` entries; the `{error}` texts of the
 * registry and Scan and the text/plain decode errors reworded. Texts, trace and correlation ids
 * and context entries are each server's (notes/wire-shapes.md, "Error body"); the code, category,
 * gRPC code and HTTP status stay.
 */
let n = 0;
const traceId = () => createHash('sha256').update(`benign-trace-${n++}`).digest('hex').slice(0, 32);

const isCantonError = (v: unknown): v is Json => isObject(v) && typeof v.code === 'string' && typeof v.cause === 'string' && typeof v.errorCategory === 'number';
function reworded(e: Json): Json {
  const trace = traceId();
  return {
    ...e,
    cause: `The participant refused the request (${String(e.code)}); see the context for details.`,
    traceId: trace,
    correlationId: `corr-${trace.slice(0, 12)}`,
    context: { ...(isObject(e.context) ? e.context : {}), participant: 'vendor-participant::1220abababababababababababababababababababababababababababababababab', tid: trace, servicename: 'JsonApiService' },
  };
}

function rewordAnswer(res: ProxyResponse): ProxyResponse {
  if (res.status < 400) return res;
  const type = res.headers['content-type'] ?? '';
  if (type.startsWith('text/plain')) return { ...res, body: `Invalid request (${res.status}), reworded by the participant` };
  if (!type.includes('json')) return res;
  const v = parse(res.body);
  if (isCantonError(v)) return { ...res, body: JSON.stringify(reworded(v)) };
  if (isObject(v) && typeof v.error === 'string' && Object.keys(v).length === 1) return { ...res, body: JSON.stringify({ error: `Request refused (${res.status}); reworded by this server` }) };
  return res;
}

export const rewordedErrors: Fault = {
  response: (_req, res) => rewordAnswer(res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, (v) => (isCantonError(v) ? reworded(v) : v))],
};
