import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';

/**
 * The README's snippets use `http://127.0.0.1:7575`, the address `npm start` prints; the
 * handlers' default is `http://localhost:7575`. Without a ledgerUrl both answer, from one ledger.
 */
describe('createHandlers without URLs', () => {
  const mock = createHandlers({ appWorld: true, log: silentLogger });
  const server = setupServer(...mock.handlers);
  const unhandled: string[] = [];
  server.events.on('request:unhandled', ({ request }) => {
    unhandled.push(`${request.method} ${request.url}`);
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => expect(unhandled.splice(0)).toEqual([]));
  afterAll(() => server.close());

  it('answers at http://localhost:7575 and http://127.0.0.1:7575, ledger, registry and Scan', async () => {
    for (const base of ['http://localhost:7575', 'http://127.0.0.1:7575']) {
      for (const path of ['/v2/version', '/registry/metadata/v1/info', '/api/scan/v0/dso']) {
        const res = await fetch(`${base}${path}`);
        expect(res.status, `${base}${path}`).toBe(200);
      }
    }
  });

  it('is one ledger under both names', async () => {
    const party = mock.allocateParty('both-names');
    for (const base of ['http://localhost:7575', 'http://127.0.0.1:7575']) {
      const parties = (await (await fetch(`${base}/v2/parties`)).json()) as { partyDetails: { party: string }[] };
      expect(parties.partyDetails.map((p) => p.party)).toContain(party);
    }
  });

  it('a given ledgerUrl is the only one answered', () => {
    const own = createHandlers({ ledgerUrl: 'http://ledger.test', log: silentLogger });
    expect(own.handlers).toHaveLength(2);
  });
});
