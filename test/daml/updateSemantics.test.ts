/**
 * The update engine's semantics on a hand-built package (no DAR has a try/catch reachable without
 * a whole Splice setup): daml-lf-2.rst "Update interpretation" (create, exercise, try/catch,
 * get_time, ledger_time_lt) and transaction.rst "Rollback nodes".
 */
import { describe, expect, it } from 'vitest';

import type { Expr, Update } from '../../daml-engine/ast/Expr.js';
import type { DefException, DefTemplate, Module, Package, TemplateChoice } from '../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import { contractIdV1, deriveContractDiscriminator, deriveNodeSeed } from '../../daml-engine/update/seeds.js';
import type { CreateNode, ExerciseNode, RollbackNode } from '../../daml-engine/update/Transaction.js';
import { nodeSeedOf } from '../../daml-engine/update/Transaction.js';
import type { LedgerContract, SubmissionResult } from '../../daml-engine/update/UpdateEngine.js';
import { exerciseCommand, UpdateEngine } from '../../daml-engine/update/UpdateEngine.js';
import type { RecordValue, Value } from '../../daml-engine/value/Value.js';
import { int64, listOf, NIL, text, UNIT } from '../../daml-engine/value/Value.js';

const PKG = 'c'.repeat(64);
const q = (name: string): QualifiedName => ({ packageId: PKG, module: 'M', name });
const ANY: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
const E_TYPE: Type = { kind: 'con', tycon: q('E'), args: [] };
const ALICE = 'alice::1220aa';
const BOB = 'bob::1220bb';
const SEED = new Uint8Array(32).fill(1);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const seedOf = nodeSeedOf;

const v = (name: string): Expr => ({ kind: 'var', name });
const lit = (value: Value): Expr => ({ kind: 'lit', value });
const int = (n: number): Expr => lit(int64(BigInt(n)));
const app = (fun: Expr, ...args: Expr[]): Expr => ({ kind: 'app', fun, args });
const proj = (record: Expr, field: string): Expr => ({ kind: 'recProj', tycon: { tycon: q('T'), args: [] }, field, record });
const upd = (update: Update): Expr => ({ kind: 'update', update });
const pure = (expr: Expr): Expr => upd({ kind: 'pure', type: ANY, expr });
const bind = (bindings: [string, Expr][], body: Expr): Expr =>
  upd({ kind: 'block', bindings: bindings.map(([name, bound]) => ({ name, type: ANY, bound })), body });
const tRecord = (p: string, n: number): RecordValue => ({ kind: 'record', tycon: q('T'), fieldNames: ['p', 'n'], fields: [{ kind: 'party', value: p }, int64(BigInt(n))] });
const create = (p: string, n: number): Expr => upd({ kind: 'create', template: q('T'), expr: lit(tRecord(p, n)) });
const cidLit = (cid: string): Expr => lit({ kind: 'contractId', value: cid });
const exercise = (cid: Expr, choice: string): Expr => upd({ kind: 'exercise', template: q('T'), choice, cid, arg: lit(UNIT) });
const throwE = (message: string): Expr => ({
  kind: 'throw', returnType: ANY, exceptionType: E_TYPE,
  expr: lit({ kind: 'record', tycon: q('E'), fieldNames: ['message'], fields: [text(message)] }),
});
/** `try body catch e -> handler` where the handler returns `Some update` or `None`. */
const tryCatch = (body: Expr, handler: Expr | undefined): Expr => upd({
  kind: 'tryCatch', returnType: ANY, tryExpr: body, binder: 'e',
  catchExpr: handler ? { kind: 'optionalSome', type: ANY, value: handler } : { kind: 'optionalNone', type: ANY },
});

const choice = (name: string, consuming: boolean, controllers: Expr, update: Expr): [string, TemplateChoice] => [name, {
  name, consuming, controllers, observers: undefined, authorizers: undefined,
  argBinder: { name: 'arg', type: ANY }, selfBinder: 'self', returnType: ANY, update,
}];

/** template T with p : Party; n : Int64 where signatory p; ensure n >= 0. */
const T: DefTemplate = {
  name: 'T', param: 'this',
  precondition: app({ kind: 'builtin', builtin: 'GREATER_EQ' }, proj(v('this'), 'n'), int(0)),
  signatories: { kind: 'cons', type: ANY, front: [proj(v('this'), 'p')], tail: { kind: 'nil', type: ANY } },
  observers: { kind: 'nil', type: ANY },
  key: undefined, implements: new Map(),
  choices: new Map([
    choice('Consume', true, { kind: 'cons', type: ANY, front: [proj(v('this'), 'p')], tail: { kind: 'nil', type: ANY } }, pure(lit(UNIT))),
    // Creates a contract for Bob (Alice's authority as signatory is not enough), then fails.
    choice('CreateThenThrow', true, { kind: 'cons', type: ANY, front: [proj(v('this'), 'p')], tail: { kind: 'nil', type: ANY } },
      bind([['c', create(ALICE, 5)]], upd({ kind: 'embedExpr', type: ANY, expr: throwE('inside the choice') }))),
    choice('GiveToBob', false, { kind: 'cons', type: ANY, front: [proj(v('this'), 'p')], tail: { kind: 'nil', type: ANY } }, create(BOB, 1)),
    choice('NoOne', false, { kind: 'nil', type: ANY }, pure(lit(UNIT))),
    // Down n: exercises Down (n - 1) on itself until 0: exercise nodes nested n deep.
    choice('Down', false, { kind: 'cons', type: ANY, front: [proj(v('this'), 'p')], tail: { kind: 'nil', type: ANY } }, {
      kind: 'case', scrut: app({ kind: 'builtin', builtin: 'EQUAL' }, v('arg'), int(0)),
      alts: [
        { kind: 'builtinCon', con: 'true', body: pure(lit(UNIT)) },
        { kind: 'builtinCon', con: 'false', body: upd({ kind: 'exercise', template: q('T'), choice: 'Down', cid: v('self'), arg: app({ kind: 'builtin', builtin: 'SUB_INT64' }, v('arg'), int(1)) }) },
      ],
    }),
  ]),
};

/** nest n = if n == 0 then pure 0 else do x <- nest (n - 1); pure (x + 1): binds nested n deep. */
const NEST: Expr = {
  kind: 'abs', params: [{ name: 'n', type: ANY }],
  body: {
    kind: 'case', scrut: app({ kind: 'builtin', builtin: 'EQUAL' }, v('n'), int(0)),
    alts: [
      { kind: 'builtinCon', con: 'true', body: pure(int(0)) },
      { kind: 'builtinCon', con: 'false', body: bind([['x', app({ kind: 'val', ref: q('nest') }, app({ kind: 'builtin', builtin: 'SUB_INT64' }, v('n'), int(1)))]],
        pure(app({ kind: 'builtin', builtin: 'ADD_INT64' }, v('x'), int(1)))) },
    ],
  },
};

/** template Nobody with p : Party; n : Int64 where signatory [] (refused by every create). */
const NOBODY: DefTemplate = { ...T, name: 'Nobody', signatories: { kind: 'nil', type: ANY }, choices: new Map() };

const E: DefException = { name: 'E', message: { kind: 'abs', params: [{ name: 'x', type: E_TYPE }], body: { kind: 'recProj', tycon: { tycon: q('E'), args: [] }, field: 'message', record: v('x') } } };
const MODULE: Module = {
  name: 'M', synonyms: new Map(), interfaces: new Map(),
  templates: new Map([['T', T], ['Nobody', NOBODY]]),
  exceptions: new Map([['E', E]]),
  values: new Map([
    ['nest', { name: 'nest', type: ANY, expr: NEST }],
    // spin = do () <- pure (); spin: an update that never ends.
    ['spin', { name: 'spin', type: ANY, expr: bind([['_', pure(lit(UNIT))]], { kind: 'val', ref: q('spin') }) }],
  ]),
  dataTypes: new Map([
    ['T', { name: 'T', params: [], serializable: true, cons: { kind: 'record', fields: [{ name: 'p', type: ANY }, { name: 'n', type: ANY }], fieldNames: ['p', 'n'] } }],
    ['Nobody', { name: 'Nobody', params: [], serializable: true, cons: { kind: 'record', fields: [{ name: 'p', type: ANY }, { name: 'n', type: ANY }], fieldNames: ['p', 'n'] } }],
    ['E', { name: 'E', params: [], serializable: true, cons: { kind: 'record', fields: [{ name: 'message', type: ANY }], fieldNames: ['message'] } }],
  ]),
};
const PACKAGE: Package = { id: PKG, lfVersion: '2.1', metadata: { name: 'm', version: '1.0.0', upgradedPackageId: undefined }, modules: new Map([['M', MODULE]]), imports: undefined };

const engine = new UpdateEngine({ getPackage: (id) => (id === PKG ? PACKAGE : undefined) });

function submit(update: Expr | Update, options: { submitters?: string[]; contracts?: Map<string, LedgerContract>; ledgerTime?: bigint } = {}): SubmissionResult {
  const u: Update = 'update' in update && update.kind === 'update' ? update.update : update as Update;
  return engine.submit({
    update: u, submitters: options.submitters ?? [ALICE], transactionSeed: SEED, preparationTime: 1_000_000n,
    ledgerTime: options.ledgerTime, getContract: (cid) => options.contracts?.get(cid),
  });
}

function ok(result: SubmissionResult): Extract<SubmissionResult, { ok: true }> {
  if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.error, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))}`);
  return result;
}

describe('update engine semantics (hand-built package)', () => {
  it('create: an ensure that evaluates to False fails with templatePreconditionViolated', () => {
    const r = submit(create(ALICE, -1));
    expect(r).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'templatePreconditionViolated', templateId: q('T') } } });
  });

  it('create: a contract with no signatories fails with noSignatories', () => {
    const r = submit({ kind: 'create', template: q('Nobody'), expr: lit({ ...tRecord(ALICE, 1), tycon: q('Nobody') }) });
    expect(r).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'noSignatories', templateId: q('Nobody') } } });
  });

  it('exercise: a choice with no controllers fails with noControllers', () => {
    const r = submit(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'NoOne')));
    expect(r).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'noControllers', choice: 'NoOne' } } });
  });

  it('a choice body creates only with the authority of the signatories and controllers (Bob is neither)', () => {
    const r = submit(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'GiveToBob')));
    expect(r).toMatchObject({ ok: false, error: { kind: 'ledger', failure: { kind: 'createMissingAuthorization', authorizers: [ALICE], requiredAuthorizers: [BOB] } } });
    // Bob among the submitters authorizes the root only: inside the choice, authority is Alice's.
    expect(submit(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'GiveToBob')), { submitters: [ALICE, BOB] }).ok).toBe(false);
  });

  it('an uncaught exception ends the submission as data, with the exception', () => {
    const r = submit(bind([['c', create(ALICE, 1)]], exercise(v('c'), 'CreateThenThrow')));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ kind: 'unhandledException', exception: { type: E_TYPE, value: { fields: [{ value: 'inside the choice' }] } } });
  });

  it('try/catch: the failed subtree becomes a rollback node; its creates and archives are undone; seeds do not repeat', () => {
    // c <- create T{1}; try (exercise c CreateThenThrow) catch -> Some (exercise c Consume)
    const r = ok(submit(bind([['c', create(ALICE, 1)]], tryCatch(exercise(v('c'), 'CreateThenThrow'), exercise(v('c'), 'Consume')))));
    const tx = r.transaction;
    expect(tx.nodes.map((n) => n.kind)).toEqual(['create', 'rollback', 'exercise', 'create', 'exercise']);
    expect(tx.roots).toEqual([0, 1, 4]);
    const rollback = tx.nodes[1] as RollbackNode;
    expect(rollback.children).toEqual([2]);
    const aborted = tx.nodes[2] as ExerciseNode;
    expect(aborted).toMatchObject({ choice: 'CreateThenThrow', consuming: true, children: [3], exerciseResult: undefined });
    const consume = tx.nodes[4] as ExerciseNode;
    // The consuming exercise under the rollback node did not archive: Consume ran on the same contract.
    expect(consume).toMatchObject({ choice: 'Consume', contractId: (tx.nodes[0] as CreateNode).contractId, exerciseResult: UNIT });
    // Root action seeds by index 0, 1, 2: the rolled-back exercise keeps index 1.
    expect(seedOf(tx, 0)).toBe(hex(deriveNodeSeed(SEED, 0)));
    expect(seedOf(tx, 2)).toBe(hex(deriveNodeSeed(SEED, 1)));
    expect(seedOf(tx, 4)).toBe(hex(deriveNodeSeed(SEED, 2)));
    expect(seedOf(tx, 3)).toBe(hex(deriveNodeSeed(deriveNodeSeed(SEED, 1), 0)));
    // Only what was not rolled back counts.
    expect(tx.created.map((c) => c.contractId)).toEqual([(tx.nodes[0] as CreateNode).contractId]);
    expect(tx.archived).toEqual([(tx.nodes[0] as CreateNode).contractId]);
    expect(tx.nodeSeeds.map(([id]) => id)).toEqual([0, 2, 3, 4]);
  });

  it('try/catch: a contract created in a rolled-back subtree is not active afterwards', () => {
    // c <- create T{7}; try (create T{1}; throw) catch -> Some (pure ()); exercise the rolled-back contract.
    const body = bind([['c', create(ALICE, 1)]], upd({ kind: 'embedExpr', type: ANY, expr: throwE('undo') }));
    const rolledBackId = contractIdV1(deriveContractDiscriminator(deriveNodeSeed(SEED, 1), 1_000_000n, [ALICE]));
    const then = (after: Expr) => submit(bind([['c', create(ALICE, 7)], ['_', tryCatch(body, pure(lit(UNIT)))]], after));
    expect(ok(then(exercise(v('c'), 'Consume'))).transaction.nodes.map((n) => n.kind)).toEqual(['create', 'rollback', 'create', 'exercise']);
    expect(ok(then(pure(lit(UNIT)))).transaction.nodes[2]).toMatchObject({ kind: 'create', contractId: rolledBackId });
    expect(then(exercise(cidLit(rolledBackId), 'Consume'))).toMatchObject({ ok: false, error: { failure: { kind: 'contractNotActive', contractId: rolledBackId } } });
  });

  it('try/catch: a handler returning None rethrows, to an outer handler or out of the submission', () => {
    expect(submit(tryCatch(bind([['c', create(ALICE, 1)]], upd({ kind: 'embedExpr', type: ANY, expr: throwE('again') })), undefined)))
      .toMatchObject({ ok: false, error: { kind: 'unhandledException' } });
    const inner = tryCatch(bind([['c', create(ALICE, 1)]], upd({ kind: 'embedExpr', type: ANY, expr: throwE('again') })), undefined);
    const r = ok(submit(tryCatch(inner, pure(lit(UNIT)))));
    // One rollback node (the outer one) holds the create; no empty or nested rollback remains.
    expect(r.transaction.nodes.map((n) => n.kind)).toEqual(['rollback', 'create']);
    expect(r.transaction.created).toEqual([]);
  });

  it('rollback normalization: ROLL [ROLL [xs], ys] becomes ROLL [xs], ROLL [ys]', () => {
    const fail = upd({ kind: 'embedExpr', type: ANY, expr: throwE('fail') });
    const inner = tryCatch(bind([['a', create(ALICE, 1)]], fail), create(ALICE, 2)); // ROLL [c1], c2
    const r = ok(submit(tryCatch(bind([['x', inner]], fail), pure(lit(UNIT)))));
    expect(r.transaction.nodes.map((n) => n.kind)).toEqual(['rollback', 'create', 'rollback', 'create']);
    expect(r.transaction.roots).toEqual([0, 2]);
    expect(r.transaction.nodes[0]).toMatchObject({ children: [1] });
    expect(r.transaction.nodes[2]).toMatchObject({ children: [3] });
  });

  it('rollback normalization: ROLL [xs, ROLL [ys]] becomes ROLL [xs, ys]', () => {
    const fail = upd({ kind: 'embedExpr', type: ANY, expr: throwE('fail') });
    const inner = tryCatch(bind([['b', create(ALICE, 2)]], fail), fail); // its handler fails again
    const r = ok(submit(tryCatch(bind([['a', create(ALICE, 1)]], inner), pure(lit(UNIT)))));
    expect(r.transaction.nodes.map((n) => n.kind)).toEqual(['rollback', 'create', 'create']);
    expect(r.transaction.nodes[0]).toMatchObject({ children: [1, 2] });
  });

  it('try/catch without an exception leaves no node of its own', () => {
    const r = ok(submit(tryCatch(create(ALICE, 1), pure(lit(UNIT)))));
    expect(r.transaction.nodes.map((n) => n.kind)).toEqual(['create']);
  });

  it('a try/catch that rolls back nothing leaves no empty rollback node', () => {
    const r = ok(submit(tryCatch(upd({ kind: 'embedExpr', type: ANY, expr: throwE('nothing done') }), create(ALICE, 2))));
    expect(r.transaction.nodes.map((n) => n.kind)).toEqual(['create']);
    expect(seedOf(r.transaction, 0)).toBe(hex(deriveNodeSeed(SEED, 0)));
  });

  it('get_time and ledger_time_lt use the caller-supplied ledger time', () => {
    const t = 5_000_000n;
    expect(ok(submit({ kind: 'getTime' }, { ledgerTime: t })).result).toEqual({ kind: 'timestamp', micros: t });
    expect(ok(submit({ kind: 'ledgerTimeLt', expr: lit({ kind: 'timestamp', micros: t + 1n }) }, { ledgerTime: t })).result).toEqual({ kind: 'bool', value: true });
    expect(ok(submit({ kind: 'ledgerTimeLt', expr: lit({ kind: 'timestamp', micros: t }) }, { ledgerTime: t })).result).toEqual({ kind: 'bool', value: false });
  });

  it('reports whether the run read the ledger time (get_time, ledger_time_lt), which pins an interactive transaction', () => {
    expect(ok(submit({ kind: 'getTime' })).readsLedgerTime).toBe(true);
    expect(ok(submit({ kind: 'ledgerTimeLt', expr: lit({ kind: 'timestamp', micros: 1n }) })).readsLedgerTime).toBe(true);
    expect(ok(submit(create(ALICE, 1))).readsLedgerTime).toBe(false);
  });

  it('binds nested 200,000 deep run on the heap, not the JS stack', () => {
    const r = ok(submit({ kind: 'embedExpr', type: ANY, expr: app({ kind: 'val', ref: q('nest') }, int(200_000)) }));
    expect(r.result).toEqual(int64(200_000n));
    expect(r.transaction.nodes).toEqual([]);
  });

  it('exercises nested 20,000 deep: every node in pre-order, each seeded from its parent', () => {
    const r = ok(submit(bind([['c', create(ALICE, 1)]], upd({ kind: 'exercise', template: q('T'), choice: 'Down', cid: v('c'), arg: int(20_000) }))));
    const nodes = r.transaction.nodes;
    expect(nodes.length).toBe(20_002);
    expect(r.transaction.roots).toEqual([0, 1]);
    expect(nodes[20_001]).toMatchObject({ kind: 'exercise', choiceArgument: int64(0n), children: [] });
    expect(nodes[1]).toMatchObject({ kind: 'exercise', children: [2] });
    expect(seedOf(r.transaction, 2)).toBe(hex(deriveNodeSeed(deriveNodeSeed(SEED, 1), 0)));
  });

  it('a contract of the caller: signatories evaluated from its argument, exercised by its controller', () => {
    const contracts = new Map<string, LedgerContract>([['00' + 'ab'.repeat(32), { templateId: q('T'), argument: tRecord(BOB, 3) }]]);
    const cmd = exerciseCommand(q('T'), '00' + 'ab'.repeat(32), 'Consume', UNIT);
    expect(submit(cmd, { contracts })).toMatchObject({ ok: false, error: { failure: { kind: 'exerciseMissingAuthorization', requiredAuthorizers: [BOB] } } });
    const r = ok(submit(cmd, { contracts, submitters: [BOB] }));
    expect(r.transaction.nodes[0]).toMatchObject({ kind: 'exercise', signatories: [BOB], stakeholders: [BOB], consuming: true });
    expect(r.transaction.archived).toEqual(['00' + 'ab'.repeat(32)]);
  });

  it('an update that never ends stops at the step budget, naming the definition (never a hang)', () => {
    const bounded = new UpdateEngine({ getPackage: (id) => (id === PKG ? PACKAGE : undefined), stepBudget: 100_000 });
    const r = bounded.submit({
      update: { kind: 'embedExpr', type: ANY, expr: { kind: 'val', ref: q('spin') } }, submitters: [ALICE],
      transactionSeed: SEED, preparationTime: 0n, getContract: () => undefined,
    });
    expect(r).toMatchObject({ ok: false, error: { kind: 'budgetExceeded', definition: q('spin') } });
  });

  it('a value of the wrong type is a crash naming the definition, never a JS exception', () => {
    const r = submit({ kind: 'create', template: q('T'), expr: lit(listOf([])) });
    expect(r).toMatchObject({ ok: false, error: { kind: 'crash' } });
    expect(submit({ kind: 'embedExpr', type: ANY, expr: lit(NIL) })).toMatchObject({ ok: false, error: { kind: 'crash' } });
  });
});
