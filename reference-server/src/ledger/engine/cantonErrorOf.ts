import type { EvalError } from '../../daml/eval/EvalResult.js';
import type { LedgerError } from '../errors.js';
import { ledgerError } from '../errors.js';

/**
 * The participant's refusal of a command the engine could not run, as Canton reports an
 * interpretation failure. A first mapping onto the codes the ledger already knows: authorization
 * failures, missing and inactive contracts, user failures, everything else an interpretation error.
 */
export function cantonErrorOf(error: EvalError): LedgerError {
  const cause = `Interpretation error: Error: ${'message' in error ? error.message : describe(error)}`;
  switch (error.kind) {
    case 'failWithStatus':
      return ledgerError('DAML_FAILURE', cause, { context: { error_id: error.errorId, ...Object.fromEntries(error.meta) } });
    case 'ledger': {
      const f = error.failure;
      switch (f.kind) {
        case 'createMissingAuthorization':
        case 'exerciseMissingAuthorization':
        case 'fetchMissingAuthorization':
          return ledgerError('DAML_AUTHORIZATION_ERROR', cause);
        case 'contractNotFound':
          return ledgerError('CONTRACT_NOT_FOUND', `Contract could not be found with id ${f.contractId}`, { context: { contract_id: f.contractId } });
        case 'contractNotActive':
          return ledgerError('CONTRACT_NOT_ACTIVE', cause, { context: { contract_id: f.contractId } });
        default:
          return ledgerError('DAML_INTERPRETATION_ERROR', cause);
      }
    }
    default:
      return ledgerError('DAML_INTERPRETATION_ERROR', cause);
  }
}

function describe(error: Extract<EvalError, { kind: 'unhandledException' }>): string {
  const v = error.exception.value;
  const name = v.kind === 'record' ? `${v.tycon.module}:${v.tycon.name}` : v.kind;
  const fields = v.kind === 'record' ? v.fields.map((f, i) => `${v.fieldNames[i]} = ${f.kind === 'text' ? JSON.stringify(f.value) : f.kind}`).join(', ') : '';
  return `Unhandled Daml exception: ${name}{${fields}}`;
}
