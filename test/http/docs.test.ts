import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from './support/ledgerApi.js';
import { startServer, type TestServer } from './support/startServer.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const onDisk = (name: string) => readFileSync(new URL(`../../specs/${name}`, import.meta.url), 'utf8');

describe('the API documents', () => {
  it('GET /docs/openapi serves the served line\'s document (3.5 by default) as text/plain UTF-8', async () => {
    const res = await get(server, '/docs/openapi');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.text).toBe(onDisk('ledger.3.5.openapi.yaml'));
    expect((parse(res.text) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('GET /docs/asyncapi serves specs/ledger.3.5.asyncapi.yaml', async () => {
    const res = await get(server, '/docs/asyncapi');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.text).toBe(onDisk('ledger.3.5.asyncapi.yaml'));
    expect(parse(res.text)).toHaveProperty('asyncapi');
  });
});
