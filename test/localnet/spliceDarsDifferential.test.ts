/**
 * The wallet guide's flows that differed between `serve --localnet` on the TypeScript ports and on
 * Splice's own DARs (`--splice-dars` with LocalNet's DARs and the test trading app's), run on both
 * side by side with wallet-sdk 1.4.0: what a client observes of each flow (balances, who accepted,
 * refusals' codes and first lines, with party and package ids named by role) must be the same,
 * except the differences listed in DIFFERENCES, each explained and each checked to be still there.
 * The whole guide set runs on the real DARs with `CANTON_CONFORMANCE_SPLICE_DARS` (README, "Splice's
 * own DARs"); this file keeps the flows that once differed in `npm test`, one server per side.
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { VALIDATOR_STARTING_AMULET } from '../../reference-server/src/localnet/fundValidator.js';
import { startLocalNet, type LocalNet } from '../../reference-server/src/localnet/startLocalNet.js';
import { quietSdkLogs } from '../clients/support/quietSdkLogs.js';
import { SERVE_ENGINE_THREAD } from '../support/builtEngineWorker.js';
import { DARS_DIR, HAS_DARS } from '../daml/damlFixtures.js';
import { TRADING_APP_DAR } from '../engineApps/realDars.js';
import { amuletAmounts, externalParty, guideSdk, signAndRun, type ExternalParty, type GuideSdk } from './guideSdk.js';
import { loopbackUrls } from './support.js';

quietSdkLogs();

const T = 120_000;
const OTC_PROPOSAL = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp:OTCTradeProposal';
const OTC_TRADE = '#splice-token-test-trading-app:Splice.Testing.Apps.TradingApp:OTCTrade';
const TRADE = '#canton-conformance-sample-trading:Sample.Trading:TradeAllocationRequest';

type Observed = Record<string, unknown>;
interface Side {
  readonly net: LocalNet;
  readonly sdk: GuideSdk;
  readonly registryUrl: URL;
}

const sum = (amounts: readonly string[]) => Math.round(amounts.reduce((a, b) => a + Number(b), 0) * 1e10) / 1e10;
/** A refusal as a client compares it: the code and the cause's first line (the engine's lines after it name the open exercises). */
const refusal = (e: unknown) => {
  const r = e as { code?: string; cause?: string };
  return { code: r.code, cause: (r.cause ?? '').split('\n')[0]!.replace(/@[0-9a-f]{8}\b/g, '@<pkg>').replace(/\b[0-9a-f]{64}:/g, '<pkg>:') };
};
const refused = (p: Promise<unknown>) => p.then(() => ({ code: 'ACCEPTED' }), refusal);
/** Party ids replaced by the flow's names for them. */
const named = (text: string, parties: Record<string, string>) => Object.entries(parties).reduce((t, [name, id]) => t.split(id).join(`<${name}>`), text);

/**
 * What differs, flow by flow, and why (the real package decides; the ports keep their own terms):
 * each value is the observation's name and the reason.
 */
const DIFFERENCES: Record<string, Record<string, string>> = {
  '05 preapproval': {
    validatorPaid:
      "Splice's AmuletRules_CreateTransferPreapproval charges the provider the preapproval fee (transferPreapprovalFee 0.00274 USD a day for the 90 days the validator grants, at 1.0 USD per Amulet); the ports' preapproval is free",
  },
  '07 traffic': {
    burned: "the price of 200,000 bytes (16.67 USD per MB on both) in Amulet: the ports' rounds price Amulet at 0.005 USD (LocalNet's), the real world's at 1.0 USD",
    insufficient: "the missingAmount of Splice's ITR_InsufficientFunds follows from that price",
  },
};

/** One flow of the guide, as a client observes it; `tag` keeps party hints apart on one server. */
type Flow = (side: Side, tag: string) => Promise<Observed>;

const FLOWS: Record<string, Flow> = {
  // Script 05: the receiver proposes, the validator's automation accepts, a transfer completes at once.
  '05 preapproval': async ({ net, sdk, registryUrl }, tag) => {
    const validator = async () => sum(await amuletAmounts(sdk, net.validatorParty));
    const [alice, bob] = await Promise.all([externalParty(sdk, `${tag}-05-alice`), externalParty(sdk, `${tag}-05-bob`)]);
    const [tap, tapDisclosed] = await sdk.amulet.tap(alice.partyId, '100');
    await signAndRun(sdk, alice, tap, tapDisclosed);
    const before = await validator();
    await signAndRun(sdk, bob, await sdk.amulet.preapproval.command.create({ parties: { receiver: bob.partyId } }));
    const status = await sdk.amulet.preapproval.fetchStatus(bob.partyId, { intervalMs: 100, timeoutMs: 5000 });
    const quick = (await sdk.amulet.preapproval.fetchQuick(bob.partyId)) as { contract: { payload: { provider: string } } } | null;
    const [transfer, disclosed] = await sdk.token.transfer.create({ sender: alice.partyId, recipient: bob.partyId, amount: '20', instrumentId: 'Amulet', registryUrl });
    await signAndRun(sdk, alice, transfer, disclosed);
    return {
      provider: quick === null ? null : named(quick.contract.payload.provider, { validator: net.validatorParty }),
      lifetimeDays: status === null ? null : Math.round((status.expiresAt.getTime() - Date.now()) / 86_400_000),
      validatorPaid: Math.round((before - (await validator())) * 1e10) / 1e10,
      bob: await amuletAmounts(sdk, bob.partyId),
      alice: sum(await amuletAmounts(sdk, alice.partyId)),
      pending: (await sdk.token.transfer.pending(bob.partyId)).length,
    };
  },
  // Script 07: traffic bought with amulet, Scan's traffic status; refusals below the minimum and without the funds.
  '07 traffic': async ({ sdk }, tag) => {
    const [alice, carol] = await Promise.all([externalParty(sdk, `${tag}-07-alice`), externalParty(sdk, `${tag}-07-carol`)]);
    // The SDK picks inputs worth `ccAmount` (the byte count) in amulet, as the guide's script taps for.
    for (const [p, amount] of [[alice, '2000000'], [carol, '1']] as const) {
      const [tap, disclosed] = await sdk.amulet.tap(p.partyId, amount);
      await signAndRun(sdk, p, tap, disclosed);
    }
    type Status = { traffic_status: { target: { total_purchased: number } } };
    const before = ((await sdk.amulet.traffic.status()) as Status).traffic_status.target.total_purchased;
    const [buy, buyDisclosed] = await sdk.amulet.traffic.buy({ buyer: alice.partyId, ccAmount: 200000, inputUtxos: [] });
    await signAndRun(sdk, alice, buy, buyDisclosed);
    const after = ((await sdk.amulet.traffic.status()) as Status).traffic_status.target.total_purchased;
    const carolBuys = async (bytes: number) => {
      const [utxo] = await sdk.token.utxos.list({ partyId: carol.partyId });
      const [command, disclosed] = await sdk.amulet.traffic.buy({ buyer: carol.partyId, ccAmount: bytes, inputUtxos: [utxo!.contractId] });
      return refused(signAndRun(sdk, carol, command, disclosed));
    };
    return {
      purchased: after - before,
      burned: Math.round((2000000 - sum(await amuletAmounts(sdk, alice.partyId))) * 1e10) / 1e10,
      belowMinimum: await carolBuys(100),
      insufficient: await carolBuys(200000),
      carol: await amuletAmounts(sdk, carol.partyId),
    };
  },
  // Script 04: an OTC trade through the test trading app, settled by the venue with each allocation's context.
  '04 trading app': async ({ sdk, registryUrl }, tag) => {
    const [alice, bob, venue] = (await Promise.all(['alice', 'bob', 'venue'].map((h) => externalParty(sdk, `${tag}-04-${h}`)))) as [ExternalParty, ExternalParty, ExternalParty];
    const parties = { alice: alice.partyId, bob: bob.partyId, venue: venue.partyId };
    const amulet = await sdk.asset.find('Amulet', registryUrl);
    for (const p of [alice, bob]) {
      const [tap, disclosed] = await sdk.amulet.tap(p.partyId, '1000');
      await signAndRun(sdk, p, tap, disclosed);
    }
    const instrumentId = { admin: amulet.admin, id: 'Amulet' };
    const leg = (sender: string, receiver: string, amount: string) => ({ sender, receiver, amount, instrumentId, meta: { values: {} } });
    await signAndRun(sdk, alice, { CreateCommand: { templateId: OTC_PROPOSAL, createArguments: { venue: venue.partyId, tradeCid: null, transferLegs: { leg0: leg(alice.partyId, bob.partyId, '100'), leg1: leg(bob.partyId, alice.partyId, '20') }, approvers: [alice.partyId] } } });
    const readJs = (templateId: string, p: ExternalParty) =>
      (sdk.ledger.acsReader as unknown as { readJsContracts(o: object): Promise<{ contractId: string }[]> }).readJsContracts({ templateIds: [templateId], parties: [p.partyId], filterByParty: true });
    const exercise = (templateId: string, contractId: string, choice: string, choiceArgument: unknown) => [{ ExerciseCommand: { templateId, contractId, choice, choiceArgument } }];
    const initiate = async () => {
      const [proposal] = await readJs(OTC_PROPOSAL, venue);
      const hours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
      return refused(signAndRun(sdk, venue, exercise(OTC_PROPOSAL, proposal!.contractId, 'OTCTradeProposal_InitiateSettlement', { prepareUntil: hours(1), settleBefore: hours(2) })));
    };
    const early = await initiate();
    await signAndRun(sdk, bob, exercise(OTC_PROPOSAL, (await readJs(OTC_PROPOSAL, bob))[0]!.contractId, 'OTCTradeProposal_Accept', { approver: bob.partyId }));
    const initiated = await initiate();
    const [trade] = await readJs(OTC_TRADE, venue);
    for (const p of [alice, bob]) {
      const [request] = await sdk.token.allocation.request.pending(p.partyId);
      const view = request!.interfaceViewValue;
      const legId = Object.keys(view.transferLegs).find((k) => view.transferLegs[k]!.sender === p.partyId)!;
      const [allocate, disclosed] = await sdk.token.allocation.instruction.create({ allocationSpecification: { settlement: view.settlement, transferLegId: legId, transferLeg: view.transferLegs[legId]! }, asset: amulet });
      await signAndRun(sdk, p, allocate, disclosed);
    }
    const allocations = await sdk.token.allocation.pending(venue.partyId);
    const entries = await Promise.all(allocations.map(async (a) => ({ a, ctx: await sdk.token.allocation.context.execute({ allocationCid: a.contractId, registryUrl } as never) })));
    const withContext = Object.fromEntries(entries.map(({ a, ctx }) => [a.interfaceViewValue.allocation.transferLegId, { _1: a.contractId, _2: { context: { values: ctx.choiceContextData?.values ?? {} }, meta: { values: {} } } }]));
    const disclosed = [...new Map(entries.flatMap(({ ctx }) => ctx.disclosedContracts ?? []).map((d) => [d.contractId, d])).values()];
    const settle = (allocationsWithContext: unknown) => refused(signAndRun(sdk, venue, exercise(OTC_TRADE, trade!.contractId, 'OTCTrade_Settle', { allocationsWithContext }), disclosed));
    const n = (r: { code?: string; cause?: string }) => ({ ...r, cause: named(r.cause ?? '', parties).replace(/\b00[0-9a-f]{64,}\b/g, '<cid>') });
    return {
      early: n(early),
      initiated: n(initiated),
      allocationsForVenue: allocations.length,
      partial: n(await settle({ leg0: withContext.leg0 })),
      swapped: n(await settle({ leg0: withContext.leg1, leg1: withContext.leg0 })),
      settled: n(await settle(withContext)),
      alice: sum(await amuletAmounts(sdk, alice.partyId)),
      bob: sum(await amuletAmounts(sdk, bob.partyId)),
      pendingAfter: (await sdk.token.allocation.pending(venue.partyId)).length,
    };
  },
  // Script 04 without the trade app: the venue alone may not execute an allocation; the sender withdraws.
  '04 venue alone': async ({ sdk, registryUrl }, tag) => {
    const [alice, bob, venue] = (await Promise.all(['alice', 'bob', 'venue'].map((h) => externalParty(sdk, `${tag}-04v-${h}`)))) as [ExternalParty, ExternalParty, ExternalParty];
    const parties = { alice: alice.partyId, bob: bob.partyId, venue: venue.partyId };
    const amulet = await sdk.asset.find('Amulet', registryUrl);
    const [tap, tapDisclosed] = await sdk.amulet.tap(alice.partyId, '1000');
    await signAndRun(sdk, alice, tap, tapDisclosed);
    const far = new Date(Date.now() + 3_600_000).toISOString();
    const settlement = { executor: venue.partyId, settlementRef: { id: `${tag}-04v`, cid: null }, requestedAt: new Date().toISOString(), allocateBefore: far, settleBefore: far, meta: { values: {} } };
    const leg0 = { sender: alice.partyId, receiver: bob.partyId, amount: '100', instrumentId: { admin: amulet.admin, id: 'Amulet' }, meta: { values: {} } };
    await signAndRun(sdk, venue, [{ CreateCommand: { templateId: TRADE, createArguments: { venue: venue.partyId, settlement, transferLegs: { leg0 }, meta: { values: {} } } } }]);
    const [allocate, disclosed] = await sdk.token.allocation.instruction.create({ allocationSpecification: { settlement, transferLegId: 'leg0', transferLeg: leg0 }, asset: amulet });
    await signAndRun(sdk, alice, allocate, disclosed);
    const [allocation] = await sdk.token.allocation.pending(venue.partyId);
    const [execute, executeDisclosed] = await sdk.token.allocation.execute({ allocationCid: allocation!.contractId, asset: amulet });
    const alone = await signAndRun(sdk, venue, execute, executeDisclosed).then(() => undefined, (e: unknown) => e as { code?: string; cause?: string; context?: Record<string, unknown> });
    const locked = sum(await amuletAmounts(sdk, alice.partyId));
    const [withdraw, withdrawDisclosed] = await sdk.token.allocation.withdraw({ allocationCid: allocation!.contractId, asset: amulet });
    await signAndRun(sdk, alice, withdraw, withdrawDisclosed);
    const required = /requires authorizers (\S+), but only (\S+) were given/.exec(alone?.cause ?? '');
    return {
      code: alone?.code,
      requiredAuthorizers: required?.[1]?.split(',').map((p) => named(p, parties)).sort(),
      givenAuthorizers: required?.[2]?.split(',').map((p) => named(p, parties)).sort(),
      // Canton's AuthorizationError carries the cause only; the error's context holds the participant's own keys.
      contextKeys: Object.keys(alone?.context ?? {}).filter((k) => !['participant', 'category', 'definite_answer', 'tid'].includes(k)),
      aliceWhileLocked: locked,
      aliceAfterWithdraw: sum(await amuletAmounts(sdk, alice.partyId)),
    };
  },
};

describe.skipIf(!HAS_DARS)("the guide's flows that differed: serve --localnet on the ports and on Splice's own DARs (needs ../shared/upstream/daml/dars)", () => {
  let dir: string;
  let ports: Side;
  let real: Side;
  const observed: Record<string, { ports: Observed; real: Observed }> = {};

  beforeAll(async () => {
    // LocalNet's DARs (splice-amulet 0.1.14, splice-wallet) and the trading app LocalNet also ships.
    dir = mkdtempSync(join(tmpdir(), 'splice-localnet-dars-'));
    for (const f of readdirSync(DARS_DIR).filter((n) => n.endsWith('.dar'))) symlinkSync(join(DARS_DIR, f), join(dir, f));
    symlinkSync(join(DARS_DIR, TRADING_APP_DAR), join(dir, 'splice-token-test-trading-app.dar'));
    const start = async (spliceDars?: string): Promise<Side> => {
      const net = await startLocalNet({ host: '127.0.0.1', fixtures: undefined, ports: { ledger: 0, validator: 0, scan: 0, tokenStandard: 0, appProviderLedger: 0 }, log: silentLogger, ...(spliceDars === undefined ? {} : { spliceDars }), ...SERVE_ENGINE_THREAD });
      return { net, sdk: await guideSdk(net), registryUrl: new URL(loopbackUrls(net).registry) };
    };
    [ports, real] = [await start(), await start(dir)];
  }, T);
  afterAll(async () => {
    await Promise.all([ports?.net.close(), real?.net.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, flow] of Object.entries(FLOWS)) {
    it(`${name}: the same on both but for the listed differences`, async () => {
      const o = { ports: await flow(ports, 'p'), real: await flow(real, 'r') };
      observed[name] = o;
      const differing = Object.keys(o.ports).filter((k) => !isDeepStrictEqual(o.ports[k], o.real[k]));
      expect({ name, differing, ports: o.ports, real: o.real }).toMatchObject({ differing: Object.keys(DIFFERENCES[name] ?? {}) });
    }, T);
  }

  it('each listed difference is the one explained', () => {
    const p = (flow: string) => observed[flow]?.ports ?? {};
    const r = (flow: string) => observed[flow]?.real ?? {};
    // 05: the validator accepted on both, for 90 days; only the real package charged it (0.00274 * 90 / 1.0).
    expect(p('05 preapproval')).toMatchObject({ provider: '<validator>', lifetimeDays: 90, validatorPaid: 0, bob: ['20.0000000000'], pending: 0 });
    expect(r('05 preapproval').validatorPaid as number).toBeCloseTo(0.2466, 4);
    expect(Number(VALIDATOR_STARTING_AMULET)).toBeGreaterThan(r('05 preapproval').validatorPaid as number);
    // 07: 200,000 bytes at 16.67 USD per MB = 3.334 USD, in Amulet at each side's price.
    expect(p('07 traffic')).toMatchObject({ purchased: 200000, burned: 666.8 });
    expect(r('07 traffic')).toMatchObject({ purchased: 200000, burned: 3.334 });
    for (const side of [p('07 traffic'), r('07 traffic')]) {
      expect(side.belowMinimum).toMatchObject({ code: 'UNHANDLED_EXCEPTION', cause: expect.stringContaining('ITR_InsufficientTopupAmount@<pkg>{ requestedTopupAmount = 100, minTopupAmount = 200000 }') });
      expect(side.insufficient).toMatchObject({ code: 'UNHANDLED_EXCEPTION', cause: expect.stringMatching(/ITR_InsufficientFunds@<pkg>\{ missingAmount = \d+\.\d{10} \}/) });
      expect(side.carol).toEqual(['1.0000000000']);
    }
    // 04: the trade settles on both (alice 1000 - 100 + 20, bob 1000 + 100 - 20) after the same refusals.
    expect(r('04 trading app')).toMatchObject({ early: { cause: expect.stringContaining("'All trading parties have approved' was not met") }, partial: { cause: expect.stringContaining('missing for leg leg1') }, settled: { code: 'ACCEPTED' }, alice: 920, bob: 1080, pendingAfter: 0 });
    expect(r('04 venue alone')).toMatchObject({ code: 'DAML_AUTHORIZATION_ERROR', requiredAuthorizers: ['<alice>', '<bob>', '<venue>'], contextKeys: [], aliceWhileLocked: 900, aliceAfterWithdraw: 1000 });
  });
});
