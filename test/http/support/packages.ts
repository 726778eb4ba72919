import type { Response } from 'supertest';
import { expectConforms } from './conforms.js';
import type { TestServer } from './startServer.js';

/** POSTs bytes as `application/octet-stream` (how DARs are uploaded) and checks the answer against the spec. */
export async function upload(server: TestServer, path: string, bytes: Uint8Array, headers: Readonly<Record<string, string>> = {}): Promise<Response> {
  let req = server.http.post(path).set('Content-Type', 'application/octet-stream');
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  const res = await req.send(Buffer.from(bytes));
  expectConforms(res, 'POST', path.split('?')[0] as string);
  return res;
}

/** GETs a package's bytes (buffered whatever the content type). */
export async function fetchPackage(server: TestServer, packageId: string, headers: Readonly<Record<string, string>> = {}): Promise<{ status: number; hash: string | undefined; contentType: string | undefined; bytes: Buffer; json: unknown }> {
  let req = server.http
    .get(`/v2/packages/${packageId}`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  const res = await req;
  const bytes = res.body as Buffer;
  const contentType = res.headers['content-type'];
  return {
    status: res.status,
    hash: res.headers['canton-package-hash'],
    contentType,
    bytes,
    json: contentType?.startsWith('application/json') ? (JSON.parse(bytes.toString('utf8')) as unknown) : undefined,
  };
}
