import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { createProgress } from '../../conformance/src/runner/progress.js';
import { definition, result } from './helpers/fakeReport.js';

/** A stricter "other version" of the version operation: it requires a field ours does not. */
const STRICT = `openapi: 3.1.0
info: { title: stricter ledger, version: 9.9.9 }
paths:
  /v2/version:
    get:
      operationId: getV2Version
      responses:
        '200':
          description: version
          content:
            application/json:
              schema:
                type: object
                required: [version, features, buildHash]
                properties: { version: { type: string }, buildHash: { type: string } }
`;

async function quietRun(args: string[]): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-spec-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await run([...args, '--report-dir', dir, '--quiet', '--only', 'ledger.version.shape,ledger.schema.get-v2-version,ledger.schema.get-v2-state-ledger-end,ledger.ledger-end.shape']);
  } finally {
    log.mockRestore();
  }
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('--spec: validate against another version of the specs', () => {
  it('responses are judged by the given document where it describes the path, by ours elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-spec-doc-'));
    writeFileSync(join(dir, 'strict.yaml'), STRICT);
    const ours = await quietRun([]);
    const theirs = await quietRun(['--spec', join(dir, 'strict.yaml')]);
    const status = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;
    expect(status(ours, 'ledger.schema.get-v2-version').status).toBe('pass');
    expect(status(theirs, 'ledger.schema.get-v2-version').status).toBe('fail');
    expect(status(theirs, 'ledger.schema.get-v2-version').message).toMatch(/buildHash/);
    // Not described by the given document: still judged by ours.
    expect(status(theirs, 'ledger.schema.get-v2-state-ledger-end').status).toBe('pass');
  }, 60_000);
});

let served: Server | undefined;
afterEach(async () => {
  await new Promise((done) => (served ? served.close(done) : done(undefined)));
  served = undefined;
});

/** A documentation server: /docs/openapi (YAML), /openapi.json (JSON), anything else 404. */
async function docsServer(): Promise<string> {
  served = createServer((req, res) => {
    if (req.url === '/docs/openapi') return void res.writeHead(200, { 'content-type': 'application/yaml' }).end(STRICT);
    if (req.url === '/openapi.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(parseYaml(STRICT)));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such document');
  });
  await new Promise<void>((done) => served!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(served.address() as AddressInfo).port}`;
}

describe('--spec URL: the document a participant serves, fetched', () => {
  it('YAML or JSON over http judges responses as the same document from a file does', async () => {
    const base = await docsServer();
    for (const url of [`${base}/docs/openapi`, `${base}/openapi.json`]) {
      const r = await quietRun(['--spec', url]);
      const check = r.checks.find((c) => c.id === 'ledger.schema.get-v2-version')!;
      expect(check.status, url).toBe('fail');
      expect(check.message).toMatch(/buildHash/);
      expect(r.checks.find((c) => c.id === 'ledger.schema.get-v2-state-ledger-end')!.status).toBe('pass');
    }
  }, 60_000);

  it('a URL that cannot be fetched is a configuration error (exit 2) naming the URL and why', async () => {
    const base = await docsServer();
    const dir = mkdtempSync(join(tmpdir(), 'cc-spec-bad-'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(run(['--spec', `${base}/nope`, '--report-dir', dir, '--quiet'])).rejects.toThrow(`${base}/nope: cannot fetch: HTTP 404: no such document`);
      const closed = createServer();
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((done) => closed.close(done));
      await expect(run(['--spec', `http://127.0.0.1:${port}/docs/openapi`, '--report-dir', dir, '--quiet'])).rejects.toThrow(`http://127.0.0.1:${port}/docs/openapi: cannot fetch: connect ECONNREFUSED 127.0.0.1:${port}`);
    } finally {
      error.mockRestore();
    }
    expect((JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report).stopped).toMatchObject({ reason: 'configuration-error' });
  });
});

describe('progress', () => {
  it('on a terminal: one line rewritten in place, failures printed as they happen', () => {
    let out = '';
    const stream = { isTTY: true, columns: 80, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const ci = process.env.CI;
    delete process.env.CI;
    try {
      const p = createProgress(2, stream);
      p.start(definition('ledger.a.one'));
      p.finish(result('ledger.a.one', 'fail', { message: 'broken here' }));
      p.start(definition('ledger.a.two'));
      p.finish(result('ledger.a.two', 'pass'));
      p.done();
    } finally {
      if (ci !== undefined) process.env.CI = ci;
    }
    expect(out).toContain('[0/2] 2 left, 0 failed  ledger.a.one');
    expect(out).toContain('FAIL ledger.a.one: broken here\n');
    expect(out).toContain('[2/2] 0 left, 1 failed');
  });

  it('in CI or when piped: a line when a group is done and every 5 s (the ticker injected), none when quiet', () => {
    let out = '';
    const stream = { isTTY: false, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const ticks: (() => void)[] = [];
    let stopped = false;
    const every = (ms: number, tick: () => void) => {
      expect(ms).toBe(5000);
      ticks.push(tick);
      return () => void (stopped = true);
    };
    const checks = [definition('registry.a.one', { group: 'registry' }), definition('ledger.a.one'), definition('ledger.a.two')];
    const p = createProgress(3, stream, 'auto', { checks, every });
    p.start(checks[0]!);
    ticks[0]!();
    expect(out).toBe('canton-conformance: [0/3] 0 failed, running registry.a.one\n');
    p.finish(result('registry.a.one', 'fail'));
    expect(out).toContain('canton-conformance: [1/3] 1 failed, registry done (1 failed)\n');
    out = '';
    ticks[0]!(); // a group line was printed in this interval: no second line for it
    expect(out).toBe('');
    p.start(checks[1]!);
    p.finish(result('ledger.a.one', 'pass'));
    ticks[0]!();
    expect(out).toBe('canton-conformance: [2/3] 1 failed, running (between checks)\n');
    p.start(checks[2]!);
    p.finish(result('ledger.a.two', 'error'));
    expect(out).toContain('canton-conformance: [3/3] 2 failed, ledger done (1 failed)\n');
    p.done();
    expect(stopped).toBe(true);

    let quiet = '';
    const q = createProgress(1, { isTTY: false, write: (s: string) => ((quiet += s), true) } as unknown as NodeJS.WriteStream, 'quiet', { checks: [checks[1]!], every });
    q.start(checks[1]!);
    q.finish(result('ledger.a.one', 'fail'));
    q.done();
    expect(quiet).toBe('');
  });
});
