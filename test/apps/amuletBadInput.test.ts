import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOCATION_FACTORY_V1_INTERFACE, AMULET_TEMPLATE, HOLDING_V1_INTERFACE, TRANSFER_FACTORY_V1_INTERFACE } from '../../reference-server/src/apps/index.js';
import type { AppWorld } from '../../reference-server/src/apps/world/seedAppWorld.js';
import { expectError, postJson, startWorldServer, type AppServer, HOUR, type RegistryFactory, closeAppServer, iso } from './support/appServer.js';
import { create, exercise, mustSubmit, submit } from './support/jsonApi.js';

/**
 * Bad input, on both sides of Amulet as a registry. The registry's factories answer
 * 400 with an ErrorResponse for every malformed request, v1 and v2 alike; the same values
 * exercised on the ledger are refused as the Daml choices refuse them: values that do not decode
 * (a Numeric with 11 decimals, NaN, an exponent, a non-party) as INVALID_ARGUMENT before
 * interpretation, values that decode but break the choice's rules (a non-positive amount, an
 * unknown instrument) as FAILED_PRECONDITION from interpretation. Either way nothing is applied:
 * the ledger end and the sender's holdings stay as they were.
 */
let server: AppServer;
let world: AppWorld;
let dso: string;
beforeAll(async () => {
  ({ server, world } = await startWorldServer());
  dso = world.parties.dso;
});
afterAll(() => closeAppServer(server));

type Json = Record<string, unknown>;
async function mint(owner: string, amount: string): Promise<string> {
  const r = await mustSubmit(server, [dso, owner], [create(AMULET_TEMPLATE, { dso, owner, amount: { initialAmount: amount, createdAt: { number: '3' }, ratePerRound: { rate: '0.0' } } })]);
  return r.created[0]!.contractId;
}

const transferArgs = (inputs: string[]) => {
  const now = server.clock.now();
  const { alice, erin } = world.parties;
  return {
    expectedAdmin: dso,
    transfer: { sender: alice, receiver: erin, amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: iso(now - 60_000), executeBefore: iso(now + HOUR), inputHoldingCids: inputs, meta: { values: {} } },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
};

const allocationArgs = (inputs: string[]) => {
  const now = server.clock.now();
  const { alice, bob } = world.parties;
  return {
    expectedAdmin: dso,
    allocation: {
      settlement: { executor: world.parties['trading-venue'], settlementRef: { id: 'bad-input', cid: null }, requestedAt: iso(now - 60_000), allocateBefore: iso(now + HOUR), settleBefore: iso(now + 2 * HOUR), meta: { values: {} } },
      transferLegId: 'leg-1',
      transferLeg: { sender: alice, receiver: bob, amount: '1.0', instrumentId: { admin: dso, id: 'Amulet' }, meta: { values: {} } },
    },
    requestedAt: iso(now - 60_000),
    inputHoldingCids: inputs,
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
};

/** One bad value: where it goes (into the transfer, or the allocation's transfer leg), and how each side refuses it. */
interface Bad {
  readonly what: string;
  /** The fields replaced, given the DSO party. */
  readonly change: (dso: string) => Json;
  readonly registry: RegExp;
  /** The ledger's refusal; undefined where the Daml choice has no such rule (the registry's metadata bound). */
  readonly ledger?: { code: RegExp; cause: RegExp };
}
const PREPROCESSING = /^COMMAND_PREPROCESSING_FAILED$/;
const INTERPRETATION = /^DAML_FAILURE$/;
const BAD: readonly Bad[] = [
  { what: 'an amount with 11 decimals', change: () => ({ amount: '1.00000000001' }), registry: /amount must be a decimal string with at most 10 fractional digits/, ledger: { code: PREPROCESSING, cause: /more than 10 decimal places/ } },
  { what: 'a negative amount', change: () => ({ amount: '-1.0' }), registry: /amount must be positive/, ledger: { code: INTERPRETATION, cause: /amount must be positive/ } },
  { what: 'a zero amount', change: () => ({ amount: '0.0' }), registry: /amount must be positive/, ledger: { code: INTERPRETATION, cause: /amount must be positive/ } },
  { what: 'NaN', change: () => ({ amount: 'NaN' }), registry: /Daml Numeric 10/, ledger: { code: PREPROCESSING, cause: /invalid Numeric 'NaN'/ } },
  { what: 'an amount with an exponent', change: () => ({ amount: '1e3' }), registry: /Daml Numeric 10/, ledger: { code: PREPROCESSING, cause: /invalid Numeric '1e3'/ } },
  { what: 'an unknown instrument', change: (admin) => ({ instrumentId: { admin, id: 'USD' } }), registry: /unknown instrument .*USD/, ledger: { code: INTERPRETATION, cause: /instrument .*USD is not/ } },
  { what: 'a receiver that is not a party id', change: () => ({ receiver: 'erin' }), registry: /(receiver|otherside)(\.owner)?: Invalid party id/, ledger: { code: PREPROCESSING, cause: /invalid party id 'erin'/ } },
  { what: 'oversized metadata', change: () => ({ meta: { values: { memo: 'x'.repeat(9000) } } }), registry: /metadata is limited to 8192 bytes/ },
];
const changeFor = (b: Bad): Json => b.change(dso);

// Token standard v2: parties hold accounts, actors authorize, an allocation holds sides of legs.
const account = (owner: string) => ({ owner, provider: null, id: '' });
const transferArgsV2 = () => {
  const { transfer } = transferArgs([]);
  return { transfer: { ...transfer, sender: account(transfer.sender), receiver: account(transfer.receiver) }, actors: [transfer.sender], extraArgs: { context: { values: {} }, meta: { values: {} } } };
};
const allocationArgsV2 = () => {
  const now = server.clock.now();
  const { alice, bob } = world.parties;
  return {
    settlement: { executors: [world.parties['trading-venue']], id: 'bad-input', cid: null, meta: { values: {} } },
    allocation: {
      admin: dso,
      authorizer: account(alice),
      transferLegSides: [{ transferLegId: 'leg-1', side: 'SenderSide', otherside: account(bob), amount: '1.0', instrumentId: 'Amulet', meta: { values: {} } }],
      settlementDeadline: iso(now + HOUR),
      nextIterationFunding: null,
      committed: false,
      meta: { values: {} },
    },
    requestedAt: iso(now - 60_000),
    inputHoldingCids: [],
    extraArgs: { context: { values: {} }, meta: { values: {} } },
    actors: [alice],
  };
};
/** A v1 change in v2's terms: a receiver is an account's owner, a leg side's instrument an id under the allocation's admin. */
function changeV2(b: Bad, where: 'transfer' | 'side'): Json {
  const { receiver, instrumentId, ...rest } = changeFor(b);
  const out: Json = { ...rest };
  if (receiver !== undefined) out[where === 'transfer' ? 'receiver' : 'otherside'] = account(String(receiver));
  if (instrumentId !== undefined) out.instrumentId = where === 'transfer' ? instrumentId : (instrumentId as Json).id;
  return out;
}
const withTransferV2 = (a: ReturnType<typeof transferArgsV2>, b: Bad) => ({ ...a, transfer: { ...a.transfer, ...changeV2(b, 'transfer') } });
const withSideV2 = (a: ReturnType<typeof allocationArgsV2>, b: Bad) => ({ ...a, allocation: { ...a.allocation, transferLegSides: [{ ...a.allocation.transferLegSides[0]!, ...changeV2(b, 'side') }] } });

const withTransfer = (a: ReturnType<typeof transferArgs>, b: Bad) => ({ ...a, transfer: { ...a.transfer, ...changeFor(b) } });
const withLeg = (a: ReturnType<typeof allocationArgs>, b: Bad) => ({ ...a, allocation: { ...a.allocation, transferLeg: { ...a.allocation.transferLeg, ...changeFor(b) } } });

const ledgerEnd = async () => (await server.http.get('/v2/state/ledger-end')).body.offset as number;
async function holdingIds(party: string): Promise<string[]> {
  const res = await server.http.post('/v2/state/active-contracts').send(
    Buffer.from(JSON.stringify({ activeAtOffset: await ledgerEnd(), eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING_V1_INTERFACE, includeInterfaceView: false } } } }] } } } })),
  );
  expect(res.status).toBe(200);
  return (res.body as { contractEntry: { JsActiveContract: { createdEvent: { contractId: string } } } }[]).map((e) => e.contractEntry.JsActiveContract.createdEvent.contractId).sort();
}

describe('the registry answers 400 with an ErrorResponse, v1 and v2, and changes nothing', () => {
  for (const v of ['v1', 'v2']) {
    for (const b of BAD) {
      it(`transfer factory ${v}: ${b.what}`, async () => {
        const end = await ledgerEnd();
        const args = v === 'v1' ? withTransfer(transferArgs([]), b) : withTransferV2(transferArgsV2(), b);
        expectError(await postJson(server, `/registry/transfer-instruction/${v}/transfer-factory`, { choiceArguments: args }), 400, b.registry);
        expect(await ledgerEnd()).toBe(end);
      });
      it(`allocation factory ${v}: ${b.what}`, async () => {
        const args = v === 'v1' ? withLeg(allocationArgs([]), b) : withSideV2(allocationArgsV2(), b);
        expectError(await postJson(server, `/registry/allocation-instruction/${v}/allocation-factory`, { choiceArguments: args }), 400, b.registry);
      });
    }
  }
});

describe('the same values exercised on the ledger are refused as the Daml choices refuse them, nothing half-applied', () => {
  /** The factory and context for the valid request (what a wallet would have fetched), then the bad choice argument exercised with it. */
  async function refused(kind: 'transfer' | 'allocation', b: Bad) {
    const input = await mint(world.parties.alice, '10.0');
    const valid = kind === 'transfer' ? transferArgs([input]) : allocationArgs([input]);
    const path = kind === 'transfer' ? '/registry/transfer-instruction/v1/transfer-factory' : '/registry/allocation-instruction/v1/allocation-factory';
    const f = (await postJson(server, path, { choiceArguments: valid, excludeDebugFields: true })).body as RegistryFactory;
    const arg = kind === 'transfer' ? withTransfer(valid as ReturnType<typeof transferArgs>, b) : withLeg(valid as ReturnType<typeof allocationArgs>, b);
    const [iface, choice] = kind === 'transfer' ? [TRANSFER_FACTORY_V1_INTERFACE, 'TransferFactory_Transfer'] : [ALLOCATION_FACTORY_V1_INTERFACE, 'AllocationFactory_Allocate'];
    const before = { end: await ledgerEnd(), alice: await holdingIds(world.parties.alice) };
    const r = await submit(server, [world.parties.alice], [exercise(iface, f.factoryId, choice, { ...arg, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } })], {
      disclosedContracts: f.choiceContext.disclosedContracts,
    });
    return { r, before, input };
  }

  for (const kind of ['transfer', 'allocation'] as const) {
    for (const b of BAD.filter((x) => x.ledger !== undefined)) {
      it(`${kind === 'transfer' ? 'TransferFactory_Transfer' : 'AllocationFactory_Allocate'}: ${b.what}`, async () => {
        const { r, before, input } = await refused(kind, b);
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
        expect(String(r.body.code)).toMatch(b.ledger!.code);
        expect(String(r.body.cause)).toMatch(b.ledger!.cause);
        // INVALID_ARGUMENT (category 8) before interpretation, FAILED_PRECONDITION (9) from it.
        expect(r.body.errorCategory).toBe(b.ledger!.code === PREPROCESSING ? 8 : 9);
        expect(await ledgerEnd()).toBe(before.end);
        const after = await holdingIds(world.parties.alice);
        expect(after).toEqual(before.alice);
        expect(after).toContain(input);
      });
    }
  }

  it('metadata has no size rule in the Daml choice: the registry bounds it, the ledger takes it (and the transfer happens once)', async () => {
    const oversized = BAD.find((b) => b.ledger === undefined)!;
    const { r, before, input } = await refused('transfer', oversized);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.archived).toContain(input);
    expect(await ledgerEnd()).toBe(before.end + 1);
  });
});
