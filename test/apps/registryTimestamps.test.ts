import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeMicros } from '../../reference-server/src/apps/time.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { parseFullDate, parseRfc3339 } from '../../reference-server/src/ledger/rfc3339.js';
import { closeAppServer, expectError, HOUR, iso, postJson, startWorldServer, type AppServer } from './support/appServer.js';

/**
 * One strict RFC 3339 parser for the whole server: the registry refuses in factory arguments the
 * timestamps the ledger refuses (a day the month lacks, year 0, 24:00), instead of rolling them
 * over as `Date.parse` does.
 */
const REFUSED = ['2025-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '2025-01-01T24:00:00Z', '2025-04-31T12:00:00Z', '2025-01-01T23:60:00Z'];

describe('the timestamp parsers', () => {
  it('refuse what the ledger refuses, in the apps as in the ledger', () => {
    for (const t of REFUSED) {
      expect([t, parseRfc3339(t)]).toEqual([t, undefined]);
      expect([t, timeMicros(t)]).toEqual([t, undefined]);
    }
    expect(timeMicros('2024-02-29T23:59:59.999999Z')).toBe(BigInt(Date.UTC(2024, 1, 29, 23, 59, 59)) * 1000n + 999_999n);
  });

  it('refuse Daml dates the month does not have, or in year 0', () => {
    for (const d of ['2025-02-30', '0000-01-01', '2025-13-01', '2025-1-01']) expect([d, parseFullDate(d)]).toEqual([d, undefined]);
    expect(parseFullDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
  });
});

let server: AppServer;
let world: AppWorld;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
});
afterAll(() => closeAppServer(server));

describe('registry factory arguments', () => {
  const transferArgs = (change: Record<string, unknown>) => {
    const now = server.clock.now();
    const { alice, erin, dso } = world.parties;
    return {
      expectedAdmin: dso,
      transfer: { sender: alice, receiver: erin, amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: iso(now - 60_000), executeBefore: iso(now + HOUR), inputHoldingCids: [], meta: { values: {} }, ...change },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    };
  };

  for (const t of REFUSED) {
    it(`refuses ${t} as requestedAt and executeBefore with 400`, async () => {
      for (const field of ['requestedAt', 'executeBefore']) {
        const res = await postJson(server, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: transferArgs({ [field]: t }) });
        expectError(res, 400, new RegExp(`${field} must be an RFC 3339 timestamp`));
      }
    });
  }

  it('still answers a well-formed request', async () => {
    const res = await postJson(server, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: transferArgs({}) });
    expect(res.status, res.text).toBe(200);
  });

  // The v1 allocation factory: AllocationFactory_Allocate's requestedAt and the settlement's.
  const allocationArgs = (top: Record<string, unknown>, settlement: Record<string, unknown>) => {
    const now = server.clock.now();
    const { alice, bob, dso } = world.parties;
    return {
      expectedAdmin: dso,
      allocation: {
        settlement: { executor: world.parties['trading-venue'], settlementRef: { id: 'ts', cid: null }, requestedAt: iso(now - 60_000), allocateBefore: iso(now + HOUR), settleBefore: iso(now + 2 * HOUR), meta: { values: {} }, ...settlement },
        transferLegId: 'leg-1',
        transferLeg: { sender: alice, receiver: bob, amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, meta: { values: {} } },
      },
      requestedAt: iso(now - 60_000),
      inputHoldingCids: [],
      extraArgs: { context: { values: {} }, meta: { values: {} } },
      ...top,
    };
  };
  const ALLOCATION_FACTORY = '/registry/allocation-instruction/v1/allocation-factory';
  // Beyond the impossible dates: what is no timestamp at all, or lacks its zone.
  const NOT_TIMESTAMPS: readonly unknown[] = [...REFUSED, 'yesterday', '2025-01-01', '2025-01-01T00:00:00', 1_735_689_600_000, null, ''];

  for (const t of NOT_TIMESTAMPS) {
    it(`the v1 allocation factory refuses ${JSON.stringify(t)} as requestedAt and settlement.requestedAt with 400`, async () => {
      const top = await postJson(server, ALLOCATION_FACTORY, { choiceArguments: allocationArgs({ requestedAt: t }, {}) });
      expectError(top, 400, /choiceArguments\.requestedAt must be an RFC 3339 timestamp/);
      const inSettlement = await postJson(server, ALLOCATION_FACTORY, { choiceArguments: allocationArgs({}, { requestedAt: t }) });
      expectError(inSettlement, 400, /settlement\.requestedAt must be an RFC 3339 timestamp/);
    });
  }

  it('the v1 allocation factory still answers a well-formed request', async () => {
    const res = await postJson(server, ALLOCATION_FACTORY, { choiceArguments: allocationArgs({}, {}) });
    expect(res.status, res.text).toBe(200);
  });
});
