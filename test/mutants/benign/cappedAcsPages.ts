import { isObject } from '../mutantKit.js';
import { parse, type Fault } from '../mutantProxy.js';

/**
 * Active-contract pages smaller than asked: the participant holds a page to one entry
 * whatever `maxPageSize` a client names, and points on with its token.
 * GetActiveContractsPageRequest.max_page_size: "the result page will contain at most
 * max_page_size entries" (a bound, not a count; the updates page's is a count, and stays one).
 */
export const ACS_PAGE_CAP = 1;
const isAcsPage = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/') === '/v2/state/active-contracts-page';

export const cappedAcsPages: Fault = {
  request(req) {
    if (!isAcsPage(req.url) || req.body.trim() === '') return req;
    const body = parse(req.body);
    if (!isObject(body) || typeof body.maxPageSize !== 'number' || body.maxPageSize <= ACS_PAGE_CAP) return req;
    return { ...req, body: JSON.stringify({ ...body, maxPageSize: ACS_PAGE_CAP }) };
  },
};
