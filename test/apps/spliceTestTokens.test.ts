/**
 * The registries of Splice's test tokens (splice-test-token-v1 and -v2) on the default world built
 * on Splice's DARs: one registry per admin under `/registries/{admin}`, answering the token
 * standard's registry API from the real contracts (metadata from the holdings, the admin's
 * TokenRules as the factory, the contexts the test tokens' Daml reads), so a wallet transfers
 * and accepts over HTTP as against any registry, and the real package decides.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK } from '@canton-network/wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../conformance/src/checks/catalogue.js';
import type { Profile } from '../../conformance/src/runner/profile.js';
import { runSuite } from '../../conformance/src/runner/runSuite.js';
import { sandboxToken } from '../../reference-server/src/msw/index.js';
import { type SpliceAppWorld } from '../../reference-server/src/apps/splice/seedSpliceAppWorld.js';
import { uploadDars } from '../../reference-server/src/ledger/packages/startupDars.js';
import type { SeededTestToken } from '../../reference-server/src/apps/splice/testTokens/seedTestTokens.js';
import { TEST_TOKEN_KINDS, templateVersions } from '../../reference-server/src/apps/splice/testTokens/testTokenKinds.js';
import { installWebSocket } from '../clients/support/installWebSocket.js';
import { quietSdkLogs, sdkLogAdapter } from '../clients/support/quietSdkLogs.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { closeAppServer, getJson, HOUR, iso, postJson, startAppServer, type AppServer, type RegistryFactory } from './support/appServer.js';
import { startSpliceWorldServer } from './support/spliceWorldServer.js';
import { allocateParty, mustSubmit, submit } from './support/jsonApi.js';

const DARS = ['splice-amulet-0.1.22.dar', 'splice-test-token-v1-1.0.0.dar', 'splice-test-token-v2-1.0.0.dar'];
const TRANSFER_FACTORY_V1 = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory';
const TRANSFER_INSTRUCTION_V1 = '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction';
const TRANSFER_FACTORY_V2 = '#splice-api-token-transfer-instruction-v2:Splice.Api.Token.TransferInstructionV2:TransferFactory';
const ALLOCATION_FACTORY_V1 = '#splice-api-token-allocation-instruction-v1:Splice.Api.Token.AllocationInstructionV1:AllocationFactory';
const ALLOCATION_V1 = '#splice-api-token-allocation-v1:Splice.Api.Token.AllocationV1:Allocation';
const ALLOCATION_FACTORY_V2 = '#splice-api-token-allocation-instruction-v2:Splice.Api.Token.AllocationInstructionV2:AllocationFactory';
const ALLOCATION_V2 = '#splice-api-token-allocation-v2:Splice.Api.Token.AllocationV2:Allocation';
const SETTLEMENT_FACTORY_V2 = '#splice-api-token-allocation-v2:Splice.Api.Token.AllocationV2:SettlementFactory';
const EMPTY_META = { values: {} };

quietSdkLogs();

/** wallet-sdk 1.4.0 with only the token namespace: the ledger and the registries a wallet lists. */
async function createSdk(ledgerUrl: string, registries: URL[]) {
  const auth = { method: 'static' as const, token: sandboxToken() };
  return SDK.create({ auth, ledgerClientUrl: new URL(ledgerUrl), logAdapter: sdkLogAdapter, token: { auth, registries } });
}

describe.skipIf(!HAS_DARS)('the test tokens\' registries on Splice\'s DARs (needs ../shared/upstream/daml/dars)', () => {
  let server: AppServer;
  let world: SpliceAppWorld;
  beforeAll(async () => {
    ({ server, world } = await startSpliceWorldServer(DARS.map((d) => `splice/${d}`)));
  }, 180_000);
  afterAll(() => closeAppServer(server));

  const token = (flavour: 'v1' | 'v2'): SeededTestToken => world.testTokens[flavour]!;
  const base = (flavour: 'v1' | 'v2') => `/registries/test-token-${flavour}`;
  /** The active tokens of `owner` (v1's holding owner, v2's account owner). */
  const tokensOf = (flavour: 'v1' | 'v2', owner: string) => {
    const kind = TEST_TOKEN_KINDS.find((k) => k.flavour === flavour)!;
    return templateVersions(server.ledger, kind.packageName, kind.token).flatMap((template) =>
      server.ledger.store.activeSnapshot({ kind: 'template', template }).filter((c) => {
        const h = c.argument.holding as { owner?: string; account?: { owner: string } };
        return (h.owner ?? h.account?.owner) === owner;
      }),
    );
  };
  /** An unlocked holding of `owner` of the token of at least `amount` (earlier tests spend the seeded ones). */
  const holdingOf = (flavour: 'v1' | 'v2', owner: string, amount: number): string => {
    const found = tokensOf(flavour, owner).find((c) => {
      const h = c.argument.holding as { amount: string; lock: unknown };
      return h.lock === null && Number(h.amount) >= amount;
    });
    if (found === undefined) throw new Error(`no ${flavour} holding of ${owner} of ${amount}`);
    return found.contractId;
  };

  // First, while the seeded offers are pending: the suite's registry checks, given the registry's URL.
  for (const flavour of ['v1', 'v2'] as const) {
    it(`passes the conformance suite's registry checks at /registries/test-token-${flavour}`, async () => {
      const t = token(flavour);
      const url = `${server.url}${base(flavour)}`;
      const profile: Profile = {
        name: `test-token-${flavour}`,
        groups: ['registry'],
        writes: false,
        registry: {
          apis: flavour === 'v1' ? ['metadata-v1', 'transfer-instruction-v1', 'allocation-instruction-v1', 'allocation-v1'] : ['metadata-v1', 'transfer-instruction-v1', 'transfer-instruction-v2', 'allocation-instruction-v1', 'allocation-instruction-v2', 'allocation-v1', 'allocation-v2'],
          transferInstructionId: t.transferToCarol,
          allocationId: t.bobsAllocation,
          transferSender: world.parties.alice,
          transferReceiver: world.parties.bob,
        },
      };
      const { report } = await runSuite({ baseUrls: { registry: url, ledger: server.url, scan: server.url }, target: url, profile, seed: 7, runs: 5, timeoutMs: 10_000, progress: 'quiet', toolVersion: 'test', checks: catalogue() });
      const failed = report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.message ?? ''}`.slice(0, 400));
      expect(failed).toEqual([]);
      const passed = report.checks.filter((c) => c.status === 'pass').map((c) => c.id);
      expect(passed.length).toBeGreaterThan(10);
      expect(passed).toEqual(expect.arrayContaining([expect.stringMatching(/transfer/)]));
      // v2's allocation factory refuses malformed arguments as Amulet's does (11 decimals, a bare party as the authorizer).
      if (flavour === 'v2') expect(passed).toEqual(expect.arrayContaining(['registry.allocation-factory.bad-input-400', 'registry.allocation-factory.bad-input-400-v2']));
    }, 120_000);
  }

  for (const flavour of ['v1', 'v2'] as const) {
    describe(`splice-test-token-${flavour}`, () => {
      it('serves metadata from the real contracts: the admin, and the instrument of its holdings with their total', async () => {
        const t = token(flavour);
        const info = await getJson(server, `${base(flavour)}/registry/metadata/v1/info`);
        expect([info.status, info.body.adminId]).toEqual([200, t.admin]);
        // The admin's party id names the same registry as its hint.
        const byId = await getJson(server, `/registries/${encodeURIComponent(t.admin)}/registry/metadata/v1/info`);
        expect(byId.body).toEqual(info.body);
        const list = await getJson(server, `${base(flavour)}/registry/metadata/v1/instruments`);
        expect(list.status).toBe(200);
        // alice 1000 + 75 change, bob 500 + 30 change, the 25 locked for carol and the 20 bob allocated (v1: the offer and the allocation hold them).
        expect(list.body.instruments.map((i: { id: string; totalSupply: string }) => [i.id, i.totalSupply])).toEqual([[t.instrumentId, '1650.0000000000']]);
        const apis = Object.keys(list.body.instruments[0].supportedApis).sort();
        expect(apis).toEqual(
          flavour === 'v1'
            ? ['splice-api-token-allocation-instruction-v1', 'splice-api-token-allocation-v1', 'splice-api-token-holding-v1', 'splice-api-token-metadata-v1', 'splice-api-token-transfer-instruction-v1']
            : expect.arrayContaining(['splice-api-token-holding-v2', 'splice-api-token-transfer-instruction-v1', 'splice-api-token-transfer-instruction-v2', 'splice-api-token-allocation-v2']),
        );
        const one = await getJson(server, `${base(flavour)}/registry/metadata/v1/instruments/${t.instrumentId}`);
        expect(one.body).toEqual(list.body.instruments[0]);
        const missing = await getJson(server, `${base(flavour)}/registry/metadata/v1/instruments/Amulet`);
        expect(missing.status).toBe(404);
      });

      it('answers the transfer factory with the admin\'s TokenRules, and the real choice transfers; carol accepts the seeded offer with its context', async () => {
        const t = token(flavour);
        const { alice, bob, carol } = world.parties;
        const transfer = { sender: alice, receiver: bob, amount: '40.0', instrumentId: { admin: t.admin, id: t.instrumentId }, requestedAt: iso(server.clock.now() - 60_000), executeBefore: iso(server.clock.now() + HOUR), inputHoldingCids: [t.holdings.alice], meta: EMPTY_META };
        const args = { expectedAdmin: t.admin, transfer, extraArgs: { context: { values: {} }, meta: EMPTY_META } };
        const res = await postJson(server, `${base(flavour)}/registry/transfer-instruction/v1/transfer-factory`, { choiceArguments: args, excludeDebugFields: true });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const factory = res.body as RegistryFactory;
        expect([factory.factoryId, factory.transferKind, factory.choiceContext.disclosedContracts.map((d) => d.contractId)]).toEqual([t.rules, 'offer', [t.rules]]);
        expect(factory.choiceContext.choiceContextData.values).toEqual(flavour === 'v1' ? {} : { 'testTokenV2/tokenRules': { tag: 'AV_ContractId', value: t.rules } });
        const offered = await mustSubmit(server, [alice], [{ ExerciseCommand: { templateId: TRANSFER_FACTORY_V1, contractId: factory.factoryId, choice: 'TransferFactory_Transfer', choiceArgument: { ...args, extraArgs: { context: factory.choiceContext.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: factory.choiceContext.disclosedContracts });
        const offer = offered.created.find((c) => c.templateId.endsWith(':TokenTransferOffer'))!;
        expect(offer).toBeDefined();

        // alice withdraws it with the withdraw context: her 40 come back.
        const withdrawCtx = await postJson(server, `${base(flavour)}/registry/transfer-instruction/v1/${offer.contractId}/choice-contexts/withdraw`, { excludeDebugFields: true });
        expect(withdrawCtx.status, JSON.stringify(withdrawCtx.body)).toBe(200);
        const wc = withdrawCtx.body as RegistryFactory['choiceContext'];
        const withdrawn = await mustSubmit(server, [alice], [{ ExerciseCommand: { templateId: TRANSFER_INSTRUCTION_V1, contractId: offer.contractId, choice: 'TransferInstruction_Withdraw', choiceArgument: { extraArgs: { context: wc.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: wc.disclosedContracts });
        expect(withdrawn.archived).toContain(offer.contractId);

        // carol accepts alice's seeded 25 with the context the registry gives her.
        const ctx = await postJson(server, `${base(flavour)}/registry/transfer-instruction/v1/${t.transferToCarol}/choice-contexts/accept`, { meta: {}, excludeDebugFields: true });
        expect(ctx.status, JSON.stringify(ctx.body)).toBe(200);
        const context = ctx.body as RegistryFactory['choiceContext'];
        if (flavour === 'v2') {
          // What the context carries is what the choice needs: without it carol cannot accept
          // (the v2 token logs on the rules it names and archives alice's locked token, which carol does not see).
          expect(Object.keys(context.choiceContextData.values)).toEqual(['testTokenV2/tokenRules']);
          expect(context.disclosedContracts.map((d) => d.contractId)).toEqual([t.rules, expect.any(String)]);
          const bare = await submit(server, [carol], [{ ExerciseCommand: { templateId: TRANSFER_INSTRUCTION_V1, contractId: t.transferToCarol, choice: 'TransferInstruction_Accept', choiceArgument: { extraArgs: { context: { values: {} }, meta: EMPTY_META } } } }]);
          expect(bare.status).not.toBe(200);
        } else {
          expect(context).toEqual({ choiceContextData: { values: {} }, disclosedContracts: [] });
        }
        const accepted = await submit(server, [carol], [{ ExerciseCommand: { templateId: TRANSFER_INSTRUCTION_V1, contractId: t.transferToCarol, choice: 'TransferInstruction_Accept', choiceArgument: { extraArgs: { context: context.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: context.disclosedContracts });
        expect(accepted.status, JSON.stringify(accepted.body).slice(0, 600)).toBe(200);
        expect(accepted.archived).toContain(t.transferToCarol);
        // Gone: the instruction's contexts are 404 now.
        const again = await postJson(server, `${base(flavour)}/registry/transfer-instruction/v1/${t.transferToCarol}/choice-contexts/reject`, {});
        expect(again.status).toBe(404);
      });
    });
  }

  for (const flavour of ['v1', 'v2'] as const) {
    it(`allocates ${flavour === 'v1' ? 'TestTokenV1' : 'TestTokenV2'} through the v1 allocation factory; the allocation's withdraw and execute-transfer contexts settle it`, async () => {
      const t = token(flavour);
      const { alice, bob, 'trading-venue': venue } = world.parties;
      const now = server.clock.now();
      const allocate = async (legId: string, input: string) => {
        const args = {
          expectedAdmin: t.admin,
          allocation: {
            settlement: { executor: venue, settlementRef: { id: `trade-${flavour}`, cid: null }, requestedAt: iso(now - 60_000), allocateBefore: iso(now + HOUR), settleBefore: iso(now + 2 * HOUR), meta: EMPTY_META },
            transferLegId: legId,
            transferLeg: { sender: alice, receiver: bob, amount: '10.0', instrumentId: { admin: t.admin, id: t.instrumentId }, meta: EMPTY_META },
          },
          requestedAt: iso(now - 60_000),
          inputHoldingCids: [input],
          extraArgs: { context: { values: {} }, meta: EMPTY_META },
        };
        const res = await postJson(server, `${base(flavour)}/registry/allocation-instruction/v1/allocation-factory`, { choiceArguments: args, excludeDebugFields: true });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const factory = res.body as RegistryFactory;
        expect(factory.factoryId).toBe(t.rules);
        const tx = await mustSubmit(server, [alice], [{ ExerciseCommand: { templateId: ALLOCATION_FACTORY_V1, contractId: factory.factoryId, choice: 'AllocationFactory_Allocate', choiceArgument: { ...args, extraArgs: { context: factory.choiceContext.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: factory.choiceContext.disclosedContracts });
        const allocation = tx.created.find((c) => /:TokenAllocation(V1)?$/.test(c.templateId))!;
        expect(allocation, JSON.stringify(tx.created)).toBeDefined();
        const change = tx.created.find((c) => c.templateId.endsWith(':Token') && c.contractId !== allocation.contractId);
        return { allocation: allocation.contractId, change: change?.contractId };
      };
      const contextFor = async (id: string, choice: 'withdraw' | 'execute-transfer') => {
        const res = await postJson(server, `${base(flavour)}/registry/allocations/v1/${id}/choice-contexts/${choice}`, { excludeDebugFields: true });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body as RegistryFactory['choiceContext'];
      };
      const exercise = (actAs: string[], id: string, choice: string, context: RegistryFactory['choiceContext'], extra: Record<string, unknown> = {}) =>
        submit(server, actAs, [{ ExerciseCommand: { templateId: ALLOCATION_V1, contractId: id, choice, choiceArgument: { ...extra, extraArgs: { context: context.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: context.disclosedContracts });

      const first = await allocate('leg-withdrawn', holdingOf(flavour, alice, 10));
      const withdrawn = await exercise([alice], first.allocation, 'Allocation_Withdraw', await contextFor(first.allocation, 'withdraw'));
      expect(withdrawn.status, JSON.stringify(withdrawn.body).slice(0, 600)).toBe(200);
      expect(withdrawn.archived).toContain(first.allocation);
      const gone = await postJson(server, `${base(flavour)}/registry/allocations/v1/${first.allocation}/choice-contexts/cancel`, {});
      expect(gone.status).toBe(404);

      // Allocation_ExecuteTransfer's controllers are the executor, the sender and the receiver (a trading app's settlement gathers them).
      const inputs = withdrawn.created.filter((c) => c.templateId.endsWith(':Token')).map((c) => c.contractId);
      const second = await allocate('leg-settled', inputs[0]!);
      const settled = await exercise([venue, alice, bob], second.allocation, 'Allocation_ExecuteTransfer', await contextFor(second.allocation, 'execute-transfer'));
      expect(settled.status, JSON.stringify(settled.body).slice(0, 600)).toBe(200);
      expect(settled.archived).toContain(second.allocation);
    });
  }

  it('allocates TestTokenV2 through the v2 allocation factory (v2 arguments: accounts, leg sides, actors); the v2 withdraw context gives it back', async () => {
    const t = token('v2');
    const { alice, bob, 'trading-venue': venue } = world.parties;
    const account = (owner: string) => ({ owner, provider: null, id: '' });
    const args = {
      settlement: { executors: [venue], id: 'dvp-test-token-v2', cid: null, meta: EMPTY_META },
      allocation: {
        admin: t.admin, authorizer: account(alice),
        transferLegSides: [{ transferLegId: 'leg-0', side: 'SenderSide', otherside: account(bob), amount: '5.0', instrumentId: t.instrumentId, meta: EMPTY_META }],
        settlementDeadline: null, nextIterationFunding: null, committed: false, meta: EMPTY_META,
      },
      requestedAt: iso(server.clock.now() - 60_000),
      inputHoldingCids: [holdingOf('v2', alice, 5)],
      actors: [alice],
    };
    const res = await postJson(server, `${base('v2')}/registry/allocation-instruction/v2/allocation-factory`, { choiceArguments: { ...args, extraArgs: { context: { values: {} }, meta: EMPTY_META } }, excludeDebugFields: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const factory = res.body as RegistryFactory;
    const tx = await mustSubmit(server, [alice], [{ ExerciseCommand: { templateId: ALLOCATION_FACTORY_V2, contractId: factory.factoryId, choice: 'AllocationFactory_Allocate', choiceArgument: { ...args, extraArgs: { context: factory.choiceContext.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: factory.choiceContext.disclosedContracts });
    const allocation = tx.created.find((c) => c.templateId.endsWith(':TokenAllocationV2'));
    expect(allocation, JSON.stringify(tx.created)).toBeDefined();
    const ctx = await postJson(server, `${base('v2')}/registry/allocations/v2/${allocation!.contractId}/choice-contexts/withdraw`, { excludeDebugFields: true });
    expect(ctx.status, JSON.stringify(ctx.body)).toBe(200);
    const context = ctx.body as RegistryFactory['choiceContext'];
    // The rules, and alice's locked token, which the executors (also actors of other choices) do not see.
    expect(context.disclosedContracts.length).toBe(2);
    const withdrawn = await mustSubmit(server, [alice], [{ ExerciseCommand: { templateId: ALLOCATION_V2, contractId: allocation!.contractId, choice: 'Allocation_Withdraw', choiceArgument: { actors: [alice], extraArgs: { context: context.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: context.disclosedContracts });
    expect(withdrawn.archived).toContain(allocation!.contractId);
  });

  it('settles a TestTokenV2 DvP leg: alice\'s and bob\'s v2 allocations, settled by the executor with the settlement factory\'s context', async () => {
    const t = token('v2');
    const { alice, bob, 'trading-venue': venue } = world.parties;
    const account = (owner: string) => ({ owner, provider: null, id: '' });
    const settlement = { executors: [venue], id: 'dvp-settled', cid: null, meta: EMPTY_META };
    const leg = { transferLegId: 'leg-0', sender: account(alice), receiver: account(bob), amount: '5.0', instrumentId: t.instrumentId, meta: EMPTY_META };
    const allocate = async (party: string, side: 'SenderSide' | 'ReceiverSide', inputs: string[]) => {
      const args = {
        settlement,
        allocation: {
          admin: t.admin, authorizer: account(party),
          transferLegSides: [{ transferLegId: 'leg-0', side, otherside: account(party === alice ? bob : alice), amount: '5.0', instrumentId: t.instrumentId, meta: EMPTY_META }],
          settlementDeadline: null, nextIterationFunding: null, committed: false, meta: EMPTY_META,
        },
        requestedAt: iso(server.clock.now() - 60_000), inputHoldingCids: inputs, actors: [party],
      };
      const res = await postJson(server, `${base('v2')}/registry/allocation-instruction/v2/allocation-factory`, { choiceArguments: { ...args, extraArgs: { context: { values: {} }, meta: EMPTY_META } }, excludeDebugFields: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const f = res.body as RegistryFactory;
      const tx = await mustSubmit(server, [party], [{ ExerciseCommand: { templateId: ALLOCATION_FACTORY_V2, contractId: f.factoryId, choice: 'AllocationFactory_Allocate', choiceArgument: { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: f.choiceContext.disclosedContracts });
      return tx.created.find((c) => c.templateId.endsWith(':TokenAllocationV2'))!.contractId;
    };
    const bobsBefore = tokensOf('v2', bob).map((c) => c.contractId);
    const fromAlice = await allocate(alice, 'SenderSide', [holdingOf('v2', alice, 5)]);
    const toBob = await allocate(bob, 'ReceiverSide', []);
    const settleArgs = { settlement, transferLegs: [leg], allocations: [fromAlice, toBob].map((allocationCid) => ({ allocationCid, extraTransferLegSides: [], nextIterationFunding: null })), actors: [venue] };
    const res = await postJson(server, `${base('v2')}/registry/allocation/v2/settlement-factory`, { choiceArguments: { ...settleArgs, extraArgs: { context: { values: {} }, meta: EMPTY_META } }, excludeDebugFields: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const f = res.body as RegistryFactory;
    // The rules and alice's locked 5 (bob's receipt locks nothing).
    expect(f.choiceContext.disclosedContracts.length).toBe(2);
    const settled = await mustSubmit(server, [venue], [{ ExerciseCommand: { templateId: SETTLEMENT_FACTORY_V2, contractId: f.factoryId, choice: 'SettlementFactory_SettleBatch', choiceArgument: { ...settleArgs, extraArgs: { context: f.choiceContext.choiceContextData, meta: EMPTY_META } } } }], { disclosedContracts: f.choiceContext.disclosedContracts });
    expect(settled.archived).toEqual(expect.arrayContaining([fromAlice, toBob]));
    // bob's new 5 (the executor is no stakeholder of it, so its transaction view leaves it out).
    const bobs = tokensOf('v2', bob);
    expect(bobs.filter((c) => !bobsBefore.includes(c.contractId)).map((c) => c.argument.holding)).toEqual([expect.objectContaining({ account: account(bob), amount: '5.0000000000', lock: null })]);
  });

  it('refuses what is not one of its registries or not its admin\'s', async () => {
    const unknown = await getJson(server, '/registries/alice/registry/metadata/v1/info');
    expect([unknown.status, unknown.body.error]).toEqual([404, expect.stringContaining('served: test-token-v1, test-token-v2')]);
    const t = token('v1');
    const wrongAdmin = await postJson(server, `${base('v1')}/registry/transfer-instruction/v1/transfer-factory`, { choiceArguments: { expectedAdmin: world.parties.dso, transfer: {}, extraArgs: {} } });
    expect(wrongAdmin.status).toBe(400);
    const v2OnV1 = await postJson(server, `${base('v1')}/registry/transfer-instruction/v2/transfer-factory`, { choiceArguments: { transfer: {}, actors: [world.parties.alice], extraArgs: {} } });
    expect([v2OnV1.status, v2OnV1.body.error]).toEqual([400, expect.stringContaining('implements only the v1 token standard')]);
    // An Amulet transfer instruction is not the test token's.
    const amulet = await postJson(server, `${base('v1')}/registry/transfer-instruction/v1/${world.amulet.transferToCarol}/choice-contexts/accept`, {});
    expect(amulet.status).toBe(404);
    expect(t.admin).not.toBe(token('v2').admin);
  });

  it('serves the v2 transfer factory of the v2 token with v2 arguments (accounts and actors)', async () => {
    const t = token('v2');
    const { alice, bob } = world.parties;
    const account = (owner: string) => ({ owner, provider: null, id: '' });
    const transfer = { sender: account(alice), receiver: account(bob), amount: '5.0', instrumentId: { admin: t.admin, id: t.instrumentId }, requestedAt: iso(server.clock.now() - 60_000), executeBefore: iso(server.clock.now() + HOUR), inputHoldingCids: [], meta: EMPTY_META };
    const res = await postJson(server, `${base('v2')}/registry/transfer-instruction/v2/transfer-factory`, { choiceArguments: { transfer, actors: [alice], extraArgs: { context: { values: {} }, meta: EMPTY_META } }, excludeDebugFields: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const factory = res.body as RegistryFactory;
    expect(factory.factoryId).toBe(t.rules);
    const holdings = await server.http.post('/v2/state/active-contracts').send({});
    expect(holdings.status).toBeLessThan(500);
    expect(TRANSFER_FACTORY_V2).toContain('TransferFactory');
  });

  describe('wallet-sdk 1.4.0, unchanged, with the test tokens\' registries among its registries', () => {
    type Command = { ExerciseCommand: unknown };
    type Disclosed = { createdEventBlob: string }[];
    let sdk: Awaited<ReturnType<typeof createSdk>>;
    const registryUrl = (flavour: 'v1' | 'v2') => new URL(`${server.url}${base(flavour)}`);
    beforeAll(async () => {
      installWebSocket();
      // The SDK stamps requestedAt from the machine's clock (minus a minute), which v2's factory
      // checks against ledger time: the ledger's clock is moved to the machine's, as a node's is.
      server.clock.set(Math.max(server.clock.now(), Date.now()));
      sdk = await createSdk(server.url, [new URL(server.url), registryUrl('v1'), registryUrl('v2')]);
    });
    const submitAs = (actAs: string, [command, disclosed]: readonly [Command, Disclosed]) =>
      sdk.ledger.internal.submit({ commands: [command] as never, disclosedContracts: disclosed as never, actAs: [actAs] });
    const amounts = async (party: string, instrumentId: string) =>
      // The SDK lists what the party sees; its wallet shows what the party owns.
      (await sdk.token.utxos.list({ partyId: party })).filter((h) => h.interfaceViewValue.owner === party && h.interfaceViewValue.instrumentId.id === instrumentId).map((h) => Number(h.interfaceViewValue.amount)).sort((a, b) => a - b);

    for (const flavour of ['v1', 'v2'] as const) {
      it(`transfers ${flavour === 'v1' ? 'TestTokenV1' : 'TestTokenV2'} from bob to erin, who accepts: both through the registry over HTTP`, async () => {
        const t = token(flavour);
        const { bob, erin } = world.parties;
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        const [bobBefore, erinBefore] = [sum(await amounts(bob, t.instrumentId)), await amounts(erin, t.instrumentId)];
        expect([bobBefore >= 500, erinBefore]).toEqual([true, []]);
        const offer = await sdk.token.transfer.create({ sender: bob, recipient: erin, amount: '120', instrumentId: t.instrumentId, registryUrl: registryUrl(flavour) });
        await submitAs(bob, offer as unknown as [Command, Disclosed]);
        const pending = await sdk.token.transfer.pending(erin);
        const mine = pending.filter((p) => p.interfaceViewValue.transfer.instrumentId.admin === t.admin);
        expect(mine.map((p) => [p.interfaceViewValue.transfer.sender, Number(p.interfaceViewValue.transfer.amount)])).toEqual([[bob, 120]]);
        const accept = await sdk.token.transfer.accept({ transferInstructionCid: mine[0]!.contractId, registryUrl: registryUrl(flavour) });
        await submitAs(erin, accept as unknown as [Command, Disclosed]);
        expect(await amounts(erin, t.instrumentId)).toEqual([120]);
        expect(sum(await amounts(bob, t.instrumentId))).toBe(bobBefore - 120);
        expect((await sdk.token.transfer.pending(erin)).filter((p) => p.interfaceViewValue.transfer.instrumentId.admin === t.admin)).toEqual([]);
      });
    }
  });
});

describe.skipIf(!HAS_DARS)('a test-token registry on a ledger with only the test token\'s DAR (`--dar`; needs ../shared/upstream/daml/dars)', () => {
  let server: AppServer;
  beforeAll(async () => {
    const name = join(DARS_DIR, 'splice', 'splice-test-token-v1-1.0.0.dar');
    server = await startAppServer({
      prepare: (ledger) => {
        const uploaded = uploadDars(ledger, [{ name, bytes: new Uint8Array(readFileSync(name)) }]);
        if (!uploaded.ok) throw new Error(uploaded.error);
      },
    });
  }, 120_000);
  afterAll(() => closeAppServer(server));

  it('serves an admin from the moment its TokenRules is created through the JSON API, and its instrument once it holds some', async () => {
    const admin = await allocateParty(server, 'my-issuer');
    const owner = await allocateParty(server, 'my-owner');
    const hint = admin.slice(0, admin.lastIndexOf('::'));
    expect((await getJson(server, `/registries/${hint}/registry/metadata/v1/info`)).status).toBe(404);
    await mustSubmit(server, [admin], [{ CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:TokenRules', createArguments: { admin } } }]);
    const info = await getJson(server, `/registries/${hint}/registry/metadata/v1/info`);
    expect([info.status, info.body.adminId]).toEqual([200, admin]);
    expect((await getJson(server, `/registries/${hint}/registry/metadata/v1/instruments`)).body.instruments).toEqual([]);
    const holding = { owner, instrumentId: { admin, id: 'MINE' }, amount: '7.5', lock: null, meta: EMPTY_META };
    await mustSubmit(server, [owner, admin], [{ CreateCommand: { templateId: '#splice-test-token-v1:Splice.Testing.Tokens.TestTokenV1:Token', createArguments: { holding } } }]);
    const instruments = await getJson(server, `/registries/${encodeURIComponent(admin)}/registry/metadata/v1/instruments`);
    expect(instruments.body.instruments.map((i: { id: string; totalSupply: string }) => [i.id, i.totalSupply])).toEqual([['MINE', '7.5000000000']]);
  });
});
