/**
 * Answers to daml-script's questions (`Daml.Script.Internal.Questions.*`), by command name and
 * version, with the reply types the library's `IsQuestion` instances declare.
 */
import type { QualifiedName } from '../ast/Type.js';
import type { Value } from '../value/Value.js';
import { TRUE, FALSE, listOf } from '../value/Value.js';
import type { Answer, Question, ScriptContext } from './ScriptRunner.js';
import { describeException } from './describeException.js';
import type { ScriptCommand, ScriptCommandResult, ScriptDisclosure, ScriptTreeEvent, ScriptUser, ScriptUserRight } from './ScriptLedger.js';
import type { ScriptValues} from './ScriptValues.js';
import { ShapeError, constructorOf, field, list, party, text, typeRepTycon, unwrap } from './ScriptValues.js';
import { submitErrorValue } from './submitError.js';

type Handler = (payload: Value, ctx: ScriptContext) => Answer | Promise<Answer>;

const value = (v: Value): Answer => ({ kind: 'value', value: v });
const parties = (v: Value): string[] => [...new Set(list(v).map(party))];

/** The `Any` inside `AnyTemplate` / `AnyChoice`: its type constructor and value. */
function anyOf(v: Value): { tycon: QualifiedName; value: Value } {
  const any = v.kind === 'any' ? v : unwrap(v);
  if (any.kind !== 'any' || any.type.kind !== 'con') throw new ShapeError('expected an Any of a data type');
  return { tycon: any.type.tycon, value: any.value };
}

function record(v: Value): Extract<Value, { kind: 'record' }> {
  if (v.kind !== 'record') throw new ShapeError(`expected a record, got a ${v.kind}`);
  return v;
}

/** `Command`: Create, Exercise or CreateAndExercise (ExerciseByKey needs contract keys). */
function command(v: Value): ScriptCommand | string {
  const c = constructorOf(v);
  const body = (v as { value: Value }).value;
  switch (c) {
    case 'Create': {
      const t = anyOf(field(body, 'argC'));
      return { kind: 'create', templateId: t.tycon, argument: record(t.value) };
    }
    case 'Exercise': {
      const choice = anyOf(field(field(body, 'argE'), 'getAnyChoice'));
      const cid = field(body, 'cId');
      if (cid.kind !== 'contractId') throw new ShapeError('an exercise of a non contract id');
      // A choice's argument type is named after the choice.
      return { kind: 'exercise', templateId: typeRepTycon(field(body, 'tplId')), contractId: cid.value, choice: choice.tycon.name, argument: choice.value };
    }
    case 'CreateAndExercise': {
      const t = anyOf(field(body, 'tplArgCE'));
      const choice = anyOf(field(field(body, 'choiceArgCE'), 'getAnyChoice'));
      return { kind: 'createAndExercise', templateId: t.tycon, argument: record(t.value), choice: choice.tycon.name, choiceArgument: choice.value };
    }
    default: return `the command ${c} (contract keys are not part of Daml-LF 2.1)`;
  }
}

function commandResult(values: ScriptValues, r: ScriptCommandResult): Value {
  const tycon = values.tycon('Daml.Script.Internal.Questions.Commands', 'CommandResult');
  return r.kind === 'create'
    ? values.variant(tycon, 'CreateResult', { kind: 'contractId', value: r.contractId })
    : values.variant(tycon, 'ExerciseResult', r.result);
}

function treeValue(values: ScriptValues, events: readonly ScriptTreeEvent[]): Value {
  const m = 'Questions.TransactionTree';
  const eventTycon = values.tycon(`Daml.Script.Internal.${m}`, 'TreeEvent');
  const event = (e: ScriptTreeEvent): Value => e.kind === 'created'
    ? values.variant(eventTycon, 'CreatedEvent', values.script(m, 'Created', {
      contractId: values.anyContractId(e.templateId, e.contractId), argument: values.anyTemplate(e.templateId, e.argument),
    }))
    : values.variant(eventTycon, 'ExercisedEvent', values.script(m, 'Exercised', {
      contractId: values.anyContractId(e.templateId, e.contractId), choice: { kind: 'text', value: e.choice },
      argument: choiceValue(values, e.templateId, e.argument), childEvents: listOf(e.children.map(event)),
    }));
  return values.script(m, 'TransactionTree', { rootEvents: listOf(events.map(event)) });
}

/** `AnyChoice` of a choice argument (its type is named after the choice). */
function choiceValue(values: ScriptValues, templateId: QualifiedName, argument: Value): Value {
  const type = argument.kind === 'record' ? { kind: 'con' as const, tycon: argument.tycon, args: [] } : { kind: 'builtin' as const, builtin: 'UNIT' as const, args: [] };
  return values.record(values.tycon('DA.Internal.Any', 'AnyChoice'), {
    getAnyChoice: { kind: 'any', type, value: argument }, getAnyChoiceTemplateTypeRep: values.templateTypeRep(templateId),
  });
}

/**
 * ` at file:line:col (function)` of a submission's `sLocation` (an `Optional (Text, SrcLoc)`
 * whose lines and columns count from 0), or nothing.
 */
function locationOf(v: Value): string {
  if (v.kind !== 'optional' || v.value === undefined) return '';
  const loc = field(v.value, '_2');
  const n = (name: string) => { const x = field(loc, name); return x.kind === 'int64' ? Number(x.value) + 1 : 0; };
  return ` at ${text(field(loc, 'srcLocFile'))}:${n('srcLocStartLine')}:${n('srcLocStartCol')} (${text(field(v.value, '_1'))})`;
}

const submit: Handler = async (payload, ctx) => {
  const out: Value[] = [];
  for (const s of list(field(payload, 'submissions'))) {
    const actAsNe = field(s, 'sActAs');
    const actAs = [...new Set([party(field(actAsNe, 'hd')), ...list(field(actAsNe, 'tl')).map(party)])];
    const disclosures: ScriptDisclosure[] = list(field(s, 'sDisclosures')).map((d) => {
      const cid = field(d, 'contractId');
      if (cid.kind !== 'contractId') throw new ShapeError('a disclosure without a contract id');
      return { templateId: typeRepTycon(field(d, 'templateId')), contractId: cid.value, blob: text(field(d, 'blob')) };
    });
    const commands: ScriptCommand[] = [];
    for (const cwm of list(field(s, 'sCommands'))) {
      const c = command(field(cwm, 'command'));
      if (typeof c === 'string') return { kind: 'fail', failure: { kind: 'unsupportedCommand', message: `unsupported: ${c}` } };
      commands.push(c);
    }
    const behaviour = constructorOf(field(s, 'sErrorBehaviour'));
    const at = locationOf(field(s, 'sLocation'));
    const result = await ctx.ledger.submit({ actAs, readAs: parties(field(s, 'sReadAs')), disclosures, commands });
    ctx.coverage?.submitted(result);
    if (result.ok) {
      if (behaviour === 'MustFail') return { kind: 'fail', failure: { kind: 'userError', message: `Expected submit to fail but it succeeded${at}` } };
      out.push(ctx.values.right(ctx.values.tuple(listOf(result.results.map((r) => commandResult(ctx.values, r))), treeValue(ctx.values, result.tree))));
      continue;
    }
    if (behaviour === 'MustSucceed') {
      // As upstream's runner: a failed submission that had to succeed ends the script; a Script
      // `try` does not catch it (only `trySubmit` / `submitMustFail` see its SubmitError).
      const why = result.error.kind === 'unhandledException'
        ? `unhandled exception ${describeException(ctx.evaluator, result.error.exception)}`
        : result.error.kind === 'refused' ? `${result.error.code}: ${result.error.message}` : result.error.message;
      return { kind: 'fail', failure: { kind: 'submitFailed', message: `submission failed${at}: ${why}` } };
    }
    const error = submitErrorValue(ctx.values, result.error);
    if (error === undefined) {
      return { kind: 'fail', failure: { kind: 'submitFailed', message: `submission failed: ${'message' in result.error ? result.error.message : result.error.kind}` } };
    }
    out.push(ctx.values.left(error));
  }
  return value(listOf(out));
};

const queryACS: Handler = async (payload, ctx) => {
  const found = await ctx.ledger.query(parties(field(payload, 'parties')), typeRepTycon(field(payload, 'tplId')));
  return value(listOf(found.map((c) => ctx.values.tuple({ kind: 'contractId', value: c.contractId }, ctx.values.anyTemplate(c.templateId, c.argument)))));
};

const queryContractId: Handler = async (payload, ctx) => {
  const cid = field(payload, 'cid');
  if (cid.kind !== 'contractId') throw new ShapeError('QueryContractId of a non contract id');
  const wanted = typeRepTycon(field(payload, 'tplId'));
  const c = await ctx.ledger.queryContractId(parties(field(payload, 'parties')), cid.value);
  // Without upgrades, a contract of another template is not the one asked for.
  if (!c || c.templateId.packageId !== wanted.packageId || c.templateId.module !== wanted.module || c.templateId.name !== wanted.name) {
    return value(ctx.values.optional(undefined));
  }
  return value(ctx.values.optional(ctx.values.tuple(
    ctx.values.anyTemplate(c.templateId, c.argument), ctx.values.templateTypeRep(c.templateId), { kind: 'text', value: c.blob },
  )));
};

const queryInterface: Handler = async (payload, ctx) => {
  const interfaceId = typeRepTycon(field(payload, 'interfaceId'));
  ctx.coverage?.interfaceUsed(interfaceId);
  const found = await ctx.ledger.queryInterface(parties(field(payload, 'parties')), interfaceId);
  return value(listOf(found.map((c) => ctx.values.tuple({ kind: 'contractId', value: c.contractId }, ctx.values.optional(c.view)))));
};

const queryInterfaceContractId: Handler = async (payload, ctx) => {
  const cid = field(payload, 'cid');
  if (cid.kind !== 'contractId') throw new ShapeError('QueryInterfaceContractId of a non contract id');
  const interfaceId = typeRepTycon(field(payload, 'interfaceId'));
  ctx.coverage?.interfaceUsed(interfaceId);
  const found = (await ctx.ledger.queryInterface(parties(field(payload, 'parties')), interfaceId)).find((c) => c.contractId === cid.value);
  return value(ctx.values.optional(found?.view));
};

const allocateParty: Handler = async (payload, ctx) => {
  const hint = text(field(payload, 'idHint'));
  if (hasField(payload, 'displayName')) {
    // daml-script 3.2 (version 1): a display name beside the hint; without a hint the ledger
    // names the party (the IDE ledger after the display name, a participant itself).
    const r = await ctx.ledger.allocateParty(hint, text(field(payload, 'displayName')));
    return r.ok ? value({ kind: 'party', value: r.party }) : { kind: 'fail', failure: { kind: 'userError', message: `allocateParty: ${r.message}` } };
  }
  const requested = text(field(payload, 'requestedName'));
  // daml-script's hint rules (Converter.toPartyIdHint).
  if (hint !== '' && requested !== '' && hint !== requested) {
    return { kind: 'fail', failure: { kind: 'userError', message: `Requested name '${requested}' cannot be different from id hint '${hint}'` } };
  }
  // daml-script appends 8 random hex digits; ours are drawn from a per-run deterministic source.
  const id = hint !== '' ? hint : `${requested !== '' ? requested : 'party'}-${ctx.randomHex(8)}`;
  const r = await ctx.ledger.allocateParty(id);
  if (!r.ok) return { kind: 'fail', failure: { kind: 'userError', message: `allocateParty: ${r.message}` } };
  return value({ kind: 'party', value: r.party });
};

const hasField = (v: Value, name: string): boolean => v.kind === 'record' && v.fieldNames.includes(name);

/** `PartyDetails`: 3.2's has `displayName : Optional Text`, 3.3's not. */
const listKnownParties: Handler = async (_payload, ctx) => {
  const tycon = ctx.values.tycon('Daml.Script.Internal.Questions.PartyManagement', 'PartyDetails');
  return value(listOf((await ctx.ledger.listKnownParties()).map((p) => ctx.values.record(tycon, {
    party: { kind: 'party', value: p.party }, isLocal: p.isLocal ? TRUE : FALSE,
    displayName: ctx.values.optional(p.displayName === undefined ? undefined : { kind: 'text', value: p.displayName }),
  }))));
};

const getTime: Handler = async (_payload, ctx) => value({ kind: 'timestamp', micros: await ctx.ledger.getTime() });

const setTime: Handler = async (payload, ctx) => {
  const t = field(payload, 'time');
  if (t.kind !== 'timestamp') throw new ShapeError('SetTime of a non timestamp');
  await ctx.ledger.setTime(t.micros);
  return value(ctx.values.unit);
};

// Static time: a script's sleep does not wait (the ledger's clock moves by setTime only).
const sleep: Handler = (_payload, ctx) => value(ctx.values.unit);

const catchQuestion: Handler = (payload) => ({ kind: 'catch', script: field(payload, 'act') });

/** daml-script 3.3+'s `failWithStatus` in a script: the script fails with the status. */
const failWithStatus: Handler = (payload) => {
  const status = field(payload, 'status');
  return { kind: 'fail', failure: { kind: 'userError', message: `failed with status ${text(field(status, 'errorId'))}: ${text(field(status, 'message'))}` } };
};

const throwQuestion: Handler = (payload) => {
  const exc = field(payload, 'exc');
  if (exc.kind !== 'anyException') throw new ShapeError('Throw of a non exception');
  return { kind: 'throw', exception: exc };
};

// ---- users (Questions.UserManagement) -------------------------------------------------------

/** Ref.UserId: 1 to 128 characters of this set (the participant's user management rule). */
const USER_ID = /^[a-zA-Z0-9@^$.!`\-#+'~_|:]{1,128}$/;

const userIdOf = (v: Value): string => text(unwrap(v));

function userOf(v: Value): ScriptUser {
  const primary = field(v, 'primaryParty');
  if (primary.kind !== 'optional') throw new ShapeError('a user whose primaryParty is not optional');
  return { userId: userIdOf(field(v, 'userId')), primaryParty: primary.value === undefined ? undefined : party(primary.value) };
}

function rightOf(v: Value): ScriptUserRight {
  const right = constructorOf(v);
  const arg = v.kind === 'variant' ? v.value : undefined;
  return arg?.kind === 'party' ? { right, party: arg.value } : { right };
}

function userValue(values: ScriptValues, u: ScriptUser): Value {
  return values.script('Questions.UserManagement', 'User', {
    userId: values.script('Questions.UserManagement', 'UserId', { unpack: { kind: 'text', value: u.userId } }),
    primaryParty: values.optional(u.primaryParty === undefined ? undefined : { kind: 'party', value: u.primaryParty }),
  });
}

function rightValue(values: ScriptValues, r: ScriptUserRight): Value {
  return values.variant(values.tycon('Daml.Script.Internal.Questions.UserManagement', 'UserRight'), r.right,
    r.party === undefined ? values.unit : { kind: 'party', value: r.party });
}

const rightsValue = (values: ScriptValues, rs: readonly ScriptUserRight[] | undefined): Value =>
  values.optional(rs === undefined ? undefined : listOf(rs.map((r) => rightValue(values, r))));

const validateUserId: Handler = (payload, ctx) => {
  const name = text(field(payload, 'name'));
  return value(ctx.values.optional(USER_ID.test(name) ? undefined
    : { kind: 'text', value: `User ID "${name}" does not match regex "[a-zA-Z0-9@^$.!\`\\-#+'~_|:]{1,128}"` }));
};

const createUser: Handler = async (payload, ctx) => value(ctx.values.optional(
  await ctx.ledger.createUser(userOf(field(payload, 'user')), list(field(payload, 'rights')).map(rightOf)) ? ctx.values.unit : undefined));

const getUser: Handler = async (payload, ctx) => {
  const u = await ctx.ledger.getUser(userIdOf(field(payload, 'userId')));
  return value(ctx.values.optional(u === undefined ? undefined : userValue(ctx.values, u)));
};

const deleteUser: Handler = async (payload, ctx) =>
  value(ctx.values.optional(await ctx.ledger.deleteUser(userIdOf(field(payload, 'userId'))) ? ctx.values.unit : undefined));

const listAllUsers: Handler = async (_payload, ctx) => value(listOf((await ctx.ledger.listAllUsers()).map((u) => userValue(ctx.values, u))));

const grantUserRights: Handler = async (payload, ctx) => value(rightsValue(ctx.values,
  await ctx.ledger.grantUserRights(userIdOf(field(payload, 'userId')), list(field(payload, 'rights')).map(rightOf))));

const revokeUserRights: Handler = async (payload, ctx) => value(rightsValue(ctx.values,
  await ctx.ledger.revokeUserRights(userIdOf(field(payload, 'userId')), list(field(payload, 'rights')).map(rightOf))));

const listUserRights: Handler = async (payload, ctx) => value(rightsValue(ctx.values, await ctx.ledger.listUserRights(userIdOf(field(payload, 'userId')))));

/** Handlers by `commandName` and the versions they understand. */
const HANDLERS: ReadonlyMap<string, { readonly versions: readonly bigint[]; readonly handle: Handler }> = new Map([
  // Version 2 (daml-script 3.5) has the same payload; only contract keys, not answered here, differ.
  ['Submit', { versions: [1n, 2n], handle: submit }],
  ['QueryACS', { versions: [1n], handle: queryACS }],
  ['QueryContractId', { versions: [1n], handle: queryContractId }],
  ['QueryInterface', { versions: [1n], handle: queryInterface }],
  ['QueryInterfaceContractId', { versions: [1n], handle: queryInterfaceContractId }],
  ['AllocateParty', { versions: [1n, 2n], handle: allocateParty }],
  ['ListKnownParties', { versions: [1n, 2n], handle: listKnownParties }],
  ['GetTime', { versions: [1n], handle: getTime }],
  ['SetTime', { versions: [1n], handle: setTime }],
  ['Sleep', { versions: [1n], handle: sleep }],
  ['Catch', { versions: [1n], handle: catchQuestion }],
  ['Throw', { versions: [1n], handle: throwQuestion }],
  ['FailWithStatus', { versions: [1n], handle: failWithStatus }],
  ['ValidateUserId', { versions: [1n], handle: validateUserId }],
  ['CreateUser', { versions: [1n], handle: createUser }],
  ['GetUser', { versions: [1n], handle: getUser }],
  ['DeleteUser', { versions: [1n], handle: deleteUser }],
  ['ListAllUsers', { versions: [1n], handle: listAllUsers }],
  ['GrantUserRights', { versions: [1n], handle: grantUserRights }],
  ['RevokeUserRights', { versions: [1n], handle: revokeUserRights }],
  ['ListUserRights', { versions: [1n], handle: listUserRights }],
]);

export function answer(q: Question, ctx: ScriptContext): Answer | Promise<Answer> {
  const h = HANDLERS.get(q.name);
  if (!h || !h.versions.includes(q.version)) {
    return { kind: 'fail', failure: { kind: 'unsupportedCommand', message: `the script asked ${q.name} version ${q.version}, which this runner does not answer` } };
  }
  return h.handle(q.payload, ctx);
}
