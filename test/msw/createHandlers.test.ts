import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { createHandlers, sandboxToken, type FixtureFile } from '../../reference-server/src/msw/index.js';

const log = silentLogger;

describe('createHandlers: base URLs', () => {
  const mock = createHandlers({
    ledgerUrl: 'http://participant.test:7575/',
    registryUrl: 'https://registry.test',
    scanUrl: 'http://participant.test:7575/api/scan',
    log,
  });
  const server = setupServer(...mock.handlers);
  const unhandled: string[] = [];
  server.events.on('request:unhandled', ({ request }) => {
    unhandled.push(`${request.method} ${request.url}`);
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    unhandled.length = 0;
  });
  afterAll(() => server.close());

  it('answers with one HTTP handler per distinct base URL plus one WebSocket link', () => {
    expect(mock.handlers).toHaveLength(4);
    expect(mock.urls).toEqual({
      ledger: 'http://participant.test:7575',
      registry: 'https://registry.test',
      scan: 'http://participant.test:7575/api/scan',
      streams: 'ws://participant.test:7575',
    });
  });

  it('serves every group under each base, as the reference server does on its one port', async () => {
    for (const base of ['http://participant.test:7575', 'https://registry.test']) {
      const res = await fetch(`${base}/v2/version`);
      expect(res.status).toBe(200);
    }
  });

  it('strips a base path prefix: /api/scan/v0/... is routed as /v0/...', async () => {
    const prefixed = await fetch('http://participant.test:7575/api/scan/v0/nothing');
    const plain = await fetch('http://participant.test:7575/v0/nothing');
    expect(prefixed.status).toBe(404);
    // Same route lookup, same dialect ({"error": ...}), same message.
    expect(await prefixed.json()).toEqual(await plain.json());
  });

  it('leaves other hosts, ports and look-alike prefixes to msw (unhandled)', async () => {
    // msw reports each on console.error (onUnhandledRequest: 'error'): assert that instead of printing it.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const url of ['http://participant.test:7576/v2/version', 'https://registry.test.example/v2/version', 'http://registry.test/v2/version']) {
        await expect(fetch(url)).rejects.toThrow();
      }
      expect(printed.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('without a matching request handler'))).toHaveLength(3);
    } finally {
      printed.mockRestore();
    }
    expect(unhandled).toEqual([
      'GET http://participant.test:7576/v2/version',
      'GET https://registry.test.example/v2/version',
      'GET http://registry.test/v2/version',
    ]);
  });

  it('refuses base URLs it cannot serve, with a clear message', () => {
    expect(() => createHandlers({ ledgerUrl: 'ledger.test' })).toThrow(/ledgerUrl is not a URL/);
    expect(() => createHandlers({ scanUrl: 'ftp://scan.test' })).toThrow(/scanUrl must be an http\(s\) URL/);
    expect(() => createHandlers({ registryUrl: 'http://r.test/?x=1' })).toThrow(/must not carry a query/);
  });

  it('refuses a Canton line it does not serve (from JavaScript, or past the type), naming the ones it does', () => {
    for (const bad of ['3.3', '3.7', 'banana', 3.5]) {
      expect(() => createHandlers({ cantonVersion: bad as never })).toThrow(/cantonVersion takes '3\.4', '3\.5', '3\.6', got /);
      expect(() => createHandlers({ localnet: true, cantonVersion: bad as never })).toThrow(/cantonVersion takes/);
    }
    expect(() => createHandlers({ cantonVersion: '3.4' })).not.toThrow();
  });
});

describe('createHandlers: state, fixtures and setup helpers', () => {
  const mock = createHandlers({ ledgerUrl: 'http://ledger.test', fixtures: 'default', log });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  const partyCount = async () => ((await (await fetch('http://ledger.test/v2/parties')).json()) as { partyDetails: unknown[] }).partyDetails.length;

  it('starts from the default world and names what it created', async () => {
    expect(Object.keys(mock.world.parties)).toEqual(expect.arrayContaining(['alice', 'bob', 'issuer']));
    const alice = mock.world.parties['alice'] ?? '';
    const res = await fetch(`http://ledger.test/v2/parties/${encodeURIComponent(alice)}`);
    expect(((await res.json()) as { partyDetails: { party: string }[] }).partyDetails[0]?.party).toBe(alice);
    expect(Object.keys(mock.world.contracts).length).toBeGreaterThan(0);
  });

  it('sets up through the core what the code under test then reads over HTTP', async () => {
    const before = await partyCount();
    const dora = mock.allocateParty('dora');
    expect(await partyCount()).toBe(before + 1);
    mock.createUser('dora-user', { primaryParty: dora, actAs: [dora] });
    const rights = (await (await fetch('http://ledger.test/v2/users/dora-user/rights')).json()) as { rights: unknown[] };
    expect(rights.rights).toEqual([{ kind: { CanActAs: { value: { party: dora } } } }]);
    const created = mock.createContract({
      templateId: ASSET_TEMPLATE,
      createArguments: { issuer: dora, owner: dora, amount: '1.0', observers: null },
      actAs: [dora],
    });
    expect(created.contractId).toMatch(/^00[0-9a-f]{64}$/);
    expect(mock.ledger.isActive(created.contractId)).toBe(true);
    expect(mock.ledger.ledgerEnd().offset).toBe(created.offset);
  });

  it('throws with the ledger code when setup is refused', () => {
    expect(() => mock.allocateParty('dora')).toThrow(/allocateParty\('dora'\) failed: PARTY_ALREADY_EXISTS/);
    expect(() => mock.createContract({ templateId: ASSET_TEMPLATE, createArguments: {}, actAs: [] })).toThrow(/createContract.* failed: /);
  });

  it('reset() returns to the fixtures: what a test added is gone, the world is back', async () => {
    const oldLedger = mock.ledger;
    mock.reset();
    expect(mock.ledger).not.toBe(oldLedger);
    expect(mock.ledger.isKnownParty(mock.world.parties['alice'] ?? '')).toBe(true);
    const parties = (await (await fetch('http://ledger.test/v2/parties')).json()) as { partyDetails: { party: string }[] };
    expect(parties.partyDetails.map((p) => p.party).some((p) => p.startsWith('dora::'))).toBe(false);
  });

  it("refuses fixtures it cannot load, naming the file's problem", () => {
    expect(() => createHandlers({ fixtures: '/nonexistent/world.json' })).toThrow(/cannot load fixtures/);
    const bad = { version: 1, parties: ['ok'], users: [{ id: 'u', rights: [{ canActAs: 'nobody' }] }] } as unknown as FixtureFile;
    expect(() => createHandlers({ fixtures: bad })).toThrow(/fixtures.*\n.*users\[0\]/);
  });

  it('takes a fixture file as an object', async () => {
    const own = createHandlers({ fixtures: { version: 1, parties: ['zed'], users: [{ id: 'zed', primaryParty: 'zed', rights: [{ canActAs: 'zed' }] }] }, log });
    expect(Object.keys(own.world.parties)).toEqual(['zed']);
    expect(own.ledger.getUser('zed').ok).toBe(true);
  });
});

describe('sandboxToken', () => {
  it('is an unsigned JWT that decodes to the user and a future expiry', () => {
    const [header, payload, signature] = sandboxToken('alice', 60).split('.');
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toEqual({ alg: 'none', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { sub: string; exp: number };
    expect(claims.sub).toBe('alice');
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 50);
    expect(signature).toBe('');
  });
});

describe('createHandlers: the registry and Scan', () => {
  const mock = createHandlers({ ledgerUrl: 'http://ledger.test', scanUrl: 'http://scan.test/api/scan', appWorld: true, log });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const lookup = (party: string) => fetch(`http://scan.test/api/scan/v0/transfer-preapprovals/by-party/${encodeURIComponent(party)}`);

  it('serves the seeded apps world: an accept context, a preapproval, the earliest round', async () => {
    const world = mock.appWorld;
    if (world === undefined) throw new Error('appWorld: true seeds a world');
    const accept = await fetch(`http://ledger.test/registry/allocation-instruction/v2/${world.registry.instructions.aliceActive}/choice-contexts/accept`, {
      method: 'POST',
      body: '{}',
    });
    expect(accept.status).toBe(200);
    expect(((await (await lookup(world.parties.alice)).json()) as { transfer_preapproval: { contract: { contract_id: string } } }).transfer_preapproval.contract.contract_id).toBe(
      world.preapprovals.alice,
    );
    const round = await fetch('http://scan.test/api/scan/v0/internal/reward-accounting-process/rounds/earliest-available');
    expect(await round.json()).toEqual({ earliest_round: 1 });
  });

  it('addPreapproval() makes Scan answer for a new receiver; reset() forgets it', async () => {
    const erin = mock.allocateParty('erin-2');
    expect((await lookup(erin)).status).toBe(404);
    const created = mock.addPreapproval({ receiver: erin, validFrom: '2025-02-01T00:00:00Z' });
    const found = (await (await lookup(erin)).json()) as { transfer_preapproval: { contract: { contract_id: string; payload: Record<string, string> } } };
    expect(found.transfer_preapproval.contract.contract_id).toBe(created.contractId);
    expect(found.transfer_preapproval.contract.payload).toMatchObject({ receiver: erin, provider: erin, validFrom: '2025-02-01T00:00:00Z' });
    mock.reset();
    expect(mock.ledger.isKnownParty(erin)).toBe(false);
    expect((await lookup(erin)).status).toBe(404);
  });
});
