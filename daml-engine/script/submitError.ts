/**
 * The `SubmitError` value (daml-script `Daml.Script.Internal.Questions.Submit.Error`) a failed
 * submission gives `trySubmit` / `submitMustFail`, as the upstream runner converts Canton's
 * errors: a contract the submitters cannot see or that is gone is `ContractNotFound` (Canton
 * gives no additional debugging info), every authorization failure is `AuthorizationError`,
 * an uncaught Daml exception is `UnhandledException`.
 */
import type { EvalError } from '../eval/EvalResult.js';
import type { Value } from '../value/Value.js';
import { NONE, UNIT, some, text } from '../value/Value.js';
import type { ScriptLedgerRefusalError } from './ScriptLedger.js';
import type { ScriptValues } from './ScriptValues.js';

const MODULE = 'Daml.Script.Internal.Questions.Submit.Error';

/** The SubmitError of `error`, or undefined when the failure is not the submission's (an engine fault). */
export function submitErrorValue(values: ScriptValues, error: EvalError | ScriptLedgerRefusalError): Value | undefined {
  const tycon = values.tycon(MODULE, 'SubmitError');
  const ctor = (name: string, fields: Record<string, Value> | undefined): Value =>
    values.variant(tycon, name, fields === undefined ? UNIT : values.record(values.tycon(MODULE, `SubmitError.${name}`), fields));
  switch (error.kind) {
    case 'unhandledException': return ctor('UnhandledException', { exc: some(error.exception) });
    case 'userError': return ctor('UserError', { userErrorMessage: text(error.message) });
    case 'failWithStatus': return ctor('UnknownError', { unknownErrorMessage: text(`${error.errorId}: ${error.message}`) });
    // A Canton error daml-script has no constructor for: its runner gives it as UnknownError.
    case 'refused': return ctor('UnknownError', { unknownErrorMessage: text(`${error.code}(${error.message})`) });
    case 'ledger': {
      const f = error.failure;
      switch (f.kind) {
        case 'contractNotFound': case 'contractNotActive':
          return ctor('ContractNotFound', { unknownContractIds: values.nonEmpty([text(f.contractId)]), additionalDebuggingInfo: NONE });
        case 'createMissingAuthorization': case 'exerciseMissingAuthorization': case 'fetchMissingAuthorization':
        case 'noSignatories': case 'noControllers':
          return ctor('AuthorizationError', { authorizationErrorMessage: text(error.message) });
        case 'templatePreconditionViolated': return ctor('TemplatePreconditionViolated', undefined);
        case 'wronglyTypedContract':
          return ctor('WronglyTypedContract', {
            contractId: values.anyContractId(f.actual, f.contractId),
            expectedTemplateId: values.templateTypeRep(f.expected), actualTemplateId: values.templateTypeRep(f.actual),
          });
        case 'contractDoesNotImplementInterface':
          return ctor('ContractDoesNotImplementInterface', {
            contractId: values.anyContractId(f.templateId, f.contractId),
            templateId: values.templateTypeRep(f.templateId), interfaceId: values.templateTypeRep(f.interfaceId),
          });
        case 'interfaceGuardFailed':
          return ctor('DevError', {
            devErrorType: values.enumValue(values.tycon(MODULE, 'DevErrorType'), 'ChoiceGuardFailed'), devErrorMessage: text(error.message),
          });
        case 'unsupported': return ctor('UnknownError', { unknownErrorMessage: text(error.message) });
      }
      return undefined;
    }
    default: return undefined;
  }
}
