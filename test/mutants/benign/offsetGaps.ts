import { isObject, type Json } from '../mutantKit.js';
import { parse, type Fault, type ProxyRequest, type Upstream } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, mapApiObjectsAsync, rewriteFrame, rewriteJsonBody, rewriteJsonRequest } from './jsonWalk.js';

/**
 * Offsets that skip: the participant's offset of the reference's offset o is 3o+B (0, the ledger
 * begin, stays 0), as on a participant whose offsets also count updates the client never sees
 * (topology events, other synchronizers, other parties), with B past 2^32 (a participant long in
 * service: offsets are int64). Offsets are positions that grow; nothing says they are consecutive
 * or start at 1 (notes/api-semantics.md, "Offsets").
 */
const B = 2 ** 32 + 7;
export const gapped = (o: number): number => (Number.isSafeInteger(o) && o > 0 ? 3 * o + B : o);
const inImage = (v: number) => v >= 3 + B && (v - B) % 3 === 0;

/** Members of answers (and of error contexts, as strings) that carry an offset. */
const ANSWER_OFFSETS = new Set([
  'offset', 'completionOffset', 'activeAtOffset', 'participantPrunedUpToInclusive', 'allDivulgedContractsPrunedUpToInclusive',
  'lowestPageOffsetExclusive', 'highestPageOffsetInclusive', 'ledger_end', 'earliest_offset',
]);
/** Members of requests that bound a range or a point in time by an offset. */
const BOUNDS = new Set(['beginExclusive', 'endInclusive', 'activeAtOffset', 'beginOffsetExclusive', 'endOffsetInclusive']);
/** An offset no update has: what a lookup by an offset that is none of the participant's asks the reference. */
const NO_UPDATE = 2 ** 52;

function answerObject(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (ANSWER_OFFSETS.has(k) && typeof v === 'number') out[k] = gapped(v);
    else if (ANSWER_OFFSETS.has(k) && typeof v === 'string' && /^[0-9]+$/.test(v)) out[k] = String(gapped(Number(v)));
    else if (k === 'DeduplicationOffset' && isObject(v) && typeof v.value === 'number') out[k] = { ...v, value: gapped(v.value) };
    else out[k] = v;
  }
  return out;
}
const answer = (v: unknown) => mapApiObjects(v, answerObject);

/**
 * The reference offset with the same updates at or before it as the participant's offset `v`: a
 * participant offset between two of the reference's (3o+B < v < 3o+B+3) bounds as o does, except
 * past the ledger end, where the participant refuses it (OFFSET_AFTER_LEDGER_END) and so must the reference.
 */
async function boundBack(v: number, ledgerEnd: () => Promise<number>): Promise<number> {
  if (!Number.isSafeInteger(v) || v <= 0) return v;
  if (inImage(v)) return (v - B) / 3;
  const q = Math.max(0, Math.floor((v - B) / 3));
  return q === (await ledgerEnd()) ? q + 1 : q;
}
/** A lookup by offset: only the participant's own offsets name an update. */
const pointBack = (v: number) => (!Number.isSafeInteger(v) || v <= 0 ? v : inImage(v) ? (v - B) / 3 : NO_UPDATE);

function requestObject(ledgerEnd: () => Promise<number>, lookupByOffset: boolean) {
  return async (o: Json): Promise<Json> => {
    const out: Json = {};
    for (const [k, v] of Object.entries(o)) {
      if (BOUNDS.has(k) && typeof v === 'number') out[k] = await boundBack(v, ledgerEnd);
      else if (k === 'offset' && lookupByOffset && typeof v === 'number') out[k] = pointBack(v);
      else if (k === 'DeduplicationOffset' && isObject(v) && typeof v.value === 'number') out[k] = { ...v, value: await boundBack(v.value, ledgerEnd) };
      else out[k] = v;
    }
    return out;
  };
}

/** The reference's ledger end, asked with the caller's credentials (header or WebSocket subprotocol). */
function ledgerEndOf(req: ProxyRequest, upstream: Upstream): () => Promise<number> {
  return async () => {
    const token = req.headers.authorization ?? String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).find((p) => p.startsWith('jwt.token.'))?.replace(/^jwt\.token\./, 'Bearer ');
    const res = await upstream.send({ method: 'GET', url: '/v2/state/ledger-end', headers: token === undefined ? {} : { authorization: token }, body: '' });
    const body = parse(res.body);
    return isObject(body) && typeof body.offset === 'number' ? body.offset : 0;
  };
}

const LOOKUP_BY_OFFSET = /\/v2\/updates\/(update|transaction|transaction-tree)-by-offset$/;

export const offsetGaps: Fault = {
  async request(req, upstream) {
    if (!isLedgerPath(req.url)) return req;
    const [path, query] = req.url.split('?') as [string, string | undefined];
    // GET /v2/updates/transaction-tree-by-offset/{offset}
    const byPath = /^(.*\/v2\/updates\/transaction-tree-by-offset\/)([0-9]+)$/.exec(path);
    const url = byPath ? `${byPath[1]}${pointBack(Number(byPath[2]))}${query === undefined ? '' : `?${query}`}` : req.url;
    const lookup = LOOKUP_BY_OFFSET.test(path.replace(/\/{2,}/g, '/'));
    return rewriteJsonRequest({ ...req, url }, (v) => mapApiObjectsAsync(v, requestObject(ledgerEndOf(req, upstream), lookup)));
  },
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, answer) : res),
  wsRequest: async (req, frame, upstream) => {
    const v = parse(frame);
    return v === undefined ? frame : JSON.stringify(await mapApiObjectsAsync(v, requestObject(ledgerEndOf(req, upstream), false)));
  },
  wsResponse: (_req, frame) => [rewriteFrame(frame, answer)],
};
