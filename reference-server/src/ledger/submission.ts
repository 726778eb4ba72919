import type { LedgerError } from './errors.js';
import { isTimestampInRange, parseRfc3339 } from './rfc3339.js';
import { fail } from './errors.js';
import type { Result } from './result.js';
import { ok } from './result.js';
import { isValidPartyId } from './parties.js';
import { isValidUserId } from './users.js';
import { isPlainObject, show } from './values.js';
import type { Command, DeduplicationPeriod, DisclosedContract, JsCommands } from './wire.js';

/** Canton's LedgerString alphabet (command, submission and workflow ids). */
const LEDGER_STRING = /^[A-Za-z0-9#:\-_/ ]{1,255}$/;

/** How far back a submission looks for an earlier acceptance of the same change id. */
export type DedupWindow = { readonly kind: 'duration'; readonly ms: number } | { readonly kind: 'offset'; readonly offset: number };

/** JsCommands after shape checks: what interpretation and commit work from. */
export interface ValidatedSubmission {
  readonly userId: string;
  readonly actAs: readonly string[];
  readonly readAs: readonly string[];
  readonly commandId: string;
  readonly submissionId: string | undefined;
  readonly workflowId: string | undefined;
  readonly commands: readonly Command[];
  readonly disclosedContracts: readonly DisclosedContract[];
  readonly synchronizerId: string | undefined;
  readonly dedup: DedupWindow;
  /** The period as completions report it. */
  readonly deduplicationPeriod: DeduplicationPeriod;
  readonly minLedgerTimeMs: number | undefined;
  /** Package ids a `#name` template id should run as, when one of them has that name. */
  readonly packageIdSelectionPreference?: readonly string[];
  /** An interactive submission's signed prepared-transaction hash (base64); absent for internal submissions. */
  readonly transactionHash?: string;
}

export interface SubmissionLimits {
  readonly maxDeduplicationDurationMs: number;
  readonly ledgerEnd: number;
  readonly prunedUpTo: number;
  readonly now: number;
}

export const invalid = (field: string, why: string) => fail('INVALID_FIELD', `The submitted command has a field with invalid value: Invalid field ${field}: ${why}`, { context: { field_name: field } });
export const missing = (field: string) => fail('MISSING_FIELD', `The submitted command is missing a mandatory field: ${field}`, { context: { field_name: field } });

function parties(field: string, value: unknown, required: boolean): Result<string[], LedgerError> {
  if (value === undefined || value === null) return required ? missing(field) : ok([]);
  if (!Array.isArray(value)) return invalid(field, 'expected a list of party ids');
  if (required && value.length === 0) return missing(field);
  for (const p of value) {
    if (typeof p !== 'string' || !isValidPartyId(p)) return invalid(field, `'${show(p)}' is not a valid party id`);
  }
  return ok(sortedParties(value as string[]));
}

/** The distinct parties, sorted as `Array.prototype.sort` sorts strings; one or two (most submissions) without a Set. */
function sortedParties(value: readonly string[]): string[] {
  if (value.length === 1) return [value[0]!];
  if (value.length === 2) {
    const [a, b] = value as [string, string];
    return a === b ? [a] : a < b ? [a, b] : [b, a];
  }
  return [...new Set(value)].sort();
}

function ledgerString(field: string, value: unknown, required: boolean): Result<string | undefined, LedgerError> {
  if (value === undefined || value === null || value === '') return required ? missing(field) : ok(undefined);
  if (typeof value !== 'string' || !LEDGER_STRING.test(value)) return invalid(field, 'expected 1-255 characters of [A-Za-z0-9#:-_/ ]');
  return ok(value);
}

function formatDuration(ms: number): string {
  return `PT${ms / 1000}S`;
}

// Completions echo the applied period; the default one is shared by every submission that uses it.
let sharedMax: { ms: number; period: DeduplicationPeriod } | undefined;
function maxPeriodOf(ms: number): DeduplicationPeriod {
  if (sharedMax?.ms !== ms) {
    const period: DeduplicationPeriod = {
      DeduplicationDuration: { value: { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6, unknownFields: { fields: {} } } },
    };
    sharedMax = { ms, period: deepFreeze(period) };
  }
  return sharedMax.period;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

export function parseDeduplicationPeriod(
  period: DeduplicationPeriod | undefined,
  limits: SubmissionLimits,
): Result<{ window: DedupWindow; reported: DeduplicationPeriod }, LedgerError> {
  const max = limits.maxDeduplicationDurationMs;
  const maxPeriod = () => maxPeriodOf(max);
  if (period === undefined || period === null) return ok({ window: { kind: 'duration', ms: max }, reported: maxPeriod() });
  if (!isPlainObject(period) || Object.keys(period).length !== 1) {
    return invalid('deduplication_period', 'expected exactly one of DeduplicationDuration, DeduplicationOffset, Empty');
  }
  if ('Empty' in period) return ok({ window: { kind: 'duration', ms: max }, reported: maxPeriod() });
  if ('DeduplicationDuration' in period) {
    const d = (period.DeduplicationDuration as { value?: { seconds?: unknown; nanos?: unknown } } | undefined)?.value;
    const seconds = d?.seconds ?? 0;
    const nanos = d?.nanos ?? 0;
    if (typeof seconds !== 'number' || typeof nanos !== 'number' || !Number.isInteger(seconds) || !Number.isInteger(nanos)) {
      return invalid('deduplication_duration', 'seconds and nanos must be integers');
    }
    if (seconds < 0 || nanos < 0 || nanos > 999_999_999) return invalid('deduplication_duration', 'the duration must be non-negative');
    const ms = seconds * 1000 + nanos / 1e6;
    if (ms > max) {
      return fail(
        'INVALID_DEDUPLICATION_PERIOD',
        `The submitted command had an invalid deduplication period: The given deduplication duration of ${formatDuration(ms)} exceeds the maximum deduplication duration of ${formatDuration(max)}`,
        { context: { longest_duration: formatDuration(max) } },
      );
    }
    return ok({ window: { kind: 'duration', ms }, reported: period });
  }
  if ('DeduplicationOffset' in period) {
    const o = (period.DeduplicationOffset as { value?: unknown } | undefined)?.value;
    if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) return invalid('deduplication_offset', 'expected a non-negative offset');
    if (o > limits.ledgerEnd) {
      return fail('INVALID_DEDUPLICATION_PERIOD', `The submitted command had an invalid deduplication period: offset ${o} is after the ledger end ${limits.ledgerEnd}`, {
        context: { ledger_end: String(limits.ledgerEnd) },
      });
    }
    if (o < limits.prunedUpTo) {
      return fail(
        'INVALID_DEDUPLICATION_PERIOD',
        `The submitted command had an invalid deduplication period: offset ${o} precedes the pruned offset ${limits.prunedUpTo}`,
        { context: { earliest_offset: String(limits.prunedUpTo) } },
      );
    }
    return ok({ window: { kind: 'offset', offset: o }, reported: period });
  }
  return invalid('deduplication_period', 'expected exactly one of DeduplicationDuration, DeduplicationOffset, Empty');
}

/** The ids every submission carries (commands and reassignments alike), checked. */
export interface SubmissionIds {
  readonly userId: string;
  readonly commandId: string;
  readonly submissionId: string | undefined;
  readonly workflowId: string | undefined;
}

export function submissionIds(cmds: { userId?: unknown; commandId?: unknown; submissionId?: unknown; workflowId?: unknown }): Result<SubmissionIds, LedgerError> {
  if (cmds.userId === undefined || cmds.userId === null || cmds.userId === '') return missing('user_id');
  if (typeof cmds.userId !== 'string' || !isValidUserId(cmds.userId)) return invalid('user_id', 'not a valid user id');
  const commandId = ledgerString('command_id', cmds.commandId, true);
  if (!commandId.ok) return commandId;
  const submissionId = ledgerString('submission_id', cmds.submissionId, false);
  if (!submissionId.ok) return submissionId;
  const workflowId = ledgerString('workflow_id', cmds.workflowId, false);
  if (!workflowId.ok) return workflowId;
  return ok({ userId: cmds.userId, commandId: commandId.value as string, submissionId: submissionId.value, workflowId: workflowId.value });
}

const COMMAND_KINDS = ['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand'];

/** Shape checks of a submission; everything that needs no ledger state beyond offsets. */
export function validateSubmission(cmds: JsCommands, limits: SubmissionLimits): Result<ValidatedSubmission, LedgerError> {
  if (!isPlainObject(cmds)) return invalid('commands', 'expected an object');
  const ids = submissionIds(cmds);
  if (!ids.ok) return ids;
  const actAs = parties('act_as', cmds.actAs, true);
  if (!actAs.ok) return actAs;
  const readAs = parties('read_as', cmds.readAs, false);
  if (!readAs.ok) return readAs;
  if (!Array.isArray(cmds.commands) || cmds.commands.length === 0) return missing('commands');
  for (const c of cmds.commands) {
    if (!isPlainObject(c) || Object.keys(c).length !== 1 || !COMMAND_KINDS.includes(Object.keys(c)[0] as string)) {
      return invalid('commands', `each command must be exactly one of ${COMMAND_KINDS.join(', ')}`);
    }
  }
  const disclosed = cmds.disclosedContracts ?? [];
  if (!Array.isArray(disclosed)) return invalid('disclosed_contracts', 'expected a list');
  for (const d of disclosed) {
    if (!isPlainObject(d)) return invalid('disclosed_contracts', 'expected objects');
    if (typeof d.createdEventBlob !== 'string' || d.createdEventBlob === '') return missing('disclosed_contracts.created_event_blob');
  }
  const dedup = parseDeduplicationPeriod(cmds.deduplicationPeriod, limits);
  if (!dedup.ok) return dedup;
  let minLedgerTimeMs: number | undefined;
  const hasAbs = cmds.minLedgerTimeAbs !== undefined && cmds.minLedgerTimeAbs !== null;
  if (hasAbs && cmds.minLedgerTimeRel !== undefined && cmds.minLedgerTimeRel !== null) {
    return fail('INVALID_ARGUMENT', 'The submitted request has invalid arguments: min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel');
  }
  if (hasAbs) {
    const t = parseRfc3339(cmds.minLedgerTimeAbs);
    if (t === undefined) return invalid('min_ledger_time_abs', 'expected an RFC 3339 timestamp (years 0001-9999)');
    minLedgerTimeMs = t;
  }
  if (cmds.minLedgerTimeRel !== undefined && cmds.minLedgerTimeRel !== null) {
    const r = cmds.minLedgerTimeRel;
    if (!isPlainObject(r) || typeof r.seconds !== 'number' || r.seconds < 0) return invalid('min_ledger_time_rel', 'expected a non-negative duration');
    minLedgerTimeMs = limits.now + r.seconds * 1000 + (typeof r.nanos === 'number' ? r.nanos / 1e6 : 0);
    if (!isTimestampInRange(minLedgerTimeMs)) return invalid('min_ledger_time_rel', 'the ledger time it asks for is after 9999-12-31T23:59:59Z');
  }
  if (cmds.synchronizerId !== undefined && cmds.synchronizerId !== null && typeof cmds.synchronizerId !== 'string') {
    return invalid('synchronizer_id', 'expected a string');
  }
  // One literal of fixed shape: spreading the ids and an optional part into it cost more than
  // every check above together, and left an object slower to read on the rest of the path.
  const submission: { -readonly [K in keyof ValidatedSubmission]: ValidatedSubmission[K] } = {
    userId: ids.value.userId,
    commandId: ids.value.commandId,
    submissionId: ids.value.submissionId,
    workflowId: ids.value.workflowId,
    actAs: actAs.value,
    readAs: readAs.value,
    commands: cmds.commands,
    disclosedContracts: disclosed,
    synchronizerId: cmds.synchronizerId || undefined,
    dedup: dedup.value.window,
    deduplicationPeriod: dedup.value.reported,
    minLedgerTimeMs,
  };
  if (Array.isArray(cmds.packageIdSelectionPreference)) submission.packageIdSelectionPreference = cmds.packageIdSelectionPreference.filter((p) => typeof p === 'string');
  return ok(submission);
}

/**
 * The synchronizer a submission is prescribed, as Canton's StoreBackedCommandInterpreter
 * (considerDisclosedContractsSynchronizerId) reads it: the synchronizerId of the disclosed
 * contracts the interpretation used, when they name one, else the command's own. Used disclosed
 * contracts naming two synchronizers are DISCLOSED_CONTRACTS_SYNCHRONIZER_ID_MISMATCH, one other
 * than the command's PRESCRIBED_SYNCHRONIZER_ID_MISMATCH; routing then holds every input to it.
 */
function prescribedSynchronizer(submission: ValidatedSubmission, used: (contractId: string) => boolean): Result<string | undefined, LedgerError> {
  const named = new Map<string, string>();
  for (const d of submission.disclosedContracts) {
    if (d.contractId !== undefined && d.synchronizerId !== undefined && d.synchronizerId !== '' && used(d.contractId)) named.set(d.contractId, d.synchronizerId);
  }
  const ids = new Set(named.values());
  if (ids.size > 1) {
    const listed = [...named].map(([c, s]) => `${c} -> ${s}`).join(', ');
    return fail('DISCLOSED_CONTRACTS_SYNCHRONIZER_ID_MISMATCH', `Some disclosed contracts that were used during command interpretation have mismatching synchronizer ids: Map(${listed})`);
  }
  const [fromDisclosed] = ids;
  if (fromDisclosed === undefined) return ok(submission.synchronizerId);
  if (submission.synchronizerId !== undefined && submission.synchronizerId !== fromDisclosed) {
    return fail('PRESCRIBED_SYNCHRONIZER_ID_MISMATCH', `The target synchronizer=${submission.synchronizerId} specified in the command submission mismatches the synchronizer id=${fromDisclosed} of some attached disclosed contracts that have been used in the submission (used-disclosed-contract-ids=Set(${[...named.keys()].join(', ')}))`);
  }
  return ok(fromDisclosed);
}

/**
 * The synchronizer (an index into `synchronizers`) a submission runs on: the one prescribed (by
 * the used disclosed contracts, else the command), which every input must be on; without one,
 * the one every input is on (the first when there are none). Inputs on several, or elsewhere than
 * the prescribed one, are NO_SYNCHRONIZER_FOR_SUBMISSION.
 */
export function synchronizerFor(
  synchronizers: readonly { readonly id: string }[], submission: ValidatedSubmission, inputs: ReadonlyMap<string, { readonly synchronizer: number }>,
): Result<number, LedgerError> {
  // The synchronizer every input is on (-1: no inputs, -2: inputs on several).
  let on = -1;
  for (const c of inputs.values()) on = on === -1 || on === c.synchronizer ? c.synchronizer : -2;
  const prescribed = prescribedSynchronizer(submission, (cid) => inputs.has(cid));
  if (!prescribed.ok) return prescribed;
  const target = prescribed.value;
  if (target !== undefined) {
    const index = synchronizers.findIndex((s) => s.id === target);
    if (index < 0) return fail('UNKNOWN_SYNCHRONIZER', `Synchronizer ${target} is not connected to this participant`, { context: { synchronizer_id: target } });
    if (on !== -1 && on !== index) {
      return fail('NO_SYNCHRONIZER_FOR_SUBMISSION', `No valid synchronizer for submission: input contracts are not assigned to ${target}`, { context: { synchronizer_id: target } });
    }
    return ok(index);
  }
  if (on === -2) return fail('NO_SYNCHRONIZER_FOR_SUBMISSION', 'No valid synchronizer for submission: the input contracts are assigned to different synchronizers');
  return ok(on === -1 ? 0 : on);
}
