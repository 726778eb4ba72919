import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody, rewriteJsonRequest } from './jsonWalk.js';

/**
 * Update ids of another well-formed shape: the reference's `1220<64 hex>` is the participant's
 * `upd-<the same hex reversed>`, one to one. The API only asks an update id to be a LedgerString
 * the server assigns (`[a-zA-Z0-9#:\-_/ ]`, at most 255 characters); its shape is the server's.
 */
const REFERENCE = /^1220([0-9a-f]{64})$/;
const PARTICIPANT = /^upd-([0-9a-f]{64})$/;
const reverse = (s: string) => [...s].reverse().join('');
export const participantUpdateId = (id: string): string => {
  const m = REFERENCE.exec(id);
  return m ? `upd-${reverse(m[1]!)}` : id;
};
export const referenceUpdateId = (id: string): string => {
  const m = PARTICIPANT.exec(id);
  return m ? `1220${reverse(m[1]!)}` : id;
};

const withIds = (map: (id: string) => string) => (o: Json): Json =>
  typeof o.updateId === 'string' ? { ...o, updateId: map(o.updateId) } : o;

/**
 * A participant whose update ids are `shown(id)` of the reference's, one to one: every answer and
 * frame shows them so, and every id a client sends back (a body, a frame, the tree-by-id path) is
 * `sent` back to the reference's before it goes on.
 */
export function updateIdsRewritten(shown: (id: string) => string, sent: (id: string) => string): Fault {
  return {
    request(req) {
      if (!isLedgerPath(req.url)) return req;
      // GET /v2/updates/transaction-tree-by-id/{update-id}
      const url = req.url.replace(/(\/v2\/updates\/transaction-tree-by-id\/)([^/?]+)/, (_m, p: string, id: string) => `${p}${encodeURIComponent(sent(decodeURIComponent(id)))}`);
      return rewriteJsonRequest({ ...req, url }, (v) => mapApiObjects(v, withIds(sent)));
    },
    response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, (v) => mapApiObjects(v, withIds(shown))) : res),
    wsRequest: (_req, frame) => rewriteFrame(frame, (v) => mapApiObjects(v, withIds(sent))),
    wsResponse: (_req, frame) => [rewriteFrame(frame, (v) => mapApiObjects(v, withIds(shown)))],
  };
}

export const otherUpdateIds: Fault = updateIdsRewritten(participantUpdateId, referenceUpdateId);
