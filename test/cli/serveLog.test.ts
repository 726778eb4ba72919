import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../conformance/src/cli/serve.js';
import { mintToken } from '../../conformance/src/cli/token.js';
import { buildDalf, buildDar } from '../../conformance/src/generators/dar.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { requestLogLine } from '../../reference-server/src/http/requestLog.js';
import { startReferenceServer, type StartedServer } from '../../reference-server/src/startReferenceServer.js';

/**
 * What `serve` tells its operator: the start-up line (URL, auth mode, DARs), `--ready-file`, and
 * `--log-requests` (one line per request and WebSocket upgrade, never a token).
 */
const bin = new URL('../../bin/canton-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cc-serve-log-'));
const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

describe('serve --log-requests', () => {
  const lines: string[] = [];
  const waiting: (() => void)[] = [];
  let server: StartedServer;
  let token: string;
  beforeAll(async () => {
    const args = parseServeArgs(['--auth', 'es256', '--auth-test-key', '--port', '0', '--log-requests'], {});
    if (args === 'help') throw new Error('help');
    expect(args.logRequests).toBe(true);
    server = await startReferenceServer({ ...args, log: silentLogger, requestLog: (line) => (lines.push(line), waiting.splice(0).forEach((w) => w())) });
    token = await mintToken({ user: 'alice', algorithm: 'es256' });
  });
  afterAll(() => server.close());

  /** The next line logged (lines come once the response has ended). */
  async function logged(act: () => Promise<unknown>): Promise<string> {
    const before = lines.length;
    await act();
    while (lines.length === before) await new Promise<void>((r) => waiting.push(r));
    expect(lines).toHaveLength(before + 1);
    return lines[before]!;
  }

  it('an authenticated request: time, method, path, status, duration and the user', async () => {
    const line = await logged(() => fetch(`${server.url}/v2/version`, { headers: { authorization: `Bearer ${token}` } }));
    expect(line).toMatch(new RegExp(`^${ISO} GET /v2/version 200 \\d+ms alice$`));
  });

  it('the path without its query; a bad or missing token is the refusal with user "-", and no token is ever written', async () => {
    const bad = await logged(() => fetch(`${server.url}/v2/parties?filter-party=${token}`, { headers: { authorization: `Bearer ${token}x` } }));
    expect(bad).toMatch(new RegExp(`^${ISO} GET /v2/parties 401 \\d+ms -$`));
    const none = await logged(() => fetch(`${server.url}/v2/users`));
    expect(none).toMatch(/ GET \/v2\/users 401 \d+ms -$/);
    for (const l of lines) expect(l).not.toContain(token.slice(0, 20));
  });

  it('WebSocket upgrades: 101 with the user of the jwt.token subprotocol, or the refusal of a path without a stream', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v2/updates`, ['daml.ws.auth', `jwt.token.${token}`]);
    const line = await logged(() => new Promise((r, fail) => (ws.once('open', r), ws.once('error', fail))));
    ws.close();
    expect(line).toMatch(new RegExp(`^${ISO} GET /v2/updates 101 \\d+ms alice$`));
    const refused = new WebSocket(`${server.url.replace('http', 'ws')}/v2/nothing-here`);
    const nope = await logged(() => new Promise((r) => refused.once('error', r)));
    expect(nope).toMatch(/ GET \/v2\/nothing-here 404 \d+ms -$/);
    for (const l of lines) expect(l).not.toContain(token.slice(0, 20));
  });

  it('the line format, from fixed values', () => {
    expect(requestLogLine({ atMs: Date.UTC(2026, 10, 29, 3, 40, 1, 234), method: 'GET', path: '/v2/version', status: 200, durationMs: 2.6, user: undefined })).toBe(
      '2026-11-29T03:40:01.234Z GET /v2/version 200 3ms -',
    );
  });
});

describe('serve: the start-up line and --ready-file', () => {
  /** Runs the built CLI until its first stdout line; then SIGTERM, and what it left. */
  function serve(...args: string[]): Promise<{ line: string; ready: string | undefined; code: number | null; stderr: string; readyAfter: boolean }> {
    const readyFile = join(dir, `ready-${Math.random().toString(36).slice(2)}`);
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--ready-file', readyFile, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => {
      let line: string | undefined;
      let ready: string | undefined;
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (line !== undefined || !out.includes('\n')) return;
        line = out.split('\n')[0]!;
        // The file is written once the line is out; the server then serves until signalled.
        const poll = () => {
          if (existsSync(readyFile)) {
            ready = readFileSync(readyFile, 'utf8');
            child.kill('SIGTERM');
          } else setImmediate(poll);
        };
        poll();
      });
      child.once('exit', (code) => resolve({ line: line ?? '', ready, code, stderr, readyAfter: existsSync(readyFile) }));
    });
  }

  it('without auth or DARs: today\'s text, then "(auth: none; DARs: none)"; the ready file holds the URL and is gone after SIGTERM', async () => {
    const r = await serve();
    const url = /^canton-conformance reference server listening on (http:\/\/127\.0\.0\.1:\d+) \(auth: none; DARs: none\)$/.exec(r.line)?.[1];
    expect(url, r.line + r.stderr).toBeDefined();
    expect(r.ready).toBe(`${url}\n`);
    expect(r).toMatchObject({ code: 0, readyAfter: false });
  }, 60_000);

  it('names the auth mode with its key source (never a secret) and each DAR loaded', async () => {
    const dar = join(dir, 'my-app-1.0.0.dar');
    writeFileSync(dar, buildDar({ main: buildDalf({ name: 'cc-start-line', version: '1.0.0', salt: 'start-line' }) }));
    const es = await serve('--auth', 'es256', '--auth-test-key', '--audience', 'https://example.test/aud', '--dar', dar);
    expect(es.line).toMatch(new RegExp(`listening on http://\\S+ \\(auth: es256 \\(the TEST-ONLY key, audience https://example.test/aud\\); DARs: ${dar.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
    const hs = await serve('--auth', 'hs256', '--auth-secret', 'not-for-the-log');
    expect(hs.line).toMatch(/listening on http:\/\/\S+ \(auth: hs256 \(a shared secret\); DARs: none\)$/);
    expect(hs.line + hs.stderr).not.toContain('not-for-the-log');
  }, 60_000);

  it('a --host that does not resolve is exit 2 saying so, for serve and for mock, not a stack trace', async () => {
    // The name service answers "not found" for this host (made so before the CLI starts: no DNS is asked).
    const preload = join(dir, 'no-such-host.cjs');
    writeFileSync(preload, `const dns = require('node:dns');
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  const callback = rest[rest.length - 1];
  if (host !== 'no-such-host.invalid') return lookup.call(this, host, ...rest);
  process.nextTick(() => callback(Object.assign(new Error('getaddrinfo ENOTFOUND ' + host), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host })));
};
`);
    for (const command of [['serve', '--port', '0'], ['mock', '--group', 'registry', '--port', '0']]) {
      const child = spawn(process.execPath, ['--require', preload, bin, ...command, '--host', 'no-such-host.invalid'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise((r) => child.once('exit', r));
      expect(code, command[0]).toBe(2);
      expect(stderr).toContain(`canton-conformance ${command[0]}: cannot listen on no-such-host.invalid:0: the host name does not resolve (ENOTFOUND)`);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it('a ready file that cannot be written stops the server with exit 2, naming the file', async () => {
    // A folder that does not exist, and one under a plain file (where even removing what was
    // written aside fails): both stop, and nothing is left listening to keep the process alive.
    const plain = join(dir, 'plain-file');
    writeFileSync(plain, '');
    for (const readyFile of [join(dir, 'no-such-dir', 'ready'), join(plain, 'ready')]) {
      const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--ready-file', readyFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise((r) => child.once('exit', r));
      expect(code, readyFile).toBe(2);
      expect(stderr).toContain(`--ready-file ${readyFile} cannot be written`);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});
