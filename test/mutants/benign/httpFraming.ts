import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { bytesOf, type Fault } from '../mutantProxy.js';

/** Header names in another case: HTTP field names are case-insensitive (RFC 9110, 5.1). */
const otherCase = (name: string) => [...name].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');

/** A media type with its charset named, as Canton's own text/plain answers do (`text/plain; charset=UTF-8`). */
const withCharset = (type: string) => (/^(application\/json|text\/plain)$/i.test(type.trim()) ? `${type.trim()}; charset=UTF-8` : type);

/**
 * Other HTTP framing, as a participant behind its own HTTP stack or a reverse proxy answers:
 * bodies gzip-compressed when the request accepts it, sent chunked (no content-length) in two
 * chunks, `Connection: close` after every answer, media types with their charset, header names in another case, and headers of
 * its own (a request id, a server name, cache control).
 */
export const httpFraming: Fault = {
  send(req, out, res) {
    let bytes = bytesOf(out);
    const headers: string[] = [];
    for (const [k, v] of Object.entries(out.headers)) if (k !== 'date') headers.push(otherCase(k), k === 'content-type' ? withCharset(v) : v);
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && bytes.length > 0) {
      bytes = gzipSync(bytes);
      headers.push('Content-Encoding', 'gzip', 'Vary', 'Accept-Encoding');
    }
    const id = createHash('sha256').update(`${req.method} ${req.url} ${Math.random()}`).digest('hex').slice(0, 16);
    headers.push('X-Request-Id', id, 'Server', 'vendor-participant', 'Cache-Control', 'no-store', 'Connection', 'close');
    res.writeHead(out.status, headers);
    const mid = Math.floor(bytes.length / 2);
    if (mid > 0) res.write(bytes.subarray(0, mid));
    res.end(bytes.subarray(mid));
  },
};
