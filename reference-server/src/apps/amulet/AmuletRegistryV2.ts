import type { LedgerError, Result, TemplateDef } from '../../ledger/index.js';
import { fail, ok } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { isContractIdSyntax } from '../registry/isContractIdSyntax.js';
import { field, parseFactoryRequest } from '../registry/parseFactoryRequest.js';
import { all, invalid, knownInstrument, MAX_SETTLEMENT_ALLOCATIONS, readLegs, readLegSides, type LegRules } from '../registry/settlementLegs.js';
import { unwrapRegistration } from '../unwrapRegistration.js';
import { AMULET_INSTRUMENT_ID } from './amuletContext.js';
import { AMULET_ALLOCATION_V2_TEMPLATE } from './amuletTokenTemplatesV2.js';
import type { AmuletRegistry, FactoryWithChoiceContext } from './AmuletRegistry.js';

/**
 * Settlement requests the registry answers: upstream requires registries to support at least 25
 * transfer legs (50 allocations); larger ones are refused with 400 rather than answered slowly.
 */

/** A v2 Account `{owner, provider, id}`; Amulet needs the owner. */
function account(v: unknown, path: string): Result<string, LedgerError> {
  const a = field.object(v, path);
  if (!a.ok) return a;
  const owner = field.party(a.value.owner, `${path}.owner`);
  if (!owner.ok) return owner;
  if (a.value.provider !== undefined && a.value.provider !== null) {
    const provider = field.party(a.value.provider, `${path}.provider`);
    if (!provider.ok) return provider;
  }
  if (a.value.id !== undefined) {
    const id = field.text(a.value.id, `${path}.id`);
    if (!id.ok) return id;
  }
  return ok(owner.value);
}

/** Amulet's legs: accounts with an owner, and its one instrument. */
const AMULET_LEGS: LegRules = { account, instrumentId: knownInstrument([AMULET_INSTRUMENT_ID]) };

function partyList(v: unknown, path: string, nonEmpty: boolean): Result<string[], LedgerError> {
  if (!Array.isArray(v)) return invalid(`${path} must be a list of party ids`);
  if (nonEmpty && v.length === 0) return invalid(`${path} must not be empty`);
  for (const [i, p] of v.entries()) {
    const r = field.party(p, `${path}[${i}]`);
    if (!r.ok) return r;
  }
  return ok(v as string[]);
}


/**
 * Amulet's registry operations whose choice arguments are v2's (accounts instead of parties,
 * `actors` instead of `expectedAdmin`), answered with the same contracts as v1 where upstream's
 * v2 choice reads the same ones: the v2 transfer factory runs the v1 transfer (same context,
 * preapproval included), the v2 allocation factory reads the rules and the open round like v1's.
 * The settlement factory adds the locked amulets of the allocations named in the arguments (v2
 * ones and v1 ones, which implement Allocation v2 too), as
 * upstream's registry discloses them for SettlementFactory_SettleBatch.
 */
export class AmuletRegistryV2 {
  readonly allocationTemplate: TemplateDef;
  /**
   * Whether the Amulet served implements token standard v2: its ExternalPartyAmuletRules is a v2
   * TransferFactory (the ports' and splice-amulet 0.1.22's are; LocalNet's 0.1.14 is not, and
   * its registry then neither lists v2 APIs nor serves the v2 paths).
   */
  readonly served: boolean;

  constructor(readonly registry: AmuletRegistry) {
    this.served = [...registry.view.templates.externalPartyAmuletRules.interfaces.keys()].some((id) => id.endsWith(':Splice.Api.Token.TransferInstructionV2:TransferFactory'));
    // The v2 allocation of the Amulet the world is built on: splice-amulet 0.1.22's own beside its
    // AmuletAllocation (`--splice-dars`), else the ports' (declared: over Splice's packages a
    // `#splice-amulet` id names the uploaded package, and LocalNet's 0.1.14 has no v2 allocation).
    const catalogue = registry.ledger.catalogue;
    const own = catalogue.resolveTemplate(`${registry.view.templates.amuletAllocation.packageId}:Splice.AmuletAllocationV2:AmuletAllocationV2`);
    const port = catalogue.declared(AMULET_ALLOCATION_V2_TEMPLATE);
    this.allocationTemplate = own.ok ? own.value : port?.kind === 'template' ? port : unwrapRegistration(catalogue.resolveTemplate(AMULET_ALLOCATION_V2_TEMPLATE));
  }

  /** 400 on a v2 path where the Amulet served implements v1 only (as the test tokens' v1 registry answers). */
  unserved(): Result<never, LedgerError> | undefined {
    if (this.served) return undefined;
    const rules = this.registry.view.templates.externalPartyAmuletRules;
    return fail('INVALID_ARGUMENT', `This registry's Amulet (${rules.packageName}, package ${rules.packageId}) implements only the v1 token standard; use its /registry/.../v1/ paths`);
  }

  /** POST /registry/transfer-instruction/v2/transfer-factory */
  transferFactory(body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const dso = this.registry.dso();
    if (!dso.ok) return dso;
    const args = request.value.choiceArguments;
    const p = 'choiceArguments.transfer';
    const t = field.object(args.transfer, p);
    if (!t.ok) return t;
    const sender = account(t.value.sender, `${p}.sender`);
    if (!sender.ok) return sender;
    const receiver = account(t.value.receiver, `${p}.receiver`);
    if (!receiver.ok) return receiver;
    const checked = all([
      () => partyList(args.actors, 'choiceArguments.actors', true),
      () => field.amount(t.value.amount, `${p}.amount`),
      () => this.registry.checkInstrument(t.value.instrumentId, `${p}.instrumentId`, dso.value),
      () => field.time(t.value.requestedAt, `${p}.requestedAt`),
      () => field.time(t.value.executeBefore, `${p}.executeBefore`),
      () => field.contractIds(t.value.inputHoldingCids, `${p}.inputHoldingCids`),
      () => field.meta(t.value.meta, `${p}.meta`),
    ]);
    if (!checked.ok) return checked;
    return this.registry.transferFactoryFor(dso.value, sender.value, receiver.value, request.value.excludeDebugFields);
  }

  /**
   * POST /registry/allocation-instruction/v2/allocation-factory, with
   * splice-api-token-allocation-instruction-v2 1.0.0's arguments: the settlement beside the
   * allocation specification (`choiceArguments.settlement`), as splice-amulet 0.1.22 takes them.
   */
  allocationFactory(body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const dso = this.registry.dso();
    if (!dso.ok) return dso;
    const args = request.value.choiceArguments;
    const p = 'choiceArguments.allocation';
    const spec = field.object(args.allocation, p);
    if (!spec.ok) return spec;
    const s = spec.value;
    const checked = all([
      () =>
        // The draft v2 shape (the settlement inside the specification) gets a pointed answer.
        args.settlement === undefined && s.settlement !== undefined
          ? invalid('choiceArguments.settlement is missing: AllocationFactory_Allocate takes the settlement beside the allocation, not in choiceArguments.allocation')
          : this.#settlement(args.settlement, 'choiceArguments.settlement'),
      () => this.#admin(s.admin, `${p}.admin`, dso.value),
      () => account(s.authorizer, `${p}.authorizer`),
      () => readLegSides(s.transferLegSides, `${p}.transferLegSides`, AMULET_LEGS),
      () => (s.settlementDeadline === undefined || s.settlementDeadline === null ? ok(undefined) : field.time(s.settlementDeadline, `${p}.settlementDeadline`)),
      () => (s.committed === undefined || typeof s.committed === 'boolean' ? ok(undefined) : invalid(`${p}.committed must be a boolean`)),
      () => field.meta(s.meta, `${p}.meta`),
      () => field.time(args.requestedAt, 'choiceArguments.requestedAt'),
      () => field.contractIds(args.inputHoldingCids, 'choiceArguments.inputHoldingCids'),
      () => partyList(args.actors, 'choiceArguments.actors', true),
    ]);
    if (!checked.ok) return checked;
    return this.registry.factoryFor(dso.value, request.value.excludeDebugFields);
  }

  /**
   * POST /registry/allocation/v2/settlement-factory: the factory, the rules and the open round,
   * and the locked amulets behind the named allocations (an allocation that is unknown,
   * archived or not Amulet's adds nothing: the choice refuses it). 409 while any of them moves.
   */
  settlementFactory(body: unknown): Result<FactoryWithChoiceContext, LedgerError> {
    // Malformed is malformed whatever the ledger holds: the arguments are checked first.
    const request = parseFactoryRequest(body);
    if (!request.ok) return request;
    const args = request.value.choiceArguments;
    const checked = all([
      () => this.#settlement(args.settlement, 'choiceArguments.settlement'),
      () => readLegs(args.transferLegs, 'choiceArguments.transferLegs', AMULET_LEGS),
      () => partyList(args.actors, 'choiceArguments.actors', true),
    ]);
    if (!checked.ok) return checked;
    const allocations = this.#allocationIds(args.allocations);
    if (!allocations.ok) return allocations;
    const dso = this.registry.dso();
    if (!dso.ok) return dso;
    const locked: StoredContract[] = [];
    for (const id of allocations.value) {
      const c = this.registry.ledger.store.contract(id);
      const amulets = c !== undefined && (c.template === this.allocationTemplate || c.template === this.registry.view.templates.amuletAllocation);
      if (c === undefined || !c.isActive || !amulets || typeof c.argument.lockedAmulet !== 'string') continue;
      const l = this.registry.ledger.store.contract(c.argument.lockedAmulet);
      if (l !== undefined && l.isActive && !locked.includes(l)) locked.push(l);
    }
    return this.registry.factoryFor(dso.value, request.value.excludeDebugFields, locked);
  }

  #admin(v: unknown, path: string, dso: string): Result<void, LedgerError> {
    const admin = field.party(v, path);
    if (!admin.ok) return admin;
    return admin.value === dso ? ok(undefined) : invalid(`${path} ${admin.value} is not the admin of this registry (${dso})`);
  }

  #settlement(v: unknown, path: string): Result<void, LedgerError> {
    const s = field.object(v, path);
    if (!s.ok) return s;
    return all([
      () => partyList(s.value.executors, `${path}.executors`, true),
      () => field.text(s.value.id, `${path}.id`),
      () => (s.value.cid === undefined || s.value.cid === null || (typeof s.value.cid === 'string' && isContractIdSyntax(s.value.cid)) ? ok(undefined) : invalid(`${path}.cid is not a contract id`)),
      () => field.meta(s.value.meta, `${path}.meta`),
    ]);
  }

  /** The allocation ids of `allocations: [FinalizedAllocation]`, at least one. */
  #allocationIds(v: unknown): Result<string[], LedgerError> {
    const path = 'choiceArguments.allocations';
    if (!Array.isArray(v) || v.length === 0) return invalid(`${path} must be a non-empty list of {allocationCid, extraTransferLegSides, nextIterationFunding}`);
    if (v.length > MAX_SETTLEMENT_ALLOCATIONS) return invalid(`${path} has ${v.length} allocations; this registry settles at most ${MAX_SETTLEMENT_ALLOCATIONS} in one batch`);
    const ids: string[] = [];
    for (const [i, x] of (v as unknown[]).entries()) {
      const f = field.object(x, `${path}[${i}]`);
      if (!f.ok) return f;
      const cid = f.value.allocationCid;
      if (typeof cid !== 'string' || !isContractIdSyntax(cid)) return invalid(`${path}[${i}].allocationCid is not a contract id`);
      ids.push(cid);
    }
    return ok(ids);
  }
}
