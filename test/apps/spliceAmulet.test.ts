/**
 * The default world built on Splice's own splice-amulet (`serve --splice-dars`): the registry's
 * transfer factory answers the real ExternalPartyAmuletRules with the context Splice's registry
 * builds, and a wallet's TransferFactory_Transfer through the JSON API runs the real Amulet
 * (direct with a preapproval, two-step without); Scan reads the real rounds and preapprovals;
 * the DSO's rounds advance by the real choices on the injected clock.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOCATION_FACTORY_V1_INTERFACE, ALLOCATION_V1_INTERFACE, TRANSFER_FACTORY_V1_INTERFACE, TRANSFER_INSTRUCTION_V1_INTERFACE } from '../../reference-server/src/apps/index.js';
import { ALLOCATION_REQUEST_V1_INTERFACE } from '../../reference-server/src/apps/tokenStandard/ids.js';
import { ALLOCATION_FACTORY_V2_INTERFACE, SETTLEMENT_FACTORY_V2_INTERFACE } from '../../reference-server/src/apps/tokenStandard/idsV2.js';
import { type SpliceAppWorld } from '../../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import type { SpliceAmulet } from '../../reference-server/src/apps/splice/SpliceAmulet.js';
import { readSpliceDars } from '../../reference-server/src/apps/splice/spliceDars.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { closeAppServer, HOUR, iso, postJson, type AppServer, type RegistryFactory } from './support/appServer.js';
import { startSpliceWorldServer } from './support/spliceWorldServer.js';
import { create, exercise, mustSubmit, submit } from './support/jsonApi.js';
import { packageIdOf } from '../../reference-server/src/ledger/templates/Catalogue.js';

const SPLICE_DIR = join(DARS_DIR, 'splice');

/** A Daml value's JSON with its records' None fields left out: null and absent are the same None. */
function withoutNones(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNones);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNones(x)]));
}

describe.skipIf(!HAS_DARS)('the Splice DAR folder (needs ../shared/upstream/daml/dars)', () => {
  it('loads the highest version of each package and requires splice-amulet', () => {
    const set = readSpliceDars(SPLICE_DIR);
    expect(set.ok && [set.value.amulet.packageVersion, set.value.dars.filter((d) => d.packageName === 'splice-amulet').length]).toEqual(['0.1.22', 1]);
    const empty = mkdtempSync(join(tmpdir(), 'splice-dars-'));
    try {
      copyFileSync(join(SPLICE_DIR, 'splice-test-token-v1-1.0.0.dar'), join(empty, 'splice-test-token-v1-1.0.0.dar'));
      const refused = readSpliceDars(empty);
      expect(refused.ok ? '' : refused.error).toBe(`--splice-dars ${empty}: no splice-amulet DAR in the folder (found 1 other .dar files); copy LocalNet's or a Splice release's splice-amulet-<version>.dar there`);
    } finally {
      rmSync(empty, { recursive: true });
    }
    const missing = readSpliceDars(join(empty, 'gone'));
    expect(missing.ok ? '' : missing.error).toBe(`--splice-dars ${join(empty, 'gone')}: no such directory`);
  });
});

for (const [label, dar] of [['splice-amulet 0.1.22 (a Splice release)', 'splice/splice-amulet-0.1.22.dar'], ["splice-amulet 0.1.14 (LocalNet's)", 'splice-amulet-0.1.14.dar']] as const) {
  describe.skipIf(!HAS_DARS)(`the world on ${label} (needs ../shared/upstream/daml/dars)`, () => {
    let server: AppServer;
    let world: SpliceAppWorld;
    let splice: SpliceAmulet;
    let dso: string;
    beforeAll(async () => {
      ({ server, splice, world } = await startSpliceWorldServer([dar]));
      dso = world.parties.dso;
    }, 120_000);
    afterAll(() => closeAppServer(server));

    const transferArgs = (sender: string, receiver: string, amount: string, inputs: string[]) => ({
      expectedAdmin: dso,
      transfer: { sender, receiver, amount, instrumentId: { admin: dso, id: 'Amulet' }, requestedAt: iso(server.clock.now() - 60_000), executeBefore: iso(server.clock.now() + HOUR), inputHoldingCids: inputs, meta: { values: {} } },
      extraArgs: { context: { values: {} }, meta: { values: {} } },
    });
    const factory = async (args: unknown): Promise<RegistryFactory> => {
      const res = await postJson(server, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args, excludeDebugFields: true });
      expect(res.status, res.text).toBe(200);
      return res.body as RegistryFactory;
    };
    const withContext = (args: ReturnType<typeof transferArgs>, f: RegistryFactory) => ({ ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } });

    it('the transfer factory is the real ExternalPartyAmuletRules; a direct transfer to a preapproved receiver runs the real Amulet', async () => {
      const { alice, bob } = world.parties;
      const args = transferArgs(alice, bob, '100.0', [world.amulet.holdings.alice[0]]);
      const f = await factory(args);
      expect(f.factoryId).toBe(world.amulet.factory);
      expect(f.transferKind).toBe('direct');
      const keys = Object.keys(f.choiceContext.choiceContextData.values).sort();
      expect(keys).toEqual(['amulet-rules', 'open-round', ...(splice.externalPartyConfigState === undefined ? [] : ['external-party-config-state']), 'transfer-preapproval'].sort());
      expect(f.choiceContext.disclosedContracts.map((c) => c.templateId.split(':')[0])).toEqual(f.choiceContext.disclosedContracts.map(() => splice.packageId));
      // alice alone acts: the DSO's contracts reach her ledger as disclosed contracts.
      const tx = await mustSubmit(server, [alice], [exercise(TRANSFER_FACTORY_V1_INTERFACE, f.factoryId, 'TransferFactory_Transfer', withContext(args, f))], { disclosedContracts: f.choiceContext.disclosedContracts });
      expect(tx.archived).toContain(world.amulet.holdings.alice[0]);
      // alice sees her change; bob's 100 is his (a preapproved transfer needs no step of his).
      const amulets = (owner: string) => [...server.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.amulet })].filter((c) => c.argument.owner === owner).map((c) => (c.argument.amount as { initialAmount: string }).initialAmount);
      expect(tx.created.filter((c) => c.templateId === splice.ids.amulet)).toHaveLength(1);
      expect(amulets(bob)).toContain('100.0000000000');
      expect(amulets(alice)).toContain('900.0000000000');
    });

    it('without a valid preapproval the transfer is an offer; the accept context is Splice\'s and the real accept pays carol', async () => {
      const { alice, carol } = world.parties;
      const args = transferArgs(alice, carol, '10.0', [world.amulet.holdings.alice[1]]);
      const f = await factory(args);
      expect(f.transferKind).toBe('offer');
      const offered = await mustSubmit(server, [alice], [exercise(TRANSFER_FACTORY_V1_INTERFACE, f.factoryId, 'TransferFactory_Transfer', withContext(args, f))], { disclosedContracts: f.choiceContext.disclosedContracts });
      const instruction = offered.created.find((c) => c.templateId === splice.ids.amuletTransferInstruction)!;
      const res = await postJson(server, `/registry/transfer-instruction/v1/${instruction.contractId}/choice-contexts/accept`, { meta: {}, excludeDebugFields: true });
      expect(res.status, res.text).toBe(200);
      const context = res.body as RegistryFactory['choiceContext'];
      expect(context.choiceContextData.values['expire-lock']).toEqual({ tag: 'AV_Bool', value: true });
      const accepted = await mustSubmit(server, [carol], [exercise(TRANSFER_INSTRUCTION_V1_INTERFACE, instruction.contractId, 'TransferInstruction_Accept', { extraArgs: { context: context.choiceContextData, meta: { values: {} } } })], { disclosedContracts: context.disclosedContracts });
      expect(accepted.created.filter((c) => c.templateId === splice.ids.amulet)).toHaveLength(1);
      expect(accepted.archived).toContain(instruction.contractId);
    });

    it('a `#splice-amulet` id names the loaded package in commands, filters and package selection; the port leaves /v2/packages', async () => {
      const { dso, alice } = world.parties;
      // A create by package name runs the real package (the port is version 1.0.0, above any Splice release).
      const created = await mustSubmit(server, [dso], [create('#splice-amulet:Splice.Amulet:FeaturedAppRight', { dso, provider: alice })]);
      expect(created.created.map((c) => c.templateId)).toEqual([`${splice.packageId}:Splice.Amulet:FeaturedAppRight`]);
      // A name the real package lacks is not answered by the port.
      const missing = await submit(server, [dso], [create('#splice-amulet:Splice.Amulet:NoSuchTemplate', { dso })]);
      expect(missing.status).toBe(404);
      expect(JSON.stringify(missing.body)).toContain('TEMPLATES_OR_INTERFACES_NOT_FOUND');
      // The participant lists, vets and selects Splice's splice-amulet only.
      const listed = ((await server.http.get('/v2/packages')).body as { packageIds: string[] }).packageIds;
      expect(listed).toContain(splice.packageId);
      expect(listed).not.toContain(packageIdOf('splice-amulet'));
      const preferred = await server.http.post('/v2/interactive-submission/preferred-packages').send(Buffer.from(JSON.stringify({ packageVettingRequirements: [{ parties: [alice], packageName: 'splice-amulet' }] })));
      expect(preferred.status, preferred.text).toBe(200);
      expect((preferred.body as { packageReferences: unknown[] }).packageReferences).toEqual([{ packageId: splice.packageId, packageName: 'splice-amulet', packageVersion: splice.version }]);
      // A template filter by package name reads the real contracts.
      const end = (await server.http.get('/v2/state/ledger-end')).body as { offset: number };
      const acs = await server.http.post('/v2/state/active-contracts').send(Buffer.from(JSON.stringify({
        activeAtOffset: end.offset,
        eventFormat: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: '#splice-amulet:Splice.Amulet:Amulet', includeCreatedEventBlob: false } } } }] } }, verbose: false },
      })));
      expect(acs.status, acs.text.slice(0, 300)).toBe(200);
      const templates = (acs.body as { contractEntry: { JsActiveContract: { createdEvent: { templateId: string } } } }[]).map((e) => e.contractEntry.JsActiveContract.createdEvent.templateId);
      expect(templates.length).toBeGreaterThan(0);
      expect(new Set(templates)).toEqual(new Set([splice.ids.amulet]));
    });

    it('Scan reads the real rounds and preapprovals', async () => {
      const rounds = await postJson(server, '/v0/open-and-issuing-mining-rounds', { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] });
      expect(rounds.status, rounds.text).toBe(200);
      const open = Object.values((rounds.body as { open_mining_rounds: Record<string, { contract: { template_id: string; contract_id: string } }> }).open_mining_rounds);
      expect(open.map((r) => r.contract.template_id)).toEqual(open.map(() => splice.ids.openMiningRound));
      const preapproval = await server.http.get(`/v0/transfer-preapprovals/by-party/${encodeURIComponent(world.parties.bob)}`);
      expect(preapproval.status, preapproval.text).toBe(200);
      expect((preapproval.body as { transfer_preapproval: { contract: { contract_id: string; template_id: string } } }).transfer_preapproval.contract).toMatchObject({ contract_id: world.preapprovals.bobNewer, template_id: splice.ids.transferPreapproval });
    });

    it('v2 history: every holding change of every party is explained by an EventLog_HoldingsChange (0.1.22; none on 0.1.14)', async () => {
      const holdingTemplates = new Set([splice.ids.amulet, splice.ids.lockedAmulet]);
      let explained = 0;
      for (const party of [world.parties.alice, world.parties.bob, world.parties.carol]) {
        const res = await server.http.post('/v2/updates').send(Buffer.from(JSON.stringify({
          beginExclusive: 0,
          updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [party]: { cumulative: [] } }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
        })));
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        type Ev = { CreatedEvent?: { contractId: string; templateId: string; createArgument: Record<string, unknown> }; ExercisedEvent?: { contractId: string; templateId: string; choice: string; consuming: boolean; choiceArgument: { account?: { owner: string }; inputHoldingCids?: string[]; outputHoldingCids?: string[] } } };
        const owned = new Set<string>();
        for (const u of res.body as { update: { Transaction?: { value: { events: Ev[] } } } }[]) {
          const events = u.update.Transaction?.value.events ?? [];
          const changed = new Set<string>();
          for (const e of events) {
            const c = e.CreatedEvent;
            if (c !== undefined && holdingTemplates.has(c.templateId)) {
              const owner = c.templateId === splice.ids.amulet ? c.createArgument.owner : (c.createArgument.amulet as { owner: string }).owner;
              if (owner === party) {
                owned.add(c.contractId);
                changed.add(c.contractId);
              }
            }
            const x = e.ExercisedEvent;
            if (x !== undefined && x.consuming && owned.has(x.contractId)) changed.add(x.contractId);
          }
          const logged = new Set(events.flatMap((e) => (e.ExercisedEvent?.choice === 'EventLog_HoldingsChange' && e.ExercisedEvent.choiceArgument.account?.owner === party ? [...(e.ExercisedEvent.choiceArgument.inputHoldingCids ?? []), ...(e.ExercisedEvent.choiceArgument.outputHoldingCids ?? [])] : [])));
          if (splice.externalPartyConfigState === undefined) {
            expect(logged.size).toBe(0);
            continue;
          }
          for (const cid of changed) expect(logged.has(cid), `${party}'s holding ${cid} changed without an EventLog_HoldingsChange`).toBe(true);
          explained += changed.size;
        }
      }
      // The taps, the transfers above (direct and two-step, and carol's accept) all changed holdings.
      if (splice.externalPartyConfigState !== undefined) expect(explained).toBeGreaterThanOrEqual(10);
    });

    it('the DSO advances the rounds by the real choices as the clock passes their target close', async () => {
      const { alice, bob } = world.parties;
      const roundOf = async () => {
        const f = await factory(transferArgs(alice, bob, '1.0', []));
        const round = f.choiceContext.disclosedContracts.find((c) => c.contractId === (f.choiceContext.choiceContextData.values['open-round'] as { value: string }).value)!;
        return round.contractId;
      };
      // The seeded history left rounds 5-7 open (7 opens a tick ahead); the registry answers the latest opened.
      const [round5, round6, round7] = world.rounds.openRounds;
      expect(await roundOf()).toBe(round6);
      // A tick on: round 5 has reached its target close and round 7 has opened, so the DSO
      // archives round 5 (AmuletRules_AdvanceOpenMiningRounds) and opens round 8 a tick ahead.
      server.clock.advance(600_000);
      expect(await roundOf()).toBe(round7);
      expect(server.ledger.isActive(round5)).toBe(false);
      const numbers = (template: typeof splice.templates.openMiningRound) => [...server.ledger.store.activeSnapshot({ kind: 'template', template })].map((c) => Number((c.argument.round as { number: string }).number)).sort((a, b) => a - b);
      expect(numbers(splice.templates.openMiningRound)).toEqual([6, 7, 8]);
      // Round 5 went on to summarizing and started issuing (AmuletRules_MiningRound_StartIssuing);
      // round 2 reached its issuing target close and was closed and archived (none left closed).
      expect(numbers(splice.templates.issuingMiningRound)).toEqual([3, 4, 5]);
      expect(numbers(splice.templates.closedMiningRound)).toEqual([]);
    });

    it('after a day idle the DSO starts a new round schedule from now, and a transfer goes through', async () => {
      const { alice, bob } = world.parties;
      server.clock.advance(24 * HOUR + 1);
      const [holding] = [...server.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.amulet })].filter((c) => c.argument.owner === alice);
      const args = transferArgs(alice, bob, '1.0', [holding!.contractId]);
      const f = await factory(args);
      const now = server.clock.now();
      const round = server.ledger.store.contract((f.choiceContext.choiceContextData.values['open-round'] as { value: string }).value)!;
      // What wallet-sdk's tap looks for: a round open now.
      expect(Date.parse(round.argument.opensAt as string) <= now && now < Date.parse(round.argument.targetClosesAt as string)).toBe(true);
      await mustSubmit(server, [alice], [exercise(TRANSFER_FACTORY_V1_INTERFACE, f.factoryId, 'TransferFactory_Transfer', withContext(args, f))], { disclosedContracts: f.choiceContext.disclosedContracts });
    });

    it('the allocation factory is the real ExternalPartyAmuletRules: AllocationFactory_Allocate locks the leg, the execute-transfer context settles it', async () => {
      const { alice, bob, 'trading-venue': venue } = world.parties;
      const [holding] = [...server.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.amulet })].filter((c) => c.argument.owner === alice);
      const settlement = { executor: venue, settlementRef: { id: 'otc-real', cid: null }, requestedAt: iso(server.clock.now() - 60_000), allocateBefore: iso(server.clock.now() + HOUR), settleBefore: iso(server.clock.now() + 2 * HOUR), meta: { values: {} } };
      const args = {
        expectedAdmin: dso,
        allocation: { settlement, transferLegId: 'leg-0', transferLeg: { sender: alice, receiver: bob, amount: '5.0', instrumentId: { admin: dso, id: 'Amulet' }, meta: { values: {} } } },
        requestedAt: iso(server.clock.now() - 60_000),
        inputHoldingCids: [holding!.contractId],
        extraArgs: { context: { values: {} }, meta: { values: {} } },
      };
      const res = await postJson(server, '/registry/allocation-instruction/v1/allocation-factory', { choiceArguments: args, excludeDebugFields: true });
      expect(res.status, res.text).toBe(200);
      const f = res.body as RegistryFactory;
      expect(f.factoryId).toBe(world.amulet.factory);
      expect(Object.keys(f.choiceContext.choiceContextData.values).sort()).toEqual(['amulet-rules', 'open-round', ...(splice.externalPartyConfigState === undefined ? [] : ['external-party-config-state'])].sort());
      const allocated = await mustSubmit(server, [alice], [exercise(ALLOCATION_FACTORY_V1_INTERFACE, f.factoryId, 'AllocationFactory_Allocate', { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } })], { disclosedContracts: f.choiceContext.disclosedContracts });
      const allocation = allocated.created.find((c) => c.templateId === splice.ids.amuletAllocation)!;
      expect(allocated.created.some((c) => c.templateId === splice.ids.lockedAmulet)).toBe(true);
      const ctx = await postJson(server, `/registry/allocations/v1/${allocation.contractId}/choice-contexts/execute-transfer`, { meta: {}, excludeDebugFields: true });
      expect(ctx.status, ctx.text).toBe(200);
      const context = ctx.body as RegistryFactory['choiceContext'];
      const executed = await mustSubmit(server, [venue, alice, bob], [exercise(ALLOCATION_V1_INTERFACE, allocation.contractId, 'Allocation_ExecuteTransfer', { extraArgs: { context: context.choiceContextData, meta: { values: {} } } })], { disclosedContracts: context.disclosedContracts });
      expect(executed.archived).toContain(allocation.contractId);
      const paid = executed.created.filter((c) => c.templateId === splice.ids.amulet).map((c) => server.ledger.store.contract(c.contractId)!.argument).filter((a) => a.owner === bob);
      expect(paid.map((a) => (a.amount as { initialAmount: string }).initialAmount)).toEqual(['5.0000000000']);
    });

    it('the instrument lists the v2 APIs, and the v2 paths answer, only where this splice-amulet implements v2', async () => {
      const v2 = !dar.endsWith('0.1.14.dar');
      const instrument = (await server.http.get('/registry/metadata/v1/instruments/Amulet')).body as { supportedApis: Record<string, number> };
      expect(Object.keys(instrument.supportedApis).filter((api) => api.endsWith('-v2')).sort()).toEqual(v2 ? ['splice-api-token-allocation-instruction-v2', 'splice-api-token-allocation-v2', 'splice-api-token-holding-v2', 'splice-api-token-transfer-instruction-v2'] : []);
      expect(instrument.supportedApis['splice-api-token-transfer-instruction-v1']).toBe(1);
      const { alice, bob } = world.parties;
      const args = { actors: [alice], transfer: { ...transferArgs(alice, bob, '1.0', [world.amulet.holdings.alice[0]]).transfer, sender: { owner: alice, provider: null, id: '' }, receiver: { owner: bob, provider: null, id: '' } }, extraArgs: { context: { values: {} }, meta: { values: {} } } };
      const paths = [
        ['/registry/transfer-instruction/v2/transfer-factory', { choiceArguments: args, excludeDebugFields: true }],
        [`/registry/transfer-instruction/v2/${world.amulet.transferToCarol}/choice-contexts/accept`, {}],
        [`/registry/allocations/v2/${world.amulet.allocation}/choice-contexts/withdraw`, {}],
      ] as const;
      for (const [path, body] of paths) {
        const res = await postJson(server, path, body);
        if (v2) expect(res.status, `${path}: ${res.text}`).toBe(200);
        else expect([path, res.status, (res.body as { error?: string }).error]).toEqual([path, 400, `This registry's Amulet (splice-amulet, package ${splice.packageId}) implements only the v1 token standard; use its /registry/.../v1/ paths`]);
      }
    });

    // Token standard v2 (splice-amulet 0.1.22 implements it; LocalNet's 0.1.14 has none).
    it.skipIf(dar.endsWith('0.1.14.dar'))('v2: both sides allocate through the v2 allocation factory and the venue settles the batch through the settlement factory', async () => {
      const { alice, bob, 'trading-venue': venue } = world.parties;
      const account = (owner: string) => ({ owner, provider: null, id: '' });
      const now = server.clock.now();
      const settlement = { executors: [venue], id: 'dvp-real', cid: null, meta: { values: {} } };
      const leg = { transferLegId: 'leg-1', sender: account(alice), receiver: account(bob), amount: '3.0', instrumentId: 'Amulet', meta: { values: {} } };
      const [holding] = [...server.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.amulet })].filter((c) => c.argument.owner === alice);
      const allocationIds: string[] = [];
      for (const [party, side, inputs] of [[alice, 'SenderSide', [holding!.contractId]], [bob, 'ReceiverSide', []]] as const) {
        // splice-api-token-allocation-instruction-v2 1.0.0: the settlement beside the specification.
        const args = {
          settlement,
          allocation: { admin: dso, authorizer: account(party), transferLegSides: [{ transferLegId: leg.transferLegId, side, otherside: side === 'SenderSide' ? leg.receiver : leg.sender, amount: leg.amount, instrumentId: 'Amulet', meta: { values: {} } }], settlementDeadline: iso(now + HOUR), nextIterationFunding: null, committed: false, meta: { values: {} } },
          requestedAt: iso(now - 60_000),
          inputHoldingCids: [...inputs],
          extraArgs: { context: { values: {} }, meta: { values: {} } },
          actors: [party],
        };
        const res = await postJson(server, '/registry/allocation-instruction/v2/allocation-factory', { choiceArguments: args, excludeDebugFields: true });
        expect(res.status, res.text).toBe(200);
        const f = res.body as RegistryFactory;
        expect(f.factoryId).toBe(world.amulet.factory);
        const r = await mustSubmit(server, [party], [exercise(ALLOCATION_FACTORY_V2_INTERFACE, f.factoryId, 'AllocationFactory_Allocate', { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } })], { disclosedContracts: f.choiceContext.disclosedContracts });
        allocationIds.push(r.created.find((c) => !c.templateId.endsWith(':Splice.Amulet:LockedAmulet') && !c.templateId.endsWith(':Splice.Amulet:Amulet'))!.contractId);
      }
      // The v2 cancel context of a real AmuletAllocationV2 (its admin is the specification's: the real template has no dso field).
      const cancel = await postJson(server, `/registry/allocations/v2/${allocationIds[0]!}/choice-contexts/cancel`, { excludeDebugFields: true });
      expect(cancel.status, cancel.text).toBe(200);
      expect(Object.keys((cancel.body as RegistryFactory['choiceContext']).choiceContextData.values)).toEqual(expect.arrayContaining(['amulet-rules', 'open-round']));
      const settleArgs = { settlement, transferLegs: [leg], allocations: allocationIds.map((allocationCid) => ({ allocationCid, extraTransferLegSides: [], nextIterationFunding: null })), actors: [venue], extraArgs: { context: { values: {} }, meta: { values: {} } } };
      const res = await postJson(server, '/registry/allocation/v2/settlement-factory', { choiceArguments: settleArgs, excludeDebugFields: true });
      expect(res.status, res.text).toBe(200);
      const f = res.body as RegistryFactory;
      const settled = await mustSubmit(server, [venue], [exercise(SETTLEMENT_FACTORY_V2_INTERFACE, f.factoryId, 'SettlementFactory_SettleBatch', { ...settleArgs, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } })], { disclosedContracts: f.choiceContext.disclosedContracts });
      expect(settled.archived).toEqual(expect.arrayContaining(allocationIds));
      // bob's new amulet is not the venue's to see: read it from the ledger, created by the settlement.
      const offset = server.ledger.store.contract(allocationIds[0]!)!.archivedOffset;
      const paid = [...server.ledger.store.activeSnapshot({ kind: 'template', template: splice.templates.amulet })].filter((c) => c.argument.owner === bob && c.createdOffset === offset);
      expect(paid.map((c) => (c.argument.amount as { initialAmount: string }).initialAmount)).toEqual(['3.0000000000']);
    });

    it('trade otc-1: the venue\'s request and bob\'s real AmuletAllocation of leg-0 are seeded, read through the interfaces, and the venue settles it', async () => {
      const { alice, bob, 'trading-venue': venue } = world.parties;
      const { allocationRequest, allocation, lockedForAllocation } = world.amulet;
      type View = { contractId: string; templateId: string; view: Record<string, unknown> };
      const byInterface = async (party: string, interfaceId: string): Promise<View[]> => {
        const end = (await server.http.get('/v2/state/ledger-end')).body as { offset: number };
        const res = await server.http.post('/v2/state/active-contracts').send(Buffer.from(JSON.stringify({
          activeAtOffset: end.offset,
          eventFormat: { filtersByParty: { [party]: { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] } }, verbose: false },
        })));
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        return (res.body as { contractEntry: { JsActiveContract: { createdEvent: { contractId: string; templateId: string; interfaceViews: { viewValue: Record<string, unknown> }[] } } } }[])
          .map((e) => e.contractEntry.JsActiveContract.createdEvent).map((c) => ({ contractId: c.contractId, templateId: c.templateId, view: c.interfaceViews[0]!.viewValue }));
      };
      // What wallet-sdk's allocation.request.pending reads: the request, for both traders.
      for (const party of [alice, bob]) {
        const requests = await byInterface(party, ALLOCATION_REQUEST_V1_INTERFACE);
        expect(requests.map((r) => r.contractId)).toContain(allocationRequest);
      }
      const [request] = (await byInterface(bob, ALLOCATION_REQUEST_V1_INTERFACE)).filter((r) => r.contractId === allocationRequest);
      const settlement = request!.view.settlement as { settlementRef: { id: string } };
      expect(settlement.settlementRef.id).toBe('otc-1');
      // What allocation.pending reads: bob's allocation, the real package's, exactly the request's leg-0.
      const [mine] = (await byInterface(bob, ALLOCATION_V1_INTERFACE)).filter((a) => a.contractId === allocation);
      expect(mine?.templateId).toBe(splice.ids.amuletAllocation);
      // As Daml values: the real package's view leaves its trailing Nones out, as Canton writes values; the venue's port writes null.
      expect(withoutNones(mine!.view.allocation)).toEqual(withoutNones({ settlement: request!.view.settlement, transferLegId: 'leg-0', transferLeg: (request!.view.transferLegs as Record<string, unknown>)['leg-0'] }));
      const locked = server.ledger.store.contract(lockedForAllocation)!;
      expect(locked.template).toBe(splice.templates.lockedAmulet);
      expect((locked.argument.amulet as { amount: { initialAmount: string } }).amount.initialAmount).toBe('20.0000000000');
      // bob's 500 stays whole beside it, as on the ports.
      expect(server.ledger.isActive(world.amulet.holdings.bob[0])).toBe(true);
      // The venue settles the leg with the registry's execute-transfer context: alice is paid 20.
      const ctx = await postJson(server, `/registry/allocations/v1/${allocation}/choice-contexts/execute-transfer`, { meta: {}, excludeDebugFields: true });
      expect(ctx.status, ctx.text).toBe(200);
      const context = ctx.body as RegistryFactory['choiceContext'];
      const executed = await mustSubmit(server, [venue, alice, bob], [exercise(ALLOCATION_V1_INTERFACE, allocation, 'Allocation_ExecuteTransfer', { extraArgs: { context: context.choiceContextData, meta: { values: {} } } })], { disclosedContracts: context.disclosedContracts });
      expect(executed.archived).toEqual(expect.arrayContaining([allocation, lockedForAllocation]));
      const paid = executed.created.filter((c) => c.templateId === splice.ids.amulet).map((c) => server.ledger.store.contract(c.contractId)!.argument).filter((a) => a.owner === alice);
      expect(paid.map((a) => (a.amount as { initialAmount: string }).initialAmount)).toEqual(['20.0000000000']);
    });
  });
}
