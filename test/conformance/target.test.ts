import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTarget, joinUrl } from '../../conformance/src/target/createTarget.js';
import { curlOf, shellQuote } from '../../conformance/src/target/curl.js';
import { jsonOf, type Exchange } from '../../conformance/src/target/exchange.js';
import { staticToken, tokenCommand, tokenFile, TokenSourceError } from '../../conformance/src/target/tokenProvider.js';
import { fakeServer, json, type FakeServer } from './helpers/fakeServer.js';

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
const start = async (...args: Parameters<typeof fakeServer>) => {
  const s = await fakeServer(...args);
  servers.push(s);
  return s;
};
const urls = (u: string) => ({ registry: u, ledger: u, scan: u });

describe('target client', () => {
  it('records every exchange with status, headers, body, timing and a replayable curl line', async () => {
    const s = await start((req, res) => json(res, 200, { echo: req.body, path: req.url }));
    const seen: Exchange[] = [];
    const http = createTarget({ baseUrls: urls(`${s.url}/api/`), timeoutMs: 2000, operationOf: () => 'op' }).bind('ledger.x.y', (e) => seen.push(e));
    const e = await http.request('ledger', { method: 'POST', path: '/v2/state/active-contracts', query: { limit: 5 }, json: { a: "it's" } });
    expect(seen).toEqual([e]);
    expect(e.request.url).toBe(`${s.url}/api/v2/state/active-contracts?limit=5`);
    expect(e.response).toMatchObject({ status: 200, contentType: 'application/json', truncated: false });
    expect(jsonOf(e)).toEqual({ ok: true, value: { echo: '{"a":"it\'s"}', path: '/api/v2/state/active-contracts?limit=5' } });
    expect(e).toMatchObject({ checkId: 'ledger.x.y', operationId: 'op', path: '/v2/state/active-contracts', group: 'ledger' });
    expect(e.curl).toBe(`curl -sS -i -X POST '${s.url}/api/v2/state/active-contracts?limit=5' -H 'content-type: application/json' --data-binary '{"a":"it'\\''s"}'`);
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('sends no Content-Type when asked, and raw bodies as they are', async () => {
    const s = await start((_req, res) => json(res, 200, {}));
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 2000 }).bind('c', () => undefined);
    await http.request('ledger', { method: 'POST', path: '/x', json: { a: 1 }, contentType: null });
    await http.request('ledger', { method: 'POST', path: '/x', body: '{"a":' });
    expect(s.requests[0]!.headers['content-type']).toBeUndefined();
    expect(s.requests[1]!.body).toBe('{"a":');
  });

  it('keeps tokens out of evidence (curl uses $TOKEN) unless a bogus token is shown on purpose', async () => {
    const s = await start((_req, res) => json(res, 200, {}));
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 2000, tokens: staticToken('secret-token') }).bind('c', () => undefined);
    const e = await http.request('ledger', { method: 'GET', path: '/v2/version' });
    expect(s.requests[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(JSON.stringify(e)).not.toContain('secret-token');
    expect(e.curl).toContain('-H "authorization: Bearer $TOKEN"');
    const bogus = await http.request('ledger', { method: 'GET', path: '/v2/version', auth: { token: 'not-a-jwt', show: true } });
    expect(bogus.request.headers.authorization).toBe('Bearer not-a-jwt');
    await http.request('ledger', { method: 'GET', path: '/v2/version', auth: 'none' });
    expect(s.requests[2]!.headers.authorization).toBeUndefined();
  });

  it('refreshes the token once after a 401 and retries (token file rotated by a sidecar)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-token-'));
    const file = join(dir, 'token');
    writeFileSync(file, 'old\n');
    const s = await start((req, res) => (req.headers.authorization === 'Bearer new' ? json(res, 200, { ok: true }) : json(res, 401, { code: 'UNAUTHENTICATED' })));
    const seen: Exchange[] = [];
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 2000, tokens: tokenFile(file) }).bind('c', (e) => seen.push(e));
    expect((await http.request('ledger', { method: 'GET', path: '/a' })).response!.status).toBe(401);
    writeFileSync(file, 'new\n');
    const e = await http.request('ledger', { method: 'GET', path: '/a' });
    expect(e.response!.status).toBe(200);
    expect(seen.map((x) => x.response!.status)).toEqual([401, 401, 200]);
  });

  it('runs a token command at start and again after a 401', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-tokcmd-'));
    const counter = join(dir, 'n');
    writeFileSync(counter, '0');
    const cmd = `n=$(cat ${counter}); n=$((n+1)); echo $n > ${counter}; echo token-$n`;
    const s = await start((req, res) => (req.headers.authorization === 'Bearer token-2' ? json(res, 200, {}) : json(res, 401, {})));
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 2000, tokens: tokenCommand(cmd) }).bind('c', () => undefined);
    expect((await http.request('ledger', { method: 'GET', path: '/a' })).response!.status).toBe(200);
    expect(s.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    await expect(tokenCommand('exit 3').token()).rejects.toThrow(TokenSourceError);
    await expect(tokenFile(join(dir, 'missing')).token()).rejects.toThrow(/cannot read token file/);
    expect(() => staticToken('  ')).toThrow(TokenSourceError);
  });

  it('a hanging target ends in a timeout error, not a hang', async () => {
    const s = await start(() => undefined);
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 200 }).bind('c', () => undefined);
    // A hang would time the test out; the timeout error is what ends it.
    const e = await http.request('ledger', { method: 'GET', path: '/v2/version' });
    expect(e.response).toBeUndefined();
    expect(e.error).toMatchObject({ kind: 'timeout' });
  });

  it('a body that never ends times out too; a huge body is cut at the limit and marked truncated', async () => {
    const s = await start((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/slow') res.write('{"a":');
      else {
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 64; i++) res.write(chunk);
        res.end();
      }
    });
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 300, maxBodyBytes: 100_000 }).bind('c', () => undefined);
    expect((await http.request('ledger', { method: 'GET', path: '/slow' })).error?.kind).toBe('timeout');
    // Reading 4 MiB must not race the short timeout on a busy machine: the cut is about size.
    const patient = createTarget({ baseUrls: urls(s.url), timeoutMs: 25_000, maxBodyBytes: 100_000 }).bind('c', () => undefined);
    const big = await patient.request('ledger', { method: 'GET', path: '/big' });
    expect(big.response).toMatchObject({ truncated: true, size: 100_000 });
    expect(jsonOf(big).ok).toBe(false);
  });

  it('classifies resets, refused connections and truncated bodies', async () => {
    const s = await start((req, res) => {
      if (req.url === '/reset') req.socket.destroy();
      else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => req.socket.destroy(), 20);
      }
    });
    const http = createTarget({ baseUrls: urls(s.url), timeoutMs: 2000 }).bind('c', () => undefined);
    expect((await http.request('ledger', { method: 'GET', path: '/reset' })).error?.kind).toMatch(/reset|other/);
    expect((await http.request('ledger', { method: 'GET', path: '/cut' })).error?.kind).toMatch(/aborted-body|reset/);
    const closed = await start(() => undefined);
    const url = closed.url;
    await closed.close();
    servers = servers.filter((x) => x !== closed);
    const e = await createTarget({ baseUrls: urls(url), timeoutMs: 2000 }).bind('c', () => undefined).request('ledger', { method: 'GET', path: '/' });
    expect(e.error?.kind).toBe('refused');
  });
});

describe('helpers', () => {
  it('joins base URLs and paths without losing or doubling slashes', () => {
    expect(joinUrl('http://h/api/', '/v2/x')).toBe('http://h/api/v2/x');
    expect(joinUrl('http://h', 'v2/x', { a: 1, b: 'x y' })).toBe('http://h/v2/x?a=1&b=x+y');
    expect(joinUrl('http://h', '//v2/version')).toBe('http://h//v2/version');
  });

  it('quotes anything for the shell', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    expect(curlOf({ method: 'GET', url: "http://h/x'y", headers: {} })).toBe(`curl -sS -i -X GET 'http://h/x'\\''y'`);
  });
});
