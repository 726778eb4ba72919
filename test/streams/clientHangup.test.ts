import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ASSET_TEMPLATE, createLedger } from '../../reference-server/src/ledger/index.js';
import { startServer, type TestServer } from '../http/support/startServer.js';

let server: TestServer;
let alice: string;
let end: number;
beforeAll(async () => {
  const ledger = createLedger({ listMaxElements: 100_000 });
  const r = ledger.allocateParty({ partyIdHint: 'alice' });
  if (!r.ok) throw new Error(r.error.cause);
  alice = r.value.partyDetails.party;
  const create = { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: alice, owner: alice, amount: '1', observers: null } } };
  for (let i = 0; i < 40; i++) {
    const s = ledger.submitAndWait({ userId: 'u', commandId: `hangup-${i}`, actAs: [alice], commands: Array.from({ length: 500 }, () => create) });
    if (!s.ok) throw new Error(s.error.cause);
  }
  end = ledger.ledgerEnd().offset;
  server = await startServer({ ledger });
});
afterAll(() => server.close());

const acs = () => JSON.stringify({ activeAtOffset: end, eventFormat: { filtersByParty: { [alice]: {} } } });
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('a client that hangs up mid-stream', () => {
  it('over HTTP: the stream stops, and nothing is logged as an error', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(`${server.url}/v2/state/active-contracts`, { method: 'POST' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end(acs());
      setTimeout(() => reject(new Error('no data')), 25_000);
    });
    await settle();
    expect(server.errors).toEqual([]);
    // The server still answers (control).
    expect((await fetch(`${server.url}/v2/version`)).status).toBe(200);
  });

  for (const how of ['at once', 'after reading slowly (the server waits on a full buffer)'] as const) {
    it(`over WebSocket, ${how}: the stream stops, and nothing is logged as an error`, async () => {
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v2/state/active-contracts`, ['daml.ws.auth']);
        ws.on('open', () => ws.send(acs()));
        ws.once('message', () => {
          if (how === 'at once') {
            ws.terminate();
            resolve();
            return;
          }
          // Stop reading: the server's send buffer fills and it waits for the client.
          (ws as unknown as { _socket: { pause(): void } })._socket.pause();
          setTimeout(() => {
            ws.terminate();
            resolve();
          }, 500);
        });
      });
      await settle();
      expect(server.errors).toEqual([]);
    });
  }
});
