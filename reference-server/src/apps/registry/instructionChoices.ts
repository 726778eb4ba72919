import type { ChoiceContext, ContractView, DamlRecord, DamlValue, LedgerError, Result } from '../../ledger/index.js';
import { err, ok } from '../../ledger/index.js';
import { TOKEN_ALLOCATION_TEMPLATE } from '../templateIds.js';
import { microsToTimestamp, msToMicros, timeMicros } from '../time.js';
import { ACCOUNT_MAP_KEY, TOKEN_RULES_KEY } from './contextKeys.js';
import { authorizerOf, instrumentOf } from './instructionFields.js';

/** Package-id forms of the sample registry's templates, as fetched contracts report them. */
export interface InstructionTemplates {
  readonly rules: string;
  readonly accountMap: string;
  readonly allocation: string;
  readonly instruction: string;
}

const record = (v: DamlValue | undefined): DamlRecord => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as DamlRecord) : {});

/**
 * `AllocationInstruction_Accept` of the sample registry: the authorizer accepts, with a choice
 * context naming the registry's rules for the instrument and an account map listing the
 * authorizer (both fetched, so both must be visible: disclosed, as the registry serves them). The
 * instruction is consumed and the allocation created: the result is
 * `AllocationInstructionResult_Completed`. Not once the allocation's settlementDeadline has
 * passed: upstream's allocations can no longer be settled then (AllocationV2), and Splice's test
 * token refuses to create one (splice-test-token-v2 `lockAllocationFunds`:
 * `assertWithinDeadline "allocation.settlementDeadline"`, whose words the refusal keeps).
 */
export function acceptInstruction(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, t: InstructionTemplates): Result<DamlValue, LedgerError> {
  const checked = checkedContext(ctx, self, arg, t);
  if (!checked.ok) return checked;
  const deadline = record(self.argument.allocation).settlementDeadline;
  if (typeof deadline === 'string' && !(msToMicros(ctx.now) < (timeMicros(deadline) ?? 0n))) {
    return err(ctx.fail(`Ledger time is at or past deadline 'allocation.settlementDeadline' at ${deadline}`));
  }
  const mapCid = contractIdIn(ctx, checked.value, ACCOUNT_MAP_KEY);
  if (!mapCid.ok) return mapCid;
  const map = ctx.fetch(mapCid.value);
  if (!map.ok) return map;
  if (map.value.templateId !== t.accountMap || map.value.argument.admin !== self.argument.admin) {
    return err(ctx.fail(`context value '${ACCOUNT_MAP_KEY}' (${mapCid.value}) is not an AccountMap of ${self.argument.admin as string}`));
  }
  const authorizer = authorizerOf(self.argument);
  if (!(map.value.argument.accounts as string[]).includes(authorizer)) {
    return err(ctx.fail(`the account map ${mapCid.value} has no account for ${authorizer}`));
  }
  const archived = ctx.archive(self.contractId);
  if (!archived.ok) return archived;
  const allocationCid = ctx.create(TOKEN_ALLOCATION_TEMPLATE, {
    originalInstructionCid: (self.argument.originalInstructionCid as string | null) ?? self.contractId,
    admin: self.argument.admin as string,
    settlement: self.argument.settlement as DamlRecord,
    allocation: self.argument.allocation as DamlRecord,
    createdAt: microsToTimestamp(msToMicros(ctx.now)),
  });
  if (!allocationCid.ok) return allocationCid;
  return ok(result({ tag: 'AllocationInstructionResult_Completed', value: { allocationCid: allocationCid.value } }));
}

/**
 * `AllocationInstruction_Withdraw`: the authorizer takes the instruction back before it was
 * accepted. Needs the rules (the registry's event log) in the context; the result is
 * `AllocationInstructionResult_Failed`.
 */
export function withdrawInstruction(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, t: InstructionTemplates): Result<DamlValue, LedgerError> {
  const checked = checkedContext(ctx, self, arg, t);
  if (!checked.ok) return checked;
  const archived = ctx.archive(self.contractId);
  if (!archived.ok) return archived;
  return ok(result({ tag: 'AllocationInstructionResult_Failed', value: {} }));
}

function result(output: DamlValue): DamlValue {
  return { output, authorizerChangeCids: {}, meta: { values: {} } };
}

/** The registry decides who may act: here exactly the authorizer, as the view's availableActions say. */
/**
 * What both choices check first: the actors, and a context whose rules contract can be fetched
 * (so it must be visible: disclosed, as the registry serves it). Answers the context's values.
 */
function checkedContext(ctx: ChoiceContext, self: ContractView, arg: DamlRecord, t: InstructionTemplates): Result<DamlRecord, LedgerError> {
  const actors = checkActors(ctx, self, arg);
  if (!actors.ok) return actors;
  const values = contextValues(ctx, arg);
  if (!values.ok) return values;
  const rules = fetchRules(ctx, self, values.value, t);
  if (!rules.ok) return rules;
  return ok(values.value);
}

function checkActors(ctx: ChoiceContext, self: ContractView, arg: DamlRecord): Result<void, LedgerError> {
  const actors = [...new Set(arg.actors as string[])];
  const authorizer = authorizerOf(self.argument);
  if (actors.length !== 1 || actors[0] !== authorizer) {
    return err(ctx.fail(`actors must be exactly the authorizer ${authorizer}, got [${actors.join(', ')}]`));
  }
  return ok(undefined);
}

function contextValues(ctx: ChoiceContext, arg: DamlRecord): Result<DamlRecord, LedgerError> {
  const values = record(record(record(arg.extraArgs).context).values);
  for (const [k, v] of Object.entries(values)) {
    const tagged = record(v);
    if (typeof tagged.tag !== 'string' || !tagged.tag.startsWith('AV_') || !('value' in tagged)) {
      return err(ctx.fail(`context value '${k}' is not a tagged AnyValue ({tag: 'AV_...', value})`));
    }
  }
  return ok(values);
}

function contractIdIn(ctx: ChoiceContext, values: DamlRecord, key: string): Result<string, LedgerError> {
  const v = record(values[key]);
  if (v.tag !== 'AV_ContractId' || typeof v.value !== 'string') {
    return err(ctx.fail(`the choice context has no '${key}' contract id; fetch it from the registry's choice-context endpoint`));
  }
  return ok(v.value);
}

function fetchRules(ctx: ChoiceContext, self: ContractView, values: DamlRecord, t: InstructionTemplates): Result<ContractView, LedgerError> {
  const cid = contractIdIn(ctx, values, TOKEN_RULES_KEY);
  if (!cid.ok) return cid;
  const rules = ctx.fetch(cid.value);
  if (!rules.ok) return rules;
  const instrument = instrumentOf(self.argument);
  if (rules.value.templateId !== t.rules || rules.value.argument.admin !== self.argument.admin || rules.value.argument.instrumentId !== instrument) {
    return err(ctx.fail(`context value '${TOKEN_RULES_KEY}' (${cid.value}) is not the TokenRules of ${self.argument.admin as string} for ${instrument}`));
  }
  return rules;
}
