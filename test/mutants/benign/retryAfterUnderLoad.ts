import { createHash } from 'node:crypto';
import { bytesOf, pathOf, type Fault, type ProxyRequest } from '../mutantProxy.js';

/**
 * A participant (and Scan) behind an ingress that sheds load: the first time it sees one request
 * in seven it answers 429 Too Many Requests or 503 Service Unavailable with `Retry-After: 0`
 * (RFC 6585 4 and RFC 9110 15.6.4: the request was not processed; the client may repeat it after
 * the delay), and lets the same request through when it comes again. Which requests are refused
 * follows from the request itself (method, path, body), so a run refuses the same ones every time;
 * WebSocket upgrades are refused the same way, by their count.
 */
const REFUSED_ONE_IN = 7;

const keyOf = (req: ProxyRequest) => createHash('sha256').update(`${req.method} ${req.url}\n`).update(bytesOf(req)).digest();

/** `oneIn`: the share of requests refused once (1: every request, the first time). */
export function retryAfterUnderLoad(oneIn: number = REFUSED_ONE_IN): Fault {
  const refused = new Set<string>();
  // A WebSocket's first frame comes after the upgrade: upgrades are refused by their count instead
  // (every `oneIn`th, or every other with 1), and the next one, the client's retry, goes through.
  let upgrades = 0;
  return {
    upgrade() {
      if (upgrades++ % Math.max(2, oneIn) !== 0) return undefined;
      return { status: upgrades % 2 === 0 ? 429 : 503, headers: { 'retry-after': '0' } };
    },
    request(req) {
      // Health probes are the orchestrator's, not behind the ingress's limit.
      if (/^\/(livez|readyz)$/.test(pathOf(req.url))) return req;
      const key = keyOf(req);
      const id = key.toString('hex');
      if (key[0]! % oneIn !== 0 || refused.has(id)) return req;
      refused.add(id);
      const status = key[1]! % 2 === 0 ? 429 : 503;
      return { status, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, body: status === 429 ? 'Too Many Requests' : 'Service Unavailable' };
    },
  };
}
