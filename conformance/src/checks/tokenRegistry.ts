import { contractIdArb } from '../generators/identifiers.js';
import type { Exchange } from '../target/exchange.js';
import { debugFields } from './registry.js';
import { bodyOf, expectErrorResponse, expectStatus, firstDifference, isBase64, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { forAll } from './support/property.js';
import { patienceMs, poll } from './support/poll.js';
import { userIdOf } from './support/ledger.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Checks of the token-standard registry API beyond the allocation-instruction accept context:
 * metadata v1, the transfer and allocation factories, the contexts of transfer instructions and
 * allocations (v1 and v2), and the cross-group proof that a context lets the choice succeed.
 * Which API versions a target serves comes from the profile (`registry.apis`).
 */
const TS = 'token standard';
type Api = 'metadata-v1' | 'transfer-instruction-v1' | 'transfer-instruction-v2' | 'allocation-instruction-v1' | 'allocation-instruction-v2' | 'allocation-v1' | 'allocation-v2';

export function serves(ctx: CheckContext, api: Api): void {
  const apis = ctx.profile.registry?.apis ?? ['allocation-instruction-v2'];
  if (!apis.includes(api)) ctx.skip(`profile '${ctx.profile.name}' does not list ${api} in registry.apis`);
}
export const need = <T>(ctx: CheckContext, v: T | undefined, what: string): T => v ?? ctx.skip(`profile '${ctx.profile.name}' does not name ${what}`);
/** The versions of `api` the profile says the target serves (registry.apis). */
export const served = (ctx: CheckContext, api: 'transfer-instruction' | 'allocation-instruction' | 'allocation'): ('v1' | 'v2')[] =>
  (['v1', 'v2'] as const).filter((v) => (ctx.profile.registry?.apis ?? ['allocation-instruction-v2']).includes(`${api}-${v}`));

const get = (ctx: CheckContext, path: string, operationId: string) => ctx.http.request('registry', { method: 'GET', path, operationId });
export const post = (ctx: CheckContext, path: string, json: unknown, operationId: string, unreadInput?: string) =>
  ctx.http.request('registry', { method: 'POST', path, json, operationId, ...(unreadInput === undefined ? {} : { unreadInput }) });

/** Factory requests with choice arguments the Daml choice refuses (`expectRefusedOrUnread`): a registry may not read them. */
export const UNREAD_ARGUMENTS = "choice arguments the Daml choice refuses, which Splice Scan's factories do not read";

/** A ChoiceContext body, checked for its required shape. */
export function checkContext(ctx: CheckContext, e: Exchange, context: unknown, what: string): Json {
  if (!isObject(context) || !isObject(context.choiceContextData) || !Array.isArray(context.disclosedContracts)) {
    return ctx.fail(`${what}: a ChoiceContext needs choiceContextData (object) and disclosedContracts (array)`, e);
  }
  context.disclosedContracts.forEach((d, i) => {
    if (!isObject(d)) return ctx.fail(`${what}: disclosedContracts/${i} is not an object`, e);
    for (const k of ['templateId', 'contractId', 'synchronizerId']) if (typeof d[k] !== 'string' || d[k] === '') ctx.fail(`${what}: disclosedContracts/${i}/${k} must be a non-empty string`, e);
    if (!isBase64(d.createdEventBlob)) ctx.fail(`${what}: disclosedContracts/${i}/createdEventBlob must be non-empty base64`, e);
    return undefined;
  });
  return context;
}

/** Every contract id a context's values name (AV_ContractId, also inside lists and maps). */
export function contextContractIds(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(contextContractIds);
  if (!isObject(v)) return [];
  if (v.tag === 'AV_ContractId' && typeof v.value === 'string') return [v.value];
  return Object.values(v).flatMap(contextContractIds);
}

/**
 * Every contract the context names is among its disclosed contracts: the party that exercises the
 * choice (an executor, a receiver) is often no stakeholder of the AmuletRules or the round, and
 * submits with exactly these disclosures.
 */
export function expectContextComplete(ctx: CheckContext, e: Exchange, context: Json, what: string): void {
  const disclosed = new Set((Array.isArray(context.disclosedContracts) ? context.disclosedContracts : []).map((d) => (isObject(d) ? d.contractId : undefined)));
  const missing = [...new Set(contextContractIds(context.choiceContextData))].filter((id) => !disclosed.has(id));
  if (missing.length > 0) ctx.fail(`${what} names ${missing.join(', ')} but does not disclose ${missing.length === 1 ? 'it' : 'them'}`, e);
}

/** The registry's admin and its first instrument (metadata v1), which factory requests name. */
export async function instrument(ctx: CheckContext): Promise<{ admin: string; id: string }> {
  return ctx.shared('registry-instrument', async () => {
    const info = await get(ctx, '/registry/metadata/v1/info', 'getRegistryInfo');
    expectStatus(ctx, info, 200, 'registry info');
    const admin = objectBody(ctx, info, 'registry info').adminId;
    const list = await get(ctx, '/registry/metadata/v1/instruments', 'listInstruments');
    expectStatus(ctx, list, 200, 'instrument list');
    const first = (objectBody(ctx, list, 'instrument list').instruments as Json[] | undefined)?.[0];
    if (typeof admin !== 'string' || !isObject(first) || typeof first.id !== 'string') return ctx.fail('metadata v1 names no admin or no instrument', list);
    return { admin, id: first.id };
  });
}

export async function transferArgs(ctx: CheckContext, over: Json = {}): Promise<Json> {
  const { admin, id } = await instrument(ctx);
  const sender = need(ctx, ctx.profile.registry?.transferSender, 'a sender for factory requests (registry.transferSender)');
  const receiver = need(ctx, ctx.profile.registry?.transferReceiver, 'a receiver for factory requests (registry.transferReceiver)');
  const now = Date.now();
  return {
    expectedAdmin: admin,
    transfer: {
      sender,
      receiver,
      amount: '1.0',
      instrumentId: { admin, id },
      requestedAt: new Date(now - 60_000).toISOString(),
      executeBefore: new Date(now + 3_600_000).toISOString(),
      inputHoldingCids: [],
      meta: { values: {} },
      ...over,
    },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

/** AllocationFactory_Allocate arguments for one leg from the profile's sender to its receiver (the executor). */
export async function allocationArgs(ctx: CheckContext, leg: Json = {}): Promise<Json> {
  const { admin, id } = await instrument(ctx);
  const sender = need(ctx, ctx.profile.registry?.transferSender, 'a sender (registry.transferSender)');
  const receiver = need(ctx, ctx.profile.registry?.transferReceiver, 'a receiver (registry.transferReceiver)');
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  return {
    expectedAdmin: admin,
    allocation: {
      settlement: { executor: receiver, settlementRef: { id: ctx.unique('cc-settlement'), cid: null }, requestedAt: at(-60_000), allocateBefore: at(3_600_000), settleBefore: at(7_200_000), meta: { values: {} } },
      transferLegId: 'leg-0',
      transferLeg: { sender, receiver, amount: '1.0', instrumentId: { admin, id }, meta: { values: {} }, ...leg },
    },
    requestedAt: at(-60_000),
    inputHoldingCids: [],
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

/** A v2 Account: the party's default account. */
export const accountOf = (owner: string): Json => ({ owner, provider: null, id: '' });
const NO_EXTRA_ARGS = { context: { values: {} }, meta: { values: {} } };

/** TransferFactory_Transfer's arguments in v2's shape: accounts, and the sender as the actor. */
export async function transferArgsV2(ctx: CheckContext): Promise<Json> {
  const v1 = await transferArgs(ctx);
  const t = v1.transfer as Json;
  return { transfer: { ...t, sender: accountOf(String(t.sender)), receiver: accountOf(String(t.receiver)) }, actors: [t.sender], extraArgs: NO_EXTRA_ARGS };
}

/**
 * AllocationFactory_Allocate's arguments in v2's shape (splice-api-token-allocation-instruction-v2
 * 1.0.0: the settlement beside the specification): `authorizer` sends `amount` to `other` in settlement `id`.
 */
export async function allocationArgsV2(ctx: CheckContext, p: { authorizer: string; other: string; executor: string; settlementId: string; amount?: string; side?: 'SenderSide' | 'ReceiverSide'; inputs?: string[] }): Promise<Json> {
  const { admin, id } = await instrument(ctx);
  const now = Date.now();
  return {
    settlement: { executors: [p.executor], id: p.settlementId, cid: null, meta: { values: {} } },
    allocation: {
      admin,
      authorizer: accountOf(p.authorizer),
      transferLegSides: [{ transferLegId: 'leg-0', side: p.side ?? 'SenderSide', otherside: accountOf(p.other), amount: p.amount ?? '1.0', instrumentId: id, meta: { values: {} } }],
      settlementDeadline: new Date(now + 3_600_000).toISOString(),
      nextIterationFunding: null,
      committed: false,
      meta: { values: {} },
    },
    requestedAt: new Date(now - 60_000).toISOString(),
    inputHoldingCids: p.inputs ?? [],
    extraArgs: NO_EXTRA_ARGS,
    actors: [p.authorizer],
  };
}

const VERSIONS = ['v1', 'v2'] as const;
const check = (c: CheckDefinition): CheckDefinition => c;

const perVersion = (make: (v: 'v1' | 'v2') => CheckDefinition): CheckDefinition[] => VERSIONS.map(make);

export const tokenRegistryChecks: readonly CheckDefinition[] = [
  check({
    id: 'registry.metadata.info',
    title: 'Registry info: the admin party and the supported APIs with their minor versions',
    group: 'registry',
    operationId: 'getRegistryInfo',
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: token-metadata-v1 GetRegistryInfoResponse`,
    async run(ctx) {
      serves(ctx, 'metadata-v1');
      const e = await get(ctx, '/registry/metadata/v1/info', 'getRegistryInfo');
      expectStatus(ctx, e, 200, 'registry info');
      const b = objectBody(ctx, e, 'registry info');
      // A party id: a hint (single colons allowed, as Canton's identifiers allow them; never `::`), `::`, a namespace.
      if (typeof b.adminId !== 'string' || !/^(?:[^:]|:(?!:))+::1220[0-9a-f]{64}$/.test(b.adminId)) ctx.fail(`adminId must be a party id, got ${JSON.stringify(b.adminId)}`, e);
      if (!isObject(b.supportedApis) || Object.values(b.supportedApis).some((v) => !Number.isInteger(v))) ctx.fail('supportedApis must map API names to integer minor versions', e);
    },
  }),
  check({
    id: 'registry.metadata.instrument-lookup',
    title: 'Every listed instrument is found by id; an unknown id gets 404 with an ErrorResponse',
    group: 'registry',
    operationId: 'getInstrument',
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: token-metadata-v1 listInstruments, getInstrument (404)`,
    async run(ctx) {
      serves(ctx, 'metadata-v1');
      for await (const { i, one } of listedAndLookedUp(ctx)) {
        if (objectBody(ctx, one, 'instrument').id !== i.id) ctx.fail(`GET instruments/${String(i.id)} answered another instrument`, one);
      }
      const unknown = await get(ctx, `/registry/metadata/v1/instruments/${ctx.unique('no-such-instrument')}`, 'getInstrument');
      expectStatus(ctx, unknown, 404, 'an unknown instrument');
      expectErrorResponse(ctx, unknown, 'unknown instrument');
    },
  }),
  check({
    id: 'registry.metadata.account-input-fields',
    title: 'accountInputFieldsToShow names provider and accountId at most once each, equally in the list and the lookup, and agrees with the deprecated showAccountInputFields',
    group: 'registry',
    operationId: 'getInstrument',
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: token-metadata-v1 Instrument.accountInputFieldsToShow (a unique array of provider / accountId; showAccountInputFields deprecated; Splice PR #6346)`,
    async run(ctx) {
      serves(ctx, 'metadata-v1');
      for await (const { i, one } of listedAndLookedUp(ctx)) {
        const fields = objectBody(ctx, one, 'instrument').accountInputFieldsToShow;
        const what = `instrument ${String(i.id)}`;
        if (fields === undefined) continue;
        if (!Array.isArray(fields)) return ctx.fail(`${what}: accountInputFieldsToShow must be an array, got ${JSON.stringify(fields)}`, one);
        const unknown = fields.filter((f) => f !== 'provider' && f !== 'accountId');
        if (unknown.length > 0) ctx.fail(`${what}: accountInputFieldsToShow names ${JSON.stringify(unknown)}; only provider and accountId are fields`, one);
        if (new Set(fields).size !== fields.length) ctx.fail(`${what}: accountInputFieldsToShow names a field twice: ${JSON.stringify(fields)}`, one);
        if (!jsonEqual(i.accountInputFieldsToShow, fields)) ctx.fail(`${what}: the list answers accountInputFieldsToShow ${JSON.stringify(i.accountInputFieldsToShow)}, the lookup ${JSON.stringify(fields)}`, one);
        // The deprecated flag, where still sent, must not contradict its replacement.
        const show = (objectBody(ctx, one, 'instrument') as Json).showAccountInputFields;
        if (typeof show === 'boolean' && show !== fields.length > 0) ctx.fail(`${what}: showAccountInputFields is ${show} but accountInputFieldsToShow is ${JSON.stringify(fields)}`, one);
      }
    },
  }),
  ...perVersion((v) => ({
    id: `registry.transfer-factory.context-${v}`,
    title: `Transfer factory (${v}): a factory id, the transfer kind and a choice context with disclosed contracts`,
    group: 'registry',
    operationId: `getTransferFactory${v.toUpperCase()}`,
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: transfer-instruction-${v} TransferFactoryWithChoiceContext`,
    async run(ctx) {
      serves(ctx, `transfer-instruction-${v}`);
      const choiceArguments = v === 'v1' ? await transferArgs(ctx) : await transferArgsV2(ctx);
      const e = await post(ctx, `/registry/transfer-instruction/${v}/transfer-factory`, { choiceArguments, excludeDebugFields: true }, `getTransferFactory${v.toUpperCase()}`);
      expectStatus(ctx, e, 200, 'transfer factory');
      const b = objectBody(ctx, e, 'transfer factory');
      if (typeof b.factoryId !== 'string' || b.factoryId === '') ctx.fail('factoryId must be a contract id', e);
      if (!['self', 'direct', 'offer'].includes(String(b.transferKind))) ctx.fail(`transferKind must be self, direct or offer, got ${JSON.stringify(b.transferKind)}`, e);
      const context = checkContext(ctx, e, b.choiceContext, 'transfer factory context');
      const found = debugFields(context);
      if (found.length > 0) ctx.fail(`excludeDebugFields: true, yet the answer has ${found.join(', ')}`, e);
    },
  })),
  check({
    id: 'registry.transfer-factory.bad-input-400',
    title: 'Transfer factory: malformed amounts, unknown instruments, non-party receivers and oversized metadata get 400, or the same factory as valid arguments (not read: the Daml choice refuses them), never a 5xx',
    group: 'registry',
    operationId: 'getTransferFactoryV1',
    level: 'MUST',
    kind: 'negative',
    specRef: `${TS}: transfer-instruction-v1 getTransferFactory 400; Daml Numeric 10 amounts; Splice Scan HttpTokenStandardTransferInstructionHandler.getTransferFactory (decodes the arguments with Java's codegen, reads the receiver)`,
    async run(ctx) {
      serves(ctx, 'transfer-instruction-v1');
      const base = await transferArgs(ctx);
      const t = base.transfer as Json;
      const valid = await post(ctx, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: base }, 'getTransferFactoryV1');
      expectStatus(ctx, valid, 200, 'transfer factory with valid arguments (the control)');
      const { factoryId } = objectBody(ctx, valid, 'transfer factory');
      const bad: [string, Json][] = [
        ['a malformed amount', { ...t, amount: '1.00000000001' }],
        ['a negative amount', { ...t, amount: '-5.0' }],
        ['NaN as an amount', { ...t, amount: 'NaN' }],
        ['an amount with an exponent', { ...t, amount: '1e3' }],
        ['an unknown instrument', { ...t, instrumentId: { admin: (t.instrumentId as Json).admin, id: ctx.unique('no-such-instrument') } }],
        ['a receiver that is not a party id', { ...t, receiver: 'not-a-party' }],
        ['oversized metadata', { ...t, meta: { values: { memo: 'x'.repeat(20_000) } } }],
      ];
      for (const [why, transfer] of bad) {
        const e = await post(ctx, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: { ...base, transfer } }, 'getTransferFactoryV1', UNREAD_ARGUMENTS);
        expectRefusedOrUnread(ctx, e, `transfer factory with ${why}`, factoryId);
      }
    },
  }),
  ...perVersion((v) => ({
    id: `registry.transfer-instruction.contexts-${v}`,
    title: `Accept, reject and withdraw contexts (${v}) of a pending transfer instruction, the same on every call`,
    group: 'registry',
    operationId: `getTransferInstructionAcceptContext${v.toUpperCase()}`,
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: transfer-instruction-${v} ChoiceContext (SHOULD NOT depend on anything but the instruction)`,
    async run(ctx) {
      serves(ctx, `transfer-instruction-${v}`);
      const id = need(ctx, ctx.profile.registry?.transferInstructionId, 'a pending transfer instruction (registry.transferInstructionId)');
      for (const choice of ['accept', 'reject', 'withdraw']) {
        const op = `getTransferInstruction${choice[0]!.toUpperCase()}${choice.slice(1)}Context${v.toUpperCase()}`;
        const path = `/registry/transfer-instruction/${v}/${encodeURIComponent(id)}/choice-contexts/${choice}`;
        const a = await post(ctx, path, { excludeDebugFields: true }, op);
        expectStatus(ctx, a, 200, `${choice} context`);
        checkContext(ctx, a, bodyOf(ctx, a, `${choice} context`), `${choice} context`);
        const b = await post(ctx, path, { excludeDebugFields: true }, op);
        expectStatus(ctx, b, 200, `${choice} context, again`);
        if (!jsonEqual(bodyOf(ctx, a, `${choice} context`), bodyOf(ctx, b, `${choice} context`))) ctx.fail(`two identical ${choice} requests got different contexts, first at ${firstDifference(bodyOf(ctx, a, `${choice} context`), bodyOf(ctx, b, `${choice} context`))}`, b);
      }
    },
  })),
  check({
    id: 'registry.transfer-instruction.unknown-id-404',
    title: 'Random unknown transfer instruction ids get 404 with an ErrorResponse (property)',
    group: 'registry',
    operationId: 'getTransferInstructionAcceptContextV1',
    level: 'MUST',
    kind: 'property',
    specRef: `${TS}: transfer-instruction-v1 404`,
    async run(ctx) {
      serves(ctx, 'transfer-instruction-v1');
      const known = ctx.profile.registry?.transferInstructionId;
      if (known !== undefined) {
        expectStatus(ctx, await post(ctx, `/registry/transfer-instruction/v1/${known}/choice-contexts/accept`, {}, 'getTransferInstructionAcceptContextV1'), 200, 'control: the known instruction');
      }
      await forAll(ctx, contractIdArb().filter((id) => id !== known), async (id) => {
        const e = await post(ctx, `/registry/transfer-instruction/v1/${id}/choice-contexts/accept`, {}, 'getTransferInstructionAcceptContextV1');
        expectStatus(ctx, e, 404, `accept context of unknown instruction ${id}`);
        expectErrorResponse(ctx, e, 'unknown instruction');
      });
    },
  }),
  ...perVersion((v) => ({
    id: `registry.allocation.contexts-${v}`,
    title: `Allocation contexts (${v}) of an allocation, each disclosing every contract it names; an unknown allocation gets 404`,
    group: 'registry',
    operationId: `getAllocationWithdrawContext${v.toUpperCase()}`,
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: allocation-${v} ChoiceContext (the contracts the executor's choice needs, disclosed), 404`,
    async run(ctx) {
      serves(ctx, `allocation-${v}`);
      const id = need(ctx, ctx.profile.registry?.allocationId, 'an allocation (registry.allocationId)');
      const choices = v === 'v1' ? [['execute-transfer', 'getAllocationTransferContext'], ['withdraw', 'getAllocationWithdrawContext'], ['cancel', 'getAllocationCancelContext']] : [['withdraw', 'getAllocationWithdrawContext'], ['cancel', 'getAllocationCancelContext']];
      for (const [choice, op] of choices as [string, string][]) {
        const e = await post(ctx, `/registry/allocations/${v}/${encodeURIComponent(id)}/choice-contexts/${choice}`, { excludeDebugFields: true }, `${op}${v.toUpperCase()}`);
        expectStatus(ctx, e, 200, `${choice} context`);
        expectContextComplete(ctx, e, checkContext(ctx, e, bodyOf(ctx, e, `${choice} context`), `${choice} context`), `the ${choice} context`);
      }
      const unknown = await post(ctx, `/registry/allocations/${v}/00${'0f'.repeat(32)}/choice-contexts/withdraw`, {}, `getAllocationWithdrawContext${v.toUpperCase()}`);
      expectStatus(ctx, unknown, 404, 'withdraw context of an unknown allocation');
      expectErrorResponse(ctx, unknown, 'unknown allocation');
    },
  })),
  ...perVersion((v) => ({
    id: `registry.allocation-factory.context-${v}`,
    title: `Allocation factory (${v}): a factory id and a choice context`,
    group: 'registry',
    operationId: `getAllocationFactory${v.toUpperCase()}`,
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: allocation-instruction-${v} FactoryWithChoiceContext`,
    async run(ctx) {
      serves(ctx, `allocation-instruction-${v}`);
      const sender = need(ctx, ctx.profile.registry?.transferSender, 'a sender (registry.transferSender)');
      const receiver = need(ctx, ctx.profile.registry?.transferReceiver, 'a receiver (registry.transferReceiver)');
      const args = v === 'v2' ? await allocationArgsV2(ctx, { authorizer: sender, other: receiver, executor: receiver, settlementId: ctx.unique('cc-settlement') }) : await allocationArgs(ctx);
      const e = await post(ctx, `/registry/allocation-instruction/${v}/allocation-factory`, { choiceArguments: args, excludeDebugFields: true }, `getAllocationFactory${v.toUpperCase()}`);
      expectStatus(ctx, e, 200, 'allocation factory');
      const b = objectBody(ctx, e, 'allocation factory');
      if (typeof b.factoryId !== 'string' || b.factoryId === '') ctx.fail('factoryId must be a contract id', e);
      checkContext(ctx, e, b.choiceContext, 'allocation factory context');
    },
  })),
  check({
    id: 'registry.cross-group.transfer-context-lets-accept-succeed',
    title: 'A transfer through the factory, then accepted with the accept context and its disclosed contracts, prepares (interactive submission) and succeeds on the ledger; the accepted instruction then has no context (404) (every served transfer-instruction version)',
    group: 'registry',
    operationId: 'getTransferInstructionAcceptContextV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: transfer-instruction-v1/v2 (choice contexts let the wallet exercise the choice)`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'transfer-instruction');
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no transfer-instruction API in registry.apis`);
      if (!ctx.profile.registry?.devNetTap) ctx.skip(`profile '${ctx.profile.name}' does not allow the DevNet tap (registry.devNetTap) to fund a transfer`);
      const [sender, receiver] = [await allocate(ctx, 'cc-sender'), await allocate(ctx, 'cc-receiver')];
      // A wallet on the v2 API takes the v2 context: it must work as the v1 one does.
      for (const v of versions) {
        const pending = await offerThroughFactory(ctx, sender, receiver, v);
        const operationId = `getTransferInstructionAcceptContext${v.toUpperCase()}`;
        const c = await post(ctx, `/registry/transfer-instruction/${v}/${pending}/choice-contexts/accept`, { excludeDebugFields: true }, operationId);
        expectStatus(ctx, c, 200, `the ${v} accept context`);
        const accept = objectBody(ctx, c, `${v} accept context`);
        const extraArgs = { context: accept.choiceContextData, meta: { values: {} } };
        const command = {
          ExerciseCommand: {
            templateId: TRANSFER_INSTRUCTION[v],
            contractId: pending,
            choice: 'TransferInstruction_Accept',
            choiceArgument: v === 'v1' ? { extraArgs } : { actors: [receiver], extraArgs },
          },
        };
        // A wallet of an external party prepares the same command with the same disclosures (prepare commits nothing).
        if (ctx.profile.ledger?.interactiveSubmission !== false) {
          const prepared = await prepareCommand(ctx, [receiver], command, accept.disclosedContracts as Json[]);
          expectStatus(ctx, prepared, 200, `preparing the accept with the registry's ${v} context and its disclosed contracts`);
        }
        const tx = await submitTx(ctx, receiver, command, accept.disclosedContracts as Json[], `accepting with the registry's ${v} context`);
        // A v2 accept may leave the transfer pending another step (its result says so): then it keeps its contexts.
        const result = exerciseResult(tx);
        const stillPending = v === 'v2' && isObject(result) && isObject(result.output) && result.output.tag === 'TransferInstructionResult_Pending';
        if (!stillPending) await expectContextGone(ctx, `/registry/transfer-instruction/${v}/${pending}/choice-contexts/accept`, operationId, `the ${v} accept context of the instruction just accepted`);
      }
    },
  }),
  check({
    id: 'registry.cross-group.transfer-contexts-let-reject-withdraw-succeed',
    title: "A pending transfer rejected by its receiver with the reject context, and another withdrawn by its sender with the withdraw context, both succeed on the ledger, and the instruction then has no context (404) (every served transfer-instruction version)",
    group: 'registry',
    operationId: 'getTransferInstructionRejectContextV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: transfer-instruction-v1/v2 TransferInstruction_Reject (the receiver), TransferInstruction_Withdraw (the sender): choice contexts let the wallet exercise the choice`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'transfer-instruction');
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no transfer-instruction API in registry.apis`);
      if (!ctx.profile.registry?.devNetTap) ctx.skip(`profile '${ctx.profile.name}' does not allow the DevNet tap (registry.devNetTap) to fund a transfer`);
      const [sender, receiver] = [await allocate(ctx, 'cc-reject-sender'), await allocate(ctx, 'cc-reject-receiver')];
      // A wallet offers both buttons on a pending transfer: each context must make its choice work.
      for (const v of versions) {
        for (const [choice, actor] of [['reject', receiver], ['withdraw', sender]] as const) {
          const pending = await offerThroughFactory(ctx, sender, receiver, v);
          const operationId = `getTransferInstruction${choice === 'reject' ? 'Reject' : 'Withdraw'}Context${v.toUpperCase()}`;
          const c = await post(ctx, `/registry/transfer-instruction/${v}/${pending}/choice-contexts/${choice}`, { excludeDebugFields: true }, operationId);
          expectStatus(ctx, c, 200, `the ${v} ${choice} context of a pending transfer`);
          const context = objectBody(ctx, c, `${choice} context`);
          const name = choice === 'reject' ? 'TransferInstruction_Reject' : 'TransferInstruction_Withdraw';
          const extraArgs = { context: context.choiceContextData, meta: { values: {} } };
          await submitTx(ctx, actor, {
            ExerciseCommand: { templateId: TRANSFER_INSTRUCTION[v], contractId: pending, choice: name, choiceArgument: v === 'v1' ? { extraArgs } : { actors: [actor], extraArgs } },
          }, (context.disclosedContracts ?? []) as Json[], `${name} (${v}) with the registry's ${choice} context`);
          await expectContextGone(ctx, `/registry/transfer-instruction/${v}/${pending}/choice-contexts/${choice}`, operationId, `the ${v} ${choice} context of the instruction just ${choice === 'reject' ? 'rejected' : 'withdrawn'}`);
        }
      }
    },
  }),
  check({
    id: 'registry.amulet.tap-reports-mint',
    title: 'The DevNet tap reports itself as a mint (tx-kind in its result\'s meta), so wallets label it Mint',
    group: 'registry',
    operationId: 'postV2CommandsSubmit-and-wait-for-transaction',
    level: 'SHOULD',
    kind: 'cross-group',
    specRef: `${TS}: metadata-v1 (splice.lfdecentralizedtrust.org/tx-kind); what wallet-sdk's transaction parser reads`,
    requires: { writes: true, groups: ['ledger', 'scan'] },
    async run(ctx) {
      if (!ctx.profile.registry?.devNetTap) ctx.skip(`profile '${ctx.profile.name}' does not allow the DevNet tap (registry.devNetTap)`);
      const party = await allocate(ctx, 'cc-tapper');
      const { tx } = await tapTx(ctx, party, '3.0');
      const result = exerciseResult(tx);
      const meta = isObject(result) && isObject(result.meta) && isObject(result.meta.values) ? result.meta.values : undefined;
      const kind = meta?.['splice.lfdecentralizedtrust.org/tx-kind'];
      if (kind !== 'mint') ctx.fail(`the tap's result has tx-kind ${JSON.stringify(kind)} in its meta, not "mint": wallets cannot tell the tap from a transfer`);
    },
  }),
];

export const TRANSFER_FACTORY = {
  v1: '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferFactory',
  v2: '#splice-api-token-transfer-instruction-v2:Splice.Api.Token.TransferInstructionV2:TransferFactory',
} as const;
const TRANSFER_INSTRUCTION = {
  v1: '#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:TransferInstruction',
  v2: '#splice-api-token-transfer-instruction-v2:Splice.Api.Token.TransferInstructionV2:TransferInstruction',
} as const;

/** The TransferFactory_Transfer arguments of version `v` for a transfer of `amount` out of `input`. */
export async function transferArgsOf(ctx: CheckContext, v: 'v1' | 'v2', sender: string, receiver: string, amount: string, input: string): Promise<Json> {
  const v1 = await transferArgs(ctx, { sender, receiver, amount, inputHoldingCids: [input] });
  if (v === 'v1') return v1;
  return { transfer: { ...(v1.transfer as Json), sender: accountOf(sender), receiver: accountOf(receiver) }, actors: [sender], extraArgs: v1.extraArgs };
}

/**
 * A transfer from `sender` (funded by the DevNet tap with `amounts.tap`) to `receiver` through the
 * factory of version `v`, exercised with the factory's context: the kind it announced, the
 * choice's result and the factory's answer.
 */
export async function transferThroughFactory(ctx: CheckContext, v: 'v1' | 'v2', sender: string, receiver: string, amounts = { tap: '2.0', transfer: '1.0' }): Promise<{ kind: unknown; result: unknown; factory: Exchange }> {
  const input = await tap(ctx, sender, amounts.tap);
  const args = await transferArgsOf(ctx, v, sender, receiver, amounts.transfer, input);
  const f = await post(ctx, `/registry/transfer-instruction/${v}/transfer-factory`, { choiceArguments: args, excludeDebugFields: true }, `getTransferFactory${v.toUpperCase()}`);
  expectStatus(ctx, f, 200, `transfer factory (${v})`);
  const factory = objectBody(ctx, f, 'transfer factory');
  const context = isObject(factory.choiceContext) ? factory.choiceContext : ctx.fail('the transfer factory answered no choiceContext', f);
  const tx = await submitTx(ctx, sender, {
    ExerciseCommand: { templateId: TRANSFER_FACTORY[v], contractId: factory.factoryId, choice: 'TransferFactory_Transfer', choiceArgument: { ...args, extraArgs: { context: context.choiceContextData, meta: { values: {} } } } },
  }, (context.disclosedContracts ?? []) as Json[], `the ${v} transfer through the factory`);
  return { kind: factory.transferKind, result: exerciseResult(tx), factory: f };
}

/**
 * A transfer of 5.0 from `sender` to `receiver` through the factory of version `v`, left pending:
 * the instruction's contract id. Skips when it completes at once (a preapproval).
 */
async function offerThroughFactory(ctx: CheckContext, sender: string, receiver: string, v: 'v1' | 'v2' = 'v1'): Promise<string> {
  const { result } = await transferThroughFactory(ctx, v, sender, receiver, { tap: '5.0', transfer: '5.0' });
  const pending = isObject(result) && isObject(result.output) && result.output.tag === 'TransferInstructionResult_Pending' && isObject(result.output.value) ? result.output.value.transferInstructionCid : undefined;
  return typeof pending === 'string' ? pending : ctx.skip('the transfer completed at once (the receiver pre-approved it): nothing pending');
}

export async function allocate(ctx: CheckContext, hint: string): Promise<string> {
  const e = await ctx.http.request('ledger', { method: 'POST', path: '/v2/parties', json: { partyIdHint: ctx.unique(hint).replace(/[^a-zA-Z0-9_-]/g, '-'), identityProviderId: '' } });
  expectStatus(ctx, e, 200, 'allocating a party');
  const d = objectBody(ctx, e, 'party allocation').partyDetails;
  const party = isObject(d) && typeof d.party === 'string' ? d.party : ctx.fail('no partyDetails.party', e);
  const userId = userIdOf(ctx);
  if (ctx.profile.auth?.required && userId !== undefined) {
    const grant = await ctx.http.request('ledger', {
      method: 'POST',
      path: `/v2/users/${encodeURIComponent(userId)}/rights`,
      json: { userId, rights: [{ kind: { CanActAs: { value: { party } } } }], identityProviderId: '' },
    });
    expectStatus(ctx, grant, 200, `granting the run's user the right to act as ${party}`);
  }
  return party;
}

/**
 * Once a choice archived the instruction (or allocation), its contexts answer 404, or a wallet
 * keeps offering a settled transfer. A registry reading the ledger through an index (Splice's
 * reads Scan's) may lag the commit a little: 200 is tolerated until the run's patience ends.
 */
export async function expectContextGone(ctx: CheckContext, path: string, operationId: string, what: string, kind = 'transfer instruction'): Promise<void> {
  await poll(ctx, 250, async (lastTry) => {
    const after = await post(ctx, path, { excludeDebugFields: true }, operationId);
    if (after.response?.status === 200 && !lastTry) return undefined;
    expectStatus(ctx, after, 404, `${what} (archived), ${patienceMs(ctx) / 1000} s after the choice at most`);
    expectErrorResponse(ctx, after, `archived ${kind}`);
    return true;
  });
}

/**
 * A factory request whose choice arguments the Daml choice would refuse: the registry refuses it
 * (400 with an ErrorResponse), or does not read those arguments and answers its factory, the one
 * it answers for valid arguments (`factoryId`), as Splice Scan's registry does (its transfer
 * factory reads the receiver alone, its allocation factories nothing; Java's codegen rounds a
 * Numeric's excess places and reads exponents). The ledger then refuses the choice. Never a 5xx,
 * never another factory.
 */
export function expectRefusedOrUnread(ctx: CheckContext, e: Exchange, why: string, factoryId: unknown): void {
  if (expectStatus(ctx, e, [400, 200], why).status === 400) {
    expectErrorResponse(ctx, e, why);
    return;
  }
  const b = objectBody(ctx, e, why);
  if (b.factoryId !== factoryId) ctx.fail(`${why}: answered 200 with factory ${JSON.stringify(b.factoryId)}, not the factory ${JSON.stringify(factoryId)} it answers for valid arguments (a registry that does not read the arguments answers the same factory; one that reads them refuses with 400)`, e);
  if (!isObject(b.choiceContext)) ctx.fail(`${why}: answered 200 without a choiceContext`, e);
}

/**
 * A registry's disclosed contracts as the ledger takes them: the four members of the JSON API's
 * DisclosedContract, as wallets copy them. The token standard's schema is open (a registry may
 * add members), the ledger's is closed (it refuses "Unexpected fields").
 */
export function disclosedForLedger(disclosed: readonly unknown[]): Json[] {
  return disclosed.filter(isObject).map((d) => Object.fromEntries(['templateId', 'contractId', 'createdEventBlob', 'synchronizerId'].filter((k) => d[k] !== undefined).map((k) => [k, d[k]])));
}

/**
 * Submits one command with disclosed contracts (a registry's: see `disclosedForLedger`) acting as
 * `actAs`, asking for the transaction's ledger effects as they see it (exercise results included);
 * the exchange whatever its status.
 */
export function submitCommand(ctx: CheckContext, actAs: readonly string[], command: Json, disclosed: readonly Json[]): Promise<Exchange> {
  const disclosedContracts = disclosedForLedger(disclosed);
  const userId = userIdOf(ctx);
  const wildcard = { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] };
  return ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/commands/submit-and-wait-for-transaction',
    json: {
      commands: { commands: [command], commandId: ctx.unique('cc-token'), actAs, disclosedContracts, ...(userId === undefined ? {} : { userId }) },
      transactionFormat: { eventFormat: { filtersByParty: Object.fromEntries(actAs.map((p) => [p, wildcard])), verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    },
  });
}

/** Prepares one command with disclosed contracts (a registry's) acting as `actAs`, as a wallet of an external party does; the exchange whatever its status. */
export function prepareCommand(ctx: CheckContext, actAs: readonly string[], command: Json, disclosed: readonly Json[]): Promise<Exchange> {
  const userId = userIdOf(ctx);
  return ctx.http.request('ledger', {
    method: 'POST',
    path: '/v2/interactive-submission/prepare',
    json: { ...(userId === undefined ? {} : { userId }), commandId: ctx.unique('cc-token-prep'), commands: [command], actAs, disclosedContracts: disclosedForLedger(disclosed) },
  });
}

/** Submits one command with disclosed contracts as `party`, expecting success; the transaction's JSON. */
export async function submitTx(ctx: CheckContext, party: string, command: Json, disclosedContracts: Json[], what: string): Promise<Json> {
  const e = await submitCommand(ctx, [party], command, disclosedContracts);
  expectStatus(ctx, e, 200, what);
  return objectBody(ctx, e, what);
}

/**
 * Exercises `c.choice` acting as `actors` with the choice context a registry answered (its data as
 * `extraArgs.context`, its disclosed contracts); the exchange whatever its status.
 */
export function exerciseWithContext(ctx: CheckContext, actors: readonly string[], c: { templateId: string; contractId: unknown; choice: string; args: Json }, context: Json): Promise<Exchange> {
  const choiceArgument = { ...c.args, extraArgs: { context: context.choiceContextData, meta: { values: {} } } };
  return submitCommand(ctx, actors, { ExerciseCommand: { templateId: c.templateId, contractId: c.contractId, choice: c.choice, choiceArgument } }, (context.disclosedContracts ?? []) as Json[]);
}

/** The result of the first exercise of a transaction answer. */
export function exerciseResult(tx: Json): unknown {
  const events = isObject(tx.transaction) && Array.isArray(tx.transaction.events) ? tx.transaction.events : [];
  for (const ev of events) if (isObject(ev) && isObject(ev.ExercisedEvent)) return ev.ExercisedEvent.exerciseResult;
  return undefined;
}

/** Mints amulet for `party` with the DevNet tap against Scan's AmuletRules and active open round. */
export async function tap(ctx: CheckContext, party: string, amount: string): Promise<string> {
  return (await tapTx(ctx, party, amount)).holding;
}

/** The DevNet tap as `tap` runs it, with the transaction it committed. */
async function tapTx(ctx: CheckContext, party: string, amount: string): Promise<{ holding: string; tx: Json }> {
  const rulesE = await ctx.http.request('scan', { method: 'POST', path: '/v0/amulet-rules', json: {}, operationId: 'getAmuletRules' });
  expectStatus(ctx, rulesE, 200, 'AmuletRules from Scan');
  const rules = ((objectBody(ctx, rulesE, 'AmuletRules').amulet_rules_update as Json | undefined)?.contract ?? {}) as Json;
  const roundsE = await ctx.http.request('scan', { method: 'POST', path: '/v0/open-and-issuing-mining-rounds', json: { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] }, operationId: 'getOpenAndIssuingMiningRounds' });
  expectStatus(ctx, roundsE, 200, 'open rounds from Scan');
  const round = activeRound(objectBody(ctx, roundsE, 'open rounds').open_mining_rounds) ?? ctx.fail('Scan reports no open round active now', roundsE);
  const disclosed = [rules, round].map((c) => ({ templateId: c.template_id, contractId: c.contract_id, createdEventBlob: c.created_event_blob }));
  const tx = await submitTx(ctx, party, {
    ExerciseCommand: { templateId: '#splice-amulet:Splice.AmuletRules:AmuletRules', contractId: rules.contract_id, choice: 'AmuletRules_DevNet_Tap', choiceArgument: { receiver: party, amount, openRound: round.contract_id } },
  }, disclosed, 'the DevNet tap');
  const events = isObject(tx.transaction) && Array.isArray(tx.transaction.events) ? (tx.transaction.events as Json[]) : [];
  const created = events.map((e) => e.CreatedEvent).find((c): c is Json => isObject(c) && String(c.templateId).endsWith(':Splice.Amulet:Amulet'));
  return { holding: typeof created?.contractId === 'string' ? created.contractId : ctx.fail('the tap created no Amulet visible to its receiver'), tx };
}

/** The open round active now (opensAt <= now < targetClosesAt) of a Scan rounds map. */
export function activeRound(rounds: unknown): Json | undefined {
  if (!isObject(rounds)) return undefined;
  const now = Date.now();
  for (const r of Object.values(rounds)) {
    const c = isObject(r) && isObject(r.contract) ? r.contract : undefined;
    const p = c && isObject(c.payload) ? c.payload : undefined;
    if (p && Date.parse(String(p.opensAt)) <= now && now < Date.parse(String(p.targetClosesAt))) return c;
  }
  return undefined;
}

/**
 * Every instrument the registry lists, with its lookup by id (answered 200); a registry that lists
 * none fails the check.
 */
async function* listedAndLookedUp(ctx: CheckContext): AsyncGenerator<{ readonly i: Json; readonly one: Exchange }> {
  const list = await get(ctx, '/registry/metadata/v1/instruments', 'listInstruments');
  expectStatus(ctx, list, 200, 'instrument list');
  const instruments = objectBody(ctx, list, 'instrument list').instruments;
  if (!Array.isArray(instruments) || instruments.length === 0) return ctx.fail('the registry lists no instrument', list);
  for (const i of instruments as Json[]) {
    const one = await get(ctx, `/registry/metadata/v1/instruments/${encodeURIComponent(String(i.id))}`, 'getInstrument');
    expectStatus(ctx, one, 200, `instrument ${String(i.id)}`);
    yield { i, one };
  }
}
