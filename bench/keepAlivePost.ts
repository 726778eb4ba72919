import { request, type Agent } from 'node:http';

/**
 * A JSON POST over a keep-alive agent, for the bench workers that play wallets: the answer's JSON
 * on 200, a rejection naming the path and status otherwise.
 */
export function keepAlivePost(agent: Agent, url: string): (path: string, body: unknown) => Promise<unknown> {
  const { hostname, port } = new URL(url);
  return (path, body) => {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request({ agent, hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': payload.length } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve(JSON.parse(text));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  };
}
