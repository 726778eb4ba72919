import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before it closed the connection. */
  readonly text: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Writes the bytes of a request to a fresh TCP connection and reads until the server closes it:
 * for what an HTTP client would not send or read as usual (CONNECT, whose answer Node's client
 * turns into a tunnel).
 */
export function rawExchange(url: string, request: string): Promise<RawExchange> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname, port: Number(target.port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = text.slice(0, split < 0 ? text.length : split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ text, status: Number(statusLine.split(' ')[1] ?? 0), headers, body: split < 0 ? '' : text.slice(split + 4) });
    });
    socket.write(request);
  });
}
