import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiResponse } from '../api/types.js';

/**
 * Writes a refusal straight to a socket Node has handed over (an upgrade without a stream, a
 * CONNECT) and closes it: once Node detaches its HTTP parser from the socket, no further request
 * can be read on it, so the answer says `Connection: close`.
 */
export function writeRawResponse(socket: Duplex, response: ApiResponse): void {
  const { contentType, body } =
    response.kind === 'json'
      ? { contentType: 'application/json', body: JSON.stringify(response.body) }
      : response.kind === 'text'
        ? { contentType: response.contentType, body: response.body }
        : { contentType: undefined, body: '' };
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`,
    ...(contentType === undefined ? [] : [`Content-Type: ${contentType}`]),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  // A client that leaves first would otherwise surface as an unhandled socket error.
  socket.on('error', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
