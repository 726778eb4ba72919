import { debugFields } from './registry.js';
import { bodyOf, expectErrorResponse, expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import {
  accountOf,
  allocate,
  allocationArgsV2,
  checkContext,
  exerciseResult,
  expectContextComplete,
  expectRefusedOrUnread,
  instrument,
  need,
  post,
  serves,
  submitTx,
  tap,
  UNREAD_ARGUMENTS,
} from './tokenRegistry.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Checks of the token standard v2 beyond v1's: the allocation v2 settlement factory (its
 * context, its refusals, and the cross-group proof that its context lets the executors settle a
 * batch on the ledger) and the v2 allocation factory's refusals. Only run when the profile's
 * `registry.apis` lists the API.
 */
const TS = 'token standard';
const SETTLEMENT_FACTORY = '/registry/allocation/v2/settlement-factory';
const op = 'getSettlementFactoryV2';
const NO_EXTRA_ARGS = { context: { values: {} }, meta: { values: {} } };
const ALLOCATION_FACTORY_V2 = '#splice-api-token-allocation-instruction-v2:Splice.Api.Token.AllocationInstructionV2:AllocationFactory';
const SETTLEMENT_FACTORY_V2 = '#splice-api-token-allocation-v2:Splice.Api.Token.AllocationV2:SettlementFactory';

/** SettlementFactory_SettleBatch's arguments: a swap of `a` (sender to receiver) against `b` (back), settled by `executor`. */
async function settleArgs(ctx: CheckContext, p: { sender: string; receiver: string; executor: string; settlementId: string; allocations: string[]; a?: string; b?: string }): Promise<Json> {
  const { id } = await instrument(ctx);
  const leg = (legId: string, from: string, to: string, amount: string) => ({ transferLegId: legId, sender: accountOf(from), receiver: accountOf(to), amount, instrumentId: id, meta: { values: {} } });
  return {
    settlement: { executors: [p.executor], id: p.settlementId, cid: null, meta: { values: {} } },
    transferLegs: [leg('leg-0', p.sender, p.receiver, p.a ?? '1.0'), ...(p.b === undefined ? [] : [leg('leg-1', p.receiver, p.sender, p.b)])],
    allocations: p.allocations.map((allocationCid) => ({ allocationCid, extraTransferLegSides: [], nextIterationFunding: null })),
    actors: [p.executor],
    extraArgs: NO_EXTRA_ARGS,
  };
}

const parties = (ctx: CheckContext) => ({
  sender: need(ctx, ctx.profile.registry?.transferSender, 'a sender (registry.transferSender)'),
  receiver: need(ctx, ctx.profile.registry?.transferReceiver, 'a receiver (registry.transferReceiver)'),
});

export const tokenRegistryV2Checks: readonly CheckDefinition[] = [
  {
    id: 'registry.settlement-factory.context',
    title: 'Settlement factory (allocation v2): a factory id and a choice context with disclosed contracts, the same on every call',
    group: 'registry',
    operationId: op,
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: allocation-v2 getSettlementFactory FactoryWithChoiceContext`,
    async run(ctx) {
      serves(ctx, 'allocation-v2');
      const { sender, receiver } = parties(ctx);
      const allocations = [ctx.profile.registry?.allocationId ?? `00${'2d'.repeat(32)}`];
      const body = { choiceArguments: await settleArgs(ctx, { sender, receiver, executor: receiver, settlementId: ctx.unique('cc-settle'), allocations }), excludeDebugFields: true };
      const a = await post(ctx, SETTLEMENT_FACTORY, body, op);
      expectStatus(ctx, a, 200, 'settlement factory');
      const b = objectBody(ctx, a, 'settlement factory');
      if (typeof b.factoryId !== 'string' || b.factoryId === '') ctx.fail('factoryId must be a contract id', a);
      const context = checkContext(ctx, a, b.choiceContext, 'settlement factory context');
      const found = debugFields(context);
      if (found.length > 0) ctx.fail(`excludeDebugFields: true, yet the answer has ${found.join(', ')}`, a);
      const again = await post(ctx, SETTLEMENT_FACTORY, body, op);
      expectStatus(ctx, again, 200, 'settlement factory, again');
      if (!jsonEqual(bodyOf(ctx, a, 'first'), bodyOf(ctx, again, 'second'))) ctx.fail(`two identical requests got different answers, first at ${firstDifference(bodyOf(ctx, a, 'first'), bodyOf(ctx, again, 'second'))}`, again);
    },
  },
  {
    id: 'registry.settlement-factory.bad-input-400',
    title: 'Settlement factory: no choiceArguments gets 400; no transfer legs, a non-party executor, a malformed allocation id or amount get 400, or the same factory as valid arguments (not read), never a 5xx',
    group: 'registry',
    operationId: op,
    level: 'MUST',
    kind: 'negative',
    specRef: `${TS}: allocation-v2 getSettlementFactory 400; Splice Scan HttpTokenStandardAllocationHandler.getSettlementFactory (decodes SettlementFactory_SettleBatch with Java's codegen, looks its allocations up)`,
    async run(ctx) {
      serves(ctx, 'allocation-v2');
      const { sender, receiver } = parties(ctx);
      const base = await settleArgs(ctx, { sender, receiver, executor: receiver, settlementId: ctx.unique('cc-settle'), allocations: [`00${'2d'.repeat(32)}`] });
      const legs = base.transferLegs as Json[];
      const bad: [string, unknown][] = [
        ['no choiceArguments', { excludeDebugFields: true }],
        ['no transfer legs', { choiceArguments: { ...base, transferLegs: [] } }],
        ['an executor that is not a party id', { choiceArguments: { ...base, settlement: { ...(base.settlement as Json), executors: ['not-a-party'] } } }],
        ['a malformed allocation id', { choiceArguments: { ...base, allocations: [{ allocationCid: 'not-a-contract-id', extraTransferLegSides: [], nextIterationFunding: null }] } }],
        ['a malformed amount', { choiceArguments: { ...base, transferLegs: [{ ...legs[0], amount: '1.00000000001' }] } }],
      ];
      // No choiceArguments breaks the request's schema: 400. The rest are arguments the Daml choice
      // refuses, which Splice's settlement factory does not read past decoding them (Java's codegen
      // takes any text for a party or contract id, rounds a Numeric's extra places).
      const valid = await post(ctx, SETTLEMENT_FACTORY, { choiceArguments: base }, op);
      expectStatus(ctx, valid, 200, 'settlement factory with valid arguments (the control)');
      const { factoryId } = objectBody(ctx, valid, 'settlement factory');
      for (const [why, body] of bad) {
        const e = await post(ctx, SETTLEMENT_FACTORY, body, op, why === 'no choiceArguments' ? undefined : UNREAD_ARGUMENTS);
        if (why === 'no choiceArguments') {
          expectStatus(ctx, e, 400, `settlement factory with ${why}`);
          expectErrorResponse(ctx, e, why);
        } else expectRefusedOrUnread(ctx, e, `settlement factory with ${why}`, factoryId);
      }
    },
  },
  {
    id: 'registry.allocation-factory.bad-input-400-v2',
    title: 'Allocation factory (v2): a non-account authorizer, a malformed leg amount and an unknown side get 400, or the same factory as valid arguments (not read), never a 5xx',
    group: 'registry',
    operationId: 'getAllocationFactoryV2',
    level: 'MUST',
    kind: 'negative',
    specRef: `${TS}: allocation-instruction-v2 getAllocationFactory 400; Splice Scan HttpTokenStandardAllocationInstructionHandler.getAllocationFactory (reads no choice argument)`,
    async run(ctx) {
      serves(ctx, 'allocation-instruction-v2');
      const { sender, receiver } = parties(ctx);
      const base = await allocationArgsV2(ctx, { authorizer: sender, other: receiver, executor: receiver, settlementId: ctx.unique('cc-settle') });
      const spec = base.allocation as Json;
      const side = (spec.transferLegSides as Json[])[0] as Json;
      const bad: [string, Json][] = [
        ['an authorizer that is a bare party, not an account', { ...spec, authorizer: sender }],
        ['a malformed leg amount', { ...spec, transferLegSides: [{ ...side, amount: '-1.0' }] }],
        ['an unknown side', { ...spec, transferLegSides: [{ ...side, side: 'BothSides' }] }],
      ];
      const valid = await post(ctx, '/registry/allocation-instruction/v2/allocation-factory', { choiceArguments: base }, 'getAllocationFactoryV2');
      expectStatus(ctx, valid, 200, 'allocation factory with valid arguments (the control)');
      const { factoryId } = objectBody(ctx, valid, 'allocation factory');
      for (const [why, allocation] of bad) {
        const e = await post(ctx, '/registry/allocation-instruction/v2/allocation-factory', { choiceArguments: { ...base, allocation } }, 'getAllocationFactoryV2', UNREAD_ARGUMENTS);
        expectRefusedOrUnread(ctx, e, `allocation factory with ${why}`, factoryId);
      }
    },
  },
  {
    id: 'registry.cross-group.settlement-context-lets-settle-batch-succeed',
    title: 'Two parties allocate with the v2 allocation factory (each allocation has v2 withdraw and cancel contexts); the executor settles both legs with the settlement factory context; the receiver holds the amount',
    group: 'registry',
    operationId: op,
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: allocation-v2 SettlementFactory_SettleBatch (the context lets the executors settle)`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      serves(ctx, 'allocation-v2');
      serves(ctx, 'allocation-instruction-v2');
      if (!ctx.profile.registry?.devNetTap) ctx.skip(`profile '${ctx.profile.name}' does not allow the DevNet tap (registry.devNetTap) to fund the allocations`);
      const [alice, bob, venue] = [await allocate(ctx, 'cc-alice'), await allocate(ctx, 'cc-bob'), await allocate(ctx, 'cc-venue')];
      const settlementId = ctx.unique('cc-dvp');
      const allocationIds: string[] = [];
      // alice sends 3, bob sends 1 back: alice allocates both sides of her legs, bob his.
      for (const [who, other, funds] of [[alice, bob, '3.0'], [bob, alice, '1.0']] as const) {
        const input = await tap(ctx, who, funds);
        const args = await allocationArgsV2(ctx, { authorizer: who, other, executor: venue, settlementId, amount: funds, inputs: [input] });
        const spec = args.allocation as Json;
        const sent = (spec.transferLegSides as Json[])[0] as Json;
        const legId = who === alice ? 'leg-0' : 'leg-1';
        const received = { ...sent, transferLegId: who === alice ? 'leg-1' : 'leg-0', side: 'ReceiverSide', amount: who === alice ? '1.0' : '3.0' };
        const full = { ...args, allocation: { ...spec, transferLegSides: [{ ...sent, transferLegId: legId }, received] } };
        const f = await post(ctx, '/registry/allocation-instruction/v2/allocation-factory', { choiceArguments: full, excludeDebugFields: true }, 'getAllocationFactoryV2');
        expectStatus(ctx, f, 200, 'allocation factory (v2)');
        const factory = objectBody(ctx, f, 'allocation factory');
        const fctx = factory.choiceContext as Json;
        const tx = await submitTx(ctx, who, {
          ExerciseCommand: { templateId: ALLOCATION_FACTORY_V2, contractId: factory.factoryId, choice: 'AllocationFactory_Allocate', choiceArgument: { ...full, extraArgs: { context: fctx.choiceContextData, meta: { values: {} } } } },
        }, fctx.disclosedContracts as Json[], 'allocating through the v2 factory');
        const out = exerciseResult(tx);
        const cid = isObject(out) && isObject(out.output) && isObject(out.output.value) ? out.output.value.allocationCid : undefined;
        if (out === undefined) return ctx.fail('the allocation transaction shows no exercise result', f);
        if (typeof cid !== 'string') return ctx.skip('the registry created no allocation at once (an allocation instruction is pending): nothing to settle');
        allocationIds.push(cid);
      }
      // The venue and each authorizer must be able to back out of what the v2 factory made: its
      // allocations have v2 cancel and withdraw contexts (read only; nothing is exercised).
      for (const cid of allocationIds) {
        for (const [choice, operationId] of [['withdraw', 'getAllocationWithdrawContextV2'], ['cancel', 'getAllocationCancelContextV2']] as const) {
          const c = await post(ctx, `/registry/allocations/v2/${encodeURIComponent(cid)}/choice-contexts/${choice}`, { excludeDebugFields: true }, operationId);
          expectStatus(ctx, c, 200, `the v2 ${choice} context of allocation ${cid}, made by the v2 allocation factory`);
          expectContextComplete(ctx, c, checkContext(ctx, c, bodyOf(ctx, c, `${choice} context`), `${choice} context`), `the v2 ${choice} context`);
        }
      }
      const args = await settleArgs(ctx, { sender: alice, receiver: bob, executor: venue, settlementId, allocations: allocationIds, a: '3.0', b: '1.0' });
      const s = await post(ctx, SETTLEMENT_FACTORY, { choiceArguments: args, excludeDebugFields: true }, op);
      expectStatus(ctx, s, 200, 'settlement factory');
      const factory = objectBody(ctx, s, 'settlement factory');
      const sctx = factory.choiceContext as Json;
      const tx = await submitTx(ctx, venue, {
        ExerciseCommand: { templateId: SETTLEMENT_FACTORY_V2, contractId: factory.factoryId, choice: 'SettlementFactory_SettleBatch', choiceArgument: { ...args, extraArgs: { context: sctx.choiceContextData, meta: { values: {} } } } },
      }, sctx.disclosedContracts as Json[], 'settling the batch with the registry\'s context');
      const result = exerciseResult(tx);
      const settled = isObject(result) && Array.isArray(result.allocationSettleResults) ? result.allocationSettleResults : [];
      if (settled.length !== 2) ctx.fail(`SettlementFactory_SettleBatch settled ${settled.length} allocations, expected 2`);
    },
  },
];
