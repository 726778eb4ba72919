import { isObject } from '../mutantKit.js';
import { parse, pathOf, type Fault } from '../mutantProxy.js';

/**
 * A participant that ignores members of a request it does not know, as Canton 3.5 does: its JSON
 * Ledger API decodes request messages with circe-generic-extras at `strictDecoding = false`
 * (JsSchema.config, since the 3.5 line), so `{"activeAtOffset": 5, "eventFormat": …, "x": true}` is
 * answered as without `x`. Daml values stay strict (the transcoder's "Unexpected fields"), so only
 * top-level members of the message are dropped: the reference names them in its INVALID_ARGUMENT
 * "Unexpected fields: …", and the request is sent again without them.
 */
const UNEXPECTED = /Unexpected fields: ([^"]+)$/;

export const ignoredUnknownMembers: Fault = {
  async request(req, upstream) {
    if (req.method !== 'POST' || !pathOf(req.url).startsWith('/v2/')) return req;
    const body = parse(req.body);
    if (!isObject(body)) return req;
    const first = await upstream.send(req);
    const error = first.status === 400 ? parse(first.body) : undefined;
    const named = isObject(error) && typeof error.cause === 'string' ? UNEXPECTED.exec(error.cause)?.[1] : undefined;
    if (named === undefined) return first;
    const unknown = new Set(named.split(',').map((s) => s.trim()));
    // Only members of the message itself: an unknown member deeper down (a Daml record's) stays refused.
    if (![...unknown].every((k) => k in body)) return first;
    return upstream.send({ ...req, body: JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => !unknown.has(k)))) });
  },
};
