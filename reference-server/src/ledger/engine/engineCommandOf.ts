import type { Type } from '../../../../daml-engine/ast/Type.js';
import { createCommand, exerciseCommand, exerciseInterfaceCommand } from '../../../../daml-engine/update/UpdateEngine.js';
import type { Update } from '../../../../daml-engine/ast/Expr.js';
import type { Value } from '../../../../daml-engine/value/Value.js';
import type { LedgerError } from '../errors.js';
import { ledgerError } from '../errors.js';
import type { InterpretEnv } from '../interpret.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { ValidatedSubmission } from '../submission.js';
import { parseIdentifier } from '../templates/Catalogue.js';
import { isPlainObject } from '../values.js';
import type { EngineDef } from './EngineCatalogue.js';
import { isEngineDef } from './EngineCatalogue.js';
import type { EngineRuntime } from './EngineRuntime.js';

type R<T> = Result<T, LedgerError>;

/** A placeholder type: the engine does not check binding types, and a value of unknown type is encoded by its shape. */
export const ANY_TYPE: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
const preprocessing = (cause: string, extra: Omit<LedgerError, 'code' | 'cause'> = {}) => err(ledgerError('COMMAND_PREPROCESSING_FAILED', cause, extra));

export const MIXED_SUBMISSION = 'Commands on templates of uploaded packages cannot be combined with commands on the server\'s built-in templates in one submission';

/** Whether any of the commands names a template or interface of an uploaded package, or exercises a contract of one by a `#name` id. */
export function namesEngineTemplate(env: InterpretEnv, commands: readonly Record<string, unknown>[]): boolean {
  return commands.some((c) => {
    const [kind, body] = Object.entries(c)[0] ?? [];
    if (!isPlainObject(body) || typeof body.templateId !== 'string') return false;
    if (kind === 'ExerciseCommand' && parseIdentifier(body.templateId)?.byName && engineContractOf(env, body.contractId) !== undefined) return true;
    const def = env.catalogue.resolve(body.templateId);
    return def.ok && isEngineDef(def.value);
  });
}

/** The template of a stored contract of an uploaded package; undefined for a built-in contract or an unknown id. */
function engineContractOf(env: InterpretEnv, contractId: unknown): EngineDef | undefined {
  if (typeof contractId !== 'string') return undefined;
  const template = env.store.contract(contractId)?.template;
  return template !== undefined && isEngineDef(template) ? template : undefined;
}

/** A command turned into an engine update, with how to render its result (by its type, when known). */
export interface EngineCommand {
  readonly update: Update;
  readonly resultType: Type | undefined;
}

/** The engine update of one command; undefined for a first command the TypeScript interpreter runs. */
export function engineCommandOf(env: InterpretEnv, rt: EngineRuntime, submission: ValidatedSubmission, command: Record<string, unknown>, index: number): R<EngineCommand> | undefined {
  const kind = firstKey(command) as string;
  const body = command[kind];
  if (!isPlainObject(body) || typeof body.templateId !== 'string') return index === 0 ? undefined : preprocessing(`${kind}.templateId is missing`);
  const templateId = body.templateId;
  const preference = submission.packageIdSelectionPreference ?? [];
  const def = kind === 'ExerciseCommand' ? resolveExerciseTarget(env, rt, templateId, body.contractId, preference) : resolveEngineDef(env, rt, templateId, preference);
  if (def === undefined) {
    return index === 0 ? undefined : preprocessing(MIXED_SUBMISSION);
  }
  if (!def.ok) return index === 0 ? undefined : def;
  switch (kind) {
    case 'CreateCommand': {
      if (def.value.kind !== 'template') return preprocessing(`'${templateId}' is an interface, a template id is required here`);
      const arg = argumentOf(rt, def.value.engine.type, body.createArguments, index, 'createArguments', def.value);
      return arg.ok ? ok({ update: createCommand(def.value.engine.name, arg.value), resultType: undefined }) : arg;
    }
    case 'ExerciseCommand': {
      if (typeof body.contractId !== 'string' || body.contractId === '') return preprocessing('ExerciseCommand.contractId is missing');
      if (typeof body.choice !== 'string') return preprocessing('ExerciseCommand.choice is missing');
      const contractId = body.contractId;
      const target = def.value;
      const choice = target.choices.get(body.choice);
      if (!choice) return preprocessing(`Couldn't find requested choice ${body.choice} for ${target.kind} ${target.packageName}:${target.qualifiedName}`, { context: { choice: body.choice } });
      const arg = argumentOf(rt, choice.engine.argBinder.type, body.choiceArgument, index, 'choiceArgument', target);
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
      const created = argumentOf(rt, t.engine.type, body.createArguments, index, 'createArguments', t);
      if (!created.ok) return created;
      const choice = t.choices.get(body.choice);
      if (!choice) return preprocessing(`Couldn't find requested choice ${body.choice} for template ${t.packageName}:${t.qualifiedName}`, { context: { choice: body.choice } });
      const arg = argumentOf(rt, choice.engine.argBinder.type, body.choiceArgument, index, 'choiceArgument', t);
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

/**
 * The template or interface an ExerciseCommand names. A `#name` id is resolved for the contract
 * at hand, as Canton does: on a contract of an uploaded package, the uploaded package of that
 * name (the highest vetted version, or `packageIdSelectionPreference`), even where a built-in
 * model shares the name (the token-standard interfaces); on a built-in contract, the built-in
 * model (undefined: the TypeScript interpreter's). A contract of another version of that package
 * is read as the selected version's (the engine's smart contract upgrades).
 */
function resolveExerciseTarget(env: InterpretEnv, rt: EngineRuntime, id: string, contractId: unknown, preference: readonly string[]): R<EngineDef> | undefined {
  const parsed = parseIdentifier(id);
  if (!parsed?.byName || typeof contractId !== 'string') return resolveEngineDef(env, rt, id, preference);
  const stored = env.store.contract(contractId)?.template;
  if (stored === undefined) return resolveEngineDef(env, rt, id, preference);
  if (!isEngineDef(stored)) {
    const r = env.catalogue.resolve(id);
    return r.ok ? undefined : r;
  }
  const packageId = rt.options.selectPackageId(parsed.pkg, preference, true);
  const def = packageId === undefined ? undefined : rt.catalogue.byName({ packageId, module: parsed.module, name: parsed.entity });
  return def ? ok(def) : resolveEngineDef(env, rt, id, preference);
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

/** The first own key of a command object (`Object.entries(c)[0]` without the arrays). */
function firstKey(o: Record<string, unknown>): string | undefined {
  for (const k in o) if (Object.hasOwn(o, k)) return k;
  return undefined;
}

/** A JSON API value converted by its type; a misfit is COMMAND_PREPROCESSING_FAILED naming the path. */
function argumentOf(rt: EngineRuntime, type: Type, json: unknown, index: number, field: string, def: EngineDef): R<Value> {
  const r = rt.value(type, json === undefined ? {} : json);
  if (r.ok) return ok(r.value);
  const where = `commands[${index}].${field}`;
  const path = r.problem.path === '' ? where : `${where}.${r.problem.path}`;
  return preprocessing(`Invalid value for ${def.packageName}:${def.qualifiedName} at ${path}: ${r.problem.message}`, { context: { template_id: def.id, path } });
}

