import { isObject, type Json } from '../mutantKit.js';
import { jsonResponse, pathOf, type Fault, type ProxyRequest, type Upstream } from '../mutantProxy.js';

/**
 * A registry of another vendor that administers many instruments besides Amulet, each with
 * metadata of its own as token-metadata-v1 allows: ids, names and symbols of its choosing,
 * decimals from 0 to 10, `totalSupply` left out or written without trailing zeros (a decimal
 * string), `totalSupplyAsOf` with 0, 3 or 9 fraction digits, a paused instrument with its
 * `pauseInfo`, one with accounts (`accountInputFieldsToShow` both fields, the deprecated flag
 * true), and `supportedApis` naming the metadata API alone (instruments only held, not moved
 * through this registry's factories). The list pages as the standard says: `pageSize` instruments
 * a page, 25 when none is asked, an opaque `nextPageToken` while more follow; a `pageSize` below 1
 * is refused with 400 and an ErrorResponse. Amulet comes first (the ids sort after it); every other
 * endpoint is the reference's, so the factories still serve Amulet alone.
 */
const LIST = '/registry/metadata/v1/instruments';
const DEFAULT_PAGE = 25;
const OTHERS = 29;

function other(n: number): Json {
  const id = `vendor-note-${String(n).padStart(2, '0')}`;
  const decimals = n % 11;
  return {
    id,
    name: `Vendor note ${n}`,
    symbol: `VN${n}`,
    decimals,
    ...(n % 3 === 0 ? {} : { totalSupply: n % 3 === 1 || decimals === 0 ? String(1000 * n) : `${n}.5`, totalSupplyAsOf: ['2026-03-01T12:00:00Z', '2026-03-01T12:00:00.250Z', '2026-03-01T12:00:00.123456789Z'][n % 3]! }),
    ...(n === 7 ? { paused: true, pauseInfo: { reason: 'maturity reached', until: '2027-01-01T00:00:00Z' } } : {}),
    ...(n === 11 ? { accountInputFieldsToShow: ['provider', 'accountId'], showAccountInputFields: true } : {}),
    supportedApis: { 'splice-api-token-metadata-v1': 1 },
  };
}
const OTHER_INSTRUMENTS: readonly Json[] = Array.from({ length: OTHERS }, (_, i) => other(i + 1));

/** A decimal string without its trailing fraction zeros ("1795.5000000000" -> "1795.5"). */
const shortDecimal = (s: unknown) => (typeof s === 'string' && /^\d+\.\d+$/.test(s) ? s.replace(/\.?0+$/, '') : s);
const shortSupply = (i: Json): Json => (i.totalSupply === undefined ? i : { ...i, totalSupply: shortDecimal(i.totalSupply) });

/** The reference's instruments (Amulet) followed by the vendor's. */
async function allInstruments(req: ProxyRequest, upstream: Upstream): Promise<Json[] | undefined> {
  const res = await upstream.send({ ...req, url: LIST });
  const body = res.status === 200 ? (JSON.parse(res.body) as unknown) : undefined;
  if (!isObject(body) || !Array.isArray(body.instruments)) return undefined;
  return [...body.instruments.filter(isObject).map(shortSupply), ...OTHER_INSTRUMENTS];
}

const token = (index: number) => Buffer.from(`after:${index}`).toString('base64url');
const indexOf = (t: string) => {
  const m = /^after:(\d+)$/.exec(Buffer.from(t, 'base64url').toString());
  return m === null ? undefined : Number(m[1]);
};

export const manyInstruments: Fault = {
  async request(req, upstream) {
    if (req.method !== 'GET') return req;
    const path = pathOf(req.url);
    if (path.startsWith(`${LIST}/`)) {
      const id = decodeURIComponent(path.slice(LIST.length + 1));
      const found = OTHER_INSTRUMENTS.find((i) => i.id === id);
      return found === undefined ? req : jsonResponse(200, found);
    }
    if (path !== LIST) return req;
    const query = new URLSearchParams(req.url.split('?')[1] ?? '');
    const size = query.has('pageSize') ? Number(query.get('pageSize')) : DEFAULT_PAGE;
    if (!Number.isInteger(size) || size < 1) return jsonResponse(400, { error: `pageSize must be a positive integer, got ${query.get('pageSize') ?? ''}` });
    const from = query.get('pageToken') ? indexOf(query.get('pageToken')!) : 0;
    if (from === undefined) return jsonResponse(400, { error: 'unknown pageToken' });
    const all = await allInstruments(req, upstream);
    if (all === undefined) return req;
    const page = all.slice(from, from + size);
    return jsonResponse(200, { instruments: page, ...(from + size < all.length ? { nextPageToken: token(from + size) } : {}) });
  },
  response(req, res) {
    // Amulet read alone, as the list writes it.
    const path = pathOf(req.url);
    if (req.method !== 'GET' || !path.startsWith(`${LIST}/`) || res.status !== 200) return res;
    const v = JSON.parse(res.body) as unknown;
    return isObject(v) && v.totalSupply !== undefined ? { ...res, body: JSON.stringify(shortSupply(v)) } : res;
  },
};
