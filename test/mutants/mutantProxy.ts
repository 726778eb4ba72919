import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** A request as the proxy sees it (body as text). */
export interface ProxyRequest {
  readonly method: string;
  /** Path with query, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The bytes `body` was decoded from: sent instead while `body` is unchanged (binary DAR uploads survive). */
  readonly raw?: RawBody;
}

export interface ProxyResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** As on requests: package archives pass through byte for byte unless a fault rewrote the body. */
  readonly raw?: RawBody;
}

export interface RawBody {
  readonly bytes: Buffer;
  readonly text: string;
}

/** The bytes to send for a body: the original ones when a fault left the text alone. */
export const bytesOf = (m: { body: string; raw?: RawBody }): Buffer => (m.raw !== undefined && m.raw.text === m.body ? m.raw.bytes : Buffer.from(m.body));
const rawOf = (bytes: Buffer): { body: string; raw: RawBody } => {
  const text = bytes.toString('utf8');
  return { body: text, raw: { bytes, text } };
};

/**
 * One fault a real implementation might have, applied in front of the reference server: rewrite
 * the request, answer in its place, or rewrite its answer.
 */
/** How a fault refuses a WebSocket upgrade: the status, or the status and headers to send with it. */
export type UpgradeRefusal = number | { readonly status: number; readonly headers?: Readonly<Record<string, string>> };

export interface Fault {
  request?(req: ProxyRequest, upstream: Upstream): Promise<ProxyRequest | ProxyResponse> | ProxyRequest | ProxyResponse;
  response?(req: ProxyRequest, res: ProxyResponse): ProxyResponse;
  /** A WebSocket upgrade: a status (with headers of its own) refuses it, undefined passes it through. */
  upgrade?(req: ProxyRequest): UpgradeRefusal | undefined | Promise<UpgradeRefusal | undefined>;
  /** Rewrites the upstream's handshake answer (status line and headers, without the blank line). */
  upgradeResponse?(head: string): string;
  /** A WebSocket passed through: `closed` settles when either side closes it. */
  upgraded?(req: ProxyRequest, closed: Promise<void>): void;
  /**
   * Rewrites the frames a client sends on a WebSocket (its request). With it the proxy ends the
   * WebSocket itself and relays message by message; without it the bytes pass through untouched.
   */
  wsRequest?(req: ProxyRequest, frame: string, upstream: Upstream): Promise<string> | string;
  /** With `wsRequest` or `wsResponse`: the close code the client gets when the upstream closes with `code`. */
  wsCloseCode?(req: ProxyRequest, code: number): number;
  /**
   * Rewrites the text frames the server sends on a WebSocket: each becomes the frames returned
   * (none drops it, two repeat it). With it the proxy relays message by message, as with `wsRequest`.
   */
  wsResponse?(req: ProxyRequest, frame: string): readonly string[];
  /**
   * Writes the answer itself (its HTTP framing: compression, chunks, header case, connection);
   * without it the proxy writes `out` whole with a content-length.
   */
  send?(req: ProxyRequest, out: ProxyResponse, res: ServerResponse): void;
}

export interface Upstream {
  readonly url: string;
  send(req: ProxyRequest): Promise<ProxyResponse>;
}

export interface MutantServer {
  readonly url: string;
  close(): Promise<void>;
}

const isResponse = (x: ProxyRequest | ProxyResponse): x is ProxyResponse => 'status' in x;

function forward(base: URL, req: ProxyRequest): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: base.host };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    const body = bytesOf(req);
    const r = httpRequest({ host: base.hostname, port: base.port, method: req.method, path: req.url, headers: { ...headers, ...(body.length > 0 || req.method !== 'GET' ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') h[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 502, headers: h, ...rawOf(Buffer.concat(chunks)) });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(body);
  });
}

/** Starts a proxy on a free port that applies `fault` in front of `upstreamUrl` (HTTP and WebSocket). */
export async function startMutant(upstreamUrl: string, fault: Fault): Promise<MutantServer> {
  const base = new URL(upstreamUrl);
  const upstream: Upstream = { url: upstreamUrl, send: (req) => forward(base, req) };
  const sockets = new Set<Socket>();
  const relays = new Set<WebSocket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const incoming: ProxyRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, ...rawOf(Buffer.concat(chunks)) };
        const rewritten = fault.request ? await fault.request(incoming, upstream) : incoming;
        const answer = isResponse(rewritten) ? rewritten : await upstream.send(rewritten);
        const out = fault.response ? fault.response(incoming, answer) : answer;
        if (fault.send) return fault.send(incoming, out, res);
        const bytes = bytesOf(out);
        res.writeHead(out.status, { ...out.headers, 'content-length': String(bytes.length) });
        res.end(bytes);
      })().catch(() => {
        res.writeHead(502).end();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket: Socket, head: Buffer) => void upgrade(req, socket, head));
  const upgrade = async (req: IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    const status = await fault.upgrade?.({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: '' });
    if (status === undefined && (fault.wsRequest || fault.wsResponse)) {
      const proxied = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: '' };
      relays.add(relayWebSocket(
        req, socket, head, base,
        (frame) => (fault.wsRequest ? fault.wsRequest(proxied, frame, upstream) : frame),
        (code) => fault.wsCloseCode?.(proxied, code) ?? code,
        fault.wsResponse ? (frame) => fault.wsResponse!(proxied, frame) : undefined,
      ));
      return;
    }
    if (status !== undefined) {
      const refusal = typeof status === 'number' ? { status } : status;
      const body = JSON.stringify({ code: 'UNAUTHENTICATED', cause: 'refused by the mutant bed', context: {}, errorCategory: 6, grpcCodeValue: 16 });
      const extra = Object.entries(refusal.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.end(`HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`);
      return;
    }
    const up = connect(Number(base.port), base.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)];
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) up.write(head);
      socket.pipe(up);
      if (fault.upgradeResponse) rewriteHandshake(up, socket, fault.upgradeResponse);
      else up.pipe(socket);
    });
    sockets.add(up);
    let closed: () => void = () => undefined;
    fault.upgraded?.({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: '' }, new Promise<void>((resolve) => (closed = resolve)));
    const end = () => {
      socket.destroy();
      up.destroy();
      closed();
    };
    up.on('error', end);
    socket.on('error', end);
    up.on('close', end);
    socket.on('close', end);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        for (const r of relays) r.terminate();
        server.close(() => resolve());
      }),
  };
}

/**
 * Ends a client's WebSocket in the proxy and opens one to the upstream with the same path,
 * subprotocols and authorization: the client gets the upstream's subprotocol, its frames (each
 * rewritten by `rewrite`) go up, the upstream's come back (each text frame as the frames `answer`
 * makes of it, when given), and a close on either side closes the other with the same code. Returns the upstream socket (terminated with the proxy).
 */
function relayWebSocket(
  req: IncomingMessage, socket: Socket, head: Buffer, base: URL, rewrite: (frame: string) => Promise<string> | string,
  closeCode: (code: number) => number = (c) => c, answer?: (frame: string) => readonly string[],
): WebSocket {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
  const auth = req.headers.authorization;
  const up = new WebSocket(`ws://${base.host}${req.url ?? '/'}`, offered, auth === undefined ? {} : { headers: { authorization: auth } });
  up.on('unexpected-response', (_r, res) => {
    socket.end(`HTTP/1.1 ${res.statusCode ?? 502} Refused\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    up.terminate();
  });
  up.on('error', () => socket.destroy());
  up.on('open', () => {
    const wss = new WebSocketServer({ noServer: true, handleProtocols: () => (up.protocol === '' ? false : up.protocol) });
    wss.handleUpgrade(req, socket, head, (client) => {
      // Frames in order: each rewrite finishes before the next frame goes up.
      let chain = Promise.resolve();
      client.on('message', (data, isBinary) => {
        chain = chain.then(async () => {
          const frame = isBinary ? data : await rewrite(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
          if (up.readyState === WebSocket.OPEN) up.send(frame);
        });
      });
      up.on('message', (data, isBinary) => {
        if (isBinary || answer === undefined) return client.send(data as Buffer, { binary: isBinary });
        for (const frame of answer(Buffer.isBuffer(data) ? data.toString('utf8') : String(data))) client.send(frame);
      });
      const closeWith = (target: WebSocket, code: number, reason: Buffer) => {
        if (target.readyState !== WebSocket.OPEN) return;
        // 1005 and 1006 say no code was sent; they cannot be sent on.
        if (code === 1005 || code === 1006) target.close();
        else target.close(code, reason);
      };
      up.on('close', (code, reason) => closeWith(client, closeCode(code), reason));
      client.on('close', (code, reason) => closeWith(up, code, reason));
      client.on('error', () => up.terminate());
    });
  });
  return up;
}

/** Holds the upstream's bytes until its handshake answer is complete, rewrites that, then pipes the frames. */
function rewriteHandshake(up: Socket, socket: Socket, rewrite: (head: string) => string): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    up.off('data', onData);
    socket.write(`${rewrite(buffered.subarray(0, end).toString('latin1'))}\r\n\r\n`);
    const rest = buffered.subarray(end + 4);
    if (rest.length > 0) socket.write(rest);
    up.pipe(socket);
  };
  up.on('data', onData);
}

/** Parses a JSON body, or undefined. */
export function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export const pathOf = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');
export const jsonResponse = (status: number, body: unknown): ProxyResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
