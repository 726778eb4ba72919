import type { LedgerError } from './errors.js';
import { fail } from './errors.js';
import { isValidPartyId } from './parties.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { invalid, missing, submissionIds } from './submission.js';
import { isPlainObject, show } from './values.js';
import type { ReassignmentCommands } from './wire.js';

/** The one step a reassignment submission asks for, with the ids it names. */
export type ReassignmentStepRequest =
  | { readonly kind: 'unassign'; readonly contractId: string; readonly source: string; readonly target: string }
  | { readonly kind: 'assign'; readonly reassignmentId: string; readonly source: string; readonly target: string };

/** ReassignmentCommands after shape checks. */
export interface ValidatedReassignment {
  readonly userId: string;
  readonly commandId: string;
  readonly submitter: string;
  readonly submissionId: string | undefined;
  readonly workflowId: string | undefined;
  readonly step: ReassignmentStepRequest;
}

function idField(field: string, value: unknown): Result<string, LedgerError> {
  if (value === undefined || value === null || value === '') return missing(field);
  if (typeof value !== 'string') return invalid(field, `'${show(value)}' is not a string`);
  return ok(value);
}

function stepOf(command: unknown): Result<ReassignmentStepRequest, LedgerError> {
  if (!isPlainObject(command) || !isPlainObject(command['command'])) return missing('commands.command');
  const c = command['command'];
  const unassign = c['UnassignCommand'];
  const assign = c['AssignCommand'];
  if (Object.keys(c).length !== 1 || (unassign === undefined && assign === undefined)) {
    return missing('commands.command (UnassignCommand or AssignCommand)');
  }
  const body = (unassign ?? assign) as unknown;
  const value = isPlainObject(body) ? body['value'] : undefined;
  if (!isPlainObject(value)) return missing('commands.command.value');
  const source = idField('source', value['source']);
  if (!source.ok) return source;
  const target = idField('target', value['target']);
  if (!target.ok) return target;
  if (source.value === target.value) return invalid('target', 'the source and target synchronizers are the same');
  if (unassign !== undefined) {
    const contractId = idField('contract_id', value['contractId']);
    return contractId.ok ? ok({ kind: 'unassign', contractId: contractId.value, source: source.value, target: target.value }) : contractId;
  }
  const reassignmentId = idField('reassignment_id', value['reassignmentId']);
  return reassignmentId.ok ? ok({ kind: 'assign', reassignmentId: reassignmentId.value, source: source.value, target: target.value }) : reassignmentId;
}

/**
 * Shape checks of a reassignment submission. The reference ledger moves one contract per
 * submission, so exactly one Unassign or Assign command is accepted.
 */
export function validateReassignmentCommands(cmds: ReassignmentCommands): Result<ValidatedReassignment, LedgerError> {
  if (!isPlainObject(cmds)) return missing('reassignment_commands');
  const ids = submissionIds(cmds);
  if (!ids.ok) return ids;
  if (cmds.submitter === undefined || cmds.submitter === null || cmds.submitter === '') return missing('submitter');
  if (typeof cmds.submitter !== 'string' || !isValidPartyId(cmds.submitter)) return invalid('submitter', `'${show(cmds.submitter)}' is not a valid party id`);
  if (!Array.isArray(cmds.commands) || cmds.commands.length === 0) return missing('commands');
  if (cmds.commands.length > 1) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: this participant reassigns one contract per submission; send one command');
  }
  const step = stepOf(cmds.commands[0]);
  if (!step.ok) return step;
  return ok({ ...ids.value, submitter: cmds.submitter, step: step.value });
}
