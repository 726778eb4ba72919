import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecuredWorld, type SecuredWorld } from './support/securedServer.js';
import { userToken } from './support/tokens.js';
import { wsExchange } from './support/wsExchange.js';

let w: SecuredWorld;
beforeAll(async () => {
  w = await startSecuredWorld();
});
afterAll(() => w.server.close());

const topologyOf = (parties: string[]) => ({
  beginExclusive: 0,
  endInclusive: w.ledger.ledgerEnd().offset,
  updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties } } },
});

async function read(user: string, parties: string[]): Promise<{ status: number; text: string; ws: unknown[] }> {
  const jwt = await userToken(user);
  const res = await fetch(`${w.server.url}/v2/updates`, { method: 'POST', body: JSON.stringify(topologyOf(parties)), headers: { authorization: `Bearer ${jwt}` } });
  const ws = await wsExchange(w.server.url, '/v2/updates', topologyOf(parties), { protocols: [`jwt.token.${jwt}`, 'daml.ws.auth'] });
  return { status: res.status, text: await res.text(), ws: ws.messages };
}

const permissionDenied = { code: 'NA', grpcCodeValue: 7 };

describe('topology events in /v2/updates name only parties the caller may read as', () => {
  it("refuses every party's events (an empty list) to a user without CanReadAsAnyParty, over HTTP and WebSocket", async () => {
    const { status, text, ws } = await read('reader', []);
    expect(status).toBe(403);
    expect(text).not.toContain(w.bob);
    expect(ws).toEqual([expect.objectContaining(permissionDenied)]);
  });

  it("refuses another party's events", async () => {
    const { status, ws } = await read('reader', [w.bob]);
    expect(status).toBe(403);
    expect(ws).toEqual([expect.objectContaining(permissionDenied)]);
  });

  it('serves the events of a party the user reads as, and all of them to a reader of any party (control)', async () => {
    const own = await read('reader', [w.alice]);
    expect(own.status).toBe(200);
    expect(own.text).toContain(w.alice);
    expect(own.text).not.toContain(w.bob);
    const all = await read('auditor', []);
    expect(all.status).toBe(200);
    expect(all.text).toContain(w.bob);
  });
});
