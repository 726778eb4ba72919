import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';
import { main } from '../../conformance/src/cli/main.js';
import { DEFAULT_MOCK_PORT, parseMockArgs, run, startMock, type RunningMock } from '../../conformance/src/cli/mock.js';
import { ourSpecFile } from '../../conformance/src/schema/index.js';

type Json = Record<string, unknown>;
/** The first example of an operation's 200 response, as written in our spec. */
function example200(group: 'registry' | 'ledger' | 'scan', path: string, method: string): unknown {
  const doc = parseYaml(readFileSync(ourSpecFile(group), 'utf8')) as Json;
  const op = ((doc['paths'] as Json)[path] as Json)[method] as Json;
  const media = ((((op['responses'] as Json)['200'] as Json)['content'] as Json)['application/json'] as Json)['examples'] as Json;
  return (Object.values(media)[0] as Json)['value'];
}

describe('canton-conformance mock: arguments', () => {
  const errors: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    errors.length = 0;
  });
  const capture = () => vi.spyOn(console, 'error').mockImplementation((m: unknown) => void errors.push(String(m)));

  it('an unknown group is a usage error (exit 2) that names the groups', async () => {
    capture();
    expect(await main(['mock', '--group', 'wallet'])).toBe(2);
    expect(errors.join('\n')).toContain("unknown group 'wallet': expected one of registry, ledger, scan");
    errors.length = 0;
    expect(await main(['mock', '--group', 'regsitry'])).toBe(2);
    expect(errors.join('\n')).toContain("unknown group 'regsitry' (did you mean 'registry'?)");
  });

  it('a missing group, a bad port or an unknown flag is a usage error (exit 2)', async () => {
    capture();
    expect(await main(['mock'])).toBe(2);
    expect(await main(['mock', '--group', 'ledger', '--port', '70000'])).toBe(2);
    expect(await main(['mock', '--group', 'ledger', '--port', 'x'])).toBe(2);
    expect(await main(['mock', '--group', 'ledger', '--seed', '-1'])).toBe(2);
    expect(await main(['mock', '--group', 'ledger', '--frobnicate'])).toBe(2);
    expect(errors).toHaveLength(5);
  });

  it('defaults to port 4010 on 127.0.0.1 with static examples', () => {
    expect(parseMockArgs(['--group', 'scan'])).toEqual({ group: 'scan', port: DEFAULT_MOCK_PORT, host: '127.0.0.1', dynamic: false });
    expect(parseMockArgs(['--group', 'ledger', '--port', '0', '--dynamic', '--seed', '7'])).toEqual({ group: 'ledger', port: 0, host: '127.0.0.1', dynamic: true, seed: 7 });
  });

  it('a port in use is a usage error, not a crash', async () => {
    const { createServer } = await import('node:net');
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    capture();
    try {
      expect(await main(['mock', '--group', 'scan', '--port', String(port)])).toBe(2);
      expect(errors.join('\n')).toContain('EADDRINUSE');
    } finally {
      busy.close();
    }
  });
});

describe('canton-conformance mock: Prism on our spec', () => {
  let mock: RunningMock | undefined;
  afterEach(async () => {
    await mock?.stop();
    mock = undefined;
  });

  it('serves the documented example of the ledger spec, and enforces its security scheme', async () => {
    mock = await startMock({ group: 'ledger', port: 0, host: '127.0.0.1', dynamic: false }, 'ignore');
    const ok = await fetch(`${mock.url}/v2/version`, { headers: { authorization: 'Bearer x' } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(example200('ledger', '/v2/version', 'get'));
    const anonymous = await fetch(`${mock.url}/v2/version`);
    expect(anonymous.status).toBe(401);
  });

  it('`run` prints the URL, serves, and ends with exit 0 when signalled', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((m: unknown) => void lines.push(String(m)));
    const exit = run(['--group', 'scan', '--port', '0'], 'ignore');
    // The URL line appears once Prism listens.
    while (!lines.some((l) => l.includes('http://'))) await new Promise((r) => setTimeout(r, 100));
    const url = /(http:\/\/\S+)/.exec(lines.join('\n'))?.[1] as string;
    expect(lines.join('\n')).toContain('Prism mock of the scan spec (specs/scan.openapi.yaml)');
    const r = await fetch(`${url}/v0/internal/reward-accounting-process/rounds/earliest-available`);
    expect(await r.json()).toEqual(example200('scan', '/v0/internal/reward-accounting-process/rounds/earliest-available', 'get'));
    process.emit('SIGHUP', 'SIGHUP');
    expect(await exit).toBe(0);
    vi.restoreAllMocks();
  });
});
