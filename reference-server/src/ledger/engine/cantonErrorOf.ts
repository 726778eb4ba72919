/**
 * The error a Canton 3.5 participant returns when the Daml engine fails to interpret a command.
 * It follows digital-asset/canton (tag v3.5.10):
 * - `RejectionGenerators.commandExecutorError` (ledger-api-core): which error code each engine
 *   error becomes, and the unhandled exception's trace suffix;
 * - `CommandExecutionErrors` / `ConsistencyErrors` / `LedgerApiErrors`: category, resources and
 *   context of each code (DAML_FAILURE takes the category `failWithStatus` chose, its metadata,
 *   `error_id` and `exercise_trace`);
 * - `engine/Error.scala` `Interpretation.DamlException.message` and `speedy/Pretty.scala`
 *   `prettyDamlException`: the message, `Interpretation error: Error: ...`;
 * - `speedy/Speedy.scala` `transactionTrace`: the trace of open exercises and the command.
 */
import type { QualifiedName } from '../../../../daml-engine/ast/Type.js';
import type { EvalError } from '../../../../daml-engine/eval/EvalResult.js';
import { describeDefinition } from '../../../../daml-engine/eval/EvalResult.js';
import type { InterpretationTrace, TraceCommand } from '../../../../daml-engine/update/InterpretationTrace.js';
import type { LedgerFailure } from '../../../../daml-engine/update/LedgerFailure.js';
import { timestampToText } from '../../../../daml-engine/value/time.js';
import type { ErrorCodeId, LedgerError } from '../errors.js';
import { GRPC_OF_CATEGORY, ledgerError } from '../errors.js';
import { lfValueBytes } from './lfValueBytes.js';
import { identifierText, prettyDamlValue, prettyTypeConId } from './prettyDamlValue.js';

/** What the participant knows about the submission beyond the error (for INTERPRETATION_TIME_EXCEEDED). */
export interface InterpretationAt {
  /** The submission's ledger effective time, microseconds since the epoch. */
  readonly ledgerEffectiveTime?: bigint;
  /** The ledger time / record time tolerance, as Canton prints a duration (`1m`, `30s`). Default `1m`. */
  readonly tolerance?: string;
}

const PREFIX = 'Interpretation error: Error: ';
/** EngineConfig.transactionTraceMaxLength. */
const TRACE_MAX = 10;

/**
 * Canton's error for an interpretation failure of the Daml engine. Each is a
 * DamlErrorWithDefiniteAnswer whose answer is not definite: `definiteAnswer: false`.
 */
export function cantonErrorOf(error: EvalError, at: InterpretationAt = {}): LedgerError {
  const out: LedgerError = { ...errorOf(error, at), definiteAnswer: false };
  engineErrors.set(out, error);
  return out;
}

/** The engine failures Canton errors were made from (kept beside, so they never reach the wire or the store). */
const engineErrors = new WeakMap<LedgerError, EvalError>();

/**
 * The engine's own failure behind a Canton error `cantonErrorOf` made, for engine callers that
 * need more than the participant shows (a Daml Script runner's SubmitError carries the exception
 * value); undefined for any other error.
 */
export function engineErrorOf(error: LedgerError): EvalError | undefined {
  return engineErrors.get(error);
}

function errorOf(error: EvalError, at: InterpretationAt): LedgerError {
  const trace = transactionTrace(error.trace);
  switch (error.kind) {
    case 'unhandledException': {
      const { exception } = error;
      const bytes = lfValueBytes(exception.value);
      const resources: [string, string][] = exception.type.kind === 'con' && bytes !== undefined
        ? [['EXCEPTION_TYPE', identifierText(exception.type.tycon)], ['EXCEPTION_VALUE', Buffer.from(bytes).toString('base64')]]
        : [];
      return ledgerError('UNHANDLED_EXCEPTION', `${PREFIX}Unhandled Daml exception: ${prettyDamlValue(exception.value, true)}\n${trace}.`, { resources });
    }
    case 'userError':
      return ledgerError('INTERPRETATION_USER_ERROR', `${PREFIX}User abort: ${error.message}`, { resources: [['EXCEPTION_TEXT', error.message]] });
    case 'failWithStatus': {
      const category = FAILURE_CATEGORY[error.category];
      const grpc = GRPC_OF_CATEGORY[category]!;
      // The metadata first, then error_id and exercise_trace, which the Daml code cannot override.
      const context: Record<string, string> = Object.fromEntries(error.meta);
      context.error_id = error.errorId;
      context.exercise_trace = trace;
      return ledgerError('DAML_FAILURE', `${PREFIX}User failure: ${error.errorId} (error category ${category}): ${error.message}`, {
        context, errorClass: { category, grpc },
      });
    }
    case 'budgetExceeded': {
      // Canton bounds interpretation by time, not steps: a command running past its ledger time
      // plus the tolerance is aborted (StoreBackedCommandInterpreter), as a step budget is here.
      const let_ = at.ledgerEffectiveTime === undefined ? 'unknown' : timestampToText(at.ledgerEffectiveTime);
      return ledgerError('INTERPRETATION_TIME_EXCEEDED',
        `Time exceeds limit of Ledger Effective Time (${let_}) + tolerance (${at.tolerance ?? '1m'}). Interpretation aborted\n${trace}.`);
    }
    case 'allocationExceeded':
      // Canton bounds interpretation by time only; this engine also bounds what one command builds.
      return ledgerError('INTERPRETATION_ALLOCATION_EXCEEDED',
        `${PREFIX}Allocation exceeds the limit of ${error.budget} bytes per command. Interpretation aborted\n${trace}.`, { context: { limit: String(error.budget) } });
    case 'valueNesting':
      // Speedy's interpretation.Error.ValueNesting, which Canton reports as CommandExecutionErrors.Interpreter.ValueNesting.
      return ledgerError('VALUE_NESTING', `${PREFIX}Value exceeds maximum nesting value of ${error.limit}`);
    case 'sizeExceeded':
      return ledgerError('TRANSACTION_SIZE_EXCEEDED',
        `The ${error.where} of the command takes more than the limit of ${error.limit} bytes (at least ${error.bytes}); nothing was committed\n${trace}.`, { context: { limit: String(error.limit) } });
    case 'missingDefinition':
      // A package the participant does not have: Engine's Package.MissingPackage, which
      // RejectionGenerators reports as RequestValidationErrors.NotFound.Package.InterpretationReject.
      if (error.missingPackage !== undefined) {
        return ledgerError('PACKAGE_NOT_FOUND', `Couldn't find package ${error.missingPackage.packageId} while looking for ${error.missingPackage.reference}`);
      }
      return internalError(describeDefinition(error.definition), error.message);
    case 'crash':
      return internalError(describeDefinition(error.definition), error.message);
    case 'ledger':
      return ledgerFailureError(error.failure, error.message);
  }
}

/** FailureCategory -> Canton error category (daml-lf Ast.FailureCategory.cantonCategoryId). */
const FAILURE_CATEGORY = {
  INVALID_INDEPENDENT_OF_SYSTEM_STATE: 8,
  INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER: 9,
} as const;

function ledgerFailureError(f: LedgerFailure, message: string): LedgerError {
  const interp = (code: ErrorCodeId, text: string, resources: [string, string][] = []): LedgerError =>
    ledgerError(code, PREFIX + text, resources.length > 0 ? { resources } : {});
  switch (f.kind) {
    case 'templatePreconditionViolated':
      return interp('TEMPLATE_PRECONDITION_VIOLATED', `Update failed due to precondition violation when creating ${prettyTypeConId(f.templateId)} with ${prettyDamlValue(f.argument, true)}`);
    case 'noSignatories':
      return interp('DAML_AUTHORIZATION_ERROR', `node ${nodeId(f.nodeId)} (${identifierText(f.templateId)}) has no signatories`);
    case 'noControllers':
      return interp('DAML_AUTHORIZATION_ERROR', `node ${nodeId(f.nodeId)} (${identifierText(f.templateId)}) has no controllers`);
    case 'createMissingAuthorization':
    case 'exerciseMissingAuthorization':
      return interp('DAML_AUTHORIZATION_ERROR',
        `node ${nodeId(f.nodeId)} (${identifierText(f.templateId)}) requires authorizers ${f.requiredAuthorizers.join(',')}, but only ${f.authorizers.join(',')} were given`);
    case 'fetchMissingAuthorization':
      // Scala's toString of the two party sets: stakeholders are a sorted TreeSet; the
      // authorizers are the submitters' Set at the root, a TreeSet inside a choice.
      return interp('DAML_AUTHORIZATION_ERROR',
        `node ${nodeId(f.nodeId)} requires one of the stakeholders ${scalaSet('TreeSet', f.stakeholders)} of the fetched contract to be an authorizer, but authorizers were ${f.atRoot ? rootSet(f.authorizers) : scalaSet('TreeSet', f.authorizers)}`);
    case 'contractNotActive':
      if (f.consumedBy === undefined) return contractNotFound(f.contractId); // created in a rolled-back part: unknown
      return interp('CONTRACT_NOT_ACTIVE',
        `Update failed due to fetch of an inactive contract ${f.contractId} (${prettyTypeConId(f.templateId)}).\nThe contract had been consumed in sub-transaction #${nodeId(f.consumedBy)}:`,
        [['TEMPLATE_ID', identifierText(f.templateId)], ['CONTRACT_ID', f.contractId]]);
    case 'contractNotFound':
      return contractNotFound(f.contractId);
    case 'wronglyTypedContract':
      return interp('WRONGLY_TYPED_CONTRACT',
        `Update failed due to wrongly typed contract id ${f.contractId}\nExpected contract of type ${prettyTypeConId(f.expected)} but got ${prettyTypeConId(f.actual)}`,
        [['CONTRACT_ID', f.contractId], ['TEMPLATE_ID', identifierText(f.expected)], ['TEMPLATE_ID', identifierText(f.actual)]]);
    case 'upgradeValidationFailed':
      return interp('INTERPRETATION_UPGRADE_ERROR_VALIDATION_FAILED',
        `Validation fails when trying to upgrade the contract ${f.contractId} from ${prettyTypeConId(f.from)} to ${prettyTypeConId(f.to)}\nVerify that neither the signatories, nor the observers, nor the contract key, nor the key's maintainers have changed\nrecomputed signatories are ${f.signatories.join(', ')}\nrecomputed observers are ${f.observers.join(', ')}`,
        [['CONTRACT_ID', f.contractId], ['TEMPLATE_ID', identifierText(f.from)], ['TEMPLATE_ID', identifierText(f.to)]]);
    case 'downgradeDropDefinedField':
      return interp('INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_DROP_DEFINED_FIELD', 'An optional contract field with a value of Some may not be dropped during downgrading',
        [['CONTRACT_ID', f.contractId], ['TEMPLATE_ID', identifierText(f.type)]]);
    case 'downgradeFailed':
      return interp('INTERPRETATION_UPGRADE_ERROR_DOWNGRADE_FAILED', `Downgrading the contract ${f.contractId} to ${prettyTypeConId(f.to)} failed: ${f.detail}`,
        [['CONTRACT_ID', f.contractId], ['TEMPLATE_ID', identifierText(f.to)]]);
    case 'contractDoesNotImplementInterface':
      return interp('CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
        `Update failed due to contract ${f.contractId} not implementing an interface\nExpected contract to implement interface ${prettyTypeConId(f.interfaceId)} but contract has type ${prettyTypeConId(f.templateId)}`,
        [['CONTRACT_ID', f.contractId], ['TEMPLATE_ID', identifierText(f.templateId)], ['INTERFACE_ID', identifierText(f.interfaceId)]]);
    case 'interfaceGuardFailed':
      // An LF 2.dev feature: the engine reports it as a Dev error (IError.Dev.ChoiceGuardFailed).
      return interp('INTERPRETATION_DEV_ERROR',
        `Choice guard failed for ${prettyTypeConId(f.templateId)} contract ${f.contractId} when exercising choice ${f.choice} by interface ${prettyTypeConId(f.interfaceId)}`,
        [['DEV_ERROR_TYPE', 'ChoiceGuardFailed']]);
    case 'unsupported':
      // Contract keys are outside LF 2.1, the only version a Canton 3.5 participant runs: its
      // engine cannot meet them, so this is the engine's own limit, reported as internal.
      return internalError(f.what, message);
  }
}

/**
 * Engine-internal failures (Interpretation.Internal -> LedgerApiErrors.InternalError.Interpretation):
 * a participant redacts them (category 4), so only the operator's log shows this.
 */
const internalError = (where: string, message: string): LedgerError =>
  ledgerError('LEDGER_API_INTERNAL_ERROR', `Daml-Engine interpretation failed with internal error: ${where} / ${message}`, { context: { detailMessage: 'None' } });

/** ConsistencyErrors.ContractNotFound, with the engine's message (no interpretation prefix). */
const contractNotFound = (contractId: string): LedgerError =>
  ledgerError('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, { resources: [['CONTRACT_ID', contractId]] });

/** Ref NodeId's case-class toString. */
const nodeId = (n: number): string => `NodeId(${n})`;

const scalaSet = (className: string, parties: readonly string[]): string => `${className}(${parties.join(', ')})`;

/**
 * The submitters' party set: Scala's Set1..Set4 print as `Set(...)` in insertion order; larger
 * sets are HashSets, whose order follows Scala's hashing (here: insertion order, a known limit).
 */
const rootSet = (parties: readonly string[]): string => scalaSet(parties.length <= 4 ? 'Set' : 'HashSet', parties);

/** Speedy's `transactionTrace`: open exercises innermost first (at most 10), then the command. */
export function transactionTrace(trace: InterpretationTrace | undefined): string {
  if (trace === undefined) return '';
  const typeId = (q: QualifiedName): string => `${q.packageId.slice(0, 8)}:${q.module}:${q.name}`;
  const lines = trace.exercises.slice(0, TRACE_MAX).map((e) =>
    `in choice ${typeId(e.templateId)}:${e.choice} on contract ${e.contractId.slice(0, 10)} (#${e.nodeId})`);
  if (trace.exercises.length > TRACE_MAX) lines.push('...');
  if (trace.command) lines.push(commandLine(trace.command, typeId));
  return lines.map((l) => `    ${l}\n`).join('');
}

function commandLine(c: TraceCommand, typeId: (q: QualifiedName) => string): string {
  switch (c.kind) {
    case 'create': return `in create command ${typeId(c.templateId)}.`;
    case 'exercise': return `in exercise command ${typeId(c.templateId)}:${c.choice} on contract ${c.contractId.slice(0, 10)}.`;
    case 'exerciseInterface': return `in exercise command ${typeId(c.interfaceId)}:${c.choice} on contract ${c.contractId.slice(0, 10)}.`;
    case 'createAndExercise': return `in create-and-exercise command ${typeId(c.templateId)}:${c.choice}.`;
  }
}
