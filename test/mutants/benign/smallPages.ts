import { isObject, type Json } from '../mutantKit.js';
import { type Fault, type ProxyRequest } from '../mutantProxy.js';
import { isLedgerPath, mapApiObjects, rewriteFrame, rewriteJsonBody, rewriteJsonRequest } from './jsonWalk.js';

/**
 * Smaller pages and page tokens of another opaque format: the participant lists at most 5 parties
 * and 100 users a page (what its `/v2/version` features declare; a user page of 100 is the least
 * the API allows), and 7 updates or active contracts a page when the request names no
 * `maxPageSize` ("determined by the server"); its page and continuation tokens are `pt_` and the
 * reference's token in base64url, so they mean nothing to anyone but the server that made them.
 */
export const PARTIES_PAGE = 5;
export const USERS_PAGE = 100;
export const DEFAULT_PAGE = 7;

const TOKENS = new Set(['nextPageToken', 'pageToken', 'streamContinuationToken']);
const wrap = (t: string) => (t === '' ? t : `pt_${Buffer.from(t, 'utf8').toString('base64url')}`);
const unwrap = (t: string) => (t.startsWith('pt_') ? Buffer.from(t.slice(3), 'base64url').toString('utf8') : t);
const tokens = (f: (t: string) => string) => (o: Json): Json =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, TOKENS.has(k) && typeof v === 'string' ? f(v) : v]));

function withQuery(req: ProxyRequest, max: number | undefined): ProxyRequest {
  const [path, query] = req.url.split('?') as [string, string | undefined];
  const params = new URLSearchParams(query ?? '');
  const token = params.get('pageToken');
  if (token !== null) params.set('pageToken', unwrap(token));
  if (max !== undefined) {
    const size = params.get('pageSize');
    // Absent or 0: the server's page; above its maximum: capped (as the reference caps at its own).
    if (size === null || size === '' || size === '0') params.set('pageSize', String(max));
    else if (/^\+?[0-9]+$/.test(size) && Number(size) > max) params.set('pageSize', String(max));
  }
  const q = params.toString();
  return { ...req, url: q === '' ? path : `${path}?${q}` };
}

export const smallPages: Fault = {
  async request(req) {
    if (!isLedgerPath(req.url)) return req;
    const path = req.url.split('?')[0]!.replace(/\/{2,}/g, '/');
    const max = req.method === 'GET' && path === '/v2/parties' ? PARTIES_PAGE : req.method === 'GET' && path === '/v2/users' ? USERS_PAGE : undefined;
    const paged = /^\/v2\/(updates\/get-updates-page|state\/active-contracts-page)$/.test(path);
    return rewriteJsonRequest(withQuery(req, max), (v) => {
      const body = mapApiObjects(v, tokens(unwrap));
      return paged && isObject(body) && (body.maxPageSize === undefined || body.maxPageSize === 0) ? { ...body, maxPageSize: DEFAULT_PAGE } : body;
    });
  },
  response(req, res) {
    if (!isLedgerPath(req.url)) return res;
    const path = req.url.split('?')[0]!.replace(/\/{2,}/g, '/');
    return rewriteJsonBody(res, (v) => {
      const body = mapApiObjects(v, tokens(wrap));
      if (path !== '/v2/version' || !isObject(body) || !isObject(body.features)) return body;
      const f = body.features;
      return {
        ...body,
        features: {
          ...f,
          ...(isObject(f.userManagement) ? { userManagement: { ...f.userManagement, maxUsersPageSize: USERS_PAGE } } : {}),
          ...(isObject(f.partyManagement) ? { partyManagement: { ...f.partyManagement, maxPartiesPageSize: PARTIES_PAGE } } : {}),
        },
      };
    });
  },
  wsRequest: (_req, frame) => rewriteFrame(frame, (v) => mapApiObjects(v, tokens(unwrap))),
  wsResponse: (_req, frame) => [rewriteFrame(frame, (v) => mapApiObjects(v, tokens(wrap)))],
};

