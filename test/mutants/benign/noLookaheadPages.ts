import { isObject } from '../mutantKit.js';
import { jsonResponse, parse, type Fault } from '../mutantProxy.js';

/**
 * Pages without look-ahead: a participant that hands out a next page token whenever a page of
 * users or parties is full, without checking that more follow, so the list can end on an empty
 * page (`{"partyDetails": [], "nextPageToken": ""}`; for users `{"nextPageToken": ""}`, the
 * empty repeated `users` left out as proto3 JSON does: ListUsersResponse has no required member,
 * openapi 3.5.10). A page token only promises where to go on (nextPageToken: "Pagination token
 * to retrieve the next page. Empty, if there are no further results."): a full last page with a
 * token to an empty page is one a client must follow to learn the list ended.
 */
const END = 'end-of-list';
const MAX: Record<string, number> = { '/v2/users': 1000, '/v2/parties': 10_000 };
const pathOf = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');

export const noLookaheadPages: Fault = {
  request(req) {
    const path = pathOf(req.url);
    if (req.method !== 'GET' || MAX[path] === undefined) return req;
    const q = new URLSearchParams(req.url.split('?')[1] ?? '');
    if (q.get('pageToken') !== END) return req;
    return jsonResponse(200, path === '/v2/users' ? { nextPageToken: '' } : { partyDetails: [], nextPageToken: '' });
  },
  response(req, res) {
    const path = pathOf(req.url);
    const max = MAX[path];
    if (req.method !== 'GET' || max === undefined || res.status !== 200) return res;
    const q = new URLSearchParams(req.url.split('?')[1] ?? '');
    if (q.get('pageToken') === END) return res;
    const asked = Number(q.get('pageSize') ?? '0');
    const size = Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, max) : max;
    const body = parse(res.body);
    if (!isObject(body)) return res;
    const list = path === '/v2/users' ? body.users : body.partyDetails;
    if (!Array.isArray(list) || list.length !== size || (typeof body.nextPageToken === 'string' && body.nextPageToken !== '')) return res;
    return { ...res, body: JSON.stringify({ ...body, nextPageToken: END }) };
  },
};
