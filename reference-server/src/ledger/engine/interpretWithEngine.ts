import type { LedgerError } from '../errors.js';
import type { InterpretEnv, PreparedTransaction } from '../interpret.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { ledgerError } from '../errors.js';
import type { ValidatedSubmission } from '../submission.js';
import type { EngineCommand } from './engineCommandOf.js';
import { engineCommandOf, MIXED_SUBMISSION, namesEngineTemplate } from './engineCommandOf.js';
import type { EngineRuntime } from './EngineRuntime.js';
import { interpretEngineCommands, preRunCommandsOf } from './runEngineCommands.js';

type R<T> = Result<T, LedgerError>;

/**
 * Runs a submission's commands as one engine transaction (daml-lf-2.rst "Update interpretation")
 * and turns it into the store's nodes, as Canton's command interpretation would: templates by
 * package id or by package name (the vetted version, or `packageIdSelectionPreference`), values in
 * the JSON API encoding checked against the package's types, contracts looked up as the submitters
 * (act-as and read-as) see them or as disclosed. Pure: nothing is written. Undefined when the first
 * command names a template the catalogue declares (built-in or fixture): the TypeScript
 * interpreter runs those.
 */
export function interpretWithEngine(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, now: number): R<PreparedTransaction> | undefined {
  const preRun = preRunCommandsOf(submission);
  const commands = preRun === undefined ? engineCommandsOf(env, rt, submission) : ok(preRun);
  if (commands === undefined || !commands.ok) return commands;
  return interpretEngineCommands(env, rt, submission, commands.value, now);
}

/** A submission's commands as engine commands; undefined when the first names a template the catalogue declares (the TypeScript interpreter's). */
export function engineCommandsOf(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission): R<EngineCommand[]> | undefined {
  const commands: EngineCommand[] = [];
  for (const [i, c] of submission.commands.entries()) {
    const r = engineCommandOf(env, rt, submission, c, i);
    if (r === undefined) return namesEngineTemplate(env, submission.commands.slice(1)) ? err(ledgerError('COMMAND_PREPROCESSING_FAILED', MIXED_SUBMISSION)) : undefined;
    if (!r.ok) return r;
    commands.push(r.value);
  }
  return ok(commands);
}

