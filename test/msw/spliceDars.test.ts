/**
 * createHandlers({ spliceDars }): the apps' world on Splice's own splice-amulet through the msw
 * handlers, the same after every reset(), and the registry's transfer factory answering the real
 * ExternalPartyAmuletRules through fetch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, type MockLedgerApi } from '../../reference-server/src/msw/index.js';
import { HAS_DARS } from '../daml/damlFixtures.js';
import { startSpliceDarsMock } from './support/spliceDarsMock.js';

const URL_ = 'http://splice-dars.test';

describe.skipIf(!HAS_DARS)('createHandlers({ spliceDars }) (needs ../shared/upstream/daml/dars)', () => {
  let mock: MockLedgerApi;
  let server: ReturnType<typeof setupServer>;
  beforeAll(() => {
    ({ mock, server } = startSpliceDarsMock(URL_, ['splice-amulet-0.1.22.dar']));
  }, 120_000);
  afterAll(() => server.close());

  it('seeds the world on the real package, with the same ids after reset()', async () => {
    const world = mock.spliceWorld!;
    expect(mock.appWorld).toBeUndefined();
    expect(world.splice.version).toBe('0.1.22');
    const { dso, alice, bob } = world.parties;
    const now = Date.parse('2025-01-01T00:00:00Z');
    const args = {
      expectedAdmin: dso,
      transfer: { sender: alice, receiver: bob, amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: new Date(now).toISOString(), executeBefore: new Date(now + 3_600_000).toISOString(), inputHoldingCids: [world.amulet.holdings.alice[0]], meta: { values: {} } },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
    const res = await fetch(`${URL_}/registry/transfer-instruction/v1/transfer-factory`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ choiceArguments: args, excludeDebugFields: true }) });
    const text = await res.clone().text();
    expect(res.status, text).toBe(200);
    const body = (await res.json()) as { factoryId: string; transferKind: string };
    expect([body.factoryId, body.transferKind]).toEqual([world.amulet.factory, 'direct']);
    // The seeded round history and trade otc-1 are part of it: Scan answers round 1 at once.
    const earliest = await fetch(`${URL_}/v0/internal/reward-accounting-process/rounds/earliest-available`);
    expect([earliest.status, await earliest.json()]).toEqual([200, { earliest_round: 1 }]);
    expect(world.rounds.earliestRound).toBe(1);
    expect(mock.ledger.store.contract(world.amulet.allocation)?.template.packageId).toBe(world.splice.packageId);
    mock.reset();
    expect(mock.spliceWorld).toEqual(world);
  });

  it("vets only packages it holds: the ports' splice-amulet leaves the vetting with /v2/packages", async () => {
    const listed = ((await (await fetch(`${URL_}/v2/packages`)).json()) as { packageIds: string[] }).packageIds;
    const vetting = (await (await fetch(`${URL_}/v2/package-vetting/list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { vettedPackages: { packages: { packageId: string; packageName?: string }[] }[] };
    const vetted = vetting.vettedPackages.flatMap((v) => v.packages);
    expect(vetted.filter((p) => !listed.includes(p.packageId))).toEqual([]);
    expect([...new Set(vetted.filter((p) => p.packageName === 'splice-amulet').map((p) => p.packageId))]).toEqual([mock.spliceWorld!.splice.packageId]);
  });

  it('refuses a folder without splice-amulet, naming it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'splice-dars-'));
    try {
      expect(() => createHandlers({ spliceDars: empty })).toThrow(`[canton-conformance] --splice-dars ${empty}: no splice-amulet DAR in the folder (it holds no .dar file)`);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});
