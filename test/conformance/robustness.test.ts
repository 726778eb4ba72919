import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { validateReport } from '../../conformance/src/report/validateReport.js';
import { fakeServer, type FakeServer } from './helpers/fakeServer.js';

/**
 * Broken targets must not break the suite: the run ends within its timeouts, the affected checks
 * are `fail` or `error` with evidence, the report is complete and valid, and the exit code is 1
 * (3 when nothing answers at all).
 */
let target: FakeServer | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

type Behaviour = (res: ServerResponse & { req: { socket: Socket } }) => void;

async function certify(behaviour: Behaviour, timeoutMs = 300): Promise<{ code: number; report: Report; seconds: number }> {
  target = await fakeServer((req, res) => {
    // The reachability probe (GET /) gets an answer; everything else gets the broken behaviour.
    if (req.url === '/' && req.method === 'GET') return void res.writeHead(404).end();
    behaviour(res as never);
  });
  const dir = mkdtempSync(join(tmpdir(), 'cc-robust-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const t = performance.now();
  try {
    const code = await run(['--target', target.url, '--report-dir', dir, '--timeout', String(timeoutMs), '--runs', '5', '--concurrency', '4', '--quiet', '--seed', '1']);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report, seconds: (performance.now() - t) / 1000 };
  } finally {
    log.mockRestore();
  }
}

/** Checks that only need an HTTP 200, whatever the body: a broken body cannot fail them. */
const STATUS_ONLY = new Set(['ledger.health.livez-readyz', 'ledger.health.readyz']);

function expectHandled(r: { code: number; report: Report; seconds: number }, statuses: readonly string[]): void {
  expect(r.code).toBe(1);
  expect(validateReport(r.report)).toEqual([]);
  const ran = r.report.checks.filter((c) => c.status !== 'skip');
  expect(ran.length).toBeGreaterThan(10);
  for (const c of ran.filter((x) => !STATUS_ONLY.has(x.id))) {
    expect(statuses, `${c.id}: ${c.status} ${c.message}`).toContain(c.status);
    expect(c.message, c.id).toBeTruthy();
    expect(c.evidence?.curl, c.id).toMatch(/^curl |^# WebSocket/);
  }
  expect(r.report.checks.some((c) => c.message?.startsWith('suite error'))).toBe(false);
  // Ending at all is the point (a hang fails by the test's timeout); how fast is the machine's.
}

describe('robustness against broken targets', () => {
  it('a target that hangs: every check ends as error (timeout) with its request as evidence', async () => {
    const r = await certify(() => undefined);
    expectHandled(r, ['error']);
    expect(r.report.checks.find((c) => c.id === 'ledger.version.shape')!.evidence!.error!.kind).toBe('timeout');
    expect(r.report.warnings.join(' ')).toMatch(/got no complete response/);
    // Without --profile the run says why so many checks skipped, and what to pass.
    expect(r.report.warnings[0]).toMatch(/check\(s\) skipped because no --profile was given.*--profile participant, registry or scan-readonly/);
  }, 240_000);

  it('a target that resets connections', async () => {
    const r = await certify((res) => res.req.socket.destroy());
    expectHandled(r, ['error']);
  }, 240_000);

  it('a target that answers non-JSON (an HTML error page) everywhere', async () => {
    const r = await certify((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>'));
    expectHandled(r, ['fail', 'warn']);
    expect(r.report.checks.find((c) => c.id === 'ledger.version.shape')!.message).toMatch(/not JSON/);
    expect(r.report.checks.find((c) => c.id === 'ledger.schema.get-v2-version')!.message).toMatch(/content type 'text\/html' is not declared/);
  }, 240_000);

  it('a target that sends a huge body', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const r = await certify((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      let n = 0;
      const pump = () => {
        while (n++ < 64) if (!res.write(chunk)) return void res.once('drain', pump);
        res.end(']');
      };
      res.on('error', () => undefined);
      pump();
    }, 5000);
    expectHandled(r, ['fail', 'warn', 'error']);
    expect(r.report.checks.find((c) => c.id === 'ledger.version.shape')!.message).toMatch(/larger than the suite reads/);
  }, 240_000);

  it('a target that cuts bodies short', async () => {
    const r = await certify((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"version": "3.');
      setTimeout(() => res.req.socket.destroy(), 10);
    });
    expectHandled(r, ['error']);
    expect(r.report.checks.find((c) => c.id === 'ledger.version.shape')!.evidence!.error!.kind).toMatch(/aborted-body|reset/);
  }, 240_000);

  it('an unreachable target is exit 3, before any check', async () => {
    const closed = await fakeServer(() => undefined);
    const url = closed.url;
    await closed.close();
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dir = mkdtempSync(join(tmpdir(), 'cc-unreach-'));
    const code = await run(['--target', url, '--report-dir', dir, '--quiet']);
    const said = err.mock.calls.map((c) => c.join(' ')).join('\n');
    err.mockRestore();
    expect(code).toBe(3);
    expect(said).toMatch(/target unreachable: .*connection refused/);
  });

  /** `run` on `url` with a short timeout: its exit code and what it said on stderr. */
  async function runOn(url: string): Promise<{ code: number; said: string }> {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const code = await run(['--target', url, '--report-dir', mkdtempSync(join(tmpdir(), 'cc-unreach-')), '--timeout', '300', '--quiet']);
      return { code, said: err.mock.calls.map((c) => c.join(' ')).join('\n') };
    } finally {
      err.mockRestore();
      log.mockRestore();
    }
  }

  it('a target that accepts connections and answers nothing, not even GET /, is exit 3 before any check (not one timeout per check)', async () => {
    target = await fakeServer(() => undefined);
    const { code, said } = await runOn(target.url);
    expect(code).toBe(3);
    expect(said).toMatch(/target unreachable: .*accepted the connection but sent no HTTP answer to GET .* within 300 ms/);
  });

  it('https:// given for a target served over plain http is exit 3, saying so once', async () => {
    target = await fakeServer((_req, res) => void res.writeHead(404).end());
    const { code, said } = await runOn(target.url.replace('http://', 'https://'));
    expect(code).toBe(3);
    expect(said).toMatch(/target unreachable: .*TLS handshake failed \(ERR_SSL_WRONG_VERSION_NUMBER\): the target does not speak TLS on this port: is it http:\/\/, not https:\/\/\?/);
  });
});
