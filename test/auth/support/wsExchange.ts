import { WebSocket } from 'ws';

export interface WsOutcome {
  /** Set when the server refused the upgrade (the status line of its answer). */
  readonly refusedStatus?: number;
  readonly protocol?: string;
  /** Every message the server sent, parsed. */
  readonly messages: unknown[];
  readonly closeCode?: number;
}

/**
 * Opens a stream, sends the one request frame, and collects what the server sends until it
 * closes (or `idleMs` passes without a message, for streams that never end).
 */
export function wsExchange(
  baseUrl: string,
  path: string,
  request: unknown,
  options: { protocols?: string[]; headers?: Record<string, string>; idleMs?: number } = {},
): Promise<WsOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + path, options.protocols ?? [], { headers: options.headers ?? {} });
    const messages: unknown[] = [];
    let timer: NodeJS.Timeout | undefined;
    const idle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => ws.close(), options.idleMs ?? 500);
    };
    ws.on('unexpected-response', (_req, res) => {
      resolve({ refusedStatus: res.statusCode ?? 0, messages });
      res.resume();
      ws.terminate();
    });
    ws.on('open', () => {
      ws.send(JSON.stringify(request));
      idle();
    });
    ws.on('message', (data: Buffer) => {
      messages.push(JSON.parse(data.toString('utf8')) as unknown);
      idle();
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      resolve({ protocol: ws.protocol, messages, closeCode: code });
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      if (ws.readyState !== WebSocket.CLOSED) reject(e);
    });
  });
}
