import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { openStream } from '../../conformance/src/target/websocket.js';

/**
 * A participant with a short offset-checkpoint interval sends checkpoints on a stream that has
 * nothing more for it. A read that waits for the stream to go quiet must end after its idle time
 * without data, whatever checkpoints keep coming, and not run on to its overall timeout.
 */
let server: WebSocketServer;
let url: string;

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'daml.ws.auth' });
  server.on('connection', (ws) => {
    ws.once('message', () => {
      ws.send(JSON.stringify({ update: { Transaction: { value: { updateId: 'u1', offset: 5, events: [] } } } }));
      let offset = 5;
      // Checkpoints on every event-loop turn after the data, until the client goes.
      const tick = () => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(JSON.stringify({ update: { OffsetCheckpoint: { value: { offset: ++offset, synchronizerTimes: [] } } } }));
        setImmediate(tick);
      };
      setImmediate(tick);
    });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v2/updates`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a WebSocket read of a stream that sends only checkpoints after its data', () => {
  it('ends idle after its idle time, with the checkpoints it got, not at its timeout', async () => {
    const r = await openStream(url, { request: {}, idleMs: 300, timeoutMs: 20_000, token: undefined, showToken: false, maxBodyBytes: 1 << 20, maxMessages: 10_000_000 });
    expect(r.ended).toBe('idle');
    expect(r.messages.length).toBeGreaterThan(1);
    expect(r.messages[0]).toMatchObject({ update: { Transaction: {} } });
  });
});
