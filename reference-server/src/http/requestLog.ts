import type { IncomingMessage, Server } from 'node:http';
import type { Authenticator } from './api/auth/types.js';
import { flattenHeaders } from './koa/flattenHeaders.js';
import { offeredSubprotocols } from './koa/selectSubprotocol.js';

/** Wall time for the line's timestamp, a monotonic clock for its duration (both ms); tests inject both. */
export interface RequestLogClock {
  wallMs(): number;
  monotonicMs(): number;
}

export const systemRequestLogClock: RequestLogClock = { wallMs: () => Date.now(), monotonicMs: () => performance.now() };

/** What one line says. `user` is the authenticated user id; undefined when there is none. */
export interface RequestLogEntry {
  readonly atMs: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  readonly user: string | undefined;
}

/**
 * `2026-11-29T03:40:01.234Z GET /v2/version 200 3ms alice`: time, method, path, status, duration,
 * user ("-" for none). The path is without its query, and nothing of the headers or body is
 * written, so a token never reaches the log.
 */
export function requestLogLine(e: RequestLogEntry): string {
  return `${new Date(e.atMs).toISOString()} ${e.method} ${e.path} ${e.status} ${Math.round(e.durationMs)}ms ${e.user ?? '-'}`;
}

/** Told when an upgrade request is answered: 101 (a WebSocket stream) or the refusal's status. */
export type UpgradeObserver = (req: IncomingMessage, status: number) => void;

/**
 * Logs every HTTP request of `server` once its response ends, and returns the observer the
 * WebSocket face calls for upgrades. The user is the one the request's credentials authenticate
 * as (checked again here, beside the pipeline's own check), so a bad or missing token logs "-".
 */
export function attachRequestLog(server: Server, authenticator: Authenticator, write: (line: string) => void, clock: RequestLogClock = systemRequestLogClock): UpgradeObserver {
  const begin = (req: IncomingMessage) => {
    const atMs = clock.wallMs();
    const start = clock.monotonicMs();
    const user = userOf(authenticator, req);
    return (status: number) =>
      void user.then((u) => write(requestLogLine({ atMs, method: req.method ?? 'GET', path: pathOf(req), status, durationMs: clock.monotonicMs() - start, user: u })));
  };
  server.on('request', (req, res) => {
    const done = begin(req);
    // 'close' comes after the last byte, or when the client left before it.
    res.once('close', () => done(res.statusCode));
  });
  // Upgrades are timed from their arrival (this listener comes before the WebSocket face's).
  const upgrades = new WeakMap<IncomingMessage, (status: number) => void>();
  server.prependListener('upgrade', (req: IncomingMessage) => upgrades.set(req, begin(req)));
  return (req, status) => {
    const done = upgrades.get(req) ?? begin(req);
    upgrades.delete(req);
    done(status);
  };
}

/** Without the query: it is the client's data, and the path says which operation was asked for. */
const pathOf = (req: IncomingMessage): string => (req.url ?? '/').split('?')[0] ?? '/';

async function userOf(authenticator: Authenticator, req: IncomingMessage): Promise<string | undefined> {
  try {
    const r = await authenticator.authenticate({ headers: flattenHeaders(req.headers), subprotocols: offeredSubprotocols(req.headers['sec-websocket-protocol']) });
    return r.ok && r.value.kind === 'user' ? r.value.userId : undefined;
  } catch {
    // The log never fails a request; the pipeline reports what went wrong.
    return undefined;
  }
}
