import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

/**
 * A WebSocket upgrade request written on a plain TCP socket (msw does not intercept `net`), to see
 * the server's handshake answer itself: its status line and the subprotocol it selected, if any.
 */
export function rawUpgrade(baseUrl: string, path: string, protocols: readonly string[]): Promise<{ status: number; protocol: string | undefined }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let head = '';
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      socket.write(
        [
          `GET ${path} HTTP/1.1`,
          `Host: ${url.host}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          ...(protocols.length > 0 ? [`Sec-WebSocket-Protocol: ${protocols.join(', ')}`] : []),
          '',
          '',
        ].join('\r\n'),
      );
    });
    socket.on('data', (chunk: string) => {
      head += chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.destroy();
      const lines = head.slice(0, end).split('\r\n');
      const status = Number(lines[0]?.split(' ')[1]);
      const protocol = lines.find((l) => l.toLowerCase().startsWith('sec-websocket-protocol:'))?.split(':')[1]?.trim();
      resolve({ status, protocol });
    });
    socket.on('error', reject);
  });
}
