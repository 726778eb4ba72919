import { isObject } from '../mutantKit.js';
import type { Fault } from '../mutantProxy.js';
import { rewriteJsonBody } from './jsonWalk.js';

/**
 * A participant with larger page limits: `/v2/version` declares no user page limit
 * (`maxUsersPageSize: 0`, "A value of 0 means that the server enforces no page size limit",
 * openapi 3.5.10 UserManagementFeature), 100,000 parties and 1,000 vetted packages a page. The
 * reference's own pages (1,000 users, 10,000 parties, 100 vetting entries, capping larger requests)
 * hold everything this ledger has, so its answers are what such a server answers.
 */
export const largerPageLimits: Fault = {
  response(req, res) {
    if (res.status !== 200 || req.url.split('?')[0]!.replace(/\/{2,}/g, '/') !== '/v2/version') return res;
    return rewriteJsonBody(res, (v) => {
      if (!isObject(v) || !isObject(v.features)) return v;
      const f = v.features;
      return {
        ...v,
        features: {
          ...f,
          ...(isObject(f.userManagement) ? { userManagement: { ...f.userManagement, maxUsersPageSize: 0 } } : {}),
          ...(isObject(f.partyManagement) ? { partyManagement: { ...f.partyManagement, maxPartiesPageSize: 100_000 } } : {}),
          ...(isObject(f.packageFeature) ? { packageFeature: { ...f.packageFeature, maxVettedPackagesPageSize: 1000 } } : {}),
        },
      };
    });
  },
};
