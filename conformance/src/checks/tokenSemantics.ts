import type { Exchange } from '../target/exchange.js';
import { lookupPreapproval } from './scan.js';
import { expectStatus, firstDifference, isObject, jsonEqual, objectBody, type Json } from './support/expect.js';
import { allocate, allocationArgs, allocationArgsV2, exerciseResult, exerciseWithContext, expectContextGone, instrument, post, served, serves, TRANSFER_FACTORY, transferArgs, transferArgsOf, transferThroughFactory, tap } from './tokenRegistry.js';
import { ledgerEnd, readActiveContracts } from './support/ledger.js';
import { HOLDING_V1 } from '../history/holdingChanges.js';
import { pageWalk } from './support/pageWalk.js';
import type { CheckContext, CheckDefinition } from './types.js';

/**
 * Token-standard answers judged by what they mean on the ledger, not only by their shape: the
 * transfer kind a factory announces is how the transfer ends, every factory id works when
 * exercised, and an instrument read alone is its entry in the list.
 */
const TS = 'token standard';
const ALLOCATION_FACTORY = {
  v1: '#splice-api-token-allocation-instruction-v1:Splice.Api.Token.AllocationInstructionV1:AllocationFactory',
  v2: '#splice-api-token-allocation-instruction-v2:Splice.Api.Token.AllocationInstructionV2:AllocationFactory',
} as const;
const ALLOCATION = {
  v1: '#splice-api-token-allocation-v1:Splice.Api.Token.AllocationV1:Allocation',
  v2: '#splice-api-token-allocation-v2:Splice.Api.Token.AllocationV2:Allocation',
} as const;
type Version = 'v1' | 'v2';
type Kind = 'self' | 'direct' | 'offer';

const needTap = (ctx: CheckContext) => ctx.profile.registry?.devNetTap === true || ctx.skip(`profile '${ctx.profile.name}' does not allow the DevNet tap (registry.devNetTap) to fund transfers`);

/**
 * The kind a receiver's state calls for (token standard TransferFactoryWithChoiceContext.transferKind):
 * `self` when sender and receiver are one party, `direct` when Scan reports a preapproval of the
 * receiver that is valid now, `offer` when Scan reports none.
 */
async function expectedKind(ctx: CheckContext, sender: string, receiver: string): Promise<Kind> {
  if (sender === receiver) return 'self';
  const e = await lookupPreapproval(ctx, receiver);
  if (e.response?.status === 404) return 'offer';
  expectStatus(ctx, e, 200, `Scan's preapproval of ${receiver}`);
  const c = objectBody(ctx, e, 'preapproval').transfer_preapproval;
  const p = isObject(c) && isObject(c.contract) && isObject(c.contract.payload) ? c.contract.payload : {};
  const now = Date.now();
  const valid = Date.parse(String(p.validFrom ?? '1970-01-01T00:00:00Z')) <= now && now < Date.parse(String(p.expiresAt));
  return valid ? 'direct' : ctx.skip(`the receiver's preapproval is not valid now (validFrom ${String(p.validFrom)}, expiresAt ${String(p.expiresAt)}): its kind is not pinned down`);
}

const outputTag = (result: unknown): string | undefined => (isObject(result) && isObject(result.output) && typeof result.output.tag === 'string' ? result.output.tag : undefined);

/** How each kind must end: the receiver holds the amount at once, or an instruction waits for them. */
const OUTCOME: Record<Kind, string> = { self: 'TransferInstructionResult_Completed', direct: 'TransferInstructionResult_Completed', offer: 'TransferInstructionResult_Pending' };

/**
 * Allocates 1.0 of `sender`'s holding `input` to `receiver`, who also executes the settlement,
 * through the allocation factory of version `v`, exercised with its context: the factory's answer
 * and the ledger's exchange, whatever its status.
 */
async function allocateThroughFactory(ctx: CheckContext, v: Version, sender: string, receiver: string, input: string, o: { late?: boolean } = {}): Promise<{ factory: Json; e: Exchange; refused?: Exchange }> {
  let args: Json =
    v === 'v1'
      ? { ...(await allocationArgs(ctx, { sender, receiver, amount: '1.0' })), inputHoldingCids: [input] }
      : await allocationArgsV2(ctx, { authorizer: sender, other: receiver, executor: receiver, settlementId: ctx.unique('cc-alloc'), inputs: [input] });
  if (v === 'v1') (args.allocation as Json).settlement = { ...((args.allocation as Json).settlement as Json), executor: receiver };
  // Late: requested two hours ago, with the deadline an hour ago (v1: allocateBefore, the
  // settlement itself still ahead; v2: the settlementDeadline, its only deadline).
  if (o.late) args = v === 'v1' ? lateAllocation(args, Date.now()) : lateAllocationV2(args, Date.now());
  const f = await post(ctx, `/registry/allocation-instruction/${v}/allocation-factory`, { choiceArguments: args, excludeDebugFields: true }, `getAllocationFactory${v.toUpperCase()}`);
  if (o.late && f.response?.status !== 200) return { factory: {}, e: f, refused: f };
  expectStatus(ctx, f, 200, `allocation factory (${v})`);
  const factory = objectBody(ctx, f, 'allocation factory');
  const context = isObject(factory.choiceContext) ? factory.choiceContext : ctx.fail('the allocation factory answered no choiceContext', f);
  return { factory, e: await exerciseWithContext(ctx, [sender], { templateId: ALLOCATION_FACTORY[v], contractId: factory.factoryId, choice: 'AllocationFactory_Allocate', args }, context) };
}

/** `args` with every settlement's requestedAt two hours and allocateBefore one hour before `now`. */
function lateAllocation(args: unknown, now: number): Json {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return typeof o.allocateBefore === 'string' ? { ...o, requestedAt: new Date(now - 7_200_000).toISOString(), allocateBefore: new Date(now - 3_600_000).toISOString() } : o;
  };
  return walk(args) as Json;
}

/**
 * v2's `args` requested two hours before `now`, with a settlementDeadline one hour before it: v2 has no
 * allocateBefore, and upstream refuses an allocation past its deadline (splice-amulet 0.1.22
 * `amulet_allocationFactoryV2_allocateImplCore`: assertWithinDeadline "Allocation.settlementDeadline";
 * splice-test-token-v2 `lockAllocationFunds`: assertWithinDeadline "allocation.settlementDeadline").
 */
function lateAllocationV2(args: Json, now: number): Json {
  const spec = isObject(args.allocation) ? args.allocation : {};
  return { ...args, requestedAt: new Date(now - 7_200_000).toISOString(), allocation: { ...spec, settlementDeadline: new Date(now - 3_600_000).toISOString() } };
}

/**
 * The instruments of the list's pages (pageSize 1 .. 1000, nextPageToken), up to 100 pages: a
 * registry with more instruments is not at fault, and the check judges the first ones.
 */
async function instrumentList(ctx: CheckContext): Promise<{ items: Json[]; last: Exchange }> {
  const walk = await pageWalk(
    ctx,
    (token) => ctx.http.request('registry', { method: 'GET', path: '/registry/metadata/v1/instruments', query: { pageSize: 100, ...(token ? { pageToken: token } : {}) }, operationId: 'listInstruments' }),
    (b) => (Array.isArray(b.instruments) ? b.instruments.filter(isObject) : []),
    { what: 'instrument list', limit: 100, followEmpty: true },
  );
  return { items: walk.items as Json[], last: walk.last };
}

/** `party`'s holdings on the ledger now, with their Holding views (as a wallet lists its UTXOs). */
async function holdingsOf(ctx: CheckContext, party: string): Promise<{ cid: string; view: Json }[]> {
  const filters = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: HOLDING_V1, includeInterfaceView: true, includeCreatedEventBlob: false } } } }] };
  const request = { activeAtOffset: (await ledgerEnd(ctx)).offset, eventFormat: { filtersByParty: { [party]: filters }, verbose: true } };
  const { entries } = await readActiveContracts(ctx, request, `the holdings of ${party}`, { small: true });
  return entries.flatMap((e) => {
    const c = isObject(e) && isObject(e.contractEntry) && isObject(e.contractEntry.JsActiveContract) && isObject(e.contractEntry.JsActiveContract.createdEvent) ? e.contractEntry.JsActiveContract.createdEvent : undefined;
    const views = c !== undefined && Array.isArray(c.interfaceViews) ? c.interfaceViews : [];
    const view = views.find((v) => isObject(v) && isObject(v.viewValue));
    return c !== undefined && typeof c.contractId === 'string' && isObject(view) && isObject(view.viewValue) ? [{ cid: c.contractId, view: view.viewValue }] : [];
  });
}

/** A self-transfer of `amount` out of `input` alone, through the v1 factory with its context: the ledger's exchange. */
async function selfTransferOutOf(ctx: CheckContext, owner: string, input: string, amount: string): Promise<Exchange> {
  const args = await transferArgs(ctx, { sender: owner, receiver: owner, amount, inputHoldingCids: [input] });
  const f = await post(ctx, '/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args, excludeDebugFields: true }, 'getTransferFactoryV1');
  expectStatus(ctx, f, 200, 'transfer factory (v1) for a self-transfer');
  const factory = objectBody(ctx, f, 'transfer factory');
  const context = isObject(factory.choiceContext) ? factory.choiceContext : ctx.fail('the transfer factory answered no choiceContext', f);
  return exerciseWithContext(ctx, [owner], { templateId: TRANSFER_FACTORY.v1, contractId: factory.factoryId, choice: 'TransferFactory_Transfer', args }, context);
}

export const tokenSemanticChecks: readonly CheckDefinition[] = [
  {
    id: 'registry.holdings.views-after-offer',
    title: "After a two-step transfer, the sender's holdings on the ledger are of the instrument transferred (its admin and id) and show what is locked: every holding whose Holding view has no lock is spendable by its owner alone (a self-transfer out of it completes)",
    group: 'registry',
    operationId: 'getTransferFactoryV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: holding-v1 HoldingView.instrumentId (admin: the registry's admin party), HoldingView.lock (the lock on a holding); transfer-instruction-v1 TransferInstructionResult_Pending (the funds wait for the receiver); wallet-sdk listHoldingUtxos(includeLocked = false): a wallet picks its transfer inputs among the holdings without a lock`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      if (!served(ctx, 'transfer-instruction').includes('v1')) ctx.skip(`profile '${ctx.profile.name}' lists no transfer-instruction v1 API in registry.apis`);
      needTap(ctx);
      const [sender, receiver] = [await allocate(ctx, 'cc-lock-sender'), await allocate(ctx, 'cc-lock-receiver')];
      const { result } = await transferThroughFactory(ctx, 'v1', sender, receiver, { tap: '5.0', transfer: '2.0' });
      if (outputTag(result) !== OUTCOME.offer) ctx.skip(`the transfer to a fresh receiver ended as ${outputTag(result) ?? 'no result'}, not pending: nothing is locked (registry.transfer-factory.kind-matches-outcome judges the kind)`);
      // Everything the sender holds came from the tap and this transfer: the instrument's holdings.
      const { admin, id } = await instrument(ctx);
      const holdings = await holdingsOf(ctx, sender);
      for (const h of holdings) {
        if (!jsonEqual(h.view.instrumentId, { admin, id })) ctx.fail(`holding ${h.cid} of ${sender}, made by the tap and a transfer of instrument ${id} (admin ${admin}), has instrumentId ${JSON.stringify(h.view.instrumentId)} in its Holding view: a wallet counts it as another token`);
      }
      const unlocked = holdings.filter((h) => h.view.owner === sender && (h.view.lock === null || h.view.lock === undefined));
      if (unlocked.length === 0) ctx.skip(`${sender} holds nothing unlocked after the transfer: nothing to spend`);
      // Each holding the views call free, spent alone: a holding locked to the pending transfer
      // but shown without its lock is refused by the ledger, as a wallet would find on its next transfer.
      for (const h of unlocked) {
        const amount = Number(h.view.amount) >= 1 ? '0.1' : null;
        if (amount === null) continue;
        const e = await selfTransferOutOf(ctx, sender, h.cid, amount);
        if (e.response?.status !== 200) {
          ctx.fail(`holding ${h.cid} of ${sender} (amount ${String(h.view.amount)}) has no lock in its Holding view, yet a self-transfer out of it alone was refused (HTTP ${e.response?.status ?? 'no answer'}): a wallet that picks its inputs among unlocked holdings cannot spend it (is it locked to the pending transfer?)`, e);
        }
        const tag = outputTag(exerciseResult(objectBody(ctx, e, 'self-transfer')));
        if (tag !== OUTCOME.self) ctx.fail(`a self-transfer out of ${sender}'s unlocked holding ${h.cid} ended as ${tag ?? 'no result'}, not ${OUTCOME.self}`, e);
      }
    },
  },
  {
    id: 'registry.transfer-factory.kind-matches-outcome',
    title: 'Every served transfer factory announces the kind the receiver calls for (self, direct with a valid preapproval, offer without), and the transfer ends that way',
    group: 'registry',
    operationId: 'getTransferFactoryV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: transfer-instruction-v1/v2 TransferFactoryWithChoiceContext.transferKind (self: sender is receiver; direct: completes at once through the receiver's preapproval; offer: a TransferInstruction the receiver accepts); TransferInstructionResult_Completed / _Pending`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'transfer-instruction');
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no transfer-instruction API in registry.apis`);
      needTap(ctx);
      const sender = await allocate(ctx, 'cc-kind-sender');
      const receivers: string[] = [sender, await allocate(ctx, 'cc-kind-receiver')];
      const preapproved = ctx.profile.scan?.preapprovalParty;
      if (preapproved === undefined) ctx.warn('the profile names no party with a preapproval (scan.preapprovalParty): direct transfers are not tried');
      else receivers.push(preapproved);
      for (const v of versions) {
        for (const receiver of receivers) {
          const want = await expectedKind(ctx, sender, receiver);
          const got = await transferThroughFactory(ctx, v, sender, receiver);
          const tag = outputTag(got.result);
          if (got.kind !== want) ctx.fail(`the ${v} factory calls a transfer to ${receiver === sender ? 'the sender itself' : receiver} '${String(got.kind)}'; the receiver's state calls for '${want}'`, got.factory);
          if (tag !== OUTCOME[want]) ctx.fail(`a '${want}' transfer (${v}) ended as ${tag ?? 'no result'}, expected ${OUTCOME[want]}`);
        }
      }
    },
  },
  {
    id: 'registry.metadata.instrument-lists-transfer-api',
    title: "An instrument the registry's transfer factory transferred lists a transfer-instruction API it was transferred through in its supportedApis",
    group: 'registry',
    operationId: 'getInstrument',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: token-metadata-v1 Instrument.supportedApis (registry info: "use the instrument lookup endpoints to see which APIs are supported for a given instrument"); transfer-instruction-v1/v2 TransferFactory_Transfer`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'transfer-instruction');
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no transfer-instruction API in registry.apis`);
      needTap(ctx);
      const { id } = await instrument(ctx);
      const sender = await allocate(ctx, 'cc-apis-sender');
      // A transfer to the sender itself, through each served version: what the registry serves for the instrument.
      const worked: Version[] = [];
      for (const v of versions) {
        const got = await transferThroughFactory(ctx, v, sender, sender);
        if (outputTag(got.result) === OUTCOME.self) worked.push(v);
      }
      if (worked.length === 0) ctx.skip('no transfer through the factory completed (registry.transfer-factory.kind-matches-outcome judges that)');
      const one = await ctx.http.request('registry', { method: 'GET', path: `/registry/metadata/v1/instruments/${encodeURIComponent(id)}`, operationId: 'getInstrument' });
      expectStatus(ctx, one, 200, `instrument ${id}`);
      const apis = objectBody(ctx, one, `instrument ${id}`).supportedApis;
      const listed = isObject(apis) ? Object.keys(apis) : [];
      // Any version transferred through is enough: which versions a registry announces is its own.
      const wanted = worked.map((v) => `splice-api-token-transfer-instruction-${v}`);
      if (!wanted.some((api) => listed.includes(api))) {
        ctx.fail(`instrument ${id} was transferred through the registry's ${worked.join(' and ')} transfer factory, yet its supportedApis (${listed.join(', ') || 'none'}) list none of ${wanted.join(', ')}: a wallet that reads what an instrument supports offers no transfer of it`, one);
      }
    },
  },
  {
    id: 'registry.metadata.instrument-apis-served',
    title: "Every factory API an instrument lists in its supportedApis is served: the transfer-instruction or allocation-instruction factory of that version answers (a malformed request is 400, not 404)",
    group: 'registry',
    operationId: 'listInstruments',
    level: 'MUST',
    kind: 'negative',
    specRef: `${TS}: token-metadata-v1 Instrument.supportedApis ("the APIs supported for a given instrument"); transfer-instruction-v1/v2 and allocation-instruction-v1/v2 OpenAPI: the factory endpoints`,
    async run(ctx) {
      // Which APIs the registry lists is its own (Splice 0.1.14 lists v1 only): what it lists, it must serve.
      const list = await ctx.http.request('registry', { method: 'GET', path: '/registry/metadata/v1/instruments', operationId: 'listInstruments' });
      expectStatus(ctx, list, 200, 'instrument list');
      const instruments = objectBody(ctx, list, 'instrument list').instruments;
      const listed = new Set((Array.isArray(instruments) ? instruments : []).flatMap((i) => (isObject(i) && isObject(i.supportedApis) ? Object.keys(i.supportedApis) : [])));
      const factories = [...listed].flatMap((api) => {
        const m = /^splice-api-token-(transfer|allocation)-instruction-(v[12])$/.exec(api);
        return m === null ? [] : [{ api, path: `/registry/${m[1]}-instruction/${m[2]}/${m[1]}-factory`, operationId: `get${m[1] === 'transfer' ? 'Transfer' : 'Allocation'}Factory${m[2]!.toUpperCase()}` }];
      });
      if (factories.length === 0) ctx.skip('no instrument lists a transfer-instruction or allocation-instruction API');
      for (const f of factories) {
        // No choice arguments: any registry that serves the factory refuses it as malformed.
        const e = await post(ctx, f.path, {}, f.operationId);
        if (e.response?.status !== 400) ctx.fail(`an instrument lists ${f.api}, yet POST ${f.path} with a malformed body answered ${e.response?.status ?? 'nothing'}, not 400: the factory a wallet is told to use is not served`, e);
      }
    },
  },
  {
    id: 'registry.transfer-factory.expired-refused',
    title: 'A transfer whose executeBefore has passed does not execute: the registry refuses it, or the ledger refuses the factory choice',
    group: 'registry',
    operationId: 'getTransferFactoryV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: transfer-instruction-v1/v2 Transfer.executeBefore ("until when the transfer may be executed"); TransferFactory_Transfer`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'transfer-instruction');
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no transfer-instruction API in registry.apis`);
      needTap(ctx);
      const [sender, receiver] = [await allocate(ctx, 'cc-late-sender'), await allocate(ctx, 'cc-late-receiver')];
      for (const v of versions) {
        const input = await tap(ctx, sender, '2.0');
        const args = await transferArgsOf(ctx, v, sender, receiver, '1.0', input);
        // Asked for two hours ago, to be executed before an hour ago: a wallet's deadline that passed.
        const now = Date.now();
        const late = { ...args, transfer: { ...(args.transfer as Json), requestedAt: new Date(now - 7_200_000).toISOString(), executeBefore: new Date(now - 3_600_000).toISOString() } };
        const f = await post(ctx, `/registry/transfer-instruction/${v}/transfer-factory`, { choiceArguments: late, excludeDebugFields: true }, `getTransferFactory${v.toUpperCase()}`);
        if (f.response?.status !== 200) continue; // refused before the ledger: as good as refused by it
        const factory = objectBody(ctx, f, 'transfer factory');
        const context = isObject(factory.choiceContext) ? factory.choiceContext : ctx.fail('the transfer factory answered no choiceContext', f);
        const e = await exerciseWithContext(ctx, [sender], { templateId: TRANSFER_FACTORY[v], contractId: factory.factoryId, choice: 'TransferFactory_Transfer', args: late }, context);
        if (e.response?.status === 200) ctx.fail(`a ${v} transfer whose executeBefore passed an hour ago executed (HTTP 200): the deadline a wallet set is not enforced`, e);
        else if (e.response === undefined || e.response.status >= 500) ctx.fail(`the ${v} transfer past its deadline was answered ${e.response?.status ?? 'with no answer'}, not refused with a client error`, e);
      }
    },
  },
  {
    id: 'registry.factories.ids-work-on-ledger',
    title: 'The allocation factory of every served version answers a factory id the ledger exercises: AllocationFactory_Allocate with its context succeeds, and is refused once its deadline has passed (v1: the settlement\'s allocateBefore; v2: the allocation\'s settlementDeadline)',
    group: 'registry',
    operationId: 'getAllocationFactoryV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: allocation-instruction-v1/v2 FactoryWithChoiceContext (factoryId: the factory to exercise AllocationFactory_Allocate on, with the context's disclosed contracts); allocation-v1 SettlementInfo.allocateBefore (until when allocations may be made); allocation-v2 AllocationSpecification.settlementDeadline (after it the allocation can no longer be settled; Splice's v2 factories refuse to allocate past it)`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'allocation-instruction');
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no allocation-instruction API in registry.apis`);
      needTap(ctx);
      const [sender, receiver] = [await allocate(ctx, 'cc-fac-sender'), await allocate(ctx, 'cc-fac-receiver')];
      for (const v of versions) {
        const { factory, e } = await allocateThroughFactory(ctx, v, sender, receiver, await tap(ctx, sender, '2.0'));
        if (e.response?.status !== 200) ctx.fail(`exercising AllocationFactory_Allocate on the ${v} factory id ${String(factory.factoryId)} with its own context failed (HTTP ${e.response?.status ?? 'no answer'}): the id does not work on the ledger`, e);
        const tag = outputTag(exerciseResult(objectBody(ctx, e, 'allocation')));
        if (!['AllocationInstructionResult_Completed', 'AllocationInstructionResult_Pending'].includes(tag ?? '')) ctx.fail(`the ${v} allocation through the factory ended as ${tag ?? 'no result'}`, e);
        // Its deadline holds: an allocation past its deadline is refused, by the registry or the
        // ledger. v1's is the SettlementInfo's allocateBefore; v2 has none (its SettlementInfo is
        // executors, id, cid, meta), its deadline is the AllocationSpecification's
        // settlementDeadline, which Splice's v2 factories assert at allocation (Amulet:
        // "Allocation.settlementDeadline", the test token: "allocation.settlementDeadline").
        const deadline = v === 'v1' ? 'allocateBefore' : 'settlementDeadline';
        const late = await allocateThroughFactory(ctx, v, sender, receiver, await tap(ctx, sender, '2.0'), { late: true });
        if (late.refused !== undefined) continue;
        if (late.e.response?.status === 200) ctx.fail(`a ${v} allocation whose ${deadline} passed an hour ago was allocated (HTTP 200): the deadline the settlement set is not enforced`, late.e);
        else if (late.e.response === undefined || late.e.response.status >= 500) ctx.fail(`the ${v} allocation past its ${deadline} was answered ${late.e.response?.status ?? 'with no answer'}, not refused with a client error`, late.e);
      }
    },
  },
  {
    id: 'registry.cross-group.allocation-contexts-let-choices-succeed',
    title: "An allocation made through the factory is executed, cancelled or withdrawn with the registry's context for that choice, each succeeds on the ledger, and the allocation's contexts are then gone (v1: execute-transfer, cancel, withdraw; v2: cancel, withdraw)",
    group: 'registry',
    operationId: 'getAllocationTransferContextV1',
    level: 'MUST',
    kind: 'cross-group',
    specRef: `${TS}: allocation-v1 Allocation_ExecuteTransfer, Allocation_Cancel (the executor and both sides), Allocation_Withdraw (the sender); allocation-v2 Allocation_Cancel (the executors), Allocation_Withdraw (the authorizer); choice contexts let the app exercise the choice`,
    requires: { writes: true, groups: ['registry', 'ledger', 'scan'] },
    async run(ctx) {
      const versions = served(ctx, 'allocation-instruction').filter((v) => served(ctx, 'allocation').includes(v));
      if (versions.length === 0) ctx.skip(`profile '${ctx.profile.name}' lists no allocation-instruction and allocation API of one version in registry.apis`);
      needTap(ctx);
      const [sender, receiver] = [await allocate(ctx, 'cc-alloc-sender'), await allocate(ctx, 'cc-alloc-receiver')];
      // The receiver executes (a DvP venue settling its own trade).
      const CHOICES = {
        v1: [['execute-transfer', 'Allocation_ExecuteTransfer', [receiver, sender]], ['cancel', 'Allocation_Cancel', [receiver, sender]], ['withdraw', 'Allocation_Withdraw', [sender]]],
        v2: [['cancel', 'Allocation_Cancel', [receiver]], ['withdraw', 'Allocation_Withdraw', [sender]]],
      } as const;
      const OPERATION: Record<string, string> = { 'execute-transfer': 'getAllocationTransferContext', cancel: 'getAllocationCancelContext', withdraw: 'getAllocationWithdrawContext' };
      const PAST: Record<string, string> = { Allocation_ExecuteTransfer: 'executed', Allocation_Cancel: 'cancelled', Allocation_Withdraw: 'withdrawn' };
      for (const v of versions) {
        for (const [path, choice, actors] of CHOICES[v]) {
          const { e: made } = await allocateThroughFactory(ctx, v, sender, receiver, await tap(ctx, sender, '2.0'));
          expectStatus(ctx, made, 200, `allocating through the ${v} factory`);
          const out = exerciseResult(objectBody(ctx, made, 'allocation'));
          const allocation = isObject(out) && isObject(out.output) && out.output.tag === 'AllocationInstructionResult_Completed' && isObject(out.output.value) ? out.output.value.allocationCid : undefined;
          if (typeof allocation !== 'string') return ctx.skip(`the ${v} allocation did not complete at once (${outputTag(out) ?? 'no result'}): no allocation to act on`);
          const c = await post(ctx, `/registry/allocations/${v}/${allocation}/choice-contexts/${path}`, { excludeDebugFields: true }, `${OPERATION[path]!}${v.toUpperCase()}`);
          expectStatus(ctx, c, 200, `the ${v} ${path} context of an allocation`);
          const choiceArgs: Json = v === 'v1' ? {} : { actors: [...actors] };
          const e = await exerciseWithContext(ctx, [...actors], { templateId: ALLOCATION[v], contractId: allocation, choice, args: choiceArgs }, objectBody(ctx, c, `${path} context`));
          if (e.response?.status !== 200) ctx.fail(`${choice} (${v}) with the registry's ${path} context failed on the ledger (HTTP ${e.response?.status ?? 'no answer'})`, e);
          // The choice archived the allocation: none of its contexts is served any more, or a
          // venue keeps offering to settle (or cancel) an allocation that is gone.
          for (const [other] of CHOICES[v]) {
            await expectContextGone(ctx, `/registry/allocations/${v}/${allocation}/choice-contexts/${other}`, `${OPERATION[other]!}${v.toUpperCase()}`, `the ${v} ${other} context of the allocation just ${PAST[choice]}`, 'allocation');
          }
        }
      }
    },
  },
  {
    id: 'registry.metadata.instrument-read-equals-list-entry',
    title: 'An instrument read alone equals its entry in the instrument list, field for field',
    group: 'registry',
    operationId: 'getInstrument',
    level: 'MUST',
    kind: 'example',
    specRef: `${TS}: token-metadata-v1 getInstrument and listInstruments answer the same Instrument`,
    async run(ctx) {
      serves(ctx, 'metadata-v1');
      const first = await instrumentList(ctx);
      if (first.items.length === 0) ctx.skip('the registry lists no instrument');
      // The supply moves on a registry in service (rewards minted, transfers' fees burnt): it is
      // judged only between two list reads that agree on it; every other field always.
      const settled = (x: Json | undefined) => (x === undefined ? undefined : Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'totalSupply' && k !== 'totalSupplyAsOf')));
      for (const listed of first.items.slice(0, 20)) {
        const id = String(listed.id);
        let before: Json | undefined = listed;
        for (let attempt = 0; attempt < 5; attempt++) {
          const one = await ctx.http.request('registry', { method: 'GET', path: `/registry/metadata/v1/instruments/${encodeURIComponent(id)}`, operationId: 'getInstrument' });
          expectStatus(ctx, one, 200, `instrument ${id}`);
          const alone = objectBody(ctx, one, `instrument ${id}`);
          if (jsonEqual(alone, before)) break;
          if (!jsonEqual(settled(alone), settled(before))) return ctx.fail(`instrument ${id} read alone differs from its list entry at ${firstDifference(alone, before ?? listed) ?? '?'}`, one);
          const after = (await instrumentList(ctx)).items.find((i) => i.id === id);
          if (jsonEqual(alone, after)) break;
          // Two list reads around the lookup agree, and the lookup does not: not the supply moving.
          if (jsonEqual(before, after)) return ctx.fail(`instrument ${id} read alone differs from its list entry at ${firstDifference(alone, after ?? listed) ?? '?'}, which two list reads around it agree on`, one);
          before = after;
        }
      }
    },
  },
];
