import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { runChannel, type ChannelSession } from '../api/channels/runChannel.js';
import type { StreamChannel } from '../api/channels/StreamChannel.js';
import { refuseRequestFrame } from '../api/channels/refuseRequestFrame.js';
import { renderNoRoute } from '../api/createDispatcher.js';
import { normalizePath } from '../api/normalizePath.js';
import type { ApiServices } from '../api/services.js';
import type { UpgradeObserver } from '../requestLog.js';
import { offeredSubprotocols, selectSubprotocol } from './selectSubprotocol.js';
import { flattenHeaders } from './flattenHeaders.js';
import { writeRawResponse } from './writeRawResponse.js';

/** Above this much unsent data a stream waits for the client to read before producing more. */
const HIGH_WATER_BYTES = 1024 * 1024;

export interface WebSocketFace {
  /** Ends every open stream and stops accepting new ones. */
  close(): Promise<void>;
}

/**
 * Serves the WebSocket streams on the same HTTP server as the REST face (`upgrade` requests):
 * the path picks the channel, the first text message is the request, then the channel's messages
 * follow until it ends (the socket is then closed normally) or the client leaves.
 */
export function attachWebSockets(server: Server, channels: readonly StreamChannel[], services: ApiServices, answered?: UpgradeObserver): WebSocketFace {
  const byPath = new Map(channels.map((c) => [c.path, c]));
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: services.config.maxWebSocketMessageBytes,
    handleProtocols: (offered) => selectSubprotocol(offered),
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Not `new URL(req.url, base)`: it would read `//v2/updates` as a host named v2.
    const path = normalizePath((req.url ?? '/').split('?')[0] ?? '/');
    const channel = byPath.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    if (channel === undefined) {
      refuseUpgrade(socket, req, path, services);
      answered?.(req, 404);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      answered?.(req, 101);
      serve(ws, req, channel, services);
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    close: () =>
      new Promise((resolve) => {
        server.off('upgrade', onUpgrade);
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

function serve(ws: WebSocket, req: IncomingMessage, channel: StreamChannel, services: ApiServices): void {
  const gone = new AbortController();
  ws.on('close', () => gone.abort());
  ws.on('error', () => gone.abort());
  const session: ChannelSession = {
    signal: gone.signal,
    send: (text) =>
      new Promise((resolve, reject) => {
        // A socket that is no longer open means the client left (its 'close' event may come
        // later): say so first, so the stream ends quietly instead of as a failure.
        const left = (e: Error) => {
          gone.abort();
          reject(e);
        };
        if (ws.readyState !== WebSocket.OPEN) return left(new Error('WebSocket closed'));
        if (ws.bufferedAmount < HIGH_WATER_BYTES) {
          ws.send(text);
          return resolve();
        }
        ws.send(text, (e) => (e ? left(e) : resolve()));
      }),
  };
  const end = () => {
    if (ws.readyState === WebSocket.OPEN) ws.close(1000);
  };
  // A client that never sends its request would hold the socket forever.
  const waitedMs = services.config.webSocketRequestTimeoutMs;
  const idle = setTimeout(() => {
    ws.removeAllListeners('message');
    void refuseRequestFrame({ kind: 'timeout', waitedMs }, services, session)
      .catch(() => undefined)
      .finally(end);
  }, waitedMs);
  gone.signal.addEventListener('abort', () => clearTimeout(idle), { once: true });
  // The participant reads the first message only; later ones are ignored.
  ws.once('message', (data: RawData, isBinary: boolean) => {
    clearTimeout(idle);
    if (isBinary) {
      void refuseRequestFrame({ kind: 'binary', bytes: rawBytes(data).length }, services, session)
        .catch(() => undefined)
        .finally(end);
      return;
    }
    const credentials = {
      headers: flattenHeaders(req.headers),
      subprotocols: offeredSubprotocols(req.headers['sec-websocket-protocol']),
    };
    void runChannel(channel, rawBytes(data).toString('utf8'), credentials, services, session).finally(end);
  });
}

function rawBytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}


/** An upgrade to a path without a stream: a plain HTTP 404 with the usual error body. */
function refuseUpgrade(socket: Duplex, req: IncomingMessage, path: string, services: ApiServices): void {
  writeRawResponse(socket, renderNoRoute({ method: req.method ?? 'GET', path }, undefined, services));
}
