import type { Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody, rewriteJsonRequest } from './jsonWalk.js';

/**
 * Resource versions of another format: the participant's `resourceVersion` (users' and parties'
 * ObjectMeta, identity provider configs) is `rv-` and the reference's value in base64url, not a
 * counter. openapi 3.5.10, ObjectMeta.resourceVersion: "An opaque, non-empty value ... You must
 * not rely on the format of resource version ... You may use it for concurrent change detection by
 * passing it back unmodified in an update request." Mapped back in requests.
 */
const wrap = (v: string) => (v === '' ? v : `rv-${Buffer.from(v, 'utf8').toString('base64url')}`);
const unwrap = (v: string) => (v.startsWith('rv-') ? Buffer.from(v.slice(3), 'base64url').toString('utf8') : v);
const versions = (f: (v: string) => string) => (o: Json): Json => (typeof o.resourceVersion === 'string' ? { ...o, resourceVersion: f(o.resourceVersion) } : o);

export const opaqueResourceVersions: Fault = {
  request: (req) => (isLedgerPath(req.url) ? rewriteJsonRequest(req, (v) => mapApiObjects(v, versions(unwrap))) : req),
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, (v) => mapApiObjects(v, versions(wrap))) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, (v) => mapApiObjects(v, versions(wrap)))],
};
