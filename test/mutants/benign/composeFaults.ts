import type { Fault, ProxyRequest, ProxyResponse, Upstream } from '../mutantProxy.js';

const isResponse = (x: ProxyRequest | ProxyResponse): x is ProxyResponse => 'status' in x;

/**
 * Several faults as one proxy, layered like an onion: requests and request frames go through them
 * first to last, answers and answer frames last to first, each layer's answer hook seeing the
 * request as that layer passed it on. `send` is the first layer's that has one (the outermost framing).
 */
export function composeFaults(layers: readonly Fault[]): Fault {
  // The request each layer passed on, per incoming request (the proxy hands the same object to request and response).
  const seen = new WeakMap<ProxyRequest, ProxyRequest[]>();
  const sender = layers.find((l) => l.send !== undefined);
  const wsRequests = layers.filter((l) => l.wsRequest !== undefined);
  const wsResponses = layers.filter((l) => l.wsResponse !== undefined);
  return {
    async request(req, upstream: Upstream) {
      const views: ProxyRequest[] = [];
      seen.set(req, views);
      let current: ProxyRequest = req;
      for (const layer of layers) {
        views.push(current);
        if (!layer.request) continue;
        const next = await layer.request(current, upstream);
        if (isResponse(next)) return next;
        current = next;
      }
      return current;
    },
    response(req, res) {
      const views = seen.get(req) ?? [];
      let out = res;
      for (let i = layers.length - 1; i >= 0; i--) {
        const layer = layers[i]!;
        // A layer the request never reached (an earlier one answered) does not see the answer.
        if (i >= views.length) continue;
        if (layer.response) out = layer.response(views[i]!, out);
      }
      return out;
    },
    ...(wsRequests.length > 0
      ? {
          async wsRequest(req: ProxyRequest, frame: string, upstream: Upstream) {
            let f = frame;
            for (const layer of wsRequests) f = await layer.wsRequest!(req, f, upstream);
            return f;
          },
        }
      : {}),
    ...(wsResponses.length > 0
      ? {
          wsResponse(req: ProxyRequest, frame: string) {
            let frames: readonly string[] = [frame];
            for (let i = wsResponses.length - 1; i >= 0; i--) frames = frames.flatMap((f) => wsResponses[i]!.wsResponse!(req, f));
            return frames;
          },
        }
      : {}),
    ...(sender ? { send: sender.send!.bind(sender) } : {}),
  };
}
