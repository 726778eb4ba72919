import { randomUUID } from 'node:crypto';
import { createKeyPair } from '@canton-network/core-signing-lib';
import { decodePreparedTransaction, hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { SDK } from '@canton-network/wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxToken } from '../../../reference-server/src/msw/index.js';
import { HOLDING_INTERFACE_ID } from '@canton-network/core-token-standard';
import type { TokenStandardEvent } from '@canton-network/core-tx-parser';
import type { ClientTarget, StartTarget } from './ClientTarget.js';
import type { CantonVersion } from '../../../conformance/src/schema/cantonVersions.js';
import { sdkLogAdapter } from './quietSdkLogs.js';
import './node20Builtins.js';

type Command = { ExerciseCommand: unknown } | { CreateCommand: unknown };
type Disclosed = { templateId?: string; contractId?: string; createdEventBlob: string; synchronizerId?: string }[];

async function createSdk(target: ClientTarget) {
  const auth = { method: 'static' as const, token: sandboxToken() };
  return SDK.create({
    auth,
    ledgerClientUrl: target.ledgerUrl,
    logAdapter: sdkLogAdapter,
    amulet: { scanApiUrl: target.scanUrl, auth, registryUrl: new URL(target.registryUrl) },
    token: { auth, registries: [new URL(target.registryUrl)] },
    asset: { auth, registries: [new URL(target.registryUrl)] },
    events: { auth, websocketURL: new URL(target.streamsUrl) },
  });
}

/**
 * wallet-sdk 1.4.0, unchanged, against one target over the default world: the DevNet tap, holdings,
 * transfers with and without a preapproval (accept, reject, withdraw through the registry's
 * contexts), pending allocations, allocation requests and instructions, preapproval lookups. On a
 * target serving `line` 3.6 the holdings history, read through the flat updates 3.6 removed, fails.
 */
export function describeWalletSdk(start: StartTarget, line?: CantonVersion): void {
  let target: ClientTarget;
  let sdk: Awaited<ReturnType<typeof createSdk>>;
  let parties: ClientTarget['appWorld']['parties'];

  beforeAll(async () => {
    target = await start();
    parties = target.appWorld.parties;
    sdk = await createSdk(target);
  });
  afterAll(async () => {
    expect(target.errors).toEqual([]);
    await target.close();
  });

  const submit = (actAs: string, [command, disclosed]: readonly [Command, Disclosed] | [Command, Disclosed]) =>
    sdk.ledger.internal.submit({ commands: [command] as never, disclosedContracts: disclosed as never, actAs: [actAs] });
  const amounts = async (party: string) => (await sdk.token.utxos.list({ partyId: party })).map((h) => h.interfaceViewValue.amount);
  const registryUrl = () => new URL(target.registryUrl);

  describe('wallet-sdk 1.4.0', () => {
    // First: on a fresh target no round is open yet, so this read opens one (the case of a wallet
    // arriving after an idle spell). The client judges a round open by its clock read before it asks.
    it('amulet.traffic.buy as the first round read: traffic.status then reports the purchase for the participant', async () => {
      const before = await sdk.amulet.traffic.status();
      // alice's 1000 Amulet pays for it; `ccAmount` is the traffic in bytes (AmuletRules_BuyMemberTraffic's
      // trafficAmount), here the smallest top-up AmuletRules allows (minTopupAmount).
      const input = (await sdk.token.utxos.list({ partyId: parties.alice })).find((h) => h.interfaceViewValue.amount === '1000.0000000000');
      const buy = await sdk.amulet.traffic.buy({ buyer: parties.alice, ccAmount: 200_000, inputUtxos: [input!.contractId] });
      await submit(parties.alice, buy as never);
      const after = await sdk.amulet.traffic.status();
      expect(after.traffic_status.target.total_purchased - before.traffic_status.target.total_purchased).toBe(200_000);
      expect(after.traffic_status.actual.total_limit).toBe(after.traffic_status.target.total_purchased);
    });

    it('amulet.tap mints amulet for alice against the open round Scan reports', async () => {
      const before = await amounts(parties.alice);
      const tap = await sdk.amulet.tap(parties.alice, '10');
      await submit(parties.alice, tap as never);
      const after = await amounts(parties.alice);
      expect(after.length).toBe(before.length + 1);
      expect(after).toContain('10.0000000000');
    });

    it('token.holdings lists the holding transactions of alice (through POST /v2/updates/flats)', async () => {
      if (line === '3.6') {
        // The SDK reads holdings through the flat updates 3.6 removed: on 3.6 it meets their 404.
        await expect(sdk.token.holdings({ partyId: parties.alice })).rejects.toThrow();
        return;
      }
      const history = await sdk.token.holdings({ partyId: parties.alice });
      expect(history.transactions.length).toBeGreaterThan(0);
      expect(history.nextOffset).toBeGreaterThan(0);
    });

    it('token.utxos.list reads alice\'s holdings, locked and unlocked, through the Holding interface', async () => {
      const utxos = await sdk.token.utxos.list({ partyId: parties.alice, includeLocked: true });
      const locked = utxos.filter((u) => u.interfaceViewValue.lock !== null);
      expect(locked.map((u) => u.interfaceViewValue.amount)).toContain('25.0000000000');
      expect(utxos.every((u) => u.interfaceViewValue.instrumentId.admin === parties.dso && u.interfaceViewValue.instrumentId.id === 'Amulet')).toBe(true);
    });

    it('a transfer alice -> bob completes in one step: bob has a preapproval', async () => {
      const before = await amounts(parties.bob);
      const cmd = await sdk.token.transfer.create({ sender: parties.alice, recipient: parties.bob, amount: '12.5', instrumentId: 'Amulet', registryUrl: registryUrl() });
      await submit(parties.alice, cmd as never);
      expect(await amounts(parties.bob)).toEqual(expect.arrayContaining([...before, '12.5000000000']));
      expect(await sdk.token.transfer.pending(parties.bob)).toEqual([]);
    });

    it('a transfer alice -> erin is pending until erin accepts through the registry context', async () => {
      const cmd = await sdk.token.transfer.create({ sender: parties.alice, recipient: parties.erin, amount: '3', instrumentId: 'Amulet', registryUrl: registryUrl() });
      await submit(parties.alice, cmd as never);
      const pending = await sdk.token.transfer.pending(parties.erin);
      expect(pending.map((p) => p.interfaceViewValue.transfer.amount)).toEqual(['3.0000000000']);
      const accept = await sdk.token.transfer.accept({ transferInstructionCid: pending[0]!.contractId, registryUrl: registryUrl() });
      await submit(parties.erin, accept as never);
      expect(await sdk.token.transfer.pending(parties.erin)).toEqual([]);
      expect(await amounts(parties.erin)).toContain('3.0000000000');
    });

    it('erin rejects one transfer and alice withdraws another: the amount comes back to alice', async () => {
      for (const [choice, actor] of [['reject', 'erin'], ['withdraw', 'alice']] as const) {
        const cmd = await sdk.token.transfer.create({ sender: parties.alice, recipient: parties.erin, amount: '2', instrumentId: 'Amulet', registryUrl: registryUrl() });
        await submit(parties.alice, cmd as never);
        const [pending] = await sdk.token.transfer.pending(parties.erin);
        const before = (await amounts(parties.alice)).filter((a) => a === '2.0000000000').length;
        const done = await sdk.token.transfer[choice]({ transferInstructionCid: pending!.contractId, registryUrl: registryUrl() });
        await submit(parties[actor], done as never);
        expect(await sdk.token.transfer.pending(parties.erin)).toEqual([]);
        expect((await amounts(parties.alice)).filter((a) => a === '2.0000000000').length).toBe(before + 1);
      }
    });

    it('token.allocation.pending and request.pending see the world\'s allocation and request; no instruction is pending', async () => {
      const allocations = await sdk.token.allocation.pending(parties.bob);
      expect(allocations.map((a) => a.contractId)).toEqual([target.appWorld.amulet.allocation]);
      const requests = await sdk.token.allocation.request.pending(parties.alice);
      expect(requests.map((r) => r.contractId)).toEqual([target.appWorld.amulet.allocationRequest]);
      expect(await sdk.token.allocation.instruction.pending(parties.alice)).toEqual([]);
    });

    it('token.transactionsById parses a transfer as each party sees it; token.holdings pages by offset', async () => {
      const start = await sdk.ledger.ledgerEnd();
      const direct = await submit(parties.alice, (await sdk.token.transfer.create({ sender: parties.alice, recipient: parties.bob, amount: '1.5', instrumentId: 'Amulet', registryUrl: registryUrl() })) as never);
      const offer = await submit(
        parties.alice,
        (await sdk.token.transfer.create({ sender: parties.alice, recipient: parties.erin, amount: '4', instrumentId: 'Amulet', registryUrl: registryUrl(), memo: 'rent' })) as never,
      );
      const [pending] = await sdk.token.transfer.pending(parties.erin);
      const accepted = await submit(parties.erin, (await sdk.token.transfer.accept({ transferInstructionCid: pending!.contractId, registryUrl: registryUrl() })) as never);
      if (line === '3.6') {
        // The SDK reads a transaction through POST /v2/updates/transaction-by-id, which 3.6 removed.
        await expect(sdk.token.transactionsById({ updateId: direct.updateId, partyId: parties.alice })).rejects.toThrow();
        return;
      }
      const events = async (updateId: string, partyId: string) => (await sdk.token.transactionsById({ updateId, partyId })).events;
      const change = (es: TokenStandardEvent[]) => es.reduce((sum, e) => sum + Number(e.unlockedHoldingsChangeSummary.amountChange), 0);

      // The sender sees the factory's choice: one TransferOut to bob with its change; bob, his new holding.
      const out = await events(direct.updateId, parties.alice);
      expect(out.map((e) => e.label)).toEqual([expect.objectContaining({ type: 'TransferOut', receiverAmounts: [{ receiver: parties.bob, amount: '1.5' }] })]);
      expect(change(out)).toBe(-1.5);
      expect(change(await events(direct.updateId, parties.bob))).toBe(1.5);
      // An offer locks the amount (MergeSplit, memo as its reason) and is pending; the receiver's accept is a TransferIn of it.
      const [offered] = await events(offer.updateId, parties.alice);
      expect(offered?.label).toMatchObject({ type: 'MergeSplit', reason: 'rent' });
      expect([change([offered!]), Number(offered?.lockedHoldingsChangeSummary.amountChange)]).toEqual([-4, 4]);
      expect(offered?.transferInstruction?.status.current?.tag).toBe('Pending');
      const [received] = await events(accepted.updateId, parties.erin);
      expect(received?.label).toMatchObject({ type: 'TransferIn', sender: parties.alice });
      expect(change([received!])).toBe(4);
      expect(received?.transferInstruction).toMatchObject({ status: { current: { tag: 'Completed' } }, multiStepCorrelationId: offered?.transferInstruction?.multiStepCorrelationId });

      const page = await sdk.token.holdings({ partyId: parties.alice, afterOffset: start });
      expect(page.transactions.map((t) => t.updateId)).toEqual([direct.updateId, offer.updateId, accepted.updateId]);
      expect(page.nextOffset).toBe(accepted.completionOffset);
      const bounded = await sdk.token.holdings({ partyId: parties.alice, afterOffset: start, beforeOffset: offer.completionOffset });
      expect(bounded.transactions.map((t) => t.offset)).toEqual([direct.completionOffset, offer.completionOffset]);
    });

    it('allocation.cancel: the venue, alice and bob cancel the allocation alice made for her leg (through the registry\'s cancel context); its amount comes back', async () => {
      const asset = await sdk.asset.find('Amulet', registryUrl());
      const [request] = await sdk.token.allocation.request.pending(parties.alice);
      const { settlement, transferLegs } = request!.interfaceViewValue;
      const legId = Object.keys(transferLegs).find((id) => transferLegs[id]!.sender === parties.alice)!;
      const balance = async () => (await amounts(parties.alice)).reduce((sum, a) => sum + Number(a), 0);
      const held = await balance();
      await submit(parties.alice, (await sdk.token.allocation.instruction.create({ allocationSpecification: { settlement, transferLegId: legId, transferLeg: transferLegs[legId]! }, asset })) as never);
      const [mine] = await sdk.token.allocation.pending(parties.alice);
      const context = await sdk.token.allocation.context.cancel({ allocationCid: mine!.contractId, registryUrl: registryUrl() });
      expect(context.disclosedContracts.length).toBeGreaterThan(0);
      const [cancel, disclosed] = (await sdk.token.allocation.cancel({ allocationCid: mine!.contractId, asset })) as [Command, Disclosed];
      await sdk.ledger.internal.submit({ commands: [cancel] as never, disclosedContracts: disclosed as never, actAs: [settlement.executor, parties.alice, parties.bob] });
      expect(await sdk.token.allocation.pending(parties.alice)).toEqual([]);
      expect(await balance()).toBeCloseTo(held, 6);
    });

    it('allocations: alice allocates her leg of the request through the factory and withdraws it; the venue executes bob\'s; alice rejects the request', async () => {
      // The asset as a wallet finds it: from the registry's instruments (SDK.create's asset extension).
      const asset = await sdk.asset.find('Amulet', registryUrl());
      expect(asset).toMatchObject({ id: 'Amulet', admin: parties.dso, registryUrl: registryUrl() });
      const [request] = await sdk.token.allocation.request.pending(parties.alice);
      const { settlement, transferLegs } = request!.interfaceViewValue;
      const legId = Object.keys(transferLegs).find((id) => transferLegs[id]!.sender === parties.alice)!;
      // alice's unlocked Amulet in total (the factory picks its inputs, merging some).
      const balance = async () => (await amounts(parties.alice)).reduce((sum, a) => sum + Number(a), 0);
      const held = await balance();

      const allocate = await sdk.token.allocation.instruction.create({ allocationSpecification: { settlement, transferLegId: legId, transferLeg: transferLegs[legId]! }, asset });
      await submit(parties.alice, allocate as never);
      expect(await balance()).toBeCloseTo(held - 10, 6);
      const [mine] = await sdk.token.allocation.pending(parties.alice);
      expect(mine?.interfaceViewValue.allocation).toMatchObject({ settlement: { executor: settlement.executor, settlementRef: { id: settlement.settlementRef.id } }, transferLegId: legId, transferLeg: { amount: '10.0000000000', receiver: parties.bob } });
      await submit(parties.alice, (await sdk.token.allocation.withdraw({ allocationCid: mine!.contractId, asset })) as never);
      expect(await sdk.token.allocation.pending(parties.alice)).toEqual([]);
      expect(await balance()).toBeCloseTo(held, 6);

      // Executing takes the executor's, the sender's and the receiver's authority (all hosted here).
      const [execute, disclosed] = (await sdk.token.allocation.execute({ allocationCid: target.appWorld.amulet.allocation, asset })) as [Command, Disclosed];
      await sdk.ledger.internal.submit({ commands: [execute] as never, disclosedContracts: disclosed as never, actAs: [settlement.executor, parties.bob, parties.alice] });
      expect(await sdk.token.allocation.pending(parties.bob)).toEqual([]);
      expect(await balance()).toBeCloseTo(held + 20, 6);

      await submit(parties.alice, (await sdk.token.allocation.request.reject(request!.contractId, parties.alice)) as never);
      expect(await sdk.token.allocation.request.pending(parties.alice)).toEqual([]);
    });

    it('token.utxos.list returns at most `limit` holdings; token.utxos.merge self-transfers alice\'s unlocked holdings into one', async () => {
      const unlocked = await amounts(parties.alice);
      expect(unlocked.length).toBeGreaterThan(1);
      expect(await sdk.token.utxos.list({ partyId: parties.alice, includeLocked: true, limit: 1 })).toHaveLength(1);
      const [commands, disclosed] = await sdk.token.utxos.merge({ partyId: parties.alice });
      expect(commands).toHaveLength(1); // one instrument, under the SDK's 100 inputs per transfer
      await submit(parties.alice, [commands[0]!, disclosed] as never);
      const merged = await amounts(parties.alice);
      expect(merged).toHaveLength(1);
      expect(Number(merged[0])).toBeCloseTo(unlocked.reduce((sum, a) => sum + Number(a), 0), 6);
    });

    it('amulet.preapproval finds bob\'s preapproval and none for erin', async () => {
      const bob = await sdk.amulet.preapproval.fetchQuick(parties.bob);
      expect(bob?.contract.contract_id).toBe(target.appWorld.preapprovals.bobNewer);
      expect(await sdk.amulet.preapproval.fetchQuick(parties.erin)).toBeNull();
    });

    it('amulet.preapproval.renew extends alice\'s (Scan answers the renewed contract); command.cancel ends bob\'s newer, and Scan answers his older', async () => {
      const old = await sdk.amulet.preapproval.fetchQuick(parties.alice);
      const renewed = await sdk.amulet.preapproval.renew({ parties: { receiver: parties.alice, provider: parties.alice }, expiresAt: new Date('2100-01-01T00:00:00Z') });
      expect(renewed).toMatchObject({ updateId: expect.any(String) });
      const now = await sdk.amulet.preapproval.fetchQuick(parties.alice);
      expect(now?.contract.contract_id).not.toBe(old?.contract.contract_id);
      expect(now?.contract.payload).toMatchObject({ receiver: parties.alice, provider: parties.alice, expiresAt: expect.stringMatching(/^2100-01-01T00:00:00(\.0+)?Z$/) });

      const cancel = await sdk.amulet.preapproval.command.cancel({ parties: { receiver: parties.bob, provider: parties.bob } });
      await submit(parties.bob, cancel as never);
      expect((await sdk.amulet.preapproval.fetchQuick(parties.bob))?.contract.contract_id).toBe(target.appWorld.preapprovals.bobOlder);
    });

    it('events.updates streams bob\'s new holding (by the Holding interface, verbose) and events.completions the completion of the transfer', async () => {
      const from = await sdk.ledger.ledgerEnd();
      const updates = sdk.events.updates({ partyId: parties.bob, interfaceIds: [HOLDING_INTERFACE_ID], beginOffset: from });
      const completions = sdk.events.completions({ parties: [parties.alice], beginOffset: from });
      const [nextUpdate, nextCompletion] = [updates.next(), completions.next()];
      const sent = await submit(parties.alice, (await sdk.token.transfer.create({ sender: parties.alice, recipient: parties.bob, amount: '0.25', instrumentId: 'Amulet', registryUrl: registryUrl() })) as never);
      const [update, completion] = [(await nextUpdate).value, (await nextCompletion).value];
      await Promise.all([updates.return?.(undefined), completions.return?.(undefined)]);
      const tx = update?.update !== undefined && 'Transaction' in update.update ? update.update.Transaction.value : undefined;
      expect(tx).toMatchObject({ updateId: sent.updateId, offset: sent.completionOffset });
      const events = (tx?.events ?? []) as { CreatedEvent?: { interfaceViews?: { viewValue?: unknown }[] } }[];
      const views = events.flatMap((e) => e.CreatedEvent?.interfaceViews ?? []).map((v) => v.viewValue as { owner?: string; amount?: string });
      expect(views).toContainEqual(expect.objectContaining({ owner: parties.bob, amount: '0.2500000000' }));
      const done = completion?.completionResponse !== undefined && 'Completion' in completion.completionResponse ? completion.completionResponse.Completion.value : undefined;
      expect(done).toMatchObject({ updateId: sent.updateId, offset: sent.completionOffset, actAs: [parties.alice] });
    });

    it('an external party taps and transfers through prepare, sign and execute: the SDK\'s and core-tx-visualizer\'s hashes equal the participant\'s', async () => {
      const keys = createKeyPair();
      const external = await sdk.party.external.create(keys.publicKey, { partyHint: `ext-${randomUUID().slice(0, 8)}` }).sign(keys.privateKey).execute({ grantUserRights: true });
      const party = external.partyId;
      // Each step as an external wallet takes it: prepare the SDK's command with its disclosures,
      // recompute the hash it is about to sign (two published hashers), sign, execute.
      const run = async ([command, disclosed]: readonly [Command, Disclosed]) => {
        const prepared = sdk.ledger.prepare({ partyId: party, commands: [command] as never, disclosedContracts: disclosed as never });
        const { response } = await prepared.toJSON();
        expect((await sdk.utils.hash.preparedTransaction(response.preparedTransaction)).toBase64()).toBe(response.preparedTransactionHash);
        expect(await hashPreparedTransaction(decodePreparedTransaction(response.preparedTransaction), 'base64')).toBe(response.preparedTransactionHash);
        return sdk.ledger.execute(prepared.sign(keys.privateKey), { partyId: party });
      };
      await run((await sdk.amulet.tap(party, '40')) as unknown as [Command, Disclosed]);
      expect(await amounts(party)).toEqual(['40.0000000000']);
      const before = await amounts(parties.bob);
      await run((await sdk.token.transfer.create({ sender: party, recipient: parties.bob, amount: '15', instrumentId: 'Amulet', registryUrl: registryUrl() })) as unknown as [Command, Disclosed]);
      expect(await amounts(party)).toEqual(['25.0000000000']);
      expect(await amounts(parties.bob)).toEqual(expect.arrayContaining([...before, '15.0000000000']));
    });

    it('amulet.featuredApp.rights finds the FeaturedAppRight erin self-grants on DevNet through Scan, and none for alice', async () => {
      const once = { maxRetries: 1, delayMs: 0 }; // the SDK retries a missing right on a timer: ask once
      expect(await sdk.amulet.featuredApp.rights({ partyId: parties.alice, ...once })).toBeUndefined();
      // featuredApp.grant's own command (it first waits 20 s for a right that may exist), submitted as grant does.
      const service = (sdk.amulet as unknown as { sdkContext: { amuletService: SelfGrant } }).sdkContext.amuletService;
      const [command, disclosed] = await service.selfGrantFeatureAppRight(parties.erin, target.ledger().config.synchronizers[0].id);
      await sdk.ledger.internal.submit({ commands: [{ ExerciseCommand: command }] as never, disclosedContracts: disclosed as never, actAs: [parties.erin] });
      const right = await sdk.amulet.featuredApp.rights({ partyId: parties.erin, ...once });
      expect(right).toMatchObject({ template_id: expect.stringMatching(/:Splice\.Amulet:FeaturedAppRight$/), payload: { dso: parties.dso, provider: parties.erin } });
    });
  });
}

/** core-amulet-service's AmuletService method behind wallet-sdk's featuredApp.grant (private to AmuletNamespace). */
interface SelfGrant {
  selfGrantFeatureAppRight(provider: string, synchronizerId: string): Promise<[unknown, Disclosed]>;
}
