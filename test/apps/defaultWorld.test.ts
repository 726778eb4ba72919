import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeedingClock } from '../../reference-server/src/apps/world/SeedingClock.js';
import { APP_WORLD_TIME, seedAppWorld, type AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { defaultWorldPath } from '../../reference-server/src/ledger/fixtures/index.js';
import { createHandlers } from '../../reference-server/src/msw/index.js';
import { canStep, createLedger, ManualClock, systemClock } from '../../reference-server/src/ledger/index.js';
import type { ReferenceServer } from '../../reference-server/src/server.js';
import { FixturesError, startReferenceServer } from '../../reference-server/src/startReferenceServer.js';

/** The ids the README names: what `npm start` serves. Changing the world means changing both. */
const README = {
  admin: 'registry-admin::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
  alice: 'alice::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
  bob: 'bob::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
  carol: 'carol::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
  dave: 'dave::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
  erin: 'erin::1220c0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ffeec0ff',
  tokenRules: '00e931a6eb8f82f1fff46b14f1c5c541d96576b6224e4a5ff2bcfd39d380072f2f',
  accountMap: '007548dde80f04f0c090b2d5695f1791c616678ec17d807980798e8a08877a837a',
  accountMapInFlight: '0037a978488521e44cdc9698eadb92e16825b45f0623e5cdf1db019bd9ab50e8bf',
  aliceActive: '00b1cf648fa1d69ec40a8ab003b392798cdb9d35c1c28a89a718a87c8f1de5a710',
  bobActive: '00fb6026e35bb3c2cf5b4abdab72b58cd7b7092638ae7fddcfc6b0034961b56875',
  aliceWithdrawn: '00ee039be0b966a299046d25af3b4f9fb8d8f7d2fd585df843bd97c824c94d3285',
  carolInFlight: '0021c123a597d0c36957788f79d4fa299c70144cfd22ca4d08f878651315474008',
  alicePreapproval: '006b403c7618b60e065e6c18a1001e4e504ea0d4e389612a83186863e0879eb5b7',
  bobNewer: '000e85e95a4d2e417604bc630ceea72edf470a09b1f37affea88c82c7bdd28d913',
  carolExpired: '0058bbf4ff0c1dc6352ac03f4f6fca37517216d940ba7c5629bfe222d553c8dbab',
  // Amulet as a registry
  amuletFactory: '00edd5d58c03576aa4beea3e7233f93974264f359fd6431e8f50b85a1cfdabc902',
  transferToCarol: '00b0b4447ab67da7d515856b3fdb7d257e33c13f96da6fa945063942d965904aca',
  allocation: '0019ae3f86bc2c1e8ae3e60458ad6dfd2007648d33535badc798845390c8bcb3a8',
  allocationRequest: '0068ed16744f91d413d622ba6d32bb71b42096f44645c3fc26e4ce6a3dd76baa0d',
  aliceHolding: '00fb9ce9c688e78e6f9a38563c5fb4e9fd9ad75b4982a88adcb997ccd85fac1a8c',
};

describe('the default world (npm start)', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined });
  });
  afterAll(() => server.close());

  const post = (path: string) => fetch(`${server.url}${path}`, { method: 'POST', body: '{"excludeDebugFields":true}' });
  const get = (path: string) => fetch(`${server.url}${path}`);
  const context = (id: string) => post(`/registry/allocation-instruction/v2/${id}/choice-contexts/accept`);
  const preapproval = (party: string) => get(`/v0/transfer-preapprovals/by-party/${encodeURIComponent(party)}`);

  it('the party ids the README lists in full are exactly the parties it serves', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const listed = [...readme.matchAll(/^([a-z][a-z-]*::1220[0-9a-f]{64})$/gm)].map((m) => m[1]!).sort();
    const served = ((await (await get('/v2/parties?pageSize=1000')).json()) as { partyDetails: { party: string }[] }).partyDetails.map((d) => d.party).sort();
    expect(listed).toEqual(served);
  });

  it('serves the Amulet registry contracts the README names', async () => {
    const ctx = await post(`/registry/transfer-instruction/v1/${README.transferToCarol}/choice-contexts/accept`);
    expect(ctx.status).toBe(200);
    expect((await post(`/registry/allocations/v1/${README.allocation}/choice-contexts/execute-transfer`)).status).toBe(200);
    const acs = await fetch(`${server.url}/v2/state/active-contracts`, {
      method: 'POST',
      body: JSON.stringify({
        activeAtOffset: ((await (await get('/v2/state/ledger-end')).json()) as { offset: number }).offset,
        eventFormat: { filtersByParty: { [README.alice]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } } },
      }),
    });
    const ids = ((await acs.json()) as { contractEntry: { JsActiveContract?: { createdEvent: { contractId: string } } } }[]).map((e) => e.contractEntry.JsActiveContract?.createdEvent.contractId);
    expect(ids).toEqual(expect.arrayContaining([README.aliceHolding, README.transferToCarol, README.allocationRequest]));
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const id of [README.amuletFactory, README.transferToCarol, README.allocation, README.allocationRequest, README.aliceHolding]) expect(readme).toContain(id);
  });

  it('answers the allocation instructions the README names', async () => {
    const ok = await context(README.aliceActive);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { choiceContextData: { values: Record<string, { value: string }> } };
    expect(body.choiceContextData.values['token-rules']?.value).toBe(README.tokenRules);
    expect(body.choiceContextData.values['account-map']?.value).toBe(README.accountMap);
    expect((await context(README.bobActive)).status).toBe(200);
    expect((await context(README.aliceWithdrawn)).status).toBe(404);
    expect((await context(README.carolInFlight)).status).toBe(409);
    expect((await context(README.tokenRules)).status).toBe(404);
  });

  it('answers the preapprovals the README names', async () => {
    const id = async (party: string) => ((await (await preapproval(party)).json()) as { transfer_preapproval: { contract: { contract_id: string } } }).transfer_preapproval.contract.contract_id;
    expect(await id(README.alice)).toBe(README.alicePreapproval);
    expect(await id(README.bob)).toBe(README.bobNewer);
    expect(await id(README.carol)).toBe(README.carolExpired);
    expect((await preapproval(README.dave)).status).toBe(404);
    expect((await preapproval(README.erin)).status).toBe(404);
  });

  it('answers earliest round 1', async () => {
    expect(await (await get('/v0/internal/reward-accounting-process/rounds/earliest-available')).json()).toEqual({ earliest_round: 1 });
  });

  it('still loads the ledger fixtures world beside it (the apps seed first, the fixtures reuse their parties)', () => {
    expect(server.ledger.isKnownParty(README.alice)).toBe(true);
    expect(server.ledger.getUser('alice').ok).toBe(true);
  });
});

describe('seedAppWorld', () => {
  it('gives the same ids on every fresh ledger seeded at the world time', () => {
    const seed = () => {
      const r = seedAppWorld(createLedger({ clock: new SeedingClock(APP_WORLD_TIME) }));
      if (!r.ok) throw new Error(r.error.cause);
      return r.value;
    };
    const first = seed();
    expect(seed()).toEqual(first);
    expect(first.registry.instructions.aliceActive).toBe(README.aliceActive);
  });

  it('reuses parties that exist already and refuses, without throwing, to seed the same ledger twice', () => {
    const ledger = createLedger({ clock: new ManualClock(APP_WORLD_TIME) });
    expect(ledger.allocateParty({ partyIdHint: 'alice' }).ok).toBe(true);
    const first = seedAppWorld(ledger);
    expect(first.ok).toBe(true);
    const again = seedAppWorld(ledger);
    expect(again).toMatchObject({ ok: false, error: { code: 'DUPLICATE_COMMAND' } });
  });
});

describe('SeedingClock', () => {
  it('stands still until released, then follows the system clock, never going back', () => {
    // The system clock is injected: it stands at `system` and moves only when the test moves it.
    let system = APP_WORLD_TIME + 86_400_000;
    const clock = new SeedingClock(APP_WORLD_TIME, () => system);
    expect(clock.now()).toBe(APP_WORLD_TIME);
    expect(clock.seeding).toBe(true);
    clock.release();
    expect(clock.seeding).toBe(false);
    expect(clock.now()).toBe(system);
    system += 1_000;
    expect(clock.now()).toBe(system);
    const future = new SeedingClock(system + 3_600_000, () => system);
    future.release();
    expect(future.now()).toBe(system + 3_600_000); // never back behind its fixed time
    system += 7_200_000;
    expect(future.now()).toBe(system);
  });

  it('steps forward only while pinned (a seeding that needs ledger time to pass), and never goes back behind it once released', () => {
    const clock = new SeedingClock(APP_WORLD_TIME);
    expect(canStep(clock)).toBe(true);
    clock.advance(600_000);
    expect(clock.now()).toBe(APP_WORLD_TIME + 600_000);
    clock.release();
    expect(canStep(clock)).toBe(false);
    const system = APP_WORLD_TIME + 86_400_000;
    const future = new SeedingClock(system + 3_600_000, () => system);
    future.advance(3_600_000);
    future.release();
    expect(future.now()).toBe(system + 7_200_000);
    future.advance(3_600_000); // released: follows the system clock, the step is ignored
    expect(future.now()).toBe(system + 7_200_000);
    expect(canStep(systemClock)).toBe(false);
  });
});

describe('serve --fixtures FILE keeps the apps world whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'world-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };
  const accept = (server: ReferenceServer, id: string) =>
    fetch(`${server.url}/registry/allocation-instruction/v2/${id}/choice-contexts/accept`, { method: 'POST', body: '{"excludeDebugFields":true}' });

  it('serves the README ids with --fixtures fixtures/default-world.json, as without --fixtures', async () => {
    const server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: defaultWorldPath() });
    try {
      expect((await accept(server, README.aliceActive)).status).toBe(200);
      expect(server.ledger.getUser('alice').ok).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('serves the README ids beside any other file, and only that file\'s world when it says "appWorld": false', async () => {
    const own = { version: 1, parties: ['zed'], users: [{ id: 'zed', primaryParty: 'zed', rights: [{ canActAs: 'zed' }] }] };
    const kept = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: write('own.json', own) });
    try {
      expect((await accept(kept, README.aliceActive)).status).toBe(200);
      expect(kept.ledger.getUser('zed').ok).toBe(true);
    } finally {
      await kept.close();
    }
    const alone = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: write('alone.json', { ...own, appWorld: false }) });
    try {
      expect((await accept(alone, README.aliceActive)).status).toBe(404);
      expect(alone.ledger.isKnownParty(README.admin)).toBe(false);
      expect(alone.ledger.getUser('zed').ok).toBe(true);
    } finally {
      await alone.close();
    }
  });

  it('names every mistake of a file in one start-up', async () => {
    const file = write('bad.json', {
      version: 1,
      parties: ['ann'],
      users: [{ id: 'u', rights: [{ canActAs: 'ghost' }] }],
      contracts: [
        { template: '#nowhere:No:Such', actAs: ['ann'], arguments: {} },
        { template: '#canton-conformance-samples:Sample.Asset:Asset', actAs: ['nobody'], arguments: {} },
      ],
    });
    const failed = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: file }).then(
      async (s) => {
        await s.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(FixturesError);
    const paths = (failed as FixturesError).problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['users[0].rights[0]', 'contracts[0].template', 'contracts[1].actAs[0]']));
  });
});

describe('the msw handlers’ apps world', () => {
  it("has the README ids, after every reset(): fixtures 'default' alone (what npm start serves), or appWorld: true", () => {
    for (const options of [{ fixtures: 'default' }, { fixtures: 'none', appWorld: true }] as const) {
      const mock = createHandlers({ ...options, log: silentLogger });
      const ids = (w: AppWorld | undefined) => [w?.registry.instructions.aliceActive, w?.registry.tokenRules, w?.preapprovals.bobNewer, w?.parties.alice];
      const expected = [README.aliceActive, README.tokenRules, README.bobNewer, README.alice];
      expect(ids(mock.appWorld)).toEqual(expected);
      mock.reset();
      expect(ids(mock.appWorld)).toEqual(expected);
      expect(mock.ledger.isActive(README.aliceActive)).toBe(true);
    }
  });

  it('follows the fixture file: "appWorld": false leaves it out, unless the option asks for it', () => {
    const file = { version: 1, appWorld: false, parties: ['zed'] } as const;
    expect(createHandlers({ fixtures: file, log: silentLogger }).appWorld).toBeUndefined();
    expect(createHandlers({ fixtures: { ...file, appWorld: true }, log: silentLogger }).appWorld?.registry.instructions.aliceActive).toBe(README.aliceActive);
    expect(createHandlers({ fixtures: file, appWorld: true, log: silentLogger }).appWorld).toBeDefined();
  });
});
