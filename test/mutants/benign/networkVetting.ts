import { isObject, type Json } from '../mutantKit.js';
import { jsonResponse, parse, type Fault, type ProxyRequest } from '../mutantProxy.js';

/**
 * A participant on a network: vetting is topology state of the synchronizer, so the vetted
 * packages list (`POST /v2/package-vetting/list`, and the deprecated `GET /v2/package-vetting`)
 * names the other participants' VettedPackages too ("all participants" when the topology filter
 * names none), sorted by synchronizer id then participant id, as ListVettedPackagesResponse says;
 * here three validators whose ids sort before this participant's. Asked for no page size, the
 * server decides: two entries a page, with a page token of its own ("the server will decide the
 * number of results"). Filters apply to the whole list, before the pages.
 */
const NS = '1220' + 'be0a'.repeat(16);
const OTHERS = ['aa-validator-1', 'aa-validator-2', 'aa-validator-3'].map((p) => `${p}::${NS}`);
/** Packages this participant does not hold: the others vetted apps of their own. */
const THEIR_PACKAGES = [
  { packageId: 'a1'.repeat(32), packageName: 'zz-their-app', packageVersion: '1.0.0' },
  { packageId: 'a2'.repeat(32), packageName: 'zz-their-app', packageVersion: '1.1.0' },
];
const DEFAULT_PAGE = 2;
const TOKEN = /^vp-(\d+)$/;

const pathOf = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');
const isList = (req: ProxyRequest) =>
  (req.method === 'POST' && pathOf(req.url) === '/v2/package-vetting/list') || (req.method === 'GET' && pathOf(req.url) === '/v2/package-vetting');

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The packages of an entry the metadata filter keeps (ids, or name prefixes; none named: all). */
function kept(packages: readonly Json[], filter: Json): Json[] {
  const ids = strings(filter.packageIds);
  const prefixes = strings(filter.packageNamePrefixes);
  if (ids.length === 0 && prefixes.length === 0) return [...packages];
  return packages.filter((p) => ids.includes(String(p.packageId)) || prefixes.some((x) => String(p.packageName ?? '').startsWith(x)));
}

export const networkVetting: Fault = {
  async request(req, upstream) {
    if (!isList(req)) return req;
    const asked = req.body.trim() === '' ? {} : parse(req.body);
    if (!isObject(asked)) return req;
    const { pageToken, pageSize, ...filter } = asked;
    // This participant's own entries, all of them (the reference lists them on one page).
    const own = await upstream.send({ ...req, body: JSON.stringify(filter) });
    const ownBody = parse(own.body);
    if (own.status !== 200 || !isObject(ownBody) || !Array.isArray(ownBody.vettedPackages)) return own;
    const meta = isObject(filter.packageMetadataFilter) ? filter.packageMetadataFilter : {};
    const topo = isObject(filter.topologyStateFilter) ? filter.topologyStateFilter : {};
    const participants = strings(topo.participantIds);
    const syncs = strings(topo.synchronizerIds);
    const known = [...new Set(ownBody.vettedPackages.filter(isObject).map((v) => String(v.synchronizerId)))];
    const theirs = known
      .filter((s) => syncs.length === 0 || syncs.includes(s))
      .flatMap((synchronizerId) => OTHERS.filter((p) => participants.length === 0 || participants.includes(p)).map((participantId, i) => ({ synchronizerId, participantId, topologySerial: 3 + i, packages: kept(THEIR_PACKAGES, meta) })))
      .filter((v) => v.packages.length > 0);
    const all = [...(ownBody.vettedPackages as Json[]), ...theirs].sort((a, b) =>
      String(a.synchronizerId) < String(b.synchronizerId) ? -1 : String(a.synchronizerId) > String(b.synchronizerId) ? 1 : String(a.participantId) < String(b.participantId) ? -1 : String(a.participantId) > String(b.participantId) ? 1 : 0,
    );
    const from = Number(TOKEN.exec(typeof pageToken === 'string' ? pageToken : '')?.[1] ?? '0');
    const size = typeof pageSize === 'number' && pageSize > 0 ? pageSize : DEFAULT_PAGE;
    const page = all.slice(from, from + size);
    return jsonResponse(200, { vettedPackages: page, nextPageToken: from + size < all.length ? `vp-${from + size}` : '' });
  },
};
