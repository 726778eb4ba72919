/**
 * cantonErrorOf: every engine failure as the error a Canton 3.5 participant returns for it (code,
 * category, gRPC code and HTTP status, message, resources, context). The failures come from
 * running the update engine on a hand-built package; the expected texts are written out from
 * Canton's printers (speedy Pretty.prettyDamlException, engine Error.message, Speedy
 * transactionTrace), not computed with the code under test.
 */
import { describe, expect, it } from 'vitest';

import type { Expr, Update } from '../../../daml-engine/ast/Expr.js';
import type { DefException, DefTemplate, Module, Package, TemplateChoice } from '../../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../../daml-engine/ast/Type.js';
import type { EvalError } from '../../../daml-engine/eval/EvalResult.js';
import { contractIdV1, deriveContractDiscriminator, deriveNodeSeed } from '../../../daml-engine/update/seeds.js';
import type { LedgerContract, SubmissionResult } from '../../../daml-engine/update/UpdateEngine.js';
import { createCommand, exerciseCommand, UpdateEngine } from '../../../daml-engine/update/UpdateEngine.js';
import { decodeJson } from '../../../daml-engine/json/jsonValue.js';
import { packageDataTypes } from '../../../daml-engine/json/packageDataTypes.js';
import type { RecordValue, Value } from '../../../daml-engine/value/Value.js';
import { int64, text, UNIT } from '../../../daml-engine/value/Value.js';
import { renderProblem } from '../../../reference-server/src/http/api/errors/renderProblem.js';
import { httpStatusOf } from '../../../reference-server/src/http/api/errors/httpStatusOf.js';
import { cantonErrorOf } from '../../../reference-server/src/ledger/engine/cantonErrorOf.js';
import type { LedgerError } from '../../../reference-server/src/ledger/errors.js';
import { errorClassOf } from '../../../reference-server/src/ledger/errors.js';
import { HAS_DARS, loadDar } from '../../daml/damlFixtures.js';

const PKG = 'c'.repeat(64);
const q = (name: string): QualifiedName => ({ packageId: PKG, module: 'M', name });
const ANY: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
const E_TYPE: Type = { kind: 'con', tycon: q('E'), args: [] };
const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';
const SEED = new Uint8Array(32).fill(1);
const PREPARED = 1_000_000n;
const P = 'Interpretation error: Error: ';

const v = (name: string): Expr => ({ kind: 'var', name });
const lit = (value: Value): Expr => ({ kind: 'lit', value });
const app = (fun: Expr, ...args: Expr[]): Expr => ({ kind: 'app', fun, args });
const builtin = (name: string): Expr => ({ kind: 'builtin', builtin: name } as Expr);
const proj = (record: Expr, field: string): Expr => ({ kind: 'recProj', tycon: { tycon: q('T'), args: [] }, field, record });
const upd = (update: Update): Expr => ({ kind: 'update', update });
const pure = (expr: Expr): Expr => upd({ kind: 'pure', type: ANY, expr });
const embed = (expr: Expr): Expr => upd({ kind: 'embedExpr', type: ANY, expr });
const bind = (bindings: [string, Expr][], body: Expr): Expr =>
  upd({ kind: 'block', bindings: bindings.map(([name, bound]) => ({ name, type: ANY, bound })), body });
const tRecord = (p: string, n: number, name = 'T'): RecordValue => ({ kind: 'record', tycon: q(name), fieldNames: ['p', 'n'], fields: [{ kind: 'party', value: p }, int64(BigInt(n))] });
const create = (p: string, n: number): Expr => upd({ kind: 'create', template: q('T'), expr: lit(tRecord(p, n)) });
const exercise = (cid: Expr, choice: string): Expr => upd({ kind: 'exercise', template: q('T'), choice, cid, arg: lit(UNIT) });
const throwE = (message: string): Expr => ({
  kind: 'throw', returnType: ANY, exceptionType: E_TYPE,
  expr: lit({ kind: 'record', tycon: q('E'), fieldNames: ['message'], fields: [text(message)] }),
});
const tryCatch = (body: Expr, handler: Expr): Expr => upd({
  kind: 'tryCatch', returnType: ANY, tryExpr: body, binder: 'e', catchExpr: { kind: 'optionalSome', type: ANY, value: handler },
});
const byP: Expr = { kind: 'cons', type: ANY, front: [proj(v('this'), 'p')], tail: { kind: 'nil', type: ANY } };
const choice = (name: string, consuming: boolean, controllers: Expr, update: Expr): [string, TemplateChoice] => [name, {
  name, consuming, controllers, observers: undefined, authorizers: undefined,
  argBinder: { name: 'arg', type: ANY }, selfBinder: 'self', returnType: ANY, update,
}];
const failWithStatus = embed(app(builtin('FAIL_WITH_STATUS'), lit(text('splice.lab/insufficient-funds')),
  lit({ kind: 'failureCategory', category: 'INVALID_INDEPENDENT_OF_SYSTEM_STATE' }), lit(text('need 10, have 3')),
  lit({ kind: 'textMap', entries: [['available', text('3')], ['required', text('10')]] })));

/** template T with p : Party; n : Int64 where signatory p; ensure n >= 0. */
const T: DefTemplate = {
  name: 'T', param: 'this',
  precondition: app(builtin('GREATER_EQ'), proj(v('this'), 'n'), lit(int64(0n))),
  signatories: byP, observers: { kind: 'nil', type: ANY }, key: undefined, implements: new Map(),
  choices: new Map([
    choice('Consume', true, byP, pure(lit(UNIT))),
    choice('CreateThenThrow', true, byP, bind([['c', create(ALICE, 5)]], embed(throwE('inside the choice')))),
    choice('GiveToBob', false, byP, create(BOB, 1)),
    choice('NoOne', false, { kind: 'nil', type: ANY }, pure(lit(UNIT))),
    choice('Refuse', false, byP, failWithStatus),
  ]),
};
const NOBODY: DefTemplate = { ...T, name: 'Nobody', signatories: { kind: 'nil', type: ANY }, choices: new Map() };
const E: DefException = { name: 'E', message: { kind: 'abs', params: [{ name: 'x', type: E_TYPE }], body: { kind: 'recProj', tycon: { tycon: q('E'), args: [] }, field: 'message', record: v('x') } } };
const recordType = (name: string, fields: string[]) => [name, { name, params: [], serializable: true, cons: { kind: 'record', fields: fields.map((f) => ({ name: f, type: ANY })), fieldNames: fields } }] as const;
const MODULE: Module = {
  name: 'M', synonyms: new Map(), interfaces: new Map(),
  templates: new Map([['T', T], ['Nobody', NOBODY]]),
  exceptions: new Map([['E', E]]),
  values: new Map([['spin', { name: 'spin', type: ANY, expr: bind([['_', pure(lit(UNIT))]], { kind: 'val', ref: q('spin') }) }]]),
  dataTypes: new Map([recordType('T', ['p', 'n']), recordType('Nobody', ['p', 'n']), recordType('E', ['message'])]),
} as Module;
const PACKAGE: Package = { id: PKG, lfVersion: '2.1', metadata: { name: 'm', version: '1.0.0', upgradedPackageId: undefined }, modules: new Map([['M', MODULE]]), imports: undefined };

/** A contract of Alice's the caller holds (not created by the submission). */
const HELD = '00' + 'ab'.repeat(32);
const HELD_CONTRACTS = new Map<string, LedgerContract>([[HELD, { templateId: q('T'), argument: tRecord(ALICE, 3) }]]);

function failureOf(update: Expr | Update, options: { submitters?: string[]; stepBudget?: number } = {}): EvalError {
  const engine = new UpdateEngine({ getPackage: (id) => (id === PKG ? PACKAGE : undefined), stepBudget: options.stepBudget });
  const u: Update = 'update' in update && update.kind === 'update' ? update.update : update as Update;
  const r: SubmissionResult = engine.submit({
    update: u, submitters: options.submitters ?? [ALICE], transactionSeed: SEED, preparationTime: PREPARED,
    getContract: (cid) => HELD_CONTRACTS.get(cid),
  });
  if (r.ok) throw new Error('the submission succeeded');
  return r.error;
}

/** The id of the contract the submission's root action `i` creates for Alice. */
const rootCid = (i: number): string => contractIdV1(deriveContractDiscriminator(deriveNodeSeed(SEED, i), PREPARED, [ALICE]));

/** Code, category, gRPC code and the JSON Ledger API status of an error. */
function classOf(e: LedgerError): { code: string; category: number; grpc: string; status: number } {
  const c = errorClassOf(e);
  return { code: e.code, category: c.category, grpc: c.grpc, status: httpStatusOf(c.grpc) };
}

describe('cantonErrorOf: Canton 3.5 errors for Daml engine failures', () => {
  it('unhandled exception: UNHANDLED_EXCEPTION (9), the exception printed with its type, the trace, and type and value as resources', () => {
    const e = cantonErrorOf(failureOf(exerciseCommand(q('T'), HELD, 'CreateThenThrow', UNIT)));
    expect(classOf(e)).toEqual({ code: 'UNHANDLED_EXCEPTION', category: 9, grpc: 'FAILED_PRECONDITION', status: 400 });
    expect(e.cause).toBe(`${P}Unhandled Daml exception: M:E@cccccccc{ message = "inside the choice" }\n` +
      '    in choice cccccccc:M:T:CreateThenThrow on contract 00abababab (#0)\n' +
      '    in exercise command cccccccc:M:T:CreateThenThrow on contract 00abababab.\n.');
    // value.proto: Value{record: Record{fields: [Field{value: Value{text}}]}}, written out by hand.
    const textValue = [0x42, 17, ...Buffer.from('inside the choice')];
    const field = [0x0a, textValue.length, ...textValue];
    const record = [0x0a, field.length, ...field];
    const value = Buffer.from([0x6a, record.length, ...record]).toString('base64');
    expect(e.resources).toEqual([['EXCEPTION_TYPE', `${PKG}:M:E`], ['EXCEPTION_VALUE', value]]);
  });

  it('an exception a try rethrows: the trace starts from the try (the engine rolled it back first)', () => {
    const none: Expr = upd({ kind: 'tryCatch', returnType: ANY, tryExpr: exercise(v('c'), 'CreateThenThrow'), binder: 'e', catchExpr: { kind: 'optionalNone', type: ANY } });
    const inside = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)]], none)));
    expect(inside.cause).toBe(`${P}Unhandled Daml exception: M:E@cccccccc{ message = "inside the choice" }\n.`);
    const uncaught = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'CreateThenThrow'))));
    expect(uncaught.cause).toBe(`${P}Unhandled Daml exception: M:E@cccccccc{ message = "inside the choice" }\n    in choice cccccccc:M:T:CreateThenThrow on contract ${rootCid(0).slice(0, 10)} (#1)\n.`);
  });

  it('unhandled exception outside any exercise, with no command: the trace is empty', () => {
    const e = cantonErrorOf(failureOf(embed(throwE('top'))));
    expect(e.cause).toBe(`${P}Unhandled Daml exception: M:E@cccccccc{ message = "top" }\n.`);
  });

  it("Daml's error: INTERPRETATION_USER_ERROR (9), `User abort`, the text as EXCEPTION_TEXT", () => {
    const e = cantonErrorOf(failureOf(embed(app(builtin('ERROR'), lit(text('boom'))))));
    expect(classOf(e)).toEqual({ code: 'INTERPRETATION_USER_ERROR', category: 9, grpc: 'FAILED_PRECONDITION', status: 400 });
    expect(e.cause).toBe(`${P}User abort: boom`);
    expect(e.resources).toEqual([['EXCEPTION_TEXT', 'boom']]);
  });

  it("failWithStatus: DAML_FAILURE with the Daml code's category (8: INVALID_ARGUMENT), its metadata, error_id and exercise_trace", () => {
    const e = cantonErrorOf(failureOf(exerciseCommand(q('T'), HELD, 'Refuse', UNIT)));
    expect(classOf(e)).toEqual({ code: 'DAML_FAILURE', category: 8, grpc: 'INVALID_ARGUMENT', status: 400 });
    expect(e.cause).toBe(`${P}User failure: splice.lab/insufficient-funds (error category 8): need 10, have 3`);
    expect(e.context).toEqual({
      available: '3', required: '10', error_id: 'splice.lab/insufficient-funds',
      exercise_trace: '    in choice cccccccc:M:T:Refuse on contract 00abababab (#0)\n    in exercise command cccccccc:M:T:Refuse on contract 00abababab.\n',
    });
  });

  it('failWithStatus: the metadata cannot override error_id', () => {
    const e = cantonErrorOf({
      kind: 'failWithStatus', errorId: 'the.id', category: 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER', message: 'm',
      meta: [['error_id', 'forged']], definition: undefined,
    });
    expect(classOf(e)).toEqual({ code: 'DAML_FAILURE', category: 9, grpc: 'FAILED_PRECONDITION', status: 400 });
    expect(e.context).toEqual({ error_id: 'the.id', exercise_trace: '' });
  });

  it('ensure False: TEMPLATE_PRECONDITION_VIOLATED (8) with the contract argument', () => {
    const e = cantonErrorOf(failureOf(create(ALICE, -1)));
    expect(classOf(e)).toEqual({ code: 'TEMPLATE_PRECONDITION_VIOLATED', category: 8, grpc: 'INVALID_ARGUMENT', status: 400 });
    expect(e.cause).toBe(`${P}Update failed due to precondition violation when creating M:T@cccccccc with M:T@cccccccc{ p = 'alice::1220aa', n = -1 }`);
    expect(e.resources).toBeUndefined();
  });

  it('a create beyond the authorizers: DAML_AUTHORIZATION_ERROR (8), naming the node in allocation order', () => {
    // create T #0, exercise GiveToBob #1, its create of Bob's contract #2.
    const e = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'GiveToBob'))));
    expect(classOf(e)).toEqual({ code: 'DAML_AUTHORIZATION_ERROR', category: 8, grpc: 'INVALID_ARGUMENT', status: 400 });
    expect(e.cause).toBe(`${P}node NodeId(2) (${PKG}:M:T) requires authorizers bob::1220bb, but only alice::1220aa were given`);
  });

  it('a try block takes a node id: the failing node after a rolled-back one is numbered past it', () => {
    // create #0; try #1 { create #2; throw } catch -> pure (); exercise GiveToBob #3; create #4 fails.
    const rolledBack = tryCatch(bind([['x', create(ALICE, 2)]], embed(throwE('undo'))), pure(lit(UNIT)));
    const e = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)], ['_', rolledBack]], exercise(v('c'), 'GiveToBob'))));
    expect(e.cause).toBe(`${P}node NodeId(4) (${PKG}:M:T) requires authorizers bob::1220bb, but only alice::1220aa were given`);
  });

  it('an exercise by someone else: the submitters in the order given', () => {
    const e = cantonErrorOf(failureOf(exerciseCommand(q('T'), HELD, 'Consume', UNIT), { submitters: [BOB, 'carol::1220cc'] }));
    expect(e.cause).toBe(`${P}node NodeId(0) (${PKG}:M:T) requires authorizers ${ALICE}, but only ${BOB},carol::1220cc were given`);
  });

  it('no signatories and no controllers: DAML_AUTHORIZATION_ERROR', () => {
    const noSig = cantonErrorOf(failureOf({ kind: 'create', template: q('Nobody'), expr: lit(tRecord(ALICE, 1, 'Nobody')) }));
    expect(classOf(noSig).code).toBe('DAML_AUTHORIZATION_ERROR');
    expect(noSig.cause).toBe(`${P}node NodeId(0) (${PKG}:M:Nobody) has no signatories`);
    const noCtl = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'NoOne'))));
    expect(noCtl.cause).toBe(`${P}node NodeId(1) (${PKG}:M:T) has no controllers`);
  });

  it('a fetch without a stakeholder among the authorizers: Scala sets, TreeSet of stakeholders, Set of submitters', () => {
    const e = cantonErrorOf(failureOf({ kind: 'fetch', template: q('T'), cid: lit({ kind: 'contractId', value: HELD }) }, { submitters: [BOB] }));
    expect(classOf(e).code).toBe('DAML_AUTHORIZATION_ERROR');
    expect(e.cause).toBe(`${P}node NodeId(0) requires one of the stakeholders TreeSet(${ALICE}) of the fetched contract to be an authorizer, but authorizers were Set(${BOB})`);
  });

  it('a contract consumed earlier in the transaction: CONTRACT_NOT_ACTIVE (11, 404), the consuming node, template and contract as resources', () => {
    const e = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)], ['_', exercise(v('c'), 'Consume')]], exercise(v('c'), 'Consume'))));
    expect(classOf(e)).toEqual({ code: 'CONTRACT_NOT_ACTIVE', category: 11, grpc: 'NOT_FOUND', status: 404 });
    const cid = rootCid(0);
    expect(e.cause).toBe(`${P}Update failed due to fetch of an inactive contract ${cid} (M:T@cccccccc).\nThe contract had been consumed in sub-transaction #NodeId(1):`);
    expect(e.resources).toEqual([['TEMPLATE_ID', `${PKG}:M:T`], ['CONTRACT_ID', cid]]);
  });

  it('a contract created in a rolled-back part, or unknown: CONTRACT_NOT_FOUND (11), the engine message without prefix', () => {
    const rolledBack = tryCatch(bind([['x', create(ALICE, 2)]], embed(throwE('undo'))), pure(lit(UNIT)));
    const cid = rootCid(1);
    const e = cantonErrorOf(failureOf(bind([['c', create(ALICE, 1)], ['_', rolledBack]], exercise(lit({ kind: 'contractId', value: cid }), 'Consume'))));
    expect(classOf(e)).toEqual({ code: 'CONTRACT_NOT_FOUND', category: 11, grpc: 'NOT_FOUND', status: 404 });
    expect(e.cause).toBe(`Contract could not be found with id ${cid}`);
    expect(e.resources).toEqual([['CONTRACT_ID', cid]]);
    const unknown = '00' + 'ee'.repeat(32);
    expect(cantonErrorOf(failureOf(exerciseCommand(q('T'), unknown, 'Consume', UNIT))).cause).toBe(`Contract could not be found with id ${unknown}`);
  });

  it('a contract of another template: WRONGLY_TYPED_CONTRACT (9), expected and actual template ids', () => {
    const e = cantonErrorOf(failureOf({ kind: 'fetch', template: q('Nobody'), cid: lit({ kind: 'contractId', value: HELD }) }));
    expect(classOf(e)).toEqual({ code: 'WRONGLY_TYPED_CONTRACT', category: 9, grpc: 'FAILED_PRECONDITION', status: 400 });
    expect(e.cause).toBe(`${P}Update failed due to wrongly typed contract id ${HELD}\nExpected contract of type M:Nobody@cccccccc but got M:T@cccccccc`);
    expect(e.resources).toEqual([['CONTRACT_ID', HELD], ['TEMPLATE_ID', `${PKG}:M:Nobody`], ['TEMPLATE_ID', `${PKG}:M:T`]]);
  });

  it('an interface the template does not implement: CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE (8)', () => {
    const e = cantonErrorOf(failureOf({ kind: 'fetchInterface', iface: q('I'), cid: lit({ kind: 'contractId', value: HELD }) }));
    expect(classOf(e)).toEqual({ code: 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE', category: 8, grpc: 'INVALID_ARGUMENT', status: 400 });
    expect(e.cause).toBe(`${P}Update failed due to contract ${HELD} not implementing an interface\nExpected contract to implement interface M:I@cccccccc but contract has type M:T@cccccccc`);
    expect(e.resources).toEqual([['CONTRACT_ID', HELD], ['TEMPLATE_ID', `${PKG}:M:T`], ['INTERFACE_ID', `${PKG}:M:I`]]);
  });

  it('a failed interface choice guard (LF 2.dev): INTERPRETATION_DEV_ERROR (9) ChoiceGuardFailed', () => {
    const e = cantonErrorOf({
      kind: 'ledger', message: 'guard', definition: undefined,
      failure: { kind: 'interfaceGuardFailed', contractId: HELD, interfaceId: q('I'), templateId: q('T'), choice: 'Go' },
    });
    expect(classOf(e)).toEqual({ code: 'INTERPRETATION_DEV_ERROR', category: 9, grpc: 'FAILED_PRECONDITION', status: 400 });
    expect(e.cause).toBe(`${P}Choice guard failed for M:T@cccccccc contract ${HELD} when exercising choice Go by interface M:I@cccccccc`);
    expect(e.resources).toEqual([['DEV_ERROR_TYPE', 'ChoiceGuardFailed']]);
  });

  it('an update past its budget: INTERPRETATION_TIME_EXCEEDED (2, ABORTED, 409) with the ledger time and tolerance', () => {
    const e = cantonErrorOf(failureOf(embed({ kind: 'val', ref: q('spin') }), { stepBudget: 10_000 }), { ledgerEffectiveTime: 1_700_000_000_123_456n, tolerance: '1m' });
    expect(classOf(e)).toEqual({ code: 'INTERPRETATION_TIME_EXCEEDED', category: 2, grpc: 'ABORTED', status: 409 });
    expect(e.cause).toBe('Time exceeds limit of Ledger Effective Time (2023-11-14T22:13:20.123456Z) + tolerance (1m). Interpretation aborted\n.');
  });

  it('engine-internal failures (ill-typed code, a missing definition, contract keys): LEDGER_API_INTERNAL_ERROR (4, 500)', () => {
    const crash = cantonErrorOf(failureOf({ kind: 'create', template: q('T'), expr: lit(int64(1n)) }));
    expect(classOf(crash)).toEqual({ code: 'LEDGER_API_INTERNAL_ERROR', category: 4, grpc: 'INTERNAL', status: 500 });
    expect(crash.cause).toMatch(/^Daml-Engine interpretation failed with internal error: .+ \/ created a int64, not a record of M:T$/);
    const missingValue = cantonErrorOf(failureOf(embed({ kind: 'val', ref: q('nope') })));
    expect(classOf(missingValue).code).toBe('LEDGER_API_INTERNAL_ERROR');
    const keys = cantonErrorOf({ kind: 'ledger', message: 'contract keys are not part of Daml-LF 2.1', definition: undefined, failure: { kind: 'unsupported', what: 'contract keys (fetchByKey)' } });
    expect(classOf(keys).code).toBe('LEDGER_API_INTERNAL_ERROR');
  });

  it('a package the participant does not have: PACKAGE_NOT_FOUND (11, 404), naming what was looked up', () => {
    const other = 'd'.repeat(64);
    const e = cantonErrorOf(failureOf(embed({ kind: 'val', ref: { packageId: other, module: 'X', name: 'y' } })));
    expect(classOf(e)).toEqual({ code: 'PACKAGE_NOT_FOUND', category: 11, grpc: 'NOT_FOUND', status: 404 });
    expect(e.cause).toBe(`Couldn't find package ${other} while looking for value ${other}:X:y`);
    const t = cantonErrorOf(failureOf({ kind: 'create', template: { packageId: other, module: 'X', name: 'T' }, expr: lit(tRecord(ALICE, 1)) }));
    expect(t.cause).toBe(`Couldn't find package ${other} while looking for template ${other}:X:T`);
  });

  it('more than 10 open exercises: the trace shows the innermost 10, then ...', () => {
    const trace = { exercises: Array.from({ length: 12 }, (_, i) => ({ templateId: q('T'), choice: 'Down', contractId: HELD, nodeId: 11 - i })), command: undefined };
    const e = cantonErrorOf({ kind: 'userError', message: 'deep', definition: undefined, trace });
    expect(e.cause).toBe(`${P}User abort: deep`); // a user error's message carries no trace
    const u = cantonErrorOf({ kind: 'unhandledException', exception: { kind: 'anyException', type: E_TYPE, value: { kind: 'record', tycon: q('E'), fieldNames: ['message'], fields: [text('x')] } }, definition: undefined, trace });
    const lines = u.cause.split('\n');
    expect(lines.slice(1, 12)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `    in choice cccccccc:M:T:Down on contract 00abababab (#${11 - i})`), '    ...',
    ]);
    expect(lines.at(-1)).toBe('.');
  });
});

describe.skipIf(!HAS_DARS)('cantonErrorOf on a real DAR (splice-test-token-v1) (needs ../shared/upstream/daml/dars)', () => {
  it("an ensure that fails: SDK 3.x code throws PreconditionFailed, so Canton answers UNHANDLED_EXCEPTION with daml-stdlib's exception type", () => {
    const { dar, packages } = loadDar('splice/splice-test-token-v1-1.0.0.dar');
    const main = dar.main.id;
    const tpl: QualifiedName = { packageId: main, module: 'Splice.Testing.Tokens.TestTokenV1', name: 'Token' };
    const decoded = decodeJson({ kind: 'con', tycon: tpl, args: [] }, {
      holding: { owner: ALICE, instrumentId: { admin: BOB, id: 'TEST' }, amount: '0.0', lock: null, meta: { values: {} } },
    }, packageDataTypes((id) => packages.get(id)));
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.problem));
    const engine = new UpdateEngine({ getPackage: (id) => packages.get(id) });
    const r = engine.submit({ update: createCommand(tpl, decoded.value), submitters: [ALICE, BOB], transactionSeed: SEED, preparationTime: PREPARED, getContract: () => undefined });
    if (r.ok || r.error.kind !== 'unhandledException') throw new Error('expected an unhandled exception');
    const exceptionType = r.error.exception.type;
    if (exceptionType.kind !== 'con') throw new Error('an exception of a record type');
    const preconditionFailed = exceptionType.tycon.packageId;
    expect(preconditionFailed.slice(0, 8)).toBe('91e167fa'); // daml-prim-DA-Exception-PreconditionFailed
    const message = (r.error.exception.value as RecordValue).fields[0] as { value: string };
    const e = cantonErrorOf(r.error);
    expect(classOf(e)).toEqual({ code: 'UNHANDLED_EXCEPTION', category: 9, grpc: 'FAILED_PRECONDITION', status: 400 });
    expect(e.cause).toBe(`${P}Unhandled Daml exception: DA.Exception.PreconditionFailed:PreconditionFailed@91e167fa{ message = "${message.value}" }\n` +
      `    in create command ${main.slice(0, 8)}:Splice.Testing.Tokens.TestTokenV1:Token.\n.`);
    expect(e.resources?.[0]).toEqual(['EXCEPTION_TYPE', `${preconditionFailed}:DA.Exception.PreconditionFailed:PreconditionFailed`]);
  });
});

describe('the rendered JsCantonError of engine failures', () => {
  const render = (e: LedgerError) => renderProblem({ kind: 'ledger', error: e }, 'B', { participantId: 'participant1' }) as { status: number; body: Record<string, unknown> };

  it("DAML_FAILURE is rendered with failWithStatus's category and gRPC code", () => {
    const r = render(cantonErrorOf(failureOf(exerciseCommand(q('T'), HELD, 'Refuse', UNIT))));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'DAML_FAILURE', errorCategory: 8, grpcCodeValue: 3, retryInfo: null, definiteAnswer: false,
      context: { category: '8', definite_answer: 'false', error_id: 'splice.lab/insufficient-funds', available: '3' },
    });
  });

  it('INTERPRETATION_TIME_EXCEEDED is 409 and retryable after its category\'s second', () => {
    const r = render(cantonErrorOf(failureOf(embed({ kind: 'val', ref: q('spin') }), { stepBudget: 10_000 })));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'INTERPRETATION_TIME_EXCEEDED', errorCategory: 2, grpcCodeValue: 10, retryInfo: '1 second' });
  });

  it('an internal engine failure is redacted, as the participant redacts category 4', () => {
    const r = render(cantonErrorOf(failureOf({ kind: 'create', template: q('T'), expr: lit(int64(1n)) })));
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ code: 'NA', errorCategory: -1, grpcCodeValue: 13, context: {} });
    expect(String(r.body.cause)).toMatch(/^An error occurred\. Please contact the operator and inquire about the request <no-correlation-id> with tid [0-9a-f]{32}$/);
  });
});
