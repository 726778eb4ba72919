import { isObject, type Json } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody } from './jsonWalk.js';

/**
 * The converse of proto3-defaults: a participant whose JSON encoder leaves out what proto3 leaves
 * out, optional members at their default (the proto3 JSON mapping: "fields with default values are
 * omitted by default"), where the reference writes them: `primaryParty: ""`, `identityProviderId:
 * ""` (users and parties; not an identity provider config, where it is required),
 * `isDeactivated: false`, `isLocal: false`, `nextPageToken: ""`, empty `annotations`, empty lists
 * (`users`, `rights`, `newlyGrantedRights`, `newlyRevokedRights`, `observers`,
 * `implementedInterfaces`, `interfaceViews`, a status's `details`, an error's `resources`,
 * `connectedSynchronizers`, `synchronizerTimes`), and an error's null members. Every one is
 * optional in the 3.5 document ("required" lists of User, PartyDetails, ObjectMeta,
 * ListUsersResponse, ListUserRightsResponse, GrantUserRightsResponse, CreatedEvent, JsStatus,
 * JsCantonError, GetConnectedSynchronizersResponse, OffsetCheckpoint), whose preamble adds that
 * fields marked required in older documents may in fact be absent (wire-shapes.md §0).
 */
const EMPTY_STRING = new Set(['primaryParty', 'identityProviderId', 'nextPageToken']);
const FALSE = new Set(['isDeactivated', 'isLocal']);
const EMPTY_LIST = new Set([
  'users', 'rights', 'newlyGrantedRights', 'newlyRevokedRights', 'observers', 'implementedInterfaces', 'interfaceViews',
  'details', 'resources', 'connectedSynchronizers', 'synchronizerTimes',
]);
const isError = (o: Json) => typeof o.code === 'string' && typeof o.cause === 'string' && typeof o.errorCategory === 'number';

function omit(o: Json): Json {
  const idpConfig = 'issuer' in o || 'jwksUrl' in o;
  const error = isError(o);
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => {
    if (error && v === null) return false;
    if (EMPTY_STRING.has(k) && v === '' && !(idpConfig && k === 'identityProviderId')) return false;
    if (FALSE.has(k) && v === false && !idpConfig) return false;
    if (EMPTY_LIST.has(k) && Array.isArray(v) && v.length === 0) return false;
    if (k === 'annotations' && isObject(v) && Object.keys(v).length === 0) return false;
    return true;
  }));
}
const rewrite = (v: unknown) => mapApiObjects(v, omit);

export const omittedDefaults: Fault = {
  response: (req, res) => (isLedgerPath(req.url) ? rewriteJsonBody(res, rewrite) : res),
  wsResponse: (_req, frame) => [rewriteFrame(frame, rewrite)],
};
