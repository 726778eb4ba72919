import type { Catalogue, ContractView, DamlRecord, DamlValue, FieldType } from '../../ledger/index.js';
import {
  ACCOUNT_MAP_TEMPLATE,
  ALLOCATION_INSTRUCTION_PACKAGE,
  SAMPLE_TOKEN_PACKAGE,
  TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE,
  TOKEN_ALLOCATION_TEMPLATE,
  TOKEN_RULES_TEMPLATE,
  ALLOCATION_INSTRUCTION_INTERFACE,
} from '../templateIds.js';
import { unwrapRegistration } from '../unwrapRegistration.js';
import { acceptInstruction, withdrawInstruction, type InstructionTemplates } from './instructionChoices.js';
import { authorizerOf, executorsOf } from './instructionFields.js';

/** Splice.Api.Token.MetadataV1.Metadata */
export const METADATA: FieldType = { record: { values: { textMap: 'Text' } } };
/** Splice.Api.Token.MetadataV1.ChoiceContext; AnyValue is recursive, so values are checked by the choice. */
const CHOICE_CONTEXT: FieldType = { record: { values: { textMap: 'Any' } } };
const EXTRA_ARGS: FieldType = { record: { context: CHOICE_CONTEXT, meta: METADATA } };
const ACTORS_AND_EXTRA_ARGS: FieldType = { record: { actors: { list: 'Party' }, extraArgs: EXTRA_ARGS } };

const SETTLEMENT: FieldType = { record: { executors: { list: 'Party' }, id: 'Text', meta: METADATA } };
const TRANSFER_LEG_SIDE: FieldType = {
  record: { transferLegId: 'Text', side: { enum: ['SenderSide', 'ReceiverSide'] }, otherside: 'Party', amount: 'Numeric', instrumentId: 'Text' },
};
/** Upstream's AllocationSpecification without iterated settlement; the authorizer is the account owner. */
const ALLOCATION: FieldType = {
  record: {
    admin: 'Party',
    authorizer: 'Party',
    transferLegSides: { list: TRANSFER_LEG_SIDE },
    settlementDeadline: { optional: 'Time' },
    committed: 'Bool',
  },
};

const record = (v: DamlValue | undefined): DamlRecord => (v ?? {}) as DamlRecord;

/**
 * The sample registry's templates (package `canton-conformance-sample-token`) and the token
 * standard's allocation-instruction interface, with upstream field names:
 *
 * - `Sample.Token.Rules:TokenRules {admin, instrumentId}`: signatory admin. The registry's rules
 *   for one instrument; accepting and withdrawing fetch them, so wallets must disclose them.
 * - `Sample.Token.Accounts:AccountMap {admin, accounts: [Party]}`: signatory admin. Who holds
 *   an account; accepting checks the authorizer is listed, so wallets disclose it too.
 * - `Sample.Token.AllocationInstruction:TokenAllocationInstruction {originalInstructionCid,
 *   admin, settlement {executors, id, meta}, allocation {admin, authorizer, transferLegSides,
 *   settlementDeadline, committed}, requestedAt}`: signatory admin, observers the authorizer and
 *   the executors. Implements the interface below; its view lists the authorizer as the party
 *   that can accept or withdraw.
 * - `Sample.Token.Allocation:TokenAllocation {originalInstructionCid, admin, settlement,
 *   allocation, createdAt}`: what accepting creates; signatories admin and authorizer.
 * - Interface `Splice.Api.Token.AllocationInstructionV2:AllocationInstruction` with nonconsuming
 *   `AllocationInstruction_Accept` and `AllocationInstruction_Withdraw {actors, extraArgs}`
 *   (controllers: the actors), dispatching to the implementing template.
 */
export function registerTokenTemplates(catalogue: Catalogue): InstructionTemplates {
  // Filled in once the templates exist; the interface choices dispatch through it.
  const templates: { current?: InstructionTemplates } = {};
  const resolved = () => {
    if (templates.current === undefined) throw new Error('sample token templates are not registered yet');
    return templates.current;
  };

  unwrapRegistration(
    catalogue.addInterface({
      packageName: ALLOCATION_INSTRUCTION_PACKAGE,
      module: 'Splice.Api.Token.AllocationInstructionV2',
      entity: 'AllocationInstruction',
      choices: {
        AllocationInstruction_Accept: {
          consuming: false,
          argument: ACTORS_AND_EXTRA_ARGS,
          controllers: (_self, arg) => record(arg).actors as string[],
          body: (ctx, self, arg) => acceptInstruction(ctx, self, record(arg), resolved()),
        },
        AllocationInstruction_Withdraw: {
          consuming: false,
          argument: ACTORS_AND_EXTRA_ARGS,
          controllers: (_self, arg) => record(arg).actors as string[],
          body: (ctx, self, arg) => withdrawInstruction(ctx, self, record(arg), resolved()),
        },
      },
    }),
  );

  const rules = unwrapRegistration(
    catalogue.addTemplate({
      packageName: SAMPLE_TOKEN_PACKAGE,
      module: 'Sample.Token.Rules',
      entity: 'TokenRules',
      fields: { admin: 'Party', instrumentId: 'Text' },
      signatories: ['admin'],
      ensure: (a) => ((a.instrumentId as string) === '' ? 'instrumentId must not be empty' : undefined),
    }),
  );
  const accountMap = unwrapRegistration(
    catalogue.addTemplate({
      packageName: SAMPLE_TOKEN_PACKAGE,
      module: 'Sample.Token.Accounts',
      entity: 'AccountMap',
      fields: { admin: 'Party', accounts: { list: 'Party' } },
      signatories: ['admin'],
    }),
  );
  const allocation = unwrapRegistration(
    catalogue.addTemplate({
      packageName: SAMPLE_TOKEN_PACKAGE,
      module: 'Sample.Token.Allocation',
      entity: 'TokenAllocation',
      fields: { originalInstructionCid: { optional: 'ContractId' }, admin: 'Party', settlement: SETTLEMENT, allocation: ALLOCATION, createdAt: 'Time' },
      signatories: (a) => [a.admin as string, authorizerOf(a)],
      observers: (a) => executorsOf(a),
    }),
  );
  const instruction = unwrapRegistration(
    catalogue.addTemplate({
      packageName: SAMPLE_TOKEN_PACKAGE,
      module: 'Sample.Token.AllocationInstruction',
      entity: 'TokenAllocationInstruction',
      fields: { originalInstructionCid: { optional: 'ContractId' }, admin: 'Party', settlement: SETTLEMENT, allocation: ALLOCATION, requestedAt: 'Time' },
      signatories: ['admin'],
      observers: (a) => [authorizerOf(a), ...executorsOf(a)],
      ensure: (a) => {
        const spec = record(a.allocation);
        if (spec.admin !== a.admin) return 'allocation.admin must be the admin';
        const legs = (spec.transferLegSides ?? []) as DamlRecord[];
        if (legs.length === 0) return 'allocation.transferLegSides must not be empty';
        if (new Set(legs.map((l) => l.instrumentId)).size !== 1) return 'all transfer legs must be for the same instrument';
        if (legs.some((l) => (l.amount as string).startsWith('-') || /^0\.0+$/.test(l.amount as string))) return 'transfer leg amounts must be positive';
        return undefined;
      },
      implements: { [ALLOCATION_INSTRUCTION_INTERFACE]: { view: instructionView } },
    }),
  );

  templates.current = { rules: rules.id, accountMap: accountMap.id, allocation: allocation.id, instruction: instruction.id };
  for (const id of [TOKEN_RULES_TEMPLATE, ACCOUNT_MAP_TEMPLATE, TOKEN_ALLOCATION_TEMPLATE, TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE]) {
    unwrapRegistration(catalogue.resolveTemplate(id));
  }
  return templates.current;
}

/** AllocationInstructionView: what a wallet reads through the interface. */
function instructionView(self: ContractView): DamlValue {
  const a = self.argument;
  return {
    originalInstructionCid: a.originalInstructionCid ?? null,
    settlement: a.settlement as DamlRecord,
    allocation: a.allocation as DamlRecord,
    requestedAt: a.requestedAt as string,
    inputHoldingCids: [],
    expiresAt: record(a.allocation).settlementDeadline ?? null,
    // Daml `Map [Party] [AllocationInstructionAction]` in its JSON encoding: a list of pairs.
    availableActions: [[[authorizerOf(a)], [{ tag: 'AIA_Accept', value: {} }, { tag: 'AIA_Withdraw', value: {} }]]],
    meta: { values: {} },
  };
}
