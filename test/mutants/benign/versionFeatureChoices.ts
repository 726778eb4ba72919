import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A participant that says less about its experimental features: `/v2/version`'s
 * `features.experimental` is `{}` (ExperimentalFeatures has no required member: staticTime and
 * commandInspectionService are both optional, openapi 3.5.10).
 */
export const versionFeatureChoices: Fault = {
  response(req, res) {
    if (res.status !== 200 || req.url.split('?')[0]!.replace(/\/{2,}/g, '/') !== '/v2/version') return res;
    return rewriteJsonBody(res, (v) => (isObject(v) && isObject(v.features) ? { ...v, features: { ...v.features, experimental: {} } } : v));
  },
};
