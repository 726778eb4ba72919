import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../http/support/startServer.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ http: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
});
afterAll(() => server.close());

/** Writes `text` on a raw connection, keeps it open, and resolves with what came back once the server closed it. */
function slowClient(text: string): Promise<{ answer: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('utf8');
    });
    socket.on('close', () => resolve({ answer }));
    socket.on('error', () => undefined);
    // Far beyond the server's timeouts, inside the test's own: only a server that never cuts ends here.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept a slow client for 25 s; it answered ${JSON.stringify(answer)}`));
    }, 25_000);
  });
}

describe('timeouts against slow clients', () => {
  it('closes a connection whose headers do not arrive in time, with 408', async () => {
    // The 408 is the server's timeout speaking; how soon it came depends on the machine's load.
    const { answer } = await slowClient('POST /v2/parties HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose body does not arrive in time, with 408', async () => {
    const { answer } = await slowClient('POST /v2/parties HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"partyIdHint"');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers a client that sends its request in time (control)', async () => {
    const res = await fetch(`${server.url}/v2/version`);
    expect(res.status).toBe(200);
  });

  it('does not cut a response that takes longer than the request timeout (a stream)', async () => {
    const body = JSON.stringify({ beginExclusive: 0, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } } });
    const t0 = Date.now();
    const res = await fetch(`${server.url}/v2/updates?stream_idle_timeout_ms=1500`, { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
    expect(Date.now() - t0).toBeGreaterThan(1000);
  });
});
