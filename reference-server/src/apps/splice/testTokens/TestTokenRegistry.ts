import type { DamlRecord, DamlValue, Ledger, LedgerError, Result, TemplateDef } from '../../../ledger/index.js';
import { fail, ok, toTimestamp } from '../../../ledger/index.js';
import type { StoredContract } from '../../../store/StoredContract.js';
import type { FactoryWithChoiceContext, Instrument, RegistryInfo } from '../../amulet/AmuletRegistry.js';
import { disclosedContract } from '../../registry/disclosedContract.js';
import { isContractIdSyntax } from '../../registry/isContractIdSyntax.js';
import { parseChoiceContextRequest } from '../../registry/parseChoiceContextRequest.js';
import { field, parseFactoryRequest } from '../../registry/parseFactoryRequest.js';
import type { AnyValue, ChoiceContext } from '../../registry/types.js';
import { REGISTRY_INFO_APIS } from '../../tokenStandard/ids.js';
import { all, invalid, MAX_SETTLEMENT_ALLOCATIONS } from '../../registry/settlementLegs.js';
import { accountOf, allocationArgumentsV2, partyList, settlementInfo, transferLegs } from './testTokenArguments.js';
import { TEST_TOKEN_KINDS, templateVersions, type TestTokenKind } from './testTokenKinds.js';

/** The token standard's registry-side APIs (not allocation-request, which apps implement, nor the v2 event log). */
const REGISTRY_API = /^splice-api-token-(metadata|holding|transfer-instruction|allocation|allocation-instruction)-v\d+$/;
const METADATA_V1 = 'splice-api-token-metadata-v1';
const MAX_PAGE_SIZE = 1000;
/** How deep a contract's argument is searched for the holdings and accounts it names. */
const MAX_DEPTH = 12;
const SCALE = 10_000_000_000n;

export type TestTokenApi = 'v1' | 'v2';

/** One admin's registry: its TokenRules (the factory of every choice) and the token's templates. */
interface Served {
  readonly admin: string;
  readonly kind: TestTokenKind;
  readonly rules: StoredContract;
  readonly templates: Readonly<Record<'rules' | 'token' | 'lockedHoldings' | 'transferInstructions' | 'allocations' | 'accountConfig', readonly TemplateDef[]>>;
}

const text = (v: DamlValue | undefined): string => (typeof v === 'string' ? v : '');
const record = (v: DamlValue | undefined): DamlRecord => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as DamlRecord) : {});
const units = (amount: string): bigint => {
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  const v = BigInt(whole) * SCALE + BigInt(fraction.padEnd(10, '0').slice(0, 10) || '0');
  return amount.startsWith('-') ? -v : v;
};
const decimal = (v: bigint): string => `${v / SCALE}.${(v % SCALE).toString().padStart(10, '0')}`;
const hintOf = (party: string): string => party.slice(0, Math.max(0, party.lastIndexOf('::')));

/**
 * The off-ledger registry of Splice's test tokens (splice-test-token-v1 and -v2, when their DARs
 * are on the ledger), one per admin as on a network (one registry URL per instrument admin): the
 * admin's TokenRules is the transfer and allocation factory, its instruments are those of the
 * token's holdings it signs, and every context is built from the contracts as Splice's test-token
 * Daml reads them (see testTokenKinds). Answered live from the ledger: a TokenRules created
 * through the JSON API serves a registry at once.
 */
export class TestTokenRegistry {
  constructor(readonly ledger: Ledger) {}

  /** The registries served now: `{admin, package}` for every admin with an active TokenRules. */
  registries(): { admin: string; packageName: string }[] {
    const out = new Map<string, string>();
    for (const kind of TEST_TOKEN_KINDS) for (const c of this.#active(templateVersions(this.ledger, kind.packageName, kind.rules))) out.set(text(c.argument.admin), kind.packageName);
    return [...out].map(([admin, packageName]) => ({ admin, packageName }));
  }

  info(registry: string): Result<RegistryInfo, LedgerError> {
    const served = this.#served(registry);
    return served.ok ? ok({ adminId: served.value.admin, supportedApis: REGISTRY_INFO_APIS }) : served;
  }

  listInstruments(registry: string, query: URLSearchParams): Result<{ instruments: Instrument[]; nextPageToken?: string }, LedgerError> {
    const rawSize = query.get('pageSize');
    if (rawSize !== null && !(/^\d{1,9}$/.test(rawSize) && Number(rawSize) >= 1 && Number(rawSize) <= MAX_PAGE_SIZE)) {
      return fail('INVALID_ARGUMENT', `Invalid pageSize '${rawSize.slice(0, 20)}': expected an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    const served = this.#served(registry);
    if (!served.ok) return served;
    const size = rawSize === null ? 25 : Number(rawSize);
    const token = query.get('pageToken');
    const all = this.#instruments(served.value).filter((i) => token === null || i.id > token);
    const page = all.slice(0, size);
    return ok({ instruments: page, ...(all.length > size ? { nextPageToken: page.at(-1)!.id } : {}) });
  }

  instrument(registry: string, id: string): Result<Instrument, LedgerError> {
    const served = this.#served(registry);
    if (!served.ok) return served;
    const found = this.#instruments(served.value).find((i) => i.id === id);
    return found === undefined ? fail('INSTRUMENT_NOT_FOUND', `Instrument '${id.slice(0, 80)}' not found: ${served.value.admin} holds no ${served.value.kind.packageName} holding of it`) : ok(found);
  }

  /** POST .../transfer-instruction/{v1,v2}/transfer-factory: the admin's TokenRules and the context TransferFactory_Transfer reads. */
  transferFactory(registry: string, api: TestTokenApi, body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const served = this.#served(registry, api);
    if (!served.ok) return served;
    const args = request.value.choiceArguments;
    const p = 'choiceArguments.transfer';
    const t = field.object(args.transfer, p);
    if (!t.ok) return t;
    const parties = api === 'v1' ? this.#v1Parties(args, t.value, served.value.admin) : this.#v2Accounts(t.value);
    if (!parties.ok) return parties;
    const checked = all([
      () => field.amount(t.value.amount, `${p}.amount`),
      () => this.#checkInstrument(t.value.instrumentId, `${p}.instrumentId`, served.value),
      () => field.time(t.value.requestedAt, `${p}.requestedAt`),
      () => field.time(t.value.executeBefore, `${p}.executeBefore`),
      () => field.contractIds(t.value.inputHoldingCids, `${p}.inputHoldingCids`),
      () => field.meta(t.value.meta, `${p}.meta`),
    ]);
    if (!checked.ok) return checked;
    const [sender, receiver] = parties.value;
    const context = this.#render(served.value, [served.value.rules], args, request.value.excludeDebugFields);
    if (!context.ok) return context;
    // Both tokens complete a transfer at once only when the sender's authority is all it needs (to itself).
    const transferKind = sender === receiver ? 'self' : 'offer';
    return ok({ factoryId: served.value.rules.contractId, transferKind, choiceContext: context.value });
  }

  /** POST .../allocation-instruction/{v1,v2}/allocation-factory: the admin's TokenRules and its context. */
  allocationFactory(registry: string, api: TestTokenApi, body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const served = this.#served(registry, api);
    if (!served.ok) return served;
    const args = request.value.choiceArguments;
    const spec = field.object(args.allocation, 'choiceArguments.allocation');
    if (!spec.ok) return spec;
    if (api === 'v1') {
      const checked = this.#checkAllocationV1(args, spec.value, served.value);
      if (!checked.ok) return checked;
    } else {
      const admin = field.party(spec.value.admin, 'choiceArguments.allocation.admin');
      if (!admin.ok) return admin;
      if (admin.value !== served.value.admin) return fail('INVALID_ARGUMENT', `Invalid request body: choiceArguments.allocation.admin ${admin.value} is not the admin of this registry (${served.value.admin})`);
      const checked = allocationArgumentsV2(args, spec.value, this.#instruments(served.value).map((i) => i.id));
      if (!checked.ok) return checked;
    }
    const context = this.#render(served.value, [served.value.rules], args, request.value.excludeDebugFields);
    return context.ok ? ok({ factoryId: served.value.rules.contractId, choiceContext: context.value }) : context;
  }

  /**
   * POST .../allocation/v2/settlement-factory (v2 token): the admin's TokenRules, the context
   * SettlementFactory_SettleBatch reads, and the locked tokens of the allocations it names, which
   * the executors do not see (an id that is not an active allocation of this token adds nothing;
   * the choice then refuses it).
   */
  settlementFactory(registry: string, body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const served = this.#served(registry, 'v2');
    if (!served.ok) return served;
    const args = request.value.choiceArguments;
    const ids: string[] = [];
    const checked = all([
      () => settlementInfo(args.settlement),
      () => transferLegs(args.transferLegs, this.#instruments(served.value).map((i) => i.id)),
      () => partyList(args.actors, 'choiceArguments.actors'),
      () => {
        const path = 'choiceArguments.allocations';
        if (!Array.isArray(args.allocations) || args.allocations.length === 0) return invalid(`${path} must be a non-empty list of {allocationCid, extraTransferLegSides, nextIterationFunding}`);
        if (args.allocations.length > MAX_SETTLEMENT_ALLOCATIONS) return invalid(`${path} has ${args.allocations.length} allocations; this registry settles at most ${MAX_SETTLEMENT_ALLOCATIONS} in one batch`);
        for (const [i, x] of args.allocations.entries()) {
          const cid = record(x).allocationCid;
          if (typeof cid !== 'string' || !isContractIdSyntax(cid)) return invalid(`${path}[${i}].allocationCid is not a contract id`);
          ids.push(cid);
        }
        return ok(undefined);
      },
    ]);
    if (!checked.ok) return checked;
    const locked: StoredContract[] = [];
    for (const id of ids) {
      const c = this.ledger.store.contract(id);
      if (c === undefined || !c.isActive || !served.value.templates.allocations.includes(c.template) || !c.signatories.includes(served.value.admin)) continue;
      for (const h of this.#namedHoldings(served.value, c.argument)) if (!locked.includes(h)) locked.push(h);
    }
    const context = this.#render(served.value, [served.value.rules, ...locked], args, request.value.excludeDebugFields);
    return context.ok ? ok({ factoryId: served.value.rules.contractId, choiceContext: context.value }) : context;
  }

  /** POST .../transfer-instruction/{v1,v2}/{id}/choice-contexts/{accept,reject,withdraw}. */
  transferInstructionContext(registry: string, api: TestTokenApi, id: string, body: unknown): Result<ChoiceContext, LedgerError> {
    return this.#contractContext(registry, api, id, body, 'transferInstructions', 'TRANSFER_INSTRUCTION_NOT_FOUND', 'TransferInstruction', 'transferInstructionId');
  }

  /** POST .../allocations/{v1,v2}/{id}/choice-contexts/{execute-transfer,withdraw,cancel}. */
  allocationContext(registry: string, api: TestTokenApi, id: string, body: unknown): Result<ChoiceContext, LedgerError> {
    return this.#contractContext(registry, api, id, body, 'allocations', 'ALLOCATION_NOT_FOUND', 'Allocation', 'allocationId');
  }

  #contractContext(
    registry: string,
    api: TestTokenApi,
    id: string,
    body: unknown,
    role: 'transferInstructions' | 'allocations',
    notFound: 'TRANSFER_INSTRUCTION_NOT_FOUND' | 'ALLOCATION_NOT_FOUND',
    what: string,
    param: string,
  ): Result<ChoiceContext, LedgerError> {
    if (!isContractIdSyntax(id)) {
      return fail('INVALID_ARGUMENT', `Invalid ${param} '${id.length > 80 ? `${id.slice(0, 77)}...` : id}': expected a contract id (lowercase hex starting with 00, at least 66 characters)`);
    }
    const request = parseChoiceContextRequest(body);
    if (!request.ok) return request;
    const served = this.#served(registry, api);
    if (!served.ok) return served;
    const c = this.ledger.store.contract(id);
    if (c === undefined || c.createdOffset === 0) return fail(notFound, `${what} '${id}' not found.`);
    if (!served.value.templates[role].includes(c.template) || !c.signatories.includes(served.value.admin)) {
      return fail(notFound, `${what} '${id}' not found: the contract is a ${c.template.qualifiedName}, not a ${what.toLowerCase()} of ${served.value.kind.packageName} administered by ${served.value.admin}.`);
    }
    if (!c.isActive) return fail(notFound, `${what} '${id}' not found: it has been archived.`);
    // The choice archives the holdings the contract locked (v2's locked tokens, which the receiver
    // or the executors do not see): disclosed with the rules, which v2 logs its events on.
    const locked = this.#namedHoldings(served.value, c.argument);
    const disclosed = served.value.kind.rulesKey === undefined ? locked : [served.value.rules, ...locked];
    return this.#render(served.value, disclosed, c.argument, request.value.excludeDebugFields, [c]);
  }

  /**
   * The context: v2's TokenRules under its key, and the AccountConfigs of the accounts with a
   * provider that `source` names; 409 when a contract the choice reads is being reassigned.
   */
  #render(served: Served, disclose: readonly StoredContract[], source: DamlRecord, excludeDebugFields: boolean, alsoRead: readonly StoredContract[] = []): Result<ChoiceContext, LedgerError> {
    const values: Record<string, AnyValue> = {};
    const configs = this.#accountConfigs(served, source);
    if (served.kind.rulesKey !== undefined) values[served.kind.rulesKey] = { tag: 'AV_ContractId', value: served.rules.contractId };
    if (served.kind.accountConfigsKey !== undefined && configs.length > 0) {
      values[served.kind.accountConfigsKey] = { tag: 'AV_List', value: configs.map((c) => ({ tag: 'AV_ContractId', value: c.contractId })) };
    }
    const shown = [...new Set([...disclose, ...configs])];
    for (const c of [...alsoRead, ...shown]) {
      if (c.inFlight !== undefined) {
        return fail('CONTRACT_IN_FLIGHT', `Contract '${c.contractId}' is being reassigned between synchronizers; retry once it is assigned.`, { context: { contract_id: c.contractId } });
      }
    }
    return ok({ choiceContextData: { values }, disclosedContracts: shown.map((c) => disclosedContract(this.ledger, c, excludeDebugFields)) });
  }

  /**
   * The registry at `/registries/{registry}`: `registry` is the admin's party id, or its hint
   * when one admin has it. An admin with TokenRules of both packages serves the v2 token's.
   */
  #served(registry: string, api?: TestTokenApi): Result<Served, LedgerError> {
    const candidates: { admin: string; kind: TestTokenKind; rules: StoredContract }[] = [];
    for (const kind of TEST_TOKEN_KINDS) {
      for (const c of this.#active(templateVersions(this.ledger, kind.packageName, kind.rules))) {
        const admin = text(c.argument.admin);
        if (admin === registry || (!registry.includes('::') && hintOf(admin) === registry)) candidates.push({ admin, kind, rules: c });
      }
    }
    const admins = [...new Set(candidates.map((c) => c.admin))];
    if (admins.length === 0) {
      const known = this.registries().map((r) => hintOf(r.admin));
      return fail('REGISTRY_NOT_FOUND', `No test-token registry '${registry.slice(0, 120)}': no active TokenRules of splice-test-token-v1 or -v2 is administered by that party${known.length === 0 ? ' (no test-token DAR or TokenRules is on this ledger)' : ` (served: ${known.join(', ')})`}`);
    }
    if (admins.length > 1) return fail('REGISTRY_NOT_FOUND', `Test-token registry '${registry}' is ambiguous: ${admins.join(', ')} share the hint; name the admin by its party id`);
    const ordered = candidates.sort((a, b) => (a.kind.flavour === b.kind.flavour ? a.rules.createdOffset - b.rules.createdOffset : a.kind.flavour === 'v2' ? -1 : 1));
    const { admin, kind, rules } = ordered[0]!;
    if (api === 'v2' && kind.flavour === 'v1') {
      return fail('INVALID_ARGUMENT', `${kind.packageName} implements only the v1 token standard; use this registry's /registry/.../v1/ paths`);
    }
    const versions = (names: readonly string[]) => names.flatMap((q) => templateVersions(this.ledger, kind.packageName, q));
    return ok({
      admin,
      kind,
      rules,
      templates: {
        rules: versions([kind.rules]),
        token: versions([kind.token]),
        lockedHoldings: versions(kind.lockedHoldings),
        transferInstructions: versions(kind.transferInstructions),
        allocations: versions(kind.allocations),
        accountConfig: versions(kind.accountConfig === undefined ? [] : [kind.accountConfig]),
      },
    });
  }

  #active(templates: readonly TemplateDef[]): StoredContract[] {
    return templates.flatMap((template) => this.ledger.store.activeSnapshot({ kind: 'template', template }));
  }

  /**
   * The admin's instruments: those of the active holdings it signs (the tokens, and v1's offers
   * and allocations, which hold their amount themselves), with their total amount.
   */
  #instruments(served: Served): Instrument[] {
    const supply = new Map<string, bigint>();
    const add = (instrumentId: DamlValue | undefined, amount: DamlValue | undefined) => {
      const i = record(instrumentId);
      if (text(i.admin) !== served.admin || text(i.id) === '') return;
      supply.set(text(i.id), (supply.get(text(i.id)) ?? 0n) + units(text(amount) || '0'));
    };
    for (const c of this.#active(served.templates.token)) add(record(c.argument.holding).instrumentId, record(c.argument.holding).amount);
    for (const c of this.#active(served.templates.lockedHoldings)) {
      const leg = c.argument.transfer !== undefined ? record(c.argument.transfer) : record(record(c.argument.allocation).transferLeg);
      add(leg.instrumentId, leg.amount);
    }
    const apis: Record<string, number> = { [METADATA_V1]: 1 };
    for (const t of [...served.templates.rules, ...served.templates.token, ...served.templates.transferInstructions, ...served.templates.allocations]) {
      for (const impl of t.interfaces.values()) if (REGISTRY_API.test(impl.def.packageName)) apis[impl.def.packageName] = 1;
    }
    const asOf = toTimestamp(this.ledger.config.clock.now());
    return [...supply.keys()].sort().map((id) => ({
      id,
      name: id,
      symbol: id,
      totalSupply: decimal(supply.get(id)!),
      totalSupplyAsOf: asOf,
      decimals: 10,
      supportedApis: apis,
      // v1 holdings have an owner only; v2 accounts may name a provider and an account id.
      accountInputFieldsToShow: served.kind.flavour === 'v1' ? [] : ['provider', 'accountId'],
    }));
  }

  /** Active holdings of the token that `value` names by contract id (locked inputs, locked tokens). */
  #namedHoldings(served: Served, value: DamlRecord): StoredContract[] {
    const found: StoredContract[] = [];
    walk(value, MAX_DEPTH, (v) => {
      if (typeof v !== 'string' || !isContractIdSyntax(v)) return;
      const c = this.ledger.store.contract(v);
      if (c !== undefined && c.isActive && served.templates.token.includes(c.template) && !found.includes(c)) found.push(c);
    });
    return found;
  }

  /** The AccountConfigs of the accounts with a provider that `value` names (v2 only). */
  #accountConfigs(served: Served, value: DamlRecord): StoredContract[] {
    if (served.templates.accountConfig.length === 0) return [];
    const accounts = new Set<string>();
    walk(value, MAX_DEPTH, (v) => {
      const a = record(v);
      if (typeof a.owner === 'string' && typeof a.provider === 'string' && typeof a.id === 'string') accounts.add(JSON.stringify([a.owner, a.provider, a.id]));
    });
    if (accounts.size === 0) return [];
    return this.#active(served.templates.accountConfig).filter((c) => {
      const a = record(c.argument.account);
      return text(c.argument.admin) === served.admin && accounts.has(JSON.stringify([a.owner, a.provider, a.id]));
    });
  }

  #checkAdmin(v: unknown, admin: string): Result<void, LedgerError> {
    const given = field.party(v, 'choiceArguments.expectedAdmin');
    if (!given.ok) return given;
    return given.value === admin ? ok(undefined) : fail('INVALID_ARGUMENT', `Invalid request body: choiceArguments.expectedAdmin ${given.value} is not the admin of this registry (${admin})`);
  }

  /** 400 unless `v` is one of the registry's instruments (those metadata lists: the admin's holdings'). */
  #checkInstrument(v: unknown, path: string, served: Served): Result<void, LedgerError> {
    const instrument = field.object(v, path);
    if (!instrument.ok) return instrument;
    const given = field.party(instrument.value.admin, `${path}.admin`);
    if (!given.ok) return given;
    const id = field.text(instrument.value.id, `${path}.id`);
    if (!id.ok) return id;
    if (given.value !== served.admin) return fail('INVALID_ARGUMENT', `Invalid request body: ${path}.admin ${given.value} is not the admin of this registry (${served.admin})`);
    const known = this.#instruments(served).map((i) => i.id);
    return known.includes(id.value) ? ok(undefined) : fail('INVALID_ARGUMENT', `Invalid request body: unknown instrument ${given.value}/${id.value.slice(0, 80)} at ${path}; this registry administers ${known.length === 0 ? 'no instrument yet (no holding)' : known.join(', ')}`);
  }

  /** The v1 AllocationFactory_Allocate arguments, field by field (400 naming the first wrong one). */
  #checkAllocationV1(args: DamlRecord, spec: DamlRecord, served: Served): Result<void, LedgerError> {
    const admin = this.#checkAdmin(args.expectedAdmin, served.admin);
    if (!admin.ok) return admin;
    const p = 'choiceArguments.allocation';
    const settlement = field.object(spec.settlement, `${p}.settlement`);
    if (!settlement.ok) return settlement;
    const leg = field.object(spec.transferLeg, `${p}.transferLeg`);
    if (!leg.ok) return leg;
    return all([
      () => field.party(settlement.value.executor, `${p}.settlement.executor`),
      () => field.time(settlement.value.requestedAt, `${p}.settlement.requestedAt`),
      () => field.time(settlement.value.allocateBefore, `${p}.settlement.allocateBefore`),
      () => field.time(settlement.value.settleBefore, `${p}.settlement.settleBefore`),
      () => field.meta(settlement.value.meta, `${p}.settlement.meta`),
      () => field.text(spec.transferLegId, `${p}.transferLegId`),
      () => field.party(leg.value.sender, `${p}.transferLeg.sender`),
      () => field.party(leg.value.receiver, `${p}.transferLeg.receiver`),
      () => field.amount(leg.value.amount, `${p}.transferLeg.amount`),
      () => this.#checkInstrument(leg.value.instrumentId, `${p}.transferLeg.instrumentId`, served),
      () => field.meta(leg.value.meta, `${p}.transferLeg.meta`),
      () => field.time(args.requestedAt, 'choiceArguments.requestedAt'),
      () => field.contractIds(args.inputHoldingCids, 'choiceArguments.inputHoldingCids'),
    ]);
  }

  /** v1 arguments: the expected admin, and the sender and receiver parties. */
  #v1Parties(args: DamlRecord, t: DamlRecord, admin: string): Result<[string, string], LedgerError> {
    const checked = this.#checkAdmin(args.expectedAdmin, admin);
    if (!checked.ok) return checked;
    const sender = field.party(t.sender, 'choiceArguments.transfer.sender');
    if (!sender.ok) return sender;
    const receiver = field.party(t.receiver, 'choiceArguments.transfer.receiver');
    return receiver.ok ? ok([sender.value, receiver.value]) : receiver;
  }

  /** v2 arguments: the sender's and receiver's accounts (as JSON, to compare). */
  #v2Accounts(t: DamlRecord): Result<[string, string], LedgerError> {
    const sender = accountOf(t.sender, 'choiceArguments.transfer.sender');
    if (!sender.ok) return sender;
    const receiver = accountOf(t.receiver, 'choiceArguments.transfer.receiver');
    return receiver.ok ? ok([sender.value, receiver.value]) : receiver;
  }
}

/** Visits every value of a Daml JSON value, depth-first, down to `depth` levels. */
function walk(v: DamlValue | undefined, depth: number, visit: (v: DamlValue) => void): void {
  if (v === undefined) return;
  visit(v);
  if (depth === 0 || v === null || typeof v !== 'object') return;
  for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x as DamlValue, depth - 1, visit);
}

const registries = new WeakMap<Ledger, TestTokenRegistry>();

/** The test-token registry of a ledger (stateless beyond the ledger: it reads the contracts per request). */
export function testTokenRegistryOf(ledger: Ledger): TestTokenRegistry {
  let r = registries.get(ledger);
  if (r === undefined) registries.set(ledger, (r = new TestTokenRegistry(ledger)));
  return r;
}
