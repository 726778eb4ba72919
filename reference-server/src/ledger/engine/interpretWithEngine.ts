import { createHash } from 'node:crypto';
import type { Expr, Update } from '../../daml/ast/Expr.js';
import type { Type } from '../../daml/ast/Type.js';
import type { LedgerContract } from '../../daml/update/UpdateEngine.js';
import { createCommand, exerciseCommand, exerciseInterfaceCommand } from '../../daml/update/UpdateEngine.js';
import type { Transaction } from '../../daml/update/Transaction.js';
import type { Value } from '../../daml/value/Value.js';
import type { StoredContract } from '../../store/StoredContract.js';
import { decodeBlob } from '../blob.js';
import type { LedgerError } from '../errors.js';
import { fail, ledgerError } from '../errors.js';
import type { InterpretEnv, PreparedTransaction } from '../interpret.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { ValidatedSubmission } from '../submission.js';
import { parseIdentifier } from '../templates/Catalogue.js';
import { canonicalJson, isPlainObject } from '../values.js';
import type { DamlValue } from '../wire.js';
import { cantonErrorOf } from './cantonErrorOf.js';
import type { EngineDef, EngineTemplateDef } from './EngineCatalogue.js';
import { isEngineDef } from './EngineCatalogue.js';
import type { EngineRuntime } from './EngineRuntime.js';
import { storeNodesOf } from './storeNodesOf.js';

type R<T> = Result<T, LedgerError>;

const ANY_TYPE: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
const preprocessing = (cause: string, extra: Omit<LedgerError, 'code' | 'cause'> = {}) => err(ledgerError('COMMAND_PREPROCESSING_FAILED', cause, extra));

const MIXED = 'Commands on templates of uploaded packages cannot be combined with commands on the server\'s built-in templates in one submission';

/** Whether any of the commands names a template or interface of an uploaded package. */
function namesEngineTemplate(env: InterpretEnv, commands: readonly Record<string, unknown>[]): boolean {
  return commands.some((c) => {
    const body = Object.values(c)[0];
    if (!isPlainObject(body) || typeof body.templateId !== 'string') return false;
    const def = env.catalogue.resolve(body.templateId);
    return def.ok && isEngineDef(def.value);
  });
}

/** A command turned into an engine update, with how to render its result (by its type, when known). */
export interface EngineCommand {
  readonly update: Update;
  readonly resultType: Type | undefined;
}

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
  const commands: EngineCommand[] = [];
  for (const [i, c] of submission.commands.entries()) {
    const r = engineCommand(env, rt, submission, c, i);
    if (r === undefined) return namesEngineTemplate(env, submission.commands.slice(1)) ? preprocessing(MIXED) : undefined;
    if (!r.ok) return r;
    commands.push(r.value);
  }
  const run = runEngineCommands(env, rt, submission, commands, now);
  return run.ok ? ok(run.value.prepared) : run;
}

/** What an engine run produced: the transaction to commit, and the engine's own results and transaction. */
export interface EngineRun {
  readonly prepared: PreparedTransaction;
  /** The result of each command, as engine values. */
  readonly results: readonly Value[];
  readonly transaction: Transaction;
}

/** Runs engine commands as one transaction of `submission` (its parties, disclosed contracts, ledger time). */
export function runEngineCommands(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, commands: readonly EngineCommand[], now: number): R<EngineRun> {
  const ledgerTime = Math.max(now, submission.minLedgerTimeMs ?? 0);
  const readers = new Set([...submission.actAs, ...submission.readAs]);
  const disclosed = disclosedContracts(env, submission);
  if (!disclosed.ok) return disclosed;
  const inputs = new Map<string, StoredContract>();
  const getContract = (contractId: string): LedgerContract | undefined => {
    const c = disclosed.value.get(contractId) ?? env.store.contract(contractId);
    if (!c || !c.isActive || c.createdOffset === 0) return undefined;
    if (!disclosed.value.has(contractId) && !c.stakeholders.some((p) => readers.has(p))) return undefined;
    if (!isEngineDef(c.template) || c.template.kind !== 'template') return undefined;
    const argument = rt.argumentOf(c);
    if (!argument) return undefined;
    inputs.set(contractId, c);
    return { templateId: (c.template as EngineTemplateDef).engine.name, argument };
  };
  if (commands.length === 0) return preprocessing('The submitted command is missing a mandatory field: commands');
  // The seed only has to be fresh: the ledger's contract-id nonce makes it so (interactive submission re-derives it).
  const transactionSeed = createHash('sha256').update(env.nextContractId(`${submission.userId}|${submission.commandId}|engine`)).digest();
  const run = rt.engine.submit({
    update: commands.length === 1 ? (commands[0] as EngineCommand).update : sequence(commands),
    submitters: submission.actAs,
    transactionSeed,
    preparationTime: BigInt(Math.trunc(now)) * 1000n,
    ledgerTime: BigInt(Math.trunc(ledgerTime)) * 1000n,
    getContract,
  });
  if (!run.ok) return err(cantonErrorOf(run.error));
  for (const c of inputs.values()) {
    if (c.inFlight) {
      return fail('UNKNOWN_CONTRACT_SYNCHRONIZERS', `The synchronizers for the contracts ${c.contractId} are currently unknown due to ongoing contract reassignments`, {
        context: { contractIds: c.contractId },
      });
    }
  }
  const converted = storeNodesOf(rt, env.interner, run.transaction, inputs, ledgerTime);
  const values: Value[] = commands.length === 1 ? [run.result] : run.result.kind === 'struct' ? [...run.result.fields] : [];
  const results = commands.map((c, i): DamlValue => {
    const v = values[i];
    return v === undefined ? null : rt.json(v, c.resultType ?? ANY_TYPE);
  });
  const synchronizer = synchronizerOf(env, submission, inputs);
  if (!synchronizer.ok) return synchronizer;
  return ok({
    prepared: {
      submission,
      nodes: converted.nodes,
      created: converted.created,
      consumed: converted.consumed,
      inputs: [...inputs.values()],
      synchronizer: synchronizer.value,
      ledgerTime,
      dependsOnTime: false,
      results,
    },
    results: values,
    transaction: run.transaction,
  });
}

/** Commands run in order, each result kept: `r0 <- c0; ...; pure (struct r0 ...)`. */
function sequence(commands: readonly EngineCommand[]): Update {
  const names = commands.map((_, i) => `cmd$${i}`);
  const fields = names.map((n) => ({ field: n, expr: { kind: 'var', name: n } as Expr }));
  return {
    kind: 'block',
    bindings: commands.map((c, i) => ({ name: names[i] as string, type: ANY_TYPE, bound: { kind: 'update', update: c.update } })),
    body: { kind: 'update', update: { kind: 'pure', type: ANY_TYPE, expr: { kind: 'structCon', fields } } },
  };
}

/** The engine update of one command; undefined for a first command the TypeScript interpreter runs. */
function engineCommand(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, command: Record<string, unknown>, index: number): R<EngineCommand> | undefined {
  const [kind, body] = Object.entries(command)[0] as [string, unknown];
  if (!isPlainObject(body) || typeof body.templateId !== 'string') return index === 0 ? undefined : preprocessing(`${kind}.templateId is missing`);
  const templateId = body.templateId;
  const def = resolveEngineDef(env, rt, templateId, submission.packageIdSelectionPreference ?? []);
  if (def === undefined) {
    return index === 0 ? undefined : preprocessing(MIXED);
  }
  if (!def.ok) return index === 0 ? undefined : def;
  const where = `commands[${index}]`;
  switch (kind) {
    case 'CreateCommand': {
      if (def.value.kind !== 'template') return preprocessing(`'${templateId}' is an interface, a template id is required here`);
      const arg = argumentOf(rt, def.value.engine.type, body.createArguments, `${where}.createArguments`, def.value);
      return arg.ok ? ok({ update: createCommand(def.value.engine.name, arg.value), resultType: undefined }) : arg;
    }
    case 'ExerciseCommand': {
      if (typeof body.contractId !== 'string' || body.contractId === '') return preprocessing('ExerciseCommand.contractId is missing');
      if (typeof body.choice !== 'string') return preprocessing('ExerciseCommand.choice is missing');
      const contractId = body.contractId;
      let target = def.value;
      // A package-name id addresses the contract's own version of the template (no upgrade of its argument).
      if (target.kind === 'template' && parseIdentifier(templateId)?.byName) {
        const stored = env.store.contract(contractId)?.template;
        if (stored && isEngineDef(stored) && stored.packageName === target.packageName && stored.qualifiedName === target.qualifiedName) target = stored;
      }
      const choice = target.choices.get(body.choice);
      if (!choice) return preprocessing(`Couldn't find requested choice ${body.choice} for ${target.kind} ${target.packageName}:${target.qualifiedName}`, { context: { choice: body.choice } });
      const arg = argumentOf(rt, choice.engine.argBinder.type, body.choiceArgument, `${where}.choiceArgument`, target);
      if (!arg.ok) return arg;
      const update = target.kind === 'template'
        ? exerciseCommand(target.engine.name, contractId, body.choice, arg.value)
        : exerciseInterfaceCommand(target.engine.name, contractId, body.choice, arg.value);
      return ok({ update, resultType: choice.engine.returnType });
    }
    case 'CreateAndExerciseCommand': {
      if (def.value.kind !== 'template') return preprocessing(`'${templateId}' is an interface, a template id is required here`);
      if (typeof body.choice !== 'string') return preprocessing('CreateAndExerciseCommand.choice is missing');
      const t = def.value;
      const created = argumentOf(rt, t.engine.type, body.createArguments, `${where}.createArguments`, t);
      if (!created.ok) return created;
      const choice = t.choices.get(body.choice);
      if (!choice) return preprocessing(`Couldn't find requested choice ${body.choice} for template ${t.packageName}:${t.qualifiedName}`, { context: { choice: body.choice } });
      const arg = argumentOf(rt, choice.engine.argBinder.type, body.choiceArgument, `${where}.choiceArgument`, t);
      if (!arg.ok) return arg;
      const exercise: Update = {
        kind: 'exercise', template: t.engine.name, choice: body.choice,
        cid: { kind: 'var', name: 'created$cid' }, arg: { kind: 'lit', value: arg.value },
      };
      return ok({
        update: { kind: 'block', bindings: [{ name: 'created$cid', type: ANY_TYPE, bound: { kind: 'update', update: createCommand(t.engine.name, created.value) } }], body: { kind: 'update', update: exercise } },
        resultType: choice.engine.returnType,
      });
    }
    case 'ExerciseByKeyCommand':
      // Daml-LF 2.1 templates have no key: the preprocessor's look-up of the template's key fails.
      return preprocessing(`Lookup error: template ${def.value.packageName}:${def.value.qualifiedName} has no contract key, so ExerciseByKeyCommand cannot address it (contract keys are not part of Daml-LF 2.1)`, {
        context: { template_id: def.value.id },
      });
  }
  return preprocessing(`unknown command ${kind}`);
}

/** A template or interface of an uploaded package; undefined for one the catalogue declares. */
function resolveEngineDef(env: InterpretEnv, rt: EngineRuntime, id: string, preference: readonly string[]): R<EngineDef> | undefined {
  const parsed = parseIdentifier(id);
  if (parsed?.byName) {
    const packageId = rt.options.selectPackageId(parsed.pkg, preference);
    const def = packageId === undefined ? undefined : rt.catalogue.byName({ packageId, module: parsed.module, name: parsed.entity });
    if (def) return ok(def);
  }
  const r = env.catalogue.resolve(id);
  if (!r.ok) return r;
  return isEngineDef(r.value) ? ok(r.value) : undefined;
}

/** A JSON API value converted by its type; a misfit is COMMAND_PREPROCESSING_FAILED naming the path. */
function argumentOf(rt: EngineRuntime, type: Type, json: unknown, where: string, def: EngineDef): R<Value> {
  const r = rt.value(type, json === undefined ? {} : json);
  if (r.ok) return ok(r.value);
  const path = r.problem.path === '' ? where : `${where}.${r.problem.path}`;
  return preprocessing(`Invalid value for ${def.packageName}:${def.qualifiedName} at ${path}: ${r.problem.message}`, { context: { template_id: def.id, path } });
}

function disclosedContracts(env: InterpretEnv, submission: ValidatedSubmission): R<Map<string, StoredContract>> {
  const out = new Map<string, StoredContract>();
  for (const d of submission.disclosedContracts) {
    const decoded = decodeBlob(d.createdEventBlob, env.config.blobKey);
    if (!decoded.ok) return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract is invalid: ${decoded.reason}`, { context: { contract_id: d.contractId ?? '' } });
    const p = decoded.value;
    if (d.contractId !== undefined && d.contractId !== p.contractId) {
      return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract ${d.contractId} does not match its createdEventBlob (which is for ${p.contractId})`, { context: { contract_id: d.contractId } });
    }
    if (d.templateId !== undefined) {
      // A package-name id names the template in any version of its package.
      const t = env.catalogue.resolve(d.templateId);
      const own = env.store.contract(p.contractId)?.template;
      const byName = own !== undefined && d.templateId === `#${own.packageName}:${own.qualifiedName}`;
      if (!byName && (!t.ok || t.value.id !== p.templateId)) {
        return fail('DISCLOSED_CONTRACT_INVALID', `Disclosed contract ${p.contractId}: template id ${d.templateId} does not match its createdEventBlob`, { context: { contract_id: p.contractId } });
      }
    }
    const stored = env.store.contract(p.contractId);
    if (!stored || stored.template.id !== p.templateId || canonicalJson(stored.argument) !== canonicalJson(p.argument)) {
      return fail('CONTRACT_NOT_FOUND', `Contract could not be found with id ${p.contractId}`, { context: { contract_id: p.contractId } });
    }
    out.set(p.contractId, stored);
  }
  return ok(out);
}

function synchronizerOf(env: InterpretEnv, submission: ValidatedSubmission, inputs: ReadonlyMap<string, StoredContract>): R<number> {
  const syncs = new Set([...inputs.values()].map((c) => c.synchronizer));
  if (submission.synchronizerId !== undefined) {
    const index = env.config.synchronizers.findIndex((s) => s.id === submission.synchronizerId);
    if (index < 0) return fail('UNKNOWN_SYNCHRONIZER', `Synchronizer ${submission.synchronizerId} is not connected to this participant`, { context: { synchronizer_id: submission.synchronizerId } });
    if ([...syncs].some((s) => s !== index)) {
      return fail('NO_SYNCHRONIZER_FOR_SUBMISSION', `No valid synchronizer for submission: input contracts are not assigned to ${submission.synchronizerId}`, { context: { synchronizer_id: submission.synchronizerId } });
    }
    return ok(index);
  }
  if (syncs.size > 1) return fail('NO_SYNCHRONIZER_FOR_SUBMISSION', 'No valid synchronizer for submission: the input contracts are assigned to different synchronizers');
  return ok(syncs.size === 1 ? ([...syncs][0] as number) : 0);
}

