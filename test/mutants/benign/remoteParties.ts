import { isObject, type Json } from '../mutantKit.js';
import { jsonResponse, parse, type Fault, type ProxyRequest, type ProxyResponse } from '../mutantProxy.js';

/**
 * A participant on a network: it knows parties hosted elsewhere (topology of other participants),
 * and lists them with `isLocal: false` after its own, in its party order (PartyDetails.is_local:
 * "true if party is hosted by the backing participant"; ListKnownParties: "all parties known to
 * the participant"). Three remote parties in another namespace, listed on the last pages (pages
 * of their own where the last local page is full, with a page token of the server's), found by
 * `filter-party`, and by lookups (`GET /v2/parties/{party}`, also with `parties=`). They belong
 * to no identity provider but the default one.
 */
const NS = '1220' + 'ab12'.repeat(16);
export const REMOTE = ['zz-remote-exchange', 'zz-remote-treasury', 'zz-remote-validator'].map((h) => `${h}::${NS}`);
const remote = new Set(REMOTE);
const details = (party: string): Json => ({ party, isLocal: false, localMetadata: { resourceVersion: '', annotations: {} }, identityProviderId: '' });
const pathOf = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');
const TOKEN = /^zz-remote-page-(\d+)$/;

function listParams(url: string) {
  const q = new URLSearchParams(url.split('?')[1] ?? '');
  const size = Number(q.get('pageSize') ?? '0');
  return { q, size: Number.isSafeInteger(size) && size > 0 ? Math.min(size, 10_000) : 10_000, needle: q.get('filter-party') ?? '', idp: q.get('identity-provider-id') ?? '' };
}
const visible = (needle: string, idp: string) => (idp !== '' ? [] : REMOTE.filter((p) => needle === '' || p.includes(needle)));

function remotePage(from: number, size: number, shown: readonly string[]): { partyDetails: Json[]; nextPageToken: string } {
  const page = shown.slice(from, from + size);
  return { partyDetails: page.map(details), nextPageToken: from + size < shown.length ? `zz-remote-page-${from + size}` : '' };
}

export const remoteParties: Fault = {
  request(req: ProxyRequest): ProxyRequest | ProxyResponse {
    const path = pathOf(req.url);
    if (req.method === 'GET' && path === '/v2/parties') {
      const { q, size, needle, idp } = listParams(req.url);
      const m = TOKEN.exec(q.get('pageToken') ?? '');
      if (m) return jsonResponse(200, remotePage(Number(m[1]), size, visible(needle, idp)));
      return req;
    }
    const one = /^\/v2\/parties\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && one && one[1] !== 'participant-id') {
      const q = new URLSearchParams(req.url.split('?')[1] ?? '');
      const asked = [decodeURIComponent(one[1]!), ...q.getAll('parties')];
      const local = asked.filter((p) => !remote.has(p));
      if (local.length === asked.length) return req;
      if (local.length === 0) return jsonResponse(200, { partyDetails: asked.map(details) });
      const rest = new URLSearchParams([...q.entries()].filter(([k]) => k !== 'parties'));
      for (const p of local.slice(1)) rest.append('parties', p);
      const query = rest.toString();
      return { ...req, url: `/v2/parties/${encodeURIComponent(local[0]!)}${query === '' ? '' : `?${query}`}` };
    }
    return req;
  },
  response(req, res) {
    const path = pathOf(req.url);
    if (req.method !== 'GET' || res.status !== 200) return res;
    const body = parse(res.body);
    if (!isObject(body) || !Array.isArray(body.partyDetails)) return res;
    if (path === '/v2/parties') {
      // A remote page this proxy answered itself.
      if (TOKEN.test(listParams(req.url).q.get('pageToken') ?? '')) return res;
      if (typeof body.nextPageToken === 'string' && body.nextPageToken !== '') return res;
      const { size, needle, idp } = listParams(req.url);
      const shown = visible(needle, idp);
      const room = Math.max(0, size - body.partyDetails.length);
      const added = shown.slice(0, room).map(details);
      const next = room < shown.length ? `zz-remote-page-${room}` : '';
      return { ...res, body: JSON.stringify({ ...body, partyDetails: [...body.partyDetails, ...added], nextPageToken: next }) };
    }
    const one = /^\/v2\/parties\/([^/]+)$/.exec(path);
    if (one && one[1] !== 'participant-id') {
      const q = new URLSearchParams(req.url.split('?')[1] ?? '');
      const asked = [decodeURIComponent(one[1]!), ...q.getAll('parties')].filter((p) => remote.has(p));
      if (asked.length === 0) return res;
      return { ...res, body: JSON.stringify({ ...body, partyDetails: [...body.partyDetails, ...asked.map(details)] }) };
    }
    return res;
  },
};
