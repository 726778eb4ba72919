import type { WebSocket as NodeWebSocket } from 'ws';

/** What a client saw of one WebSocket stream, from connect to close. */
export interface SocketRun {
  readonly opened: boolean;
  readonly protocol: string;
  readonly messages: string[];
  readonly errored: boolean;
  readonly closeCode: number | undefined;
}


/**
 * Sends `frame` once the socket opens (bytes as a binary frame; nothing when undefined) and records
 * everything until it closes (or `stopAfter` messages arrived, when the client closes it itself).
 */
export function runSocket(client: WebSocket | NodeWebSocket, frame: string | Uint8Array | undefined, stopAfter = Infinity, timeoutMs = 5000): Promise<SocketRun> {
  // `ws` sockets offer the same EventTarget surface as the global WebSocket.
  const socket = client as WebSocket;
  return new Promise((resolve, reject) => {
    const run = { opened: false, protocol: '', messages: [] as string[], errored: false, closeCode: undefined as number | undefined };
    const timer = setTimeout(() => reject(new Error(`socket did not close within ${timeoutMs} ms: ${JSON.stringify(run)}`)), timeoutMs);
    socket.addEventListener('open', () => {
      run.opened = true;
      run.protocol = socket.protocol;
      if (frame !== undefined) socket.send(frame);
    });
    socket.addEventListener('message', (event) => {
      run.messages.push(String((event as MessageEvent).data));
      if (run.messages.length >= stopAfter) socket.close();
    });
    socket.addEventListener('error', () => {
      run.errored = true;
    });
    socket.addEventListener('close', (event) => {
      clearTimeout(timer);
      run.closeCode = (event as CloseEvent).code;
      resolve(run);
    });
  });
}
