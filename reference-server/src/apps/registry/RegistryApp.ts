import type { Ledger, LedgerError, Result } from '../../ledger/index.js';
import { fail, ok, toTimestamp } from '../../ledger/index.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { ContractIndex } from '../ContractIndex.js';
import type { AppTemplates } from '../registerAppTemplates.js';
import { ACCOUNT_MAP_KEY, REQUEST_META_KEY, TOKEN_RULES_KEY } from './contextKeys.js';
import { authorizerOf, instrumentOf } from './instructionFields.js';
import { isContractIdSyntax } from './isContractIdSyntax.js';
import { parseChoiceContextRequest } from './parseChoiceContextRequest.js';
import type { AnyValue, ChoiceContext, DisclosedContract, GetChoiceContextRequest, InstructionChoice } from './types.js';

/**
 * The sample token registry's off-ledger API (group A): choice contexts for the accept and
 * withdraw choices of its allocation instructions, read from the ledger like a real registry
 * reads its own store. The answer depends only on the instruction, the registry's contracts and
 * the request's `meta`, so the same request gives the same context until the ledger changes.
 */
export class RegistryApp {
  /** TokenRules by `admin \n instrumentId`. */
  readonly #rules: ContractIndex;
  /** AccountMaps by `admin \n account holder`, one entry per listed holder. */
  readonly #accountMaps: ContractIndex;
  /** Rendered disclosed contracts; entries go with their contract. */
  readonly #disclosedCache = new WeakMap<StoredContract, { synchronizer: number; lean: DisclosedContract; full: DisclosedContract }>();

  constructor(
    readonly ledger: Ledger,
    readonly templates: AppTemplates,
  ) {
    this.#rules = new ContractIndex(ledger, templates.tokenRules, (c) => [`${c.argument.admin as string}\n${c.argument.instrumentId as string}`]);
    this.#accountMaps = new ContractIndex(ledger, templates.accountMap, (c) => (c.argument.accounts as string[]).map((p) => `${c.argument.admin as string}\n${p}`));
  }

  /**
   * The context for exercising `choice` on the allocation instruction `instructionId`. Refusals:
   * INVALID_ARGUMENT (malformed id or body, 400), ALLOCATION_INSTRUCTION_NOT_FOUND (unknown,
   * archived, or not an allocation instruction, 404), CONTRACT_NOT_FOUND (a contract the choice
   * needs is missing, 404), CONTRACT_IN_FLIGHT (a contract is being reassigned, 409).
   */
  choiceContext(choice: InstructionChoice, instructionId: string, body: unknown): Result<ChoiceContext, LedgerError> {
    if (!isContractIdSyntax(instructionId)) {
      const shown = instructionId.length > 80 ? `${instructionId.slice(0, 77)}...` : instructionId;
      return fail('INVALID_ARGUMENT', `Invalid allocationInstructionId '${shown}': expected a contract id (lowercase hex starting with 00, at least 66 characters)`);
    }
    const request = parseChoiceContextRequest(body);
    if (!request.ok) return request;

    const instruction = this.#instruction(instructionId);
    if (!instruction.ok) return instruction;
    const needed = this.#neededContracts(choice, instruction.value);
    if (!needed.ok) return needed;
    for (const c of [instruction.value, ...needed.value.map((n) => n.contract)]) {
      if (c.inFlight !== undefined) {
        return fail('CONTRACT_IN_FLIGHT', `Contract '${c.contractId}' is being reassigned between synchronizers; retry once it is assigned.`, {
          context: { contract_id: c.contractId },
        });
      }
    }
    return ok(this.#render(needed.value, request.value));
  }

  /** Stops following the ledger. */
  detach(): void {
    this.#rules.detach();
    this.#accountMaps.detach();
  }

  #instruction(id: string): Result<StoredContract, LedgerError> {
    const c = this.ledger.store.contract(id);
    if (c === undefined || c.createdOffset === 0) return fail('ALLOCATION_INSTRUCTION_NOT_FOUND', `AllocationInstruction '${id}' not found.`);
    if (c.template !== this.templates.allocationInstruction) {
      return fail('ALLOCATION_INSTRUCTION_NOT_FOUND', `AllocationInstruction '${id}' not found: the contract is a ${c.template.qualifiedName}, not an allocation instruction.`);
    }
    if (!c.isActive) return fail('ALLOCATION_INSTRUCTION_NOT_FOUND', `AllocationInstruction '${id}' not found: it has been archived (accepted or withdrawn).`);
    return ok(c);
  }

  /** The contracts the choice fetches, with their context keys, in the order they are disclosed. */
  #neededContracts(choice: InstructionChoice, instruction: StoredContract): Result<{ key: string; contract: StoredContract }[], LedgerError> {
    const admin = instruction.argument.admin as string;
    const instrument = instrumentOf(instruction.argument);
    const rules = this.#rules.first(`${admin}\n${instrument}`);
    if (rules === undefined) return fail('CONTRACT_NOT_FOUND', `No active TokenRules of ${admin} for instrument '${instrument}'.`);
    if (choice === 'withdraw') return ok([{ key: TOKEN_RULES_KEY, contract: rules }]);
    const authorizer = authorizerOf(instruction.argument);
    const accountMap = this.#accountMaps.first(`${admin}\n${authorizer}`);
    if (accountMap === undefined) return fail('CONTRACT_NOT_FOUND', `No active AccountMap of ${admin} lists ${authorizer}.`);
    return ok([
      { key: TOKEN_RULES_KEY, contract: rules },
      { key: ACCOUNT_MAP_KEY, contract: accountMap },
    ]);
  }

  #render(needed: readonly { key: string; contract: StoredContract }[], request: GetChoiceContextRequest): ChoiceContext {
    const values: Record<string, AnyValue> = {};
    for (const { key, contract } of needed) values[key] = { tag: 'AV_ContractId', value: contract.contractId };
    const metaKeys = Object.keys(request.meta).sort();
    if (metaKeys.length > 0) {
      values[REQUEST_META_KEY] = { tag: 'AV_Map', value: Object.fromEntries(metaKeys.map((k) => [k, { tag: 'AV_Text', value: request.meta[k] as string }])) };
    }
    return {
      choiceContextData: { values },
      disclosedContracts: needed.map(({ contract }) => this.#disclosed(contract, request.excludeDebugFields)),
    };
  }

  #disclosed(c: StoredContract, excludeDebugFields: boolean): DisclosedContract {
    // A few contracts (the rules, the account maps) are disclosed with every context: their blob
    // is computed once per contract (it never changes) and again only if the contract moves.
    let cached = this.#disclosedCache.get(c);
    if (cached === undefined || cached.synchronizer !== c.synchronizer) {
      const lean = {
        templateId: c.template.id,
        contractId: c.contractId,
        // The ledger's own encoding: byte for byte what the JSON API returns for this contract.
        createdEventBlob: this.ledger.createdEventBlob(c.contractId) as string,
        synchronizerId: this.ledger.config.synchronizers[c.synchronizer]?.id ?? '',
      };
      const full = { ...lean, debugPackageName: c.template.packageName, debugPayload: c.argument, debugCreatedAt: toTimestamp(c.createdAt) };
      cached = { synchronizer: c.synchronizer, lean, full };
      this.#disclosedCache.set(c, cached);
    }
    return excludeDebugFields ? cached.lean : cached.full;
  }
}
