import { isObject } from '../mutantKit.js';
import { parse, pathOf, type Fault } from '../mutantProxy.js';

/**
 * A registry whose request decoding reads an optional member written null as absent, as Splice
 * Scan's does (guardrail's circe decoders: an Option's null is None): a choice-context request
 * `{"excludeDebugFields": null}` is answered as `{}` would be. The rewrite drops null top-level
 * members of registry requests, so the reference answers what Splice answers.
 */
export const nullOptionalMembers: Fault = {
  request(req) {
    if (req.method !== 'POST' || !pathOf(req.url).startsWith('/registry/')) return req;
    const body = parse(req.body);
    if (!isObject(body) || !Object.values(body).some((v) => v === null)) return req;
    return { ...req, body: JSON.stringify(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null))) };
  },
};
