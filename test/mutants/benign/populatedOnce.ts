import type { Fault, ProxyRequest, Upstream } from '../mutantProxy.js';

/**
 * A variant that rewrites no exchange: it gives the participant history of its own (`populate`,
 * through the ledger API, once) before the suite's first request or WebSocket upgrade reaches it.
 */
export function populatedOnce(populate: (upstream: Upstream, like: ProxyRequest) => Promise<void>): Fault {
  let ready: Promise<void> | undefined;
  return {
    async request(req, upstream) {
      ready ??= populate(upstream, req);
      await ready;
      return req;
    },
    async upgrade() {
      await ready;
      return undefined;
    },
  };
}
