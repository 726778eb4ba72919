import { WebSocket } from 'ws';

export interface WsSession {
  readonly socket: WebSocket;
  /** The subprotocol the server selected ('' for none). */
  readonly protocol: string;
  /** Every message received so far, parsed. */
  readonly messages: unknown[];
  /** Resolves with the close code once the server (or we) closed. */
  readonly closed: Promise<number>;
  /** Resolves once at least `n` messages arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<unknown[]>;
}

/** Opens a WebSocket to `path`, sends the request as its one frame, and collects what comes back. */
export async function openStream(baseUrl: string, path: string, request: unknown, protocols: string[] = ['jwt.token.x', 'daml.ws.auth']): Promise<WsSession> {
  const socket = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, protocols);
  const messages: unknown[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as unknown);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(typeof request === 'string' ? request : JSON.stringify(request));
  return {
    socket,
    protocol: socket.protocol,
    messages,
    closed,
    waitFor: (n, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${messages.length} of ${n} messages after ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (messages.length >= n) {
            clearTimeout(timer);
            resolve(messages);
          } else waiters.push(check);
        };
        check();
      }),
  };
}
