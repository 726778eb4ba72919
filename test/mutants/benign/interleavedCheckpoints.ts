import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault, type ProxyRequest } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * Offset checkpoints interleaved: after every transaction, reassignment, topology transaction or
 * completion of a stream (WebSocket frames and the HTTP lists of the same streams), an
 * OffsetCheckpoint at that element's offset, with the element's synchronizer and record time. A
 * checkpoint only says "everything up to this offset was delivered", which holds right after
 * the element (OffsetCheckpoint, openapi 3.5.10: "provide an offset which can be used to restart
 * consumption"; the stream elements are `oneOf` Transaction | Reassignment | TopologyTransaction |
 * OffsetCheckpoint, in any order). A participant emits them as often as its
 * `maxOffsetCheckpointEmissionDelay` allows. An HTTP list with a `limit` keeps within it.
 */
const STREAMS = /^\/v2\/(updates(\/flats|\/trees)?|commands\/completions|commands\/command-completions)$/;
const pathOf = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');

function checkpointAfter(element: unknown): Json | undefined {
  if (!isObject(element)) return undefined;
  if (isObject(element.update)) {
    const [kind, body] = Object.entries(element.update)[0] ?? [];
    if (kind === 'OffsetCheckpoint' || !isObject(body) || !isObject(body.value)) return undefined;
    const u = body.value;
    if (typeof u.offset !== 'number' || typeof u.synchronizerId !== 'string' || typeof u.recordTime !== 'string') return undefined;
    return { update: { OffsetCheckpoint: { value: { offset: u.offset, synchronizerTimes: [{ synchronizerId: u.synchronizerId, recordTime: u.recordTime }] } } } };
  }
  if (isObject(element.completionResponse) && isObject(element.completionResponse.Completion)) {
    const c = element.completionResponse.Completion.value;
    if (!isObject(c) || typeof c.offset !== 'number' || !isObject(c.synchronizerTime)) return undefined;
    return { completionResponse: { OffsetCheckpoint: { value: { offset: c.offset, synchronizerTimes: [c.synchronizerTime] } } } };
  }
  return undefined;
}

function descending(req: ProxyRequest): boolean {
  const b = parse(req.body);
  return isObject(b) && b.descendingOrder === true;
}

function interleave(list: unknown[], limit: number | undefined, truncate = false): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < list.length; i++) {
    out.push(list[i]);
    const next = list[i + 1];
    const cp = checkpointAfter(list[i]);
    if (cp === undefined) continue;
    // Not twice at one offset: the reference may already send one there.
    if (next !== undefined && JSON.stringify(checkpointAfter(next) === undefined ? next : {}).includes('OffsetCheckpoint')) continue;
    out.push(cp);
  }
  if (limit === undefined || out.length <= limit) return out;
  return truncate ? out.slice(0, limit) : list;
}

export const interleavedCheckpoints: Fault = {
  response(req, res) {
    if (req.method !== 'POST' || res.status !== 200 || !STREAMS.test(pathOf(req.url)) || descending(req)) return res;
    const limit = new URLSearchParams(req.url.split('?')[1] ?? '').get('limit');
    return rewriteJsonBody(res, (v) => (Array.isArray(v) ? interleave(v, limit === null || limit === '' ? undefined : Number(limit)) : v));
  },
  wsResponse(req, frame) {
    if (!STREAMS.test(pathOf(req.url))) return [frame];
    const cp = checkpointAfter(parse(frame));
    return cp === undefined ? [frame] : [frame, JSON.stringify(cp)];
  },
};

/**
 * The same, where an HTTP list with a `limit` counts the checkpoints as the stream elements they
 * are: the list is the stream's first `limit` elements, so updates after the cut are left for the
 * next read (which a client resumes from the last offset it saw, a checkpoint's included).
 */
export const checkpointsWithinLimit: Fault = {
  ...interleavedCheckpoints,
  response(req, res) {
    if (req.method !== 'POST' || res.status !== 200 || !STREAMS.test(pathOf(req.url)) || descending(req)) return res;
    const limit = new URLSearchParams(req.url.split('?')[1] ?? '').get('limit');
    return rewriteJsonBody(res, (v) => (Array.isArray(v) ? interleave(v, limit === null || limit === '' ? undefined : Number(limit), true) : v));
  },
};
