import { describe, expect, it } from 'vitest';

import type { CaseAlt, Expr } from '../../daml-engine/ast/Expr.js';
import type { DataCons, DefTemplate, DefValue, Module, Package } from '../../daml-engine/ast/Package.js';
import { qualifiedKey } from '../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import { ARITHMETIC_ERROR_PACKAGE_ID, Evaluator } from '../../daml-engine/eval/Evaluator.js';
import type { EvalResult } from '../../daml-engine/eval/EvalResult.js';
import type { FirstOrderBuiltin } from '../../daml-engine/builtins/Builtin.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { int64, listItems, listOf, NONE, some, text, UNIT } from '../../daml-engine/value/Value.js';
import { HAS_DARS, loadDar } from './damlFixtures.js';

// ---- a hand-built package: the machine's own semantics, independent of any DAR ---------------

const PKG = 'a'.repeat(64);
const q = (name: string): QualifiedName => ({ packageId: PKG, module: 'M', name });
const INT: Type = { kind: 'builtin', builtin: 'INT64', args: [] };
const v = (name: string): Expr => ({ kind: 'var', name });
const val = (name: string): Expr => ({ kind: 'val', ref: q(name) });
const lit = (value: Value): Expr => ({ kind: 'lit', value });
const int = (n: number): Expr => lit(int64(BigInt(n)));
const app = (fun: Expr, ...args: Expr[]): Expr => ({ kind: 'app', fun, args });
const lam = (params: string[], body: Expr): Expr => ({ kind: 'abs', params: params.map((name) => ({ name, type: INT })), body });
const b = (builtin: 'ADD_INT64' | 'SUB_INT64' | 'EQUAL' | 'DIV_INT64' | 'ERROR' | 'FOLDL' | 'FOLDR' | 'APPEND_TEXT' | 'INT64_TO_TEXT' | 'TRACE' | 'EQUAL_LIST'): Expr => ({ kind: 'builtin', builtin });
const ifThenElse = (cond: Expr, then: Expr, otherwise: Expr): Expr => ({
  kind: 'case', scrut: cond,
  alts: [{ kind: 'builtinCon', con: 'true', body: then }, { kind: 'builtinCon', con: 'false', body: otherwise }],
});
const caseOf = (scrut: Expr, ...alts: CaseAlt[]): Expr => ({ kind: 'case', scrut, alts });

function pkg(values: Record<string, Expr>, dataTypes: Record<string, DataCons> = {}): Package {
  const module: Module = {
    name: 'M', synonyms: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map(),
    values: new Map(Object.entries(values).map(([name, expr]): [string, DefValue] => [name, { name, type: INT, expr }])),
    dataTypes: new Map(Object.entries(dataTypes).map(([name, cons]) => [name, { name, params: [], serializable: true, cons }])),
  };
  return { id: PKG, lfVersion: '2.1', metadata: { name: 'm', version: '1.0.0', upgradedPackageId: undefined }, modules: new Map([['M', module]]), imports: undefined };
}

const VARIANT: DataCons = { kind: 'variant', constructors: [{ name: 'Left', type: INT }, { name: 'Right', type: INT }] };
const COLOR: DataCons = { kind: 'enum', constructors: ['Red', 'Green', 'Blue'] };
const POINT: DataCons = { kind: 'record', fields: [{ name: 'x', type: INT }, { name: 'y', type: INT }], fieldNames: ['x', 'y'] };

const DEFS: Record<string, Expr> = {
  // sumTo n = if n == 0 then 0 else n + sumTo (n - 1): recursion that is not a tail call.
  sumTo: lam(['n'], ifThenElse(app(b('EQUAL'), v('n'), int(0)), int(0),
    app(b('ADD_INT64'), v('n'), app(val('sumTo'), app(b('SUB_INT64'), v('n'), int(1)))))),
  loop: lam(['x'], app(val('loop'), v('x'))),
  cyclic: app(b('ADD_INT64'), int(1), val('cyclic')),
  counted: app(b('TRACE'), lit(text('evaluated once')), int(7)),
  flaky: app(b('ADD_INT64'), app(b('TRACE'), lit(text('evaluating flaky')), int(1)), int(2)),
};

function evaluator(options: Omit<ConstructorParameters<typeof Evaluator>[0], 'getPackage'> = {}): Evaluator {
  const p = pkg(DEFS, { Either: VARIANT, Color: COLOR, Point: POINT });
  return new Evaluator({ getPackage: (id) => (id === PKG ? p : undefined), ...options });
}

function ok(result: EvalResult): Value {
  if (!result.ok) throw new Error(`evaluation failed: ${JSON.stringify(result.error, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))}`);
  return result.value;
}

describe('the evaluator (daml-lf-2.rst, operational semantics)', () => {
  it('runs 1,000,000-deep non-tail recursion on its own continuation stack', () => {
    const result = evaluator().evaluate(app(val('sumTo'), int(1_000_000)));
    expect(ok(result)).toEqual(int64(500_000_500_000n));
  }, 180_000); // ~1 s on an idle core; the limit only guards against a hang on a loaded machine

  it('stops a loop at its step budget, naming the package, module and definition', () => {
    const result = evaluator({ stepBudget: 10_000 }).evaluate(app(val('loop'), int(1)));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ kind: 'budgetExceeded', definition: q('loop') });
      expect(result.error.kind === 'budgetExceeded' && result.error.message).toBe(`evaluation exceeded its budget of 10000 steps in M:loop (package ${PKG})`);
    }
  });

  it('evaluates a top-level value once and caches it; a value that needs itself is an error, not a hang', () => {
    const traces: string[] = [];
    const ev = evaluator({ onTrace: (m) => traces.push(m) });
    expect(ok(ev.evaluate(app(b('ADD_INT64'), val('counted'), val('counted'))))).toEqual(int64(14n));
    expect(traces).toEqual(['evaluated once']);
    expect(ev.evaluate(val('cyclic'))).toMatchObject({ ok: false, error: { kind: 'crash', message: expect.stringMatching(/depends on itself/) } });
  });

  it('a top-level value whose evaluation failed is evaluated afresh next time; once it succeeded, it is cached (daml-lf-2.rst: values are pure)', () => {
    // A builtin replaced (the evaluator's test option) to fail its first call only.
    let calls = 0;
    const add: FirstOrderBuiltin = {
      arity: 2,
      apply: (args) => (++calls === 1 ? { ok: false, failure: { kind: 'error', message: 'first call' } } : { ok: true, value: int64((args[0] as { value: bigint }).value + (args[1] as { value: bigint }).value) }),
    };
    const traces: string[] = [];
    const ev = evaluator({ onTrace: (m) => traces.push(m), builtinOverrides: new Map([['ADD_INT64', add]]) });
    expect(ev.evaluate(val('flaky'))).toMatchObject({ ok: false, error: { kind: 'userError', message: 'first call' } });
    expect(ok(ev.evaluate(val('flaky')))).toEqual(int64(3n));
    expect(ok(ev.evaluate(val('flaky')))).toEqual(int64(3n));
    expect(traces).toEqual(['evaluating flaky', 'evaluating flaky']);
  });

  it('valueOverride replaces a top-level definition (as Daml Script replaces dangerousCast), asked once per evaluator', () => {
    const asked: string[] = [];
    const ev = evaluator({ valueOverride: (r) => { asked.push(r.name); return r.name === 'cyclic' ? int64(5n) : undefined; } });
    expect(ok(ev.evaluate(app(b('ADD_INT64'), val('cyclic'), val('cyclic'))))).toEqual(int64(10n));
    expect(ok(ev.evaluate(val('counted')))).toEqual(int64(7n));
    expect(ok(ev.evaluate(val('counted')))).toEqual(int64(7n));
    expect(asked).toEqual(['cyclic', 'counted']);
  });

  it('evaluators sharing one package keep their own values and builtins (nodes remember a value for the evaluator that found it)', () => {
    // Daml Script's runner (valueOverride) and the tests' builtinOverrides evaluate the same
    // expression nodes as the ledger's evaluators: what one found must never answer another.
    const p = pkg({ ...DEFS, two: app(b('ADD_INT64'), int(1), int(1)) });
    const getPackage = (id: string) => (id === PKG ? p : undefined);
    const hundred: FirstOrderBuiltin = { arity: 2, apply: () => ({ ok: true, value: int64(100n) }) };
    const plain = new Evaluator({ getPackage });
    const overridden = new Evaluator({ getPackage, builtinOverrides: new Map([['ADD_INT64', hundred]]), valueOverride: (r) => (r.name === 'cyclic' ? int64(5n) : undefined) });
    const sum = app(b('ADD_INT64'), val('two'), int(1)); // one node: its `val` and `builtin` children are shared
    expect(ok(plain.evaluate(sum))).toEqual(int64(3n));
    expect(ok(overridden.evaluate(sum))).toEqual(int64(100n));
    expect(ok(plain.evaluate(sum))).toEqual(int64(3n));
    expect(ok(overridden.evaluate(val('two')))).toEqual(int64(100n));
    expect(ok(plain.evaluate(val('two')))).toEqual(int64(2n));
    const cyclic = val('cyclic');
    expect(ok(overridden.evaluate(cyclic))).toEqual(int64(5n));
    expect(plain.evaluate(cyclic)).toMatchObject({ ok: false, error: { kind: 'crash', message: expect.stringMatching(/depends on itself/) } });
    expect(ok(overridden.evaluate(cyclic))).toEqual(int64(5n));
  });

  it('a struct projection of a value at hand takes no step of its own; one node reads structs of different shapes', () => {
    const ev = evaluator();
    const structOf = (...fields: [string, number][]): Expr => ({ kind: 'structCon', fields: fields.map(([field, n]) => ({ field, expr: int(n) })) });
    // `\s -> s.b` applied to structs where `b` is the second field, then the first.
    const getB = lam(['s'], { kind: 'structProj', field: 'b', struct: v('s') });
    const both = { kind: 'let', bindings: [{ name: 'getB', type: INT, bound: getB }], body: app(b('ADD_INT64'), app(v('getB'), structOf(['a', 1], ['b', 20])), app(v('getB'), structOf(['b', 300], ['c', 4]))) } satisfies Expr;
    expect(ok(ev.evaluate(both))).toEqual(int64(320n));
    // A type class method through its dictionary: `d.plus 1 2` with `d` bound: one step for the
    // application and one for returning its value (no steps nor frames for `d.plus`).
    const dict = { kind: 'structCon', fields: [{ field: 'plus', expr: b('ADD_INT64') }] } satisfies Expr;
    const call = app({ kind: 'structProj', field: 'plus', struct: v('d') }, int(1), int(2));
    const r = ev.evaluate(call, [['d', ok(ev.evaluate(dict))]]);
    expect(r).toMatchObject({ ok: true, value: int64(3n), steps: 2 });
    // A projection of anything but a struct is still the step's crash.
    expect(ev.evaluate({ kind: 'structProj', field: 'b', struct: v('s') }, [['s', int64(1n)]])).toMatchObject({ ok: false, error: { kind: 'crash', message: 'struct projection of a int64' } });
  });

  it('an expression nested 100,000 deep compiles as it runs, on no JS stack (eval/Node.ts compiles each node on first sight)', () => {
    // let x = 0 in let x = x + 1 in ... in x: a recursive compile stage would overflow here.
    let body: Expr = v('x');
    for (let i = 0; i < 100_000; i++) body = { kind: 'let', bindings: [{ name: 'x', type: INT, bound: app(b('ADD_INT64'), v('x'), int(1)) }], body };
    const deep: Expr = { kind: 'let', bindings: [{ name: 'x', type: INT, bound: int(0) }], body };
    const ev = evaluator();
    expect(ok(ev.evaluate(deep))).toEqual(int64(100_000n));
    // Compiled nodes are shared: a second run (and another evaluator) gives the same.
    expect(ok(ev.evaluate(deep))).toEqual(int64(100_000n));
    expect(ok(evaluator().evaluate(deep))).toEqual(int64(100_000n));
  });

  it('variables are resolved per scope to a slot: one expression object shared by two scopes, or a root evaluated in two layouts, still finds the innermost binding', () => {
    const ev = evaluator();
    // The decoder shares interned expressions between scopes: `x` below is one object, bound at
    // depth 1 on the left and at depth 0 (over a shadowed x at depth 1) on the right.
    const x = v('x');
    const lets = (bindings: [string, number][], body: Expr): Expr => bindings.reduceRight<Expr>((inner, [name, n]) => ({ kind: 'let', bindings: [{ name, type: INT, bound: int(n) }], body: inner }), body);
    const left = lets([['x', 1], ['y', 2]], x);
    const right = lets([['x', 10], ['x', 20]], x);
    expect(ok(ev.evaluate(app(b('ADD_INT64'), left, right)))).toEqual(int64(21n));
    expect(ok(ev.evaluate(app(b('ADD_INT64'), right, left)))).toEqual(int64(21n));
    // One root expression evaluated with bindings of two layouts.
    expect(ok(ev.evaluate(x, [['x', int64(1n)], ['y', int64(2n)]]))).toEqual(int64(1n));
    expect(ok(ev.evaluate(x, [['x', int64(10n)], ['x', int64(20n)]]))).toEqual(int64(20n));
    expect(ok(ev.evaluate(x, [['x', int64(1n)], ['y', int64(2n)]]))).toEqual(int64(1n));
  });

  it('slot-indexed variables read the binding a name-walked environment would: parameters, partial applications, case and let binders, shadowing, unbound names', () => {
    const ev = evaluator();
    const sub = (x: Expr, y: Expr) => app(b('SUB_INT64'), x, y);
    // a - (b - c) tells every slot apart; applied at once, partially (the held and new arguments
    // are one group), over-applied from a partial application, and through a captured environment.
    const f3 = lam(['a', 'b', 'c'], sub(v('a'), sub(v('b'), v('c'))));
    expect(ok(ev.evaluate(app(f3, int(100), int(10), int(1))))).toEqual(int64(91n));
    expect(ok(ev.evaluate(app(app(f3, int(100)), int(10), int(1))))).toEqual(int64(91n));
    expect(ok(ev.evaluate(app(app(app(f3, int(100)), int(10)), int(1))))).toEqual(int64(91n));
    const curried = lam(['a'], lam(['b', 'c'], lam(['d'], sub(sub(v('a'), v('b')), sub(v('c'), v('d'))))));
    expect(ok(ev.evaluate(app(curried, int(1000), int(100), int(10), int(1))))).toEqual(int64(891n));
    expect(ok(ev.evaluate(app(app(curried, int(1000), int(100)), int(10), int(1))))).toEqual(int64(891n));
    // Equal names in one group: the last one binds (as binding them one by one shadowed the first).
    expect(ok(ev.evaluate(app(lam(['x', 'x'], v('x')), int(1), int(2))))).toEqual(int64(2n));
    const list: Expr = { kind: 'cons', type: INT, front: [int(1)], tail: { kind: 'nil', type: INT } };
    expect(ok(ev.evaluate(caseOf(list, { kind: 'cons', head: 'x', tail: 'x', body: v('x') })))).toEqual({ kind: 'nil' });
    expect(ok(ev.evaluate(caseOf(list, { kind: 'cons', head: 'h', tail: 't', body: v('h') })))).toEqual(int64(1n));
    // A case binder over a parameter group and under a let; a let binding sees the ones before it.
    const some3: Expr = { kind: 'optionalSome', type: INT, value: int(3) };
    const nested = lam(['p', 'q'], {
      kind: 'let', bindings: [{ name: 'r', type: INT, bound: sub(v('p'), v('q')) }, { name: 'p', type: INT, bound: sub(v('r'), int(1)) }],
      body: caseOf(some3, { kind: 'optionalNone', body: int(0) }, { kind: 'optionalSome', binder: 'q', body: sub(sub(v('p'), v('q')), v('r')) }),
    });
    // r = 50 - 8 = 42, p = 41, q = 3: (41 - 3) - 42 = -4
    expect(ok(ev.evaluate(app(nested, int(50), int(8))))).toEqual(int64(-4n));
    // A name bound nowhere fails when it is evaluated, naming it, as before.
    expect(ev.evaluate(lam(['a'], v('zz')))).toMatchObject({ ok: true });
    expect(ev.evaluate(app(lam(['a'], v('zz')), int(1)))).toMatchObject({ ok: false, error: { kind: 'crash', message: 'unbound variable zz' } });
    expect(ev.evaluate(app(b('ADD_INT64'), v('zz'), int(1)), [['z', int64(1n)]])).toMatchObject({ ok: false, error: { kind: 'crash', message: 'unbound variable zz' } });
  });

  it('closures capture their environment; partial and over-application', () => {
    const adder = lam(['a'], lam(['b'], app(b('ADD_INT64'), v('a'), v('b'))));
    const ev = evaluator();
    expect(ok(ev.evaluate(app(adder, int(2), int(3))))).toEqual(int64(5n)); // over-application of a 1-ary lambda
    expect(ok(ev.evaluate({ kind: 'let', bindings: [{ name: 'inc', type: INT, bound: app(adder, int(1)) }], body: app(v('inc'), int(41)) }))).toEqual(int64(42n));
    const add3 = lam(['a', 'b', 'c'], app(b('ADD_INT64'), v('a'), app(b('ADD_INT64'), v('b'), v('c'))));
    expect(ok(ev.evaluate(app(app(app(add3, int(1)), int(2)), int(3))))).toEqual(int64(6n));
    expect(ok(ev.evaluate(app(app(b('ADD_INT64'), int(40)), int(2))))).toEqual(int64(42n)); // partially applied builtin
  });

  it('records, variants, enums and structs: construction, projection, update, case', () => {
    const ev = evaluator();
    const point: Expr = { kind: 'recCon', tycon: { tycon: q('Point'), args: [] }, fields: [{ field: 'x', expr: int(1) }, { field: 'y', expr: int(2) }] };
    const moved: Expr = { kind: 'recUpd', tycon: { tycon: q('Point'), args: [] }, field: 'y', record: point, update: int(5) };
    expect(ok(ev.evaluate({ kind: 'recProj', tycon: { tycon: q('Point'), args: [] }, field: 'y', record: moved }))).toEqual(int64(5n));
    expect(ok(ev.evaluate(point))).toEqual({ kind: 'record', tycon: q('Point'), fieldNames: ['x', 'y'], fields: [int64(1n), int64(2n)] });
    const right: Expr = { kind: 'variantCon', tycon: { tycon: q('Either'), args: [] }, constructor: 'Right', arg: int(9) };
    expect(ok(ev.evaluate(right))).toMatchObject({ kind: 'variant', constructor: 'Right', rank: 1, value: int64(9n) });
    const which = (scrut: Expr) => caseOf(scrut,
      { kind: 'variant', tycon: q('Either'), constructor: 'Left', binder: 'l', body: app(b('SUB_INT64'), int(0), v('l')) },
      { kind: 'variant', tycon: q('Either'), constructor: 'Right', binder: 'r', body: v('r') });
    expect(ok(ev.evaluate(which(right)))).toEqual(int64(9n));
    const blue: Expr = { kind: 'enumCon', tycon: q('Color'), constructor: 'Blue' };
    expect(ok(ev.evaluate(blue))).toMatchObject({ kind: 'enum', constructor: 'Blue', rank: 2 });
    expect(ok(ev.evaluate(caseOf(blue, { kind: 'enum', tycon: q('Color'), constructor: 'Red', body: int(0) }, { kind: 'default', body: int(1) })))).toEqual(int64(1n));
    // Struct values hold their fields sorted by name (ValExpStructCon); fields still evaluate in order.
    const struct: Expr = { kind: 'structCon', fields: [{ field: 'zeta', expr: int(1) }, { field: 'alpha', expr: int(2) }] };
    expect(ok(ev.evaluate(struct))).toEqual({ kind: 'struct', fieldNames: ['alpha', 'zeta'], fields: [int64(2n), int64(1n)] });
    expect(ok(ev.evaluate({ kind: 'structProj', field: 'zeta', struct: { kind: 'structUpd', field: 'zeta', struct, update: int(7) } }))).toEqual(int64(7n));
  });

  it('lists and optionals: cons, nil, and every case pattern', () => {
    const ev = evaluator();
    const list: Expr = { kind: 'cons', type: INT, front: [int(1), int(2)], tail: { kind: 'cons', type: INT, front: [int(3)], tail: { kind: 'nil', type: INT } } };
    expect(listItems(ok(ev.evaluate(list)) as never)).toEqual([int64(1n), int64(2n), int64(3n)]);
    const head = (scrut: Expr) => caseOf(scrut, { kind: 'nil', body: int(-1) }, { kind: 'cons', head: 'h', tail: 't', body: v('h') });
    expect(ok(ev.evaluate(head(list)))).toEqual(int64(1n));
    expect(ok(ev.evaluate(head({ kind: 'nil', type: INT })))).toEqual(int64(-1n));
    const get = (scrut: Expr) => caseOf(scrut, { kind: 'optionalNone', body: int(0) }, { kind: 'optionalSome', binder: 'x', body: v('x') });
    expect(ok(ev.evaluate(get({ kind: 'optionalSome', type: INT, value: int(4) })))).toEqual(int64(4n));
    expect(ok(ev.evaluate(get({ kind: 'optionalNone', type: INT })))).toEqual(int64(0n));
    expect(ok(ev.evaluate(caseOf(lit(UNIT), { kind: 'builtinCon', con: 'unit', body: int(8) })))).toEqual(int64(8n));
    expect(ev.evaluate(caseOf(int(1), { kind: 'nil', body: int(0) }))).toMatchObject({ ok: false, error: { kind: 'crash', message: 'no case alternative matches a int64 value' } });
  });

  it('FOLDL, FOLDR and EQUAL_LIST apply Daml functions in the specified order', () => {
    const ev = evaluator();
    const items = lit(listOf([text('a'), text('b'), text('c')]));
    // foldl (\acc x -> acc <> x) "" ["a","b","c"] = "abc"; foldr (\x acc -> acc <> x) "" = "cba"
    expect(ok(ev.evaluate(app(b('FOLDL'), b('APPEND_TEXT'), lit(text('')), items)))).toEqual(text('abc'));
    const snoc = lam(['x', 'acc'], app(b('APPEND_TEXT'), v('acc'), v('x')));
    expect(ok(ev.evaluate(app(b('FOLDR'), snoc, lit(text('')), items)))).toEqual(text('cba'));
    expect(ok(ev.evaluate(app(b('FOLDL'), b('ADD_INT64'), int(0), lit(listOf(Array.from({ length: 100_000 }, (_, i) => int64(BigInt(i))))))))).toEqual(int64(4_999_950_000n));
    expect(ok(ev.evaluate(app(b('EQUAL_LIST'), b('EQUAL'), items, items)))).toEqual({ kind: 'bool', value: true });
    expect(ok(ev.evaluate(app(b('EQUAL_LIST'), b('EQUAL'), items, lit(listOf([text('a')])))))).toEqual({ kind: 'bool', value: false });
  });

  it('to_any / from_any compare types; type_rep; type abstractions over nat stay values until applied', () => {
    const ev = evaluator();
    const TEXT: Type = { kind: 'builtin', builtin: 'TEXT', args: [] };
    expect(ok(ev.evaluate({ kind: 'fromAny', type: INT, expr: { kind: 'toAny', type: INT, expr: int(3) } }))).toEqual(some(int64(3n)));
    expect(ok(ev.evaluate({ kind: 'fromAny', type: TEXT, expr: { kind: 'toAny', type: INT, expr: int(3) } }))).toEqual(NONE);
    expect(ok(ev.evaluate({ kind: 'typeRep', type: INT }))).toEqual({ kind: 'typeRep', type: INT });
    // Λ (n : nat). error "boom" is a value; applying it to a type runs the body.
    const delayed: Expr = { kind: 'tyAbs', params: [{ name: 'n', kind: { kind: 'nat' } }], body: app(b('ERROR'), lit(text('boom'))) };
    expect(ok(ev.evaluate(delayed)).kind).toBe('function');
    expect(ev.evaluate({ kind: 'tyApp', expr: delayed, types: [{ kind: 'nat', value: 10 }] })).toMatchObject({ ok: false, error: { kind: 'userError', message: 'boom' } });
    // Λ (a : *). e is erased: e is evaluated at once.
    const erased: Expr = { kind: 'tyAbs', params: [{ name: 'a', kind: { kind: 'star' } }], body: app(b('ERROR'), lit(text('now'))) };
    expect(ev.evaluate(erased)).toMatchObject({ ok: false, error: { kind: 'userError', message: 'now' } });
  });

  it('throw and arithmetic failures are Daml exceptions; ERROR is not catchable', () => {
    const ev = evaluator();
    const divByZero = ev.evaluate(app(b('DIV_INT64'), int(1), int(0)));
    expect(divByZero).toMatchObject({
      ok: false,
      error: {
        kind: 'unhandledException',
        exception: { type: { kind: 'con', tycon: { packageId: ARITHMETIC_ERROR_PACKAGE_ID, module: 'DA.Exception.ArithmeticError', name: 'ArithmeticError' } } },
      },
    });
    const thrown = ev.evaluate({ kind: 'throw', returnType: INT, exceptionType: { kind: 'con', tycon: q('Point'), args: [] }, expr: int(1) });
    expect(thrown).toMatchObject({ ok: false, error: { kind: 'unhandledException', exception: { value: int64(1n) } } });
    expect(ev.evaluate(app(b('ERROR'), lit(text('stop'))))).toMatchObject({ ok: false, error: { kind: 'userError', message: 'stop' } });
  });

  it('a missing package or definition is a clear error', () => {
    const ev = evaluator();
    expect(ev.evaluate({ kind: 'val', ref: { packageId: 'b'.repeat(64), module: 'X', name: 'y' } })).toMatchObject({
      ok: false, error: { kind: 'missingDefinition', message: `package ${'b'.repeat(64)} is not available (needed for X:y)` },
    });
    expect(ev.evaluate(val('nope'))).toMatchObject({ ok: false, error: { kind: 'missingDefinition', message: `no value M:nope in package ${PKG}` } });
  });
});

describe('interfaces (daml-lf-2.rst: to_interface, from_interface, call_interface, view_interface, ...)', () => {
  const party = (name: string): Value => ({ kind: 'party', value: name });
  const self = (field: string): Expr => ({ kind: 'recProj', tycon: { tycon: q('T'), args: [] }, field, record: v('this') });
  const listExpr = (...items: Expr[]): Expr => ({ kind: 'cons', type: INT, front: items, tail: { kind: 'nil', type: INT } });
  const T_DATA: DataCons = { kind: 'record', fields: [{ name: 'owner', type: INT }, { name: 'n', type: INT }], fieldNames: ['owner', 'n'] };
  const template = (name: string, implementsI: boolean): DefTemplate => ({
    name, param: 'this', precondition: lit({ kind: 'bool', value: true }), key: undefined,
    signatories: listExpr(self('owner')), observers: { kind: 'nil', type: INT },
    choices: new Map([['Ch', {
      name: 'Ch', consuming: true, controllers: listExpr(self('owner')), observers: listExpr(v('arg')), authorizers: undefined,
      argBinder: { name: 'arg', type: INT }, selfBinder: 'self', returnType: INT, update: lit(UNIT),
    }]]),
    implements: new Map(implementsI ? [[qualifiedKey(q('I')), {
      iface: q('I'), methods: new Map([['double', app(b('ADD_INT64'), self('n'), self('n'))]]), view: self('n'),
    }]] : []),
  });
  const base = pkg({}, { T: T_DATA, U: T_DATA, I: { kind: 'interface' } });
  const module = base.modules.get('M')!;
  const withTemplates: Package = {
    ...base,
    modules: new Map([['M', {
      ...module,
      templates: new Map([['T', template('T', true)], ['U', template('U', false)]]),
      interfaces: new Map([['I', { name: 'I', param: 'this', methods: new Map([['double', INT]]), choices: new Map(), view: INT, requires: [] }]]),
    }]]),
  };
  const ev = new Evaluator({ getPackage: (id) => (id === PKG ? withTemplates : undefined) });
  const contract: Expr = { kind: 'recCon', tycon: { tycon: q('T'), args: [] }, fields: [{ field: 'owner', expr: lit(party('Alice')) }, { field: 'n', expr: int(21) }] };
  const asI: Expr = { kind: 'toInterface', iface: q('I'), template: q('T'), expr: contract };
  const cid = lit({ kind: 'contractId', value: '00abc' });

  it('calls methods and views through the template\'s instance', () => {
    expect(ok(ev.evaluate({ kind: 'callInterface', iface: q('I'), method: 'double', expr: asI }))).toEqual(int64(42n));
    expect(ok(ev.evaluate({ kind: 'viewInterface', iface: q('I'), expr: asI }))).toEqual(int64(21n));
    expect(ok(ev.evaluate({ kind: 'signatoryInterface', iface: q('I'), expr: asI }))).toEqual(listOf([party('Alice')]));
    expect(ok(ev.evaluate({ kind: 'observerInterface', iface: q('I'), expr: asI }))).toEqual(listOf([]));
    expect(ok(ev.evaluate({ kind: 'interfaceTemplateTypeRep', iface: q('I'), expr: asI }))).toEqual({ kind: 'typeRep', type: { kind: 'con', tycon: q('T'), args: [] } });
  });

  it('converts back only to the contract\'s own template', () => {
    expect(ok(ev.evaluate({ kind: 'fromInterface', iface: q('I'), template: q('T'), expr: asI }))).toMatchObject(some({ kind: 'record', tycon: q('T') } as never));
    expect(ok(ev.evaluate({ kind: 'fromInterface', iface: q('I'), template: q('U'), expr: asI }))).toEqual(NONE);
    expect(ok(ev.evaluate({ kind: 'unsafeFromInterface', iface: q('I'), template: q('T'), cid, expr: asI }))).toMatchObject({ kind: 'record', tycon: q('T') });
    expect(ev.evaluate({ kind: 'unsafeFromInterface', iface: q('I'), template: q('U'), cid, expr: asI })).toMatchObject({ ok: false, error: { kind: 'crash', message: 'contract 00abc is not a M:U' } });
    expect(ok(ev.evaluate({ kind: 'fromRequiredInterface', required: q('I'), requiring: q('I'), expr: asI }))).toMatchObject({ kind: 'optional' });
  });

  it('choice controllers and observers see the contract and the choice argument', () => {
    expect(ok(ev.evaluate({ kind: 'choiceController', template: q('T'), choice: 'Ch', contract, arg: lit(party('Bob')) }))).toEqual(listOf([party('Alice')]));
    expect(ok(ev.evaluate({ kind: 'choiceObserver', template: q('T'), choice: 'Ch', contract, arg: lit(party('Bob')) }))).toEqual(listOf([party('Bob')]));
  });
});

describe.skipIf(!HAS_DARS)('evaluating real definitions of the reference DARs (needs ../shared/upstream/daml/dars)', () => {
  const { dar, packages } = HAS_DARS ? loadDar('splice-amulet-0.1.14.dar') : ({} as ReturnType<typeof loadDar>);
  const find = (pkgName: string, module: string, name: string): Expr => {
    const pkg = dar.packages.find((p) => p.metadata?.name === pkgName && p.modules.get(module)?.values.has(name));
    if (!pkg) throw new Error(`no ${module}:${name} in ${pkgName}`);
    return { kind: 'val', ref: { packageId: pkg.id, module, name } };
  };
  const ev = () => new Evaluator({ getPackage: (id) => packages.get(id) });
  const ints = (...ns: number[]): Value => listOf(ns.map((n) => int64(BigInt(n))));

  it('daml-prim GHC.Base:map and daml-stdlib list functions', () => {
    const e = ev();
    const map = find('daml-prim', 'GHC.Base', 'map');
    expect(ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: map, types: [INT, INT] }, args: [app(b('ADD_INT64'), int(1)), lit(ints(1, 2, 3))] }))).toEqual(ints(2, 3, 4));
    const reverse = find('daml-stdlib', 'DA.Internal.Prelude', 'reverse');
    expect(ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: reverse, types: [INT] }, args: [lit(ints(1, 2, 3))] }))).toEqual(ints(3, 2, 1));
    const zip = find('daml-stdlib', 'DA.Internal.Prelude', 'zip');
    const zipped = ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: zip, types: [INT, INT] }, args: [lit(ints(1, 2, 3)), lit(ints(4, 5))] }));
    expect(listItems(zipped as never).map((t) => (t as unknown as { fields: Value[] }).fields)).toEqual([[int64(1n), int64(4n)], [int64(2n), int64(5n)]]);
  });

  it('class methods through their dictionaries: GHC.Num (+) on Int, GHC.Show show on Int and lists', () => {
    const e = ev();
    const plus = find('daml-prim', 'GHC.Num', '$u002b');
    const additiveInt = find('daml-prim', 'GHC.Num', '$$fAdditiveInt');
    expect(ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: plus, types: [INT] }, args: [additiveInt, int(40), int(2)] }))).toEqual(int64(42n));
    const show = find('daml-prim', 'GHC.Show', 'show');
    const showInt = find('daml-prim', 'GHC.Show', '$$fShowInt');
    expect(ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: show, types: [INT] }, args: [showInt, int(42)] }))).toEqual(text('42'));
    expect(ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: show, types: [INT] }, args: [showInt, int(-5)] }))).toEqual(text('-5'));
    const showList = find('daml-prim', 'GHC.Show', '$$fShow$u005b$u005d');
    const LIST_INT: Type = { kind: 'builtin', builtin: 'LIST', args: [INT] };
    const showInts = { kind: 'app', fun: { kind: 'tyApp', expr: showList, types: [INT] }, args: [showInt] } as const satisfies Expr;
    expect(ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: show, types: [LIST_INT] }, args: [showInts, lit(ints(1, 2, 3))] }))).toEqual(text('[1,2,3]'));
  });

  it('Splice pure functions: Splice.Util patchScalar and patchListAsScalar (splice-util)', () => {
    const e = ev();
    const eqInt = find('daml-prim', 'GHC.Classes', '$$fEqInt');
    const call = (name: string, ...args: Expr[]): Value =>
      ok(e.evaluate({ kind: 'app', fun: { kind: 'tyApp', expr: find('splice-util', 'Splice.Util', name), types: [INT] }, args: [eqInt, ...args] }));
    // patchScalar new base current: the new value if it changed from base, else the current one.
    expect(call('patchScalar', int(5), int(5), int(7))).toEqual(int64(7n));
    expect(call('patchScalar', int(6), int(5), int(7))).toEqual(int64(6n));
    expect(call('patchListAsScalar', lit(ints(1, 2)), lit(ints(1, 2)), lit(ints(3)))).toEqual(ints(3));
    expect(call('patchListAsScalar', lit(ints(1, 2)), lit(ints(1)), lit(ints(3)))).toEqual(ints(1, 2));
  });

  it('an ArithmeticError from a builtin is daml-prim\'s exception, whose message ANY_EXCEPTION_MESSAGE reads', () => {
    const arithmetic = packages.get(ARITHMETIC_ERROR_PACKAGE_ID);
    expect(arithmetic?.modules.get('DA.Exception.ArithmeticError')?.exceptions.has('ArithmeticError')).toBe(true);
    const e = ev();
    const failed = e.evaluate(app(b('DIV_INT64'), int(7), int(0)));
    if (failed.ok || failed.error.kind !== 'unhandledException') throw new Error('expected an unhandled ArithmeticError');
    const message = e.evaluate({ kind: 'app', fun: { kind: 'builtin', builtin: 'ANY_EXCEPTION_MESSAGE' }, args: [lit(failed.error.exception)] });
    // The message is the payload's `message` field (its wording is the builtin's).
    const payload = failed.error.exception.value as unknown as { fieldNames: string[]; fields: Value[] };
    expect(payload.fieldNames).toEqual(['message']);
    expect(ok(message)).toEqual(payload.fields[0]);
    expect(ok(message)).toMatchObject({ kind: 'text', value: expect.stringMatching(/ArithmeticError/) });
  });
});
