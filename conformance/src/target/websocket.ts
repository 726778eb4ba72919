import { WebSocket } from 'ws';
import type { AuthMode, Exchange, RecordedRequest, TransportError } from './exchange.js';
import { curlOf } from './curl.js';
import { transportErrorOf } from './transportError.js';

export interface StreamOptions {
  /** Sent as the single request frame once the socket opens. */
  readonly request: unknown;
  readonly auth?: AuthMode;
  /** Subprotocols to offer instead of the default (`jwt.token.<JWT>` when a token is used, then `daml.ws.auth`). */
  readonly protocols?: readonly string[];
  /**
   * With the default subprotocols and no token to use, offer `jwt.token.<this>` anyway: real clients
   * always send a token entry, and a server's subprotocol choice must not depend on there being one.
   */
  readonly placeholderJwt?: string;
  /** Stop (and close) once this holds for the messages received so far. */
  readonly until?: (messages: readonly unknown[]) => boolean;
  /** End normally when no frame arrives for this long (a tailing stream never ends by itself). */
  readonly idleMs?: number;
  readonly timeoutMs?: number;
  readonly maxMessages?: number;
  readonly operationId?: string;
}

export type StreamEnd = 'closed' | 'until' | 'idle' | 'limit' | 'timeout' | 'rejected' | 'error';

export interface StreamResult {
  readonly exchange: Exchange;
  /** Frames parsed as JSON, in order. */
  readonly messages: readonly unknown[];
  /** Frames that were not JSON. */
  readonly nonJson: readonly string[];
  readonly ended: StreamEnd;
  /** The subprotocol the server selected. */
  readonly protocol: string;
  /** HTTP status when the upgrade was refused (e.g. 401). */
  readonly rejectedStatus?: number;
  readonly error?: TransportError;
  /** The close code when the stream ended by a close (1000: normal; 1006: dropped without a close frame). */
  readonly closeCode?: number;
}

interface InternalOptions extends StreamOptions {
  readonly token: string | undefined;
  readonly showToken: boolean;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

/** One WebSocket session against a target, recorded like an HTTP exchange (status 101, frames as the body). */
export function openStream(url: string, o: InternalOptions): Promise<StreamResult> {
  const jwt = o.token ?? o.placeholderJwt;
  const protocols = [...(o.protocols ?? [...(jwt !== undefined ? [`jwt.token.${jwt}`] : []), 'daml.ws.auth'])];
  // A placeholder is no secret: show it as sent.
  const placeholderOnly = o.token === undefined && o.protocols === undefined;
  const shownProtocols = protocols.map((p) => (p.startsWith('jwt.token.') && !o.showToken && !placeholderOnly ? 'jwt.token.$TOKEN' : p));
  const body = JSON.stringify(o.request);
  const request: RecordedRequest = { method: 'GET', url, headers: { 'sec-websocket-protocol': shownProtocols.join(', ') }, body };
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const maxMessages = o.maxMessages ?? 100_000;

  return new Promise((resolve) => {
    const messages: unknown[] = [];
    const nonJson: string[] = [];
    const frames: string[] = [];
    let size = 0;
    let truncated = false;
    let status = 0;
    let closeCode: number | undefined;
    let headers: Record<string, string> = {};
    let rejectedBody = '';
    let settled = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const ws = new WebSocket(url, protocols, { handshakeTimeout: o.timeoutMs });

    const finish = (ended: StreamEnd, error?: TransportError) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      clearTimeout(idleTimer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
      const text = status === 101 ? frames.join('\n') : rejectedBody;
      const exchange: Exchange = {
        seq: 0,
        group: 'ledger',
        operationId: o.operationId,
        path: new URL(url).pathname,
        request,
        ...(status === 0 ? {} : { response: { status, headers, contentType: status === 101 ? 'application/json' : (headers['content-type'] ?? '').split(';')[0]!.trim(), text, truncated, size } }),
        ...(error ? { error } : {}),
        startedAt,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        curl: `# WebSocket: connect with subprotocols [${shownProtocols.join(', ')}] and send one frame\n${curlOf(request).replace(/^curl/, 'websocat-equivalent:')}`,
        checkId: '',
        websocket: true,
      };
      resolve({ exchange, messages, nonJson, ended, protocol: ws.protocol, ...(status !== 101 && status !== 0 ? { rejectedStatus: status } : {}), ...(error ? { error } : {}), ...(closeCode === undefined ? {} : { closeCode }) });
    };
    const overall = setTimeout(() => finish('timeout', { kind: 'timeout', message: `stream did not finish within ${o.timeoutMs} ms` }), o.timeoutMs);
    const armIdle = () => {
      if (o.idleMs === undefined) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => finish('idle'), o.idleMs);
    };

    ws.on('upgrade', (res) => {
      status = res.statusCode ?? 101;
      headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    });
    ws.on('unexpected-response', (_req, res) => {
      status = res.statusCode ?? 0;
      headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (rejectedBody.length < 65_536) rejectedBody += d;
      });
      res.on('end', () => finish('rejected'));
      res.on('error', () => finish('rejected'));
    });
    ws.on('open', () => {
      ws.send(body);
      armIdle();
    });
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? `<binary ${(data as Buffer).length} bytes>` : data.toString();
      size += text.length;
      if (size <= o.maxBodyBytes) frames.push(text);
      else truncated = true;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
        messages.push(parsed);
      } catch {
        nonJson.push(text.slice(0, 500));
      }
      // An offset checkpoint says the ledger moved on without news for this stream: a participant
      // that sends them often (a short offset-checkpoint-cache-update-interval, a busy ledger) must
      // not keep an otherwise finished stream from going idle.
      if (!isCheckpoint(parsed)) armIdle();
      if (o.until?.(messages)) finish('until');
      else if (messages.length + nonJson.length >= maxMessages) finish('limit');
    });
    ws.on('close', (code) => {
      closeCode = code;
      finish('closed');
    });
    ws.on('error', (e) => finish('error', transportErrorOf(e, false, o.timeoutMs)));
  });
}

/** An update or completion stream's OffsetCheckpoint frame. */
function isCheckpoint(m: unknown): boolean {
  if (typeof m !== 'object' || m === null) return false;
  const holder = (m as Record<string, unknown>).update ?? (m as Record<string, unknown>).completionResponse;
  return typeof holder === 'object' && holder !== null && 'OffsetCheckpoint' in holder && Object.keys(holder).length === 1;
}
