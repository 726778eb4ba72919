import { isObject } from '../mutantKit.js';
import { jsonResponse, parse, type Fault } from '../mutantProxy.js';

/**
 * The eighth hunt's no-lookahead-pages, whatever the last page holds: every walk of the users ends
 * on an empty page `{"nextPageToken": ""}` (the empty repeated `users` left out, proto3 JSON:
 * ListUsersResponse.users is optional on 3.4, 3.5 and 3.6), the page before it carrying a token to
 * it. A page may hold fewer than asked and still name a next page (small-pages): only the empty
 * token says the list ended (nextPageToken: "Empty, if there are no further results").
 */
const END = 'end-of-users';
const pathOf = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');

export const emptyLastUserPage: Fault = {
  request(req) {
    if (req.method !== 'GET' || pathOf(req.url) !== '/v2/users') return req;
    const q = new URLSearchParams(req.url.split('?')[1] ?? '');
    return q.get('pageToken') === END ? jsonResponse(200, { nextPageToken: '' }) : req;
  },
  response(req, res) {
    if (req.method !== 'GET' || pathOf(req.url) !== '/v2/users' || res.status !== 200) return res;
    const body = parse(res.body);
    if (!isObject(body) || !Array.isArray(body.users) || body.users.length === 0) return res;
    if (typeof body.nextPageToken === 'string' && body.nextPageToken !== '') return res;
    return { ...res, body: JSON.stringify({ ...body, nextPageToken: END }) };
  },
};
