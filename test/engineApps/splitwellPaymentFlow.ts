/**
 * Splitwell paying with Amulet, all from real DARs: splitwell 0.1.23 carries splice-amulet and
 * splice-wallet-payments 0.1.22; the AmuletRules are set up as Splice's own tests do
 * (splice-amulet-test's defaultAmuletConfigSchedule, evaluated by the engine, then the bootstrap
 * rounds and a DevNet tap). A member enters a payment, initiates a transfer (an AppPaymentRequest),
 * accepts it from the wallet with Amulet inputs (a locked amulet), and the provider completes it:
 * the receiver holds the amulet and the group's balance moves. Both DARs must be on the ledger;
 * the test DAR unvetted (`uploadAmuletTestDar`): it carries the pre-release token standard (0.0.1),
 * which no 1.0.0 upgrades, so a participant refuses to vet it beside splitwell's.
 */
import { expect } from 'vitest';
import type { Ledger } from '../../reference-server/src/ledger/index.js';
import { createdIn, disclose, entityOf, type CreatedEvent, type JsonApiClient } from './JsonApiClient.js';
import { packageIdIn } from './realDars.js';

export const SPLITWELL_DAR = 'splice/splitwell-0.1.23.dar';
export const AMULET_TEST_DAR = 'history/splice-amulet-test-0.1.8.dar';

/** The test DAR stored without vetting: the flow names its packages by id only. */
export const uploadAmuletTestDar = (api: JsonApiClient, bytes: Uint8Array): Promise<void> => api.uploadDar(bytes, { vet: false });
const SPLITWELL = '#splitwell:Splice.Splitwell';

const ofEntity = (events: CreatedEvent[], entity: string) => events.filter((c) => entityOf(c.templateId).endsWith(`:${entity}`));

/**
 * `ledger`: the ledger behind `api`, for the one step no JSON command can express (creating the
 * AmuletRules from a Daml value of the test DAR, as a Daml Script would).
 */
export async function runSplitwellPaymentFlow(api: JsonApiClient, ledger: Pick<Ledger, 'submitEngineCommands'>): Promise<void> {
    const [dso, provider, alice, bob] = [await api.party('dso'), await api.party('provider'), await api.party('alice'), await api.party('bob')];
    // AmuletRules as genericSetupApp creates them: the test DAR's configuration (its splice-amulet
    // 0.1.8) is read back as JSON and given to the splice-amulet 0.1.22 that splitwell uses.
    const testPkg = packageIdIn(AMULET_TEST_DAR, 'splice-amulet-test');
    const oldAmulet = packageIdIn(AMULET_TEST_DAR, 'splice-amulet');
    const oldRules = { packageId: oldAmulet, module: 'Splice.AmuletRules', name: 'AmuletRules' };
    const seeded = ledger.submitEngineCommands({
      actAs: [dso],
      commands: [{ kind: 'create', template: oldRules, expr: { kind: 'recCon', tycon: { tycon: oldRules, args: [] }, fields: [
        { field: 'dso', expr: { kind: 'lit', value: { kind: 'party', value: dso } } },
        { field: 'configSchedule', expr: { kind: 'val', ref: { packageId: testPkg, module: 'Splice.Scripts.Parameters', name: 'defaultAmuletConfigSchedule' } } },
        { field: 'isDevNet', expr: { kind: 'lit', value: { kind: 'bool', value: true } } },
      ] } }],
    });
    expect(seeded.ok).toBe(true);
    const [seed] = await api.byTemplate(dso, `${oldAmulet}:Splice.AmuletRules:AmuletRules`);
    const amulet = packageIdIn(SPLITWELL_DAR, 'splice-amulet');
    const RULES = `${amulet}:Splice.AmuletRules:AmuletRules`;
    // 0.1.22's validAmuletConfig: no create, lock-holder or transfer fees (CIP-0078), and
    // featuredAppActivityMarkerAmount (new) equal to extraFeaturedAppRewardAmount.
    type Fees = { extraFeaturedAppRewardAmount: string; transferFee: { steps: { _1: string; _2: string }[] } } & Record<string, unknown>;
    const config = (seed!.createArgument as { configSchedule: { initialValue: { transferConfig: Fees } & Record<string, unknown> } }).configSchedule.initialValue;
    const fees = config.transferConfig;
    Object.assign(fees, { createFee: { fee: '0.0' }, lockHolderFee: { fee: '0.0' }, transferFee: { initialRate: '0.0', steps: fees.transferFee.steps.map((s) => ({ _1: s._1, _2: '0.0' })) } });
    config.featuredAppActivityMarkerAmount = fees.extraFeaturedAppRewardAmount;
    const [rules] = createdIn(await api.must([dso], [{ CreateCommand: { templateId: RULES, createArguments: { ...seed!.createArgument, dso } } }]));
    const onRules = (choice: string, choiceArgument: unknown) => ({ ExerciseCommand: { templateId: RULES, contractId: rules!.contractId, choice, choiceArgument } });
    const boot = createdIn(await api.must([dso], [onRules('AmuletRules_Bootstrap_Rounds', { amuletPrice: '1.0', round0Duration: { microseconds: '86400000000' } })]));
    const round0 = ofEntity(boot, 'OpenMiningRound').find((c) => (c.createArgument as { round: { number: string } }).round.number === '0')!;
    const sync = api.synchronizerId;
    const publicData = [disclose(rules!, sync), disclose(round0, sync)];
    const tapped = ofEntity(createdIn(await api.must([alice], [onRules('AmuletRules_DevNet_Tap', { receiver: alice, amount: '1000.0', openRound: round0.contractId })], publicData)), 'Amulet');
    expect(tapped.map((c) => (c.createArgument as { amount: { initialAmount: string } }).amount.initialAmount)).toEqual(['1000.0000000000']);

    // The group: rules, request, accept, invite, join (as test/http/engineSplitwell.test.ts).
    const exercise = (template: string, contractId: string, choice: string, choiceArgument: unknown) => ({ ExerciseCommand: { templateId: `${SPLITWELL}:${template}`, contractId, choice, choiceArgument } });
    const [splitwell] = createdIn(await api.must([provider], [{ CreateCommand: { templateId: `${SPLITWELL}:SplitwellRules`, createArguments: { provider } } }]));
    const withRules = (...more: CreatedEvent[]) => [disclose(splitwell!, sync), ...more.map((c) => disclose(c, sync))];
    const group = { owner: alice, dso, members: [], id: { unpack: 'trip' }, provider, acceptDuration: { microseconds: '3600000000' } };
    const [request] = createdIn(await api.must([alice], [exercise('SplitwellRules', splitwell!.contractId, 'SplitwellRules_RequestGroup', { group, user: alice })], withRules()));
    const [g0] = createdIn(await api.must([provider], [exercise('GroupRequest', request!.contractId, 'GroupRequest_Accept', {})]));
    const [invite] = createdIn(await api.must([alice], [exercise('SplitwellRules', splitwell!.contractId, 'SplitwellRules_CreateInvite', { group: g0!.contractId, user: alice })], withRules()));
    const [accepted] = createdIn(await api.must([bob], [exercise('SplitwellRules', splitwell!.contractId, 'SplitwellRules_AcceptInvite', { cid: invite!.contractId, user: bob })], withRules(invite!)));
    const [g1] = createdIn(await api.must([alice], [exercise('SplitwellRules', splitwell!.contractId, 'SplitwellRules_Join', { group: g0!.contractId, cid: accepted!.contractId, user: alice })], withRules()));

    // Bob paid 30 for the group; Alice pays him 15 in Amulet.
    const [entered] = createdIn(await api.must([bob], [exercise('SplitwellRules', splitwell!.contractId, 'SplitwellRules_EnterPayment', { group: g1!.contractId, amount: '30.0', description: 'dinner', user: bob })], withRules()));
    expect(entered!.createArgument).toMatchObject({ update: { tag: 'ExternalPayment', value: { payer: bob, amount: '30.0000000000' } } });
    const initiated = createdIn(await api.must([alice], [exercise('SplitwellRules', splitwell!.contractId, 'SplitwellRules_InitiateTransfer', { group: g1!.contractId, receiverAmounts: [{ receiver: bob, amuletAmount: '15.0' }], user: alice })], withRules()));
    const [inProgress] = ofEntity(initiated, 'TransferInProgress');
    const [paymentRequest] = ofEntity(initiated, 'AppPaymentRequest');

    const transferContext = { openMiningRound: round0.contractId, issuingMiningRounds: [], validatorRights: [], featuredAppRight: null };
    const acceptTx = await api.must([alice], [{
      ExerciseCommand: { templateId: paymentRequest!.templateId, contractId: paymentRequest!.contractId, choice: 'AppPaymentRequest_Accept', choiceArgument: {
        inputs: [{ tag: 'InputAmulet', value: tapped[0]!.contractId }], context: { amuletRules: rules!.contractId, context: transferContext }, walletProvider: alice,
      } },
    }], publicData);
    const [acceptedPayment] = ofEntity(createdIn(acceptTx), 'AcceptedAppPayment');
    expect(ofEntity(createdIn(acceptTx), 'LockedAmulet')).toHaveLength(1);

    const done = await api.must([provider], [{
      ExerciseCommand: { templateId: inProgress!.templateId, contractId: inProgress!.contractId, choice: 'TransferInProgress_CompleteTransfer', choiceArgument: {
        acceptedPaymentCid: acceptedPayment!.contractId, transferContext: { amuletRules: rules!.contractId, openMiningRound: round0.contractId, featuredAppRight: null },
      } },
    }], publicData);
    const paid = ofEntity(createdIn(done), 'Amulet').find((c) => (c.createArgument as { owner: string }).owner === bob)!;
    expect((paid.createArgument as { amount: { initialAmount: string } }).amount.initialAmount).toBe('15.0000000000');
    const [balance] = ofEntity(createdIn(done), 'BalanceUpdate');
    expect(balance!.createArgument).toMatchObject({ update: { tag: 'Transfer', value: { sender: alice, receiver: bob, amount: '15.0000000000' } } });
}
