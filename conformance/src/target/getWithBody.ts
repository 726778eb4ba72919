import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A GET that carries a body, answered as a fetch Response. fetch refuses bodies on GET, but Canton
 * 3.5 declares one operation that way (GET /v2/state/active-contracts-page with a JSON body), so
 * the suite sends those over node:http(s) and reads the answer like any other.
 */
export function getWithBody(url: string, init: { headers: Record<string, string>; body: Uint8Array; signal: AbortSignal }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(url, { method: 'GET', headers: { ...init.headers, 'content-length': String(init.body.byteLength) }, signal: init.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
        }
        const status = res.statusCode ?? 0;
        resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers }));
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
