import { ws, type WebSocketHandler, type WebSocketHandlerConnection } from 'msw';
import { runChannel, type ChannelSession } from '../http/api/channels/runChannel.js';
import type { StreamChannel } from '../http/api/channels/StreamChannel.js';
import { refuseRequestFrame } from '../http/api/channels/refuseRequestFrame.js';
import { normalizePath } from '../http/api/normalizePath.js';
import type { ApiServices } from '../http/api/services.js';
import { selectSubprotocol } from '../http/koa/selectSubprotocol.js';
import { pathUnder, type BaseUrl } from './baseUrl.js';

/** What the stream link needs from its owner: the current services (they change on `reset`). */
export interface StreamLinkContext {
  services(): ApiServices;
  /** Aborted by `reset()`: streams of a discarded ledger end. */
  generation(): AbortSignal;
}

type ConnectionClient = WebSocketHandlerConnection['client'];

/**
 * The WebSocket streams through msw's interception: one link for every path under the Ledger
 * API base (as ws:// or wss://), the path picking the channel. From the first text frame on, the
 * shared `runChannel` serves it exactly as the Koa adapter does.
 */
export function createStreamLink(base: BaseUrl, channels: readonly StreamChannel[], context: StreamLinkContext): WebSocketHandler {
  const wsBase: BaseUrl = { ...base, href: base.href.replace(/^http/, 'ws'), origin: base.origin.replace(/^http/, 'ws') };
  const byPath = new Map(channels.map((c) => [c.path, c]));
  const link = ws.link(new RegExp(`^${escapeRegExp(wsBase.href)}(?:/.*)?$`));

  return link.addEventListener('connection', ({ client, info }) => {
    const below = pathUnder(wsBase, client.url.href) ?? '/';
    const path = trimSlash(normalizePath(below));
    const channel = byPath.get(path);
    const offered = typeof info.protocols === 'string' ? [info.protocols] : (info.protocols ?? []);
    const selected = selectSubprotocol(new Set(offered));
    // The server answers an unknown path with HTTP 404, and a client that offered subprotocols
    // fails the handshake when none is selected: either way the client sees an error, then a close.
    if (channel === undefined || (offered.length > 0 && selected === false)) return failHandshake(client);
    pinSubprotocol(client, selected === false ? '' : selected);

    // The stream ends when the client leaves or the ledger behind it is reset away.
    const gone = new AbortController();
    let clientLeft = false;
    let started = false;
    const generation = context.generation();
    const onReset = () => {
      gone.abort();
      // Not started yet: nothing will close it later.
      if (!started && !clientLeft) client.close(1001);
    };
    generation.addEventListener('abort', onReset, { once: true });
    client.addEventListener('close', () => {
      clientLeft = true;
      generation.removeEventListener('abort', onReset);
      gone.abort();
    });
    const session: ChannelSession = {
      signal: gone.signal,
      send: async (text) => {
        if (gone.signal.aborted) throw new Error('WebSocket closed');
        client.send(text);
        // msw delivers on a microtask; let it run before the next send (or the close) is queued.
        await Promise.resolve();
      },
    };
    const finish = async () => {
      // Give the last message's delivery a turn before the close overtakes it.
      await new Promise((r) => setTimeout(r, 0));
      generation.removeEventListener('abort', onReset);
      // 1000: the stream ended; 1001 (going away): its ledger was reset.
      if (!clientLeft) client.close(generation.aborted ? 1001 : 1000);
    };
    // A client that never sends its request would hold the socket forever (as on the Koa face).
    const waitedMs = context.services().config.webSocketRequestTimeoutMs;
    const idle = setTimeout(() => {
      started = true;
      void refuseRequestFrame({ kind: 'timeout', waitedMs }, context.services(), session)
        .catch(() => undefined)
        .finally(finish);
    }, waitedMs);
    gone.signal.addEventListener('abort', () => clearTimeout(idle), { once: true });
    client.addEventListener(
      'message',
      (event) => {
        if (gone.signal.aborted || started) return;
        started = true;
        clearTimeout(idle);
        if (typeof event.data !== 'string') {
          void refuseRequestFrame({ kind: 'binary', bytes: byteLength(event.data) }, context.services(), session)
            .catch(() => undefined)
            .finally(finish);
          return;
        }
        const credentials = { headers: {}, subprotocols: offered };
        void runChannel(channel, event.data, credentials, context.services(), session).finally(finish);
      },
      { once: true },
    );
  });
}

function byteLength(data: Blob | ArrayBufferLike | ArrayBufferView): number {
  return data instanceof Blob ? data.size : data.byteLength;
}

/**
 * The mocked socket reports the first offered subprotocol as selected; the server selects
 * `daml.ws.auth` (or `ledger.ws.auth`), so pin what `protocol` reads to the server's choice.
 */
function pinSubprotocol(client: ConnectionClient, selected: string): void {
  const socket = (client as { socket?: object }).socket;
  if (socket === undefined) return;
  Object.defineProperty(socket, 'protocol', { configurable: true, enumerable: true, get: () => selected, set: () => undefined });
}

function failHandshake(client: ConnectionClient): void {
  const socket = (client as { socket?: EventTarget }).socket;
  socket?.dispatchEvent(new Event('error'));
  client.close(1006, '');
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
