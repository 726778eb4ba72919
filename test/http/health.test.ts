import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('health probes', () => {
  it('GET /livez answers 200 with no body', async () => {
    const res = await get(server, '/livez');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('GET /readyz answers 200 ready', async () => {
    const res = await get(server, '/readyz');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('ready');
  });
});
