import type { DamlRecord, Ledger, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok, toTimestamp } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { disclosedContract } from '../registry/disclosedContract.js';
import { isContractIdSyntax } from '../registry/isContractIdSyntax.js';
import { parseChoiceContextRequest } from '../registry/parseChoiceContextRequest.js';
import { field, parseFactoryRequest } from '../registry/parseFactoryRequest.js';
import type { AnyValue, ChoiceContext } from '../registry/types.js';
import { AMULET_V1_APIS, REGISTRY_INFO_APIS } from '../tokenStandard/ids.js';
import { ALLOCATION_INSTRUCTION_V2_PACKAGE, ALLOCATION_V2_PACKAGE, HOLDING_V2_PACKAGE, TRANSFER_INSTRUCTION_V2_PACKAGE } from '../tokenStandard/idsV2.js';
import { timeMicros } from '../time.js';
import type { AmuletLedgerView } from './AmuletLedgerView.js';
import { AMULET_INSTRUMENT_ID, AMULET_RULES_KEY, EXPIRE_LOCK_KEY, EXTERNAL_PARTY_CONFIG_STATE_KEY, OPEN_ROUND_KEY, TRANSFER_PREAPPROVAL_KEY, record, text } from './amuletContext.js';
import { AmuletRegistryV2 } from './AmuletRegistryV2.js';
import type { RoundKeeper } from './RoundAutomation.js';

/** Metadata v1 wire shapes. */
export interface Instrument {
  readonly id: string;
  readonly name: string;
  readonly symbol: string;
  readonly totalSupply: string;
  readonly totalSupplyAsOf: string;
  readonly decimals: number;
  readonly supportedApis: Readonly<Record<string, number>>;
  /** Which account input fields wallets show in forms (token-metadata-v1, Splice PR #6346). */
  readonly accountInputFieldsToShow: readonly AccountInputField[];
}
export type AccountInputField = 'provider' | 'accountId';
export interface RegistryInfo {
  readonly adminId: string;
  readonly supportedApis: Readonly<Record<string, number>>;
}
export interface FactoryWithChoiceContext {
  readonly factoryId: string;
  readonly transferKind?: 'self' | 'direct' | 'offer';
  readonly choiceContext: ChoiceContext;
}

export type InstructionChoiceName = 'accept' | 'reject' | 'withdraw';
export type AllocationChoiceName = 'execute-transfer' | 'withdraw' | 'cancel';

/**
 * Amulet's `supportedApis`: Splice's v1 list, and the v2 APIs this registry also serves for
 * Amulet by the same rule (registry-side only: no allocation-request-v2), so v2 clients find them;
 * the v1 list alone where the Amulet served implements no v2 (`AmuletRegistryV2.served`).
 */
const AMULET_APIS: Readonly<Record<string, number>> = {
  ...AMULET_V1_APIS,
  [HOLDING_V2_PACKAGE]: 1,
  [TRANSFER_INSTRUCTION_V2_PACKAGE]: 1,
  [ALLOCATION_V2_PACKAGE]: 1,
  [ALLOCATION_INSTRUCTION_V2_PACKAGE]: 1,
};
const MAX_PAGE_SIZE = 1000;

/**
 * Amulet's registry (the token standard's off-ledger API, group A) with the DSO party as the
 * instrument admin, answered from the ledger: metadata, the transfer and allocation factories
 * with their choice contexts, and the contexts of transfer instructions and allocations. Every
 * context names the AmuletRules and the open round (each Amulet choice fetches both) and
 * discloses them with their blobs; the transfer factory adds the receiver's preapproval when
 * there is a valid one, which makes the transfer complete at once.
 */
export class AmuletRegistry {
  /** The v2-only operations (v2 choice arguments, the settlement factory). */
  readonly v2: AmuletRegistryV2;

  constructor(
    readonly ledger: Ledger,
    readonly view: AmuletLedgerView,
    readonly rounds: RoundKeeper,
    /**
     * Contexts as Splice's registry builds them for its own splice-amulet (`--splice-dars`): a
     * transfer instruction's or allocation's context also says whether to expire the locked
     * amulet's lock (`expire-lock`), which the ports' choices do not read. Both disclose the
     * locked amulet.
     */
    readonly spliceContexts = false,
  ) {
    this.v2 = new AmuletRegistryV2(this);
  }

  info(): Result<RegistryInfo, LedgerError> {
    const dso = this.dso();
    return dso.ok ? ok({ adminId: dso.value, supportedApis: REGISTRY_INFO_APIS }) : dso;
  }

  listInstruments(query: URLSearchParams): Result<{ instruments: Instrument[]; nextPageToken?: string }, LedgerError> {
    const rawSize = query.get('pageSize');
    if (rawSize !== null && !(/^\d{1,9}$/.test(rawSize) && Number(rawSize) >= 1 && Number(rawSize) <= MAX_PAGE_SIZE)) {
      return fail('INVALID_ARGUMENT', `Invalid pageSize '${rawSize.slice(0, 20)}': expected an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    const token = query.get('pageToken');
    const dso = this.dso();
    if (!dso.ok) return dso;
    // One instrument: a page token (the last id of the previous page) past it ends the list.
    const instruments = token !== null && token >= AMULET_INSTRUMENT_ID ? [] : [this.#amulet()];
    return ok({ instruments });
  }

  instrument(id: string): Result<Instrument, LedgerError> {
    const dso = this.dso();
    if (!dso.ok) return dso;
    if (id !== AMULET_INSTRUMENT_ID) return fail('INSTRUMENT_NOT_FOUND', `Instrument '${id.slice(0, 80)}' not found: ${dso.value} administers only '${AMULET_INSTRUMENT_ID}'`);
    return ok(this.#amulet());
  }

  /** POST .../transfer-factory: the factory and the context for TransferFactory_Transfer. */
  transferFactory(body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const args = request.value.choiceArguments;
    const dso = this.dso();
    if (!dso.ok) return dso;
    const checked = this.#checkTransfer(args, dso.value);
    if (!checked.ok) return checked;
    return this.transferFactoryFor(dso.value, checked.value.sender, checked.value.receiver, request.value.excludeDebugFields);
  }

  /**
   * The transfer factory's answer for a checked transfer, the same for v1 and v2 (Amulet's v2
   * TransferFactory_Transfer runs the v1 transfer): the receiver's valid preapproval, if any,
   * joins the context and makes the transfer direct.
   */
  transferFactoryFor(dso: string, sender: string, receiver: string, excludeDebugFields: boolean): Result<FactoryWithChoiceContext, LedgerError> {
    const base = this.baseContracts(dso);
    if (!base.ok) return base;
    const needed = [...base.value.context];
    let transferKind: 'self' | 'direct' | 'offer' = sender === receiver ? 'self' : 'offer';
    if (transferKind === 'offer') {
      const preapproval = this.view.preapprovals.first(receiver);
      const now = BigInt(this.ledger.config.clock.now()) * 1000n;
      if (preapproval !== undefined && preapproval.argument.dso === dso && (timeMicros(text(preapproval.argument.expiresAt)) ?? 0n) > now) {
        needed.push({ key: TRANSFER_PREAPPROVAL_KEY, contract: preapproval });
        transferKind = 'direct';
      }
    }
    const context = this.render([base.value.factory, ...needed.map((n) => n.contract)], needed, excludeDebugFields);
    return context.ok ? ok({ factoryId: base.value.factory.contractId, transferKind, choiceContext: context.value }) : context;
  }

  /** POST .../allocation-factory: the factory and the context for AllocationFactory_Allocate. */
  allocationFactory(body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const args = request.value.choiceArguments;
    const dso = this.dso();
    if (!dso.ok) return dso;
    const checked = this.#checkAllocation(args, dso.value);
    if (!checked.ok) return checked;
    return this.factoryFor(dso.value, request.value.excludeDebugFields);
  }

  /**
   * The factory with the context every Amulet factory choice reads (the AmuletRules and the open
   * round): the v1 and v2 allocation factories' answer, and the base of the settlement factory's.
   */
  factoryFor(dso: string, excludeDebugFields: boolean, alsoDisclosed: readonly StoredContract[] = []): Result<FactoryWithChoiceContext, LedgerError> {
    const base = this.baseContracts(dso);
    if (!base.ok) return base;
    const context = this.render([base.value.factory, ...base.value.context.map((n) => n.contract), ...alsoDisclosed], base.value.context, excludeDebugFields, alsoDisclosed);
    return context.ok ? ok({ factoryId: base.value.factory.contractId, choiceContext: context.value }) : context;
  }

  /** POST .../transfer-instruction/v1/{id}/choice-contexts/{accept,reject,withdraw}. */
  transferInstructionContext(choice: InstructionChoiceName, id: string, body: unknown): Result<ChoiceContext, LedgerError> {
    return this.#contractContext(id, body, [this.view.templates.amuletTransferInstruction], 'TRANSFER_INSTRUCTION_NOT_FOUND', 'TransferInstruction', `transferInstructionId`, (c) =>
      text(record(record(c.argument.transfer).instrumentId).admin),
    );
  }

  /**
   * POST .../allocations/v1/{id}/choice-contexts/{execute-transfer,withdraw,cancel}, and the v2
   * withdraw and cancel contexts: the same contracts (rules, open round) for an AmuletAllocation
   * and, on the v2 paths, for an AmuletAllocationV2 too.
   */
  allocationContext(choice: AllocationChoiceName, id: string, body: unknown, version: 'v1' | 'v2' = 'v1'): Result<ChoiceContext, LedgerError> {
    const templates = [this.view.templates.amuletAllocation, ...(version === 'v2' ? [this.v2.allocationTemplate] : [])];
    return this.#contractContext(id, body, templates, 'ALLOCATION_NOT_FOUND', 'Allocation', 'allocationId', (c) =>
      c.template === this.view.templates.amuletAllocation ? text(record(record(record(c.argument.allocation).transferLeg).instrumentId).admin) : text(record(c.argument.allocation).admin),
    );
  }

  #contractContext(
    id: string,
    body: unknown,
    templates: readonly StoredContract['template'][],
    notFound: 'TRANSFER_INSTRUCTION_NOT_FOUND' | 'ALLOCATION_NOT_FOUND',
    what: string,
    param: string,
    adminOf: (c: StoredContract) => string,
  ): Result<ChoiceContext, LedgerError> {
    if (!isContractIdSyntax(id)) {
      return fail('INVALID_ARGUMENT', `Invalid ${param} '${id.length > 80 ? `${id.slice(0, 77)}...` : id}': expected a contract id (lowercase hex starting with 00, at least 66 characters)`);
    }
    const request = parseChoiceContextRequest(body);
    if (!request.ok) return request;
    const c = this.ledger.store.contract(id);
    if (c === undefined || c.createdOffset === 0) return fail(notFound, `${what} '${id}' not found.`);
    if (!templates.includes(c.template)) return fail(notFound, `${what} '${id}' not found: the contract is a ${c.template.qualifiedName}.`);
    if (!c.isActive) return fail(notFound, `${what} '${id}' not found: it has been archived.`);
    const base = this.baseContracts(adminOf(c));
    if (!base.ok) return base;
    // The choice also fetches the locked amulet behind the contract: disclosed while active, as
    // Splice's registry does (a transfer's receiver is no stakeholder of it, and a participant
    // interprets with the contracts its submitters see plus the disclosed ones).
    const locked = typeof c.argument.lockedAmulet === 'string' ? this.ledger.store.contract(c.argument.lockedAmulet) : undefined;
    const fetched = [c, ...(locked === undefined ? [] : [locked]), ...base.value.context.map((n) => n.contract)];
    const lockActive = locked !== undefined && locked.isActive;
    if (!this.spliceContexts) return this.render(fetched, base.value.context, request.value.excludeDebugFields, lockActive ? [locked] : []);
    return this.render(fetched, base.value.context, request.value.excludeDebugFields, lockActive ? [locked] : [], { [EXPIRE_LOCK_KEY]: { tag: 'AV_Bool', value: lockActive } });
  }

  /** The factory, the AmuletRules and the open round of `dso` (rounds brought up to date first). */
  baseContracts(dso: string): Result<{ factory: StoredContract; context: { key: string; contract: StoredContract }[] }, LedgerError> {
    const rules = this.view.amuletRules.first(dso);
    const factory = this.view.factories.first(dso);
    if (rules === undefined || factory === undefined) return fail('CONTRACT_NOT_FOUND', `No active AmuletRules and ExternalPartyAmuletRules of ${dso}.`);
    const round = this.rounds.catchUp(dso);
    if (!round.ok) return round;
    if (round.value === undefined) return fail('CONTRACT_NOT_FOUND', `No open mining round of ${dso} is open now.`);
    // splice-amulet 0.1.22 and later: the DSO's latest configuration snapshot, as Splice's registry adds it.
    const configState = this.rounds.latestConfigState?.(dso);
    return ok({
      factory,
      context: [
        { key: AMULET_RULES_KEY, contract: rules },
        { key: OPEN_ROUND_KEY, contract: round.value },
        ...(configState === undefined ? [] : [{ key: EXTERNAL_PARTY_CONFIG_STATE_KEY, contract: configState }]),
      ],
    });
  }

  /**
   * 409 when a contract the choice needs is being reassigned; else the context, deterministic in
   * the ledger state: the named contracts, the factory and `alsoDisclosed` are disclosed.
   */
  render(
    fetched: readonly StoredContract[],
    named: readonly { key: string; contract: StoredContract }[],
    excludeDebugFields: boolean,
    alsoDisclosed: readonly StoredContract[] = [],
    extraValues: Readonly<Record<string, AnyValue>> = {},
  ): Result<ChoiceContext, LedgerError> {
    for (const c of fetched) {
      if (c.inFlight !== undefined) {
        return fail('CONTRACT_IN_FLIGHT', `Contract '${c.contractId}' is being reassigned between synchronizers; retry once it is assigned.`, { context: { contract_id: c.contractId } });
      }
    }
    const values: Record<string, AnyValue> = {};
    for (const { key, contract } of named) values[key] = { tag: 'AV_ContractId', value: contract.contractId };
    Object.assign(values, extraValues);
    const disclosed = [...new Set(fetched.filter((c) => c.template === this.view.templates.externalPartyAmuletRules || named.some((n) => n.contract === c) || alsoDisclosed.includes(c)))];
    return ok({ choiceContextData: { values }, disclosedContracts: disclosed.map((c) => disclosedContract(this.ledger, c, excludeDebugFields)) });
  }

  /** The DSO party, the admin of Amulet; REGISTRY_NOT_FOUND (404) without AmuletRules. */
  dso(): Result<string, LedgerError> {
    const dso = this.view.dso();
    return dso === undefined ? fail('REGISTRY_NOT_FOUND', 'No Amulet registry on this ledger: there is no active AmuletRules contract.') : ok(dso);
  }

  #amulet(): Instrument {
    const supply = this.view.supply();
    return {
      id: AMULET_INSTRUMENT_ID,
      name: 'Amulet',
      symbol: 'Amulet',
      totalSupply: supply.totalSupply,
      totalSupplyAsOf: toTimestamp(supply.asOf),
      decimals: 10,
      supportedApis: this.v2.served ? AMULET_APIS : AMULET_V1_APIS,
      // Amulet holdings have only the implicit basic account: no provider, no account id to enter.
      // Scan sets neither field, which the document reads as this empty list.
      accountInputFieldsToShow: [],
    };
  }

  /** 400 unless `v` is the instrument `{admin: dso, id: "Amulet"}`. */
  checkInstrument(v: unknown, path: string, dso: string): Result<void, LedgerError> {
    const instrument = field.object(v, path);
    if (!instrument.ok) return instrument;
    const admin = field.party(instrument.value.admin, `${path}.admin`);
    if (!admin.ok) return admin;
    const id = field.text(instrument.value.id, `${path}.id`);
    if (!id.ok) return id;
    if (admin.value !== dso || id.value !== AMULET_INSTRUMENT_ID) {
      return fail('INVALID_ARGUMENT', `Invalid request body: unknown instrument ${admin.value}/${id.value.slice(0, 80)} at ${path}; this registry administers ${dso}/${AMULET_INSTRUMENT_ID}`);
    }
    return ok(undefined);
  }

  #checkAdmin(v: unknown, dso: string): Result<void, LedgerError> {
    const admin = field.party(v, 'choiceArguments.expectedAdmin');
    if (!admin.ok) return admin;
    return admin.value === dso ? ok(undefined) : fail('INVALID_ARGUMENT', `Invalid request body: choiceArguments.expectedAdmin ${admin.value} is not the admin of this registry (${dso})`);
  }

  #checkTransfer(args: DamlRecord, dso: string): Result<{ sender: string; receiver: string }, LedgerError> {
    const admin = this.#checkAdmin(args.expectedAdmin, dso);
    if (!admin.ok) return admin;
    const t = field.object(args.transfer, 'choiceArguments.transfer');
    if (!t.ok) return t;
    const p = 'choiceArguments.transfer';
    const sender = field.party(t.value.sender, `${p}.sender`);
    if (!sender.ok) return sender;
    const receiver = field.party(t.value.receiver, `${p}.receiver`);
    if (!receiver.ok) return receiver;
    for (const check of [
      () => field.amount(t.value.amount, `${p}.amount`),
      () => this.checkInstrument(t.value.instrumentId, `${p}.instrumentId`, dso),
      () => field.time(t.value.requestedAt, `${p}.requestedAt`),
      () => field.time(t.value.executeBefore, `${p}.executeBefore`),
      () => field.contractIds(t.value.inputHoldingCids, `${p}.inputHoldingCids`),
      () => field.meta(t.value.meta, `${p}.meta`),
    ]) {
      const r = check();
      if (!r.ok) return r;
    }
    return ok({ sender: sender.value, receiver: receiver.value });
  }

  #checkAllocation(args: DamlRecord, dso: string): Result<void, LedgerError> {
    const admin = this.#checkAdmin(args.expectedAdmin, dso);
    if (!admin.ok) return admin;
    const spec = field.object(args.allocation, 'choiceArguments.allocation');
    if (!spec.ok) return spec;
    const p = 'choiceArguments.allocation';
    const settlement = field.object(spec.value.settlement, `${p}.settlement`);
    if (!settlement.ok) return settlement;
    const leg = field.object(spec.value.transferLeg, `${p}.transferLeg`);
    if (!leg.ok) return leg;
    for (const check of [
      () => field.party(settlement.value.executor, `${p}.settlement.executor`),
      () => field.time(settlement.value.requestedAt, `${p}.settlement.requestedAt`),
      () => field.time(settlement.value.allocateBefore, `${p}.settlement.allocateBefore`),
      () => field.time(settlement.value.settleBefore, `${p}.settlement.settleBefore`),
      () => field.meta(settlement.value.meta, `${p}.settlement.meta`),
      () => field.text(spec.value.transferLegId, `${p}.transferLegId`),
      () => field.party(leg.value.sender, `${p}.transferLeg.sender`),
      () => field.party(leg.value.receiver, `${p}.transferLeg.receiver`),
      () => field.amount(leg.value.amount, `${p}.transferLeg.amount`),
      () => this.checkInstrument(leg.value.instrumentId, `${p}.transferLeg.instrumentId`, dso),
      () => field.meta(leg.value.meta, `${p}.transferLeg.meta`),
      () => field.time(args.requestedAt, 'choiceArguments.requestedAt'),
      () => field.contractIds(args.inputHoldingCids, 'choiceArguments.inputHoldingCids'),
    ]) {
      const r = check();
      if (!r.ok) return r;
    }
    return ok(undefined);
  }
}
