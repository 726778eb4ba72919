import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCantonError, expectNoStackTrace } from './support/cantonError.js';
import { get, post, send } from './support/ledgerApi.js';
import { rawRequest } from './support/raw.js';
import { rawExchange } from './support/rawExchange.js';
import { startServer, type TestServer } from './support/startServer.js';

const LIMIT = 4096;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ http: { maxRequestBodyBytes: LIMIT } });
});
afterAll(() => server.close());

describe('routing errors', () => {
  it('answers an unknown path with a 404 JsCantonError', async () => {
    const res = await get(server, '/v2/no-such-thing', { unchecked: true });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectCantonError(res.body, 'ENDPOINT_NOT_FOUND', /GET \/v2\/no-such-thing/);
  });

  it('answers a known path with the wrong method with 405 naming the allowed ones', async () => {
    const res = await send(server, 'PUT', '/v2/version', { unchecked: true });
    expect(res.status).toBe(405);
    expectCantonError(res.body, 'METHOD_NOT_ALLOWED', /supported: GET/);
  });

  it('answers a POST under a known prefix but to no operation with 404, before reading the body', async () => {
    const res = await post(server, '/v2/commands/no-such-command', '{not even json', { unchecked: true });
    expect(res.status).toBe(404);
    expectCantonError(res.body, 'ENDPOINT_NOT_FOUND');
  });
});

describe('routing: case, CONNECT', () => {
  it('answers a path in another case with 404, as the participant does (segments compare exactly)', async () => {
    for (const path of ['/V2/VERSION', '/v2/Version', '/V2/version', '/v2/USERS']) {
      const res = await get(server, path, { unchecked: true });
      expect(res.status, path).toBe(404);
      expectCantonError(res.body, 'ENDPOINT_NOT_FOUND', new RegExp(`GET ${path}$`));
    }
    expect((await get(server, '/v2/version')).status).toBe(200);
  });

  it('answers CONNECT to a known path with 405 naming the allowed methods, then closes', async () => {
    const res = await rawExchange(server.url, 'CONNECT /v2/version HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['connection']).toBe('close');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    expectCantonError(JSON.parse(res.body), 'METHOD_NOT_ALLOWED', /CONNECT is not supported on \/v2\/version; supported: GET/);
  });

  it('answers CONNECT in authority form (a proxy request) with 404: it names no path', async () => {
    const res = await rawExchange(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(res.status).toBe(404);
    expectCantonError(JSON.parse(res.body), 'ENDPOINT_NOT_FOUND', /No endpoint CONNECT example\.com:443/);
  });

  it('answers CONNECT to an unknown path with 404, and keeps serving', async () => {
    const res = await rawExchange(server.url, 'CONNECT //v2/nothing?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(res.status).toBe(404);
    expectCantonError(JSON.parse(res.body), 'ENDPOINT_NOT_FOUND', /No endpoint CONNECT \/v2\/nothing$/);
    expect((await get(server, '/v2/version')).status).toBe(200);
  });
});

describe('request body decoding', () => {
  it('reads a POST body as JSON whatever its Content-Type, or without one', async () => {
    const variants: Record<string, string>[] = [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }];
    for (const headers of variants) {
      const res = await rawRequest(server.url, 'POST', '/v2/updates', { headers, body: '{"beginExclusive":0,"colour":1}' });
      expect(res.status).toBe(400);
      // An unknown field is only found in a body that was decoded as JSON.
      expectCantonError(JSON.parse(res.text), 'INVALID_ARGUMENT', /Unexpected fields: colour/);
    }
  });

  it('answers malformed JSON with 400 text/plain', async () => {
    const res = await post(server, '/v2/state/active-contracts', '{"activeAtOffset": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^Invalid value for: body \(/);
  });

  it('answers a missing body with 400 text/plain', async () => {
    const res = await send(server, 'POST', '/v2/updates');
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid value for: body (missing request body)');
  });

  it('answers a missing required field with 400 text/plain naming it', async () => {
    const res = await post(server, '/v2/updates', {});
    expect(res.status).toBe(400);
    expect(res.text).toContain("must have required property 'beginExclusive'");
  });

  it('answers a wrong type with 400 text/plain naming where', async () => {
    const res = await post(server, '/v2/updates', { beginExclusive: 'zero' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/Invalid value for: body \(.*integer.*\/beginExclusive/);
  });

  it('answers an unknown top-level field with 400 INVALID_ARGUMENT naming it', async () => {
    const res = await post(server, '/v2/updates', { beginExclusive: 0, colour: 'blue' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectCantonError(res.body, 'INVALID_ARGUMENT', /Unexpected fields: colour$/);
  });

  it('finds an unknown field inside a variant (not mistaken for a bad variant)', async () => {
    const body = {
      commands: [{ CreateCommand: { templateId: '#pkg:M:T', createArguments: {}, colour: 1 } }],
      commandId: 'c1',
      actAs: ['alice::1220aa'],
    };
    const res = await post(server, '/v2/commands/submit-and-wait', body);
    expect(res.status).toBe(400);
    expectCantonError(res.body, 'INVALID_ARGUMENT', /Unexpected fields: colour$/);
  });

  it('answers a body nested deeper than any ledger value with 400 text/plain', async () => {
    const deep = '['.repeat(1000) + ']'.repeat(1000);
    const res = await post(server, '/v2/updates', `{"beginExclusive":0,"filter":${deep}}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/nested deeper/);
  });

  it('answers a number too large for int64 as a decoding failure', async () => {
    const res = await post(server, '/v2/state/active-contracts', '{"activeAtOffset": 1e400}');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('sizes', () => {
  it('answers a body over the limit with 413', async () => {
    const res = await post(server, '/v2/updates', { beginExclusive: 0, pad: 'x'.repeat(LIMIT) });
    expect(res.status).toBe(413);
    expectCantonError(res.body, 'REQUEST_TOO_LARGE', new RegExp(`${LIMIT} bytes`));
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const res = await rawRequest(server.url, 'POST', '/v2/updates', {
      headers: { 'content-length': String(LIMIT + 1) },
      body: 'x'.repeat(LIMIT + 1),
    });
    expect(res.status).toBe(413);
  });

  it('answers an invalid limit query parameter with 400 text/plain', async () => {
    const res = await post(server, '/v2/updates?limit=-5', { beginExclusive: 0, endInclusive: 0 });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid value for: query parameter limit');
  });
});

describe('clients that leave', () => {
  it('an upload abandoned halfway is dropped quietly and the server keeps serving', async () => {
    const { request } = await import('node:http');
    const target = new URL(server.url);
    await new Promise<void>((resolve) => {
      const req = request({ host: target.hostname, port: target.port, method: 'POST', path: '/v2/updates', headers: { 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"beginExclusive":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await get(server, '/v2/version')).status).toBe(200);
    expect(server.errors).toEqual([]);
  });
});

describe('no input produces a 500 or a stack trace', () => {
  const bodies = ['null', '[]', '"text"', '42', 'true', '{"__proto__": {"x": 1}}', '\u0000', '{"a":"\\ud800"}', '\uFEFF{}'];
  for (const path of ['/v2/updates', '/v2/commands/submit-and-wait', '/v2/users', '/v2/parties', '/v2/state/active-contracts']) {
    it(`POST ${path} with odd bodies`, async () => {
      for (const body of bodies) {
        const res = await post(server, path, body);
        expect(res.status, body).toBeLessThan(500);
        expectNoStackTrace(res.text);
      }
      expect(server.errors).toEqual([]);
    });
  }
});
