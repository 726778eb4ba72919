/**
 * The direct evaluator against the machine alone (eval/Evaluator.ts, `directDepth`): the direct
 * evaluator takes the machine's steps on the JavaScript stack and hands its frames to the machine
 * whenever it must (budget, slice end, depth, nodes only the machine runs). Whatever the depth at
 * which it hands over, every program gives the same value or error after the same number of steps,
 * under every budget and in slices of every size: budgets keep their meaning.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { CaseAlt, Expr } from '../../daml-engine/ast/Expr.js';
import type { DataCons, DefInterface, DefTemplate, DefValue, Module, Package } from '../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import type { BuiltinName } from '../../daml-engine/builtins/Builtin.js';
import { Evaluator } from '../../daml-engine/eval/Evaluator.js';
import type { EvalResult } from '../../daml-engine/eval/EvalResult.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { int64, NIL, text, UNIT } from '../../daml-engine/value/Value.js';

// ---- a hand-built package: every node kind the direct evaluator runs, and the ones it hands over ----

const PKG = 'd'.repeat(64);
const q = (name: string): QualifiedName => ({ packageId: PKG, module: 'M', name });
const INT: Type = { kind: 'builtin', builtin: 'INT64', args: [] };
const v = (name: string): Expr => ({ kind: 'var', name });
const val = (name: string): Expr => ({ kind: 'val', ref: q(name) });
const int = (n: number): Expr => ({ kind: 'lit', value: int64(BigInt(n)) });
const app = (fun: Expr, ...args: Expr[]): Expr => ({ kind: 'app', fun, args });
const lam = (params: string[], body: Expr): Expr => ({ kind: 'abs', params: params.map((name) => ({ name, type: INT })), body });
const b = (builtin: BuiltinName): Expr => ({ kind: 'builtin', builtin });
const add = (x: Expr, y: Expr): Expr => app(b('ADD_INT64'), x, y);
const sub = (x: Expr, y: Expr): Expr => app(b('SUB_INT64'), x, y);
const letIn = (bindings: [string, Expr][], body: Expr): Expr => ({ kind: 'let', bindings: bindings.map(([name, bound]) => ({ name, type: INT, bound })), body });
const caseOf = (scrut: Expr, ...alts: CaseAlt[]): Expr => ({ kind: 'case', scrut, alts });
const ifThenElse = (cond: Expr, then: Expr, otherwise: Expr): Expr =>
  caseOf(cond, { kind: 'builtinCon', con: 'true', body: then }, { kind: 'builtinCon', con: 'false', body: otherwise });
const list = (...items: Expr[]): Expr => ({ kind: 'cons', type: INT, front: items, tail: { kind: 'nil', type: INT } });
const tycon = (name: string) => ({ tycon: q(name), args: [] });
const natAbs = (name: string, body: Expr): Expr => ({ kind: 'tyAbs', params: [{ name, kind: { kind: 'nat' } }], body });
const tyApp = (expr: Expr, ...scales: number[]): Expr => ({ kind: 'tyApp', expr, types: scales.map((value): Type => ({ kind: 'nat', value })) });

const UNIT_LIT: Expr = { kind: 'lit', value: UNIT };
const method = (field: string): Expr => ({ kind: 'structProj', field, struct: val('dict') });

const POINT: DataCons = { kind: 'record', fields: [{ name: 'x', type: INT }, { name: 'y', type: INT }], fieldNames: ['x', 'y'] };
const SHAPE: DataCons = { kind: 'variant', constructors: [{ name: 'Circle', type: INT }, { name: 'Square', type: INT }] };
const COLOR: DataCons = { kind: 'enum', constructors: ['Red', 'Green'] };

const DEFS: Record<string, Expr> = {
  // Not a tail call: every level waits for the next (the direct evaluator nests, then hands over).
  sumTo: lam(['n'], ifThenElse(app(b('EQUAL'), v('n'), int(0)), int(0), add(v('n'), app(val('sumTo'), sub(v('n'), int(1)))))),
  // A tail call: no frame on either side.
  countDown: lam(['n'], ifThenElse(app(b('EQUAL'), v('n'), int(0)), int(0), app(val('countDown'), sub(v('n'), int(1))))),
  // A list built by non-tail recursion.
  upTo: lam(['n'], ifThenElse(app(b('EQUAL'), v('n'), int(0)), { kind: 'nil', type: INT },
    { kind: 'cons', type: INT, front: [v('n')], tail: app(val('upTo'), sub(v('n'), int(1))) })),
  // A top-level value evaluated on first use (a SetTop frame in the machine).
  ten: add(int(4), int(6)),
  cyclic: add(int(1), val('cyclic')),
  traced: app(b('TRACE'), { kind: 'lit', value: text('traced once') }, int(3)),
  // An interface method (the template's body, naming the template), then a failure of this definition's own.
  sizeThenFail: lam(['n'], add(
    { kind: 'callInterface', iface: q('Sized'), method: 'size', expr: { kind: 'toInterface', iface: q('Sized'), template: q('Point'), expr: { kind: 'recCon', tycon: { tycon: q('Point'), args: [] }, fields: [{ field: 'x', expr: v('n') }, { field: 'y', expr: int(1) }] } } },
    app(b('DIV_INT64'), int(1), sub(v('n'), v('n'))))),
  // A type class dictionary as damlc compiles one: every method takes () first, then its arguments.
  dict: { kind: 'structCon', fields: [
    { field: 'plus', expr: lam(['u'], lam(['x', 'y'], add(v('x'), v('y')))) },
    { field: 'prim', expr: lam(['u'], b('ADD_INT64')) },
    { field: 'two', expr: lam(['u', 'x'], lam(['y'], add(v('x'), v('y')))) },
    { field: 'inc', expr: lam(['u'], lam(['x'], add(v('x'), int(1)))) },
  ] },
  // Non-tail recursion calling a method of each shape at every level: n(n+1)/2 + n.
  sumVia: lam(['n'], ifThenElse(app(b('EQUAL'), v('n'), int(0)), int(0), letIn([
    ['m', sub(v('n'), int(1))], ['r', app(val('sumVia'), v('m'))],
    ['a', app(method('plus'), UNIT_LIT, v('n'), v('r'))], ['c', app(method('prim'), UNIT_LIT, v('a'), int(0))],
    ['d', app(method('two'), UNIT_LIT, v('c'), int(0))],
  ], app(method('inc'), UNIT_LIT, v('d'))))),
};

/**
 * A template of Points implementing the interface `Sized`: the interface nodes (`call_interface`,
 * `view_interface`, `signatory_interface`, `observer_interface`) run its bodies with `p` bound,
 * and the method recurses through `sumTo`, so a hand-over can fall inside it.
 */
const PARTY = { kind: 'lit', value: { kind: 'party', value: 'Alice' } } satisfies Expr;
const SIZED = q('Sized');
const BOX_TEMPLATE: DefTemplate = {
  name: 'Point', param: 'p', precondition: { kind: 'lit', value: { kind: 'bool', value: true } },
  signatories: list(PARTY), observers: { kind: 'nil', type: INT }, choices: new Map(), key: undefined,
  implements: new Map([[`${PKG}:M:Sized`, {
    iface: SIZED,
    methods: new Map([['size', add(app(val('sumTo'), { kind: 'recProj', tycon: tycon('Point'), field: 'x', record: v('p') }), { kind: 'recProj', tycon: tycon('Point'), field: 'y', record: v('p') })]]),
    view: { kind: 'recProj', tycon: tycon('Point'), field: 'y', record: v('p') },
  }]]),
};
const SIZED_INTERFACE: DefInterface = { name: 'Sized', param: 'this', methods: new Map([['size', INT]]), choices: new Map(), view: INT, requires: [] };

function pkg(): Package {
  const module: Module = {
    name: 'M', synonyms: new Map(), templates: new Map([['Point', BOX_TEMPLATE]]), exceptions: new Map(), interfaces: new Map([['Sized', SIZED_INTERFACE]]),
    values: new Map(Object.entries(DEFS).map(([name, expr]): [string, DefValue] => [name, { name, type: INT, expr }])),
    dataTypes: new Map(Object.entries({ Point: POINT, Shape: SHAPE, Color: COLOR }).map(([name, cons]) => [name, { name, params: [], serializable: true, cons }])),
  };
  return { id: PKG, lfVersion: '2.1', metadata: { name: 'm', version: '1.0.0', upgradedPackageId: undefined }, modules: new Map([['M', module]]), imports: undefined };
}
const PACKAGE = pkg();
const getPackage = (id: string) => (id === PKG ? PACKAGE : undefined);

const point = (x: Expr, y: Expr): Expr => ({ kind: 'recCon', tycon: tycon('Point'), fields: [{ field: 'y', expr: y }, { field: 'x', expr: x }] });
const sumList = (xs: Expr): Expr => app(b('FOLDL'), lam(['acc', 'x'], add(v('acc'), v('x'))), int(0), xs);

/** Programs by name: each runs alone on a fresh evaluator. */
const PROGRAMS: Record<string, Expr> = {
  'non-tail recursion 600 deep': app(val('sumTo'), int(600)),
  'tail recursion': app(val('countDown'), int(300)),
  'FOLDL over a list built by recursion': sumList(app(val('upTo'), int(200))),
  'FOLDR building a list, its function a partial application': app(b('FOLDR'), app(lam(['k', 'x', 'xs'], { kind: 'cons', type: INT, front: [add(v('k'), v('x'))], tail: v('xs') }), int(100)),
    { kind: 'nil', type: INT }, app(val('upTo'), int(50))),
  'FOLDL nested in FOLDL': app(b('FOLDL'), lam(['acc', 'x'], add(v('acc'), sumList(app(val('upTo'), v('x'))))), int(0), list(int(3), int(30), int(7))),
  'over-application of a closure and of a partial application': letIn([
    ['curried', lam(['a'], lam(['b2'], add(v('a'), v('b2'))))],
    ['three', lam(['a', 'b2', 'c'], add(v('a'), add(v('b2'), v('c'))))],
  ], add(app(v('curried'), app(val('sumTo'), int(5)), int(2)),
    add(app(app(v('three'), int(1)), int(2), add(int(3), int(4))), app(app(v('three'), int(1), int(2)), int(3))))),
  'type class methods: () first, then the arguments (dict.m () x y)': app(val('sumVia'), int(60)),
  'over-application of FOLDL (its result a function)': app(b('FOLDL'), lam(['f', 'x'], v('f')), lam(['y'], add(v('y'), int(1))), list(int(1), int(2)), add(int(40), int(1))),
  'records, structs, variants, enums, optionals, lists': letIn([
    ['p', point(add(int(1), int(2)), app(val('sumTo'), int(4)))],
    ['p2', { kind: 'recUpd', tycon: tycon('Point'), field: 'y', record: v('p'), update: add(int(5), int(5)) }],
    ['s', { kind: 'structCon', fields: [{ field: 'b', expr: add(int(1), int(1)) }, { field: 'a', expr: { kind: 'recProj', tycon: tycon('Point'), field: 'x', record: v('p2') } }] }],
    ['s2', { kind: 'structUpd', field: 'a', struct: v('s'), update: { kind: 'structProj', field: 'b', struct: v('s') } }],
    ['shape', { kind: 'variantCon', tycon: tycon('Shape'), constructor: 'Square', arg: add(int(2), int(3)) }],
    ['area', caseOf(v('shape'), { kind: 'variant', tycon: q('Shape'), constructor: 'Circle', binder: 'r', body: v('r') },
      { kind: 'variant', tycon: q('Shape'), constructor: 'Square', binder: 's', body: app(b('MUL_INT64'), v('s'), v('s')) })],
    ['color', caseOf({ kind: 'enumCon', tycon: q('Color'), constructor: 'Green' }, { kind: 'enum', tycon: q('Color'), constructor: 'Red', body: int(1) }, { kind: 'default', body: int(2) })],
    ['opt', caseOf({ kind: 'optionalSome', type: INT, value: add(v('area'), v('color')) }, { kind: 'optionalNone', body: int(0) }, { kind: 'optionalSome', binder: 'o', body: v('o') })],
    ['xs', list(v('opt'), { kind: 'recProj', tycon: tycon('Point'), field: 'y', record: v('p2') }, { kind: 'structProj', field: 'a', struct: v('s2') }, val('ten'))],
  ], caseOf(v('xs'), { kind: 'nil', body: int(-1) }, { kind: 'cons', head: 'h', tail: 't', body: add(v('h'), sumList(v('t'))) })),
  'interface methods, views, signatories and observers of a contract (the template\'s bodies)': letIn([
    ['i', { kind: 'toInterface', iface: SIZED, template: q('Point'), expr: point(add(int(20), int(5)), app(val('sumTo'), int(3))) }],
    ['size', { kind: 'callInterface', iface: SIZED, method: 'size', expr: v('i') }],
    ['view', { kind: 'viewInterface', iface: SIZED, expr: v('i') }],
    ['sigs', { kind: 'signatoryInterface', iface: SIZED, expr: v('i') }],
    ['obs', { kind: 'observerInterface', iface: SIZED, expr: v('i') }],
  ], add(add(v('size'), v('view')), caseOf(v('sigs'), { kind: 'nil', body: int(-100) }, { kind: 'cons', head: 'h', tail: 't', body: caseOf(v('obs'), { kind: 'nil', body: int(1) }, { kind: 'default', body: int(-1000) }) }))),
  'a failure after an interface method names the definition that called it': app(val('sizeThenFail'), int(4)),
  'an interface method of a template that has none': { kind: 'callInterface', iface: SIZED, method: 'area', expr: { kind: 'toInterface', iface: SIZED, template: q('Point'), expr: point(int(1), int(2)) } },
  'let bindings that wait, one after another': letIn([
    ['a', add(int(1), int(2))], ['b', add(v('a'), add(int(3), int(4)))], ['c', add(v('b'), v('a'))],
  ], add(v('c'), v('b'))),
  'type abstractions over a nat, applied one and two at a time': letIn([
    ['one', natAbs('n', lam(['x'], add(v('x'), int(1))))],
    ['two', natAbs('n', natAbs('m', lam(['x'], add(v('x'), int(2)))))],
  ], add(app(tyApp(v('one'), 10), int(1)), add(app(tyApp(v('two'), 10, 11), int(1)), app(tyApp(tyApp(v('two'), 10), 11), app(val('sumTo'), int(3)))))),
  'a partial type application is a value': letIn([['two', natAbs('n', natAbs('m', lam(['x'], v('x'))))]], tyApp(v('two'), 10)),
  'TRACE and EQUAL_LIST (the machine runs them)': add(val('traced'), caseOf(app(b('EQUAL_LIST'), b('EQUAL'), app(val('upTo'), int(20)), app(val('upTo'), int(20))),
    { kind: 'builtinCon', con: 'true', body: int(1) }, { kind: 'builtinCon', con: 'false', body: int(0) })),
  'an arithmetic error deep in recursion (a Daml exception, uncaught)': add(app(val('sumTo'), int(30)), app(b('DIV_INT64'), int(1), sub(int(3), int(3)))),
  'ERROR deep in a fold': app(b('FOLDL'), lam(['acc', 'x'], ifThenElse(app(b('EQUAL'), v('x'), int(7)), app(b('ERROR'), { kind: 'lit', value: text('seven') }), add(v('acc'), v('x')))), int(0), app(val('upTo'), int(10))),
  'a value that needs itself': add(int(1), val('cyclic')),
  'an unbound variable': add(int(1), v('nowhere')),
  'a number applied as a function': app(add(int(1), int(2)), int(3)),
};

/** Directions: 0 the machine alone; small depths hand over at almost every sub-expression. */
const DEPTHS = [0, 1, 2, 3, 7, 256] as const;

interface Outcome { readonly result: EvalResult; readonly trace: readonly string[] }

function run(expr: Expr, directDepth: number, stepBudget?: number): Outcome {
  const trace: string[] = [];
  const result = new Evaluator({ getPackage, directDepth, stepBudget, onTrace: (m) => trace.push(m) }).evaluate(expr);
  return { result, trace };
}

async function runSliced(expr: Expr, directDepth: number, steps: number): Promise<Outcome & { pauses: number }> {
  const trace: string[] = [];
  const e = new Evaluator({ getPackage, directDepth, onTrace: (m) => trace.push(m) });
  let pauses = 0;
  const result = await e.runMachineSliced(() => e.evalWith(expr, null), { steps, pause: async () => { pauses++; } });
  return { result, trace, pauses };
}

describe('the direct evaluator takes the machine\'s steps to the machine\'s results (eval/Evaluator.ts)', () => {
  for (const [name, expr] of Object.entries(PROGRAMS)) {
    it(`${name}: the same result and steps at every hand-over depth`, () => {
      const machine = run(expr, 0);
      expect(machine.result.steps).toBeGreaterThan(1);
      for (const depth of DEPTHS.slice(1)) expect(run(expr, depth), `depth ${depth}`).toEqual(machine);
    });
  }

  it('the results are the programs\' own (the comparison is not between two wrong answers)', () => {
    const value = (name: string): Value | string => { const r = run(PROGRAMS[name]!, 256).result; return r.ok ? r.value : r.error.kind; };
    expect(value('non-tail recursion 600 deep')).toEqual(int64(180_300n));
    expect(value('FOLDL over a list built by recursion')).toEqual(int64(20_100n));
    expect(value('FOLDL nested in FOLDL')).toEqual(int64(6n + 465n + 28n));
    expect(value('over-application of a closure and of a partial application')).toEqual(int64(17n + 10n + 6n));
    expect(value('over-application of FOLDL (its result a function)')).toEqual(int64(42n));
    expect(value('type class methods: () first, then the arguments (dict.m () x y)')).toEqual(int64(1830n + 60n));
    // p = {x 3, y 10} updated to y 10; s = {a 3, b 2}; s2.a = 2; area 25 + Green 2 = 27: 27 + 10 + 2 + 10.
    expect(value('records, structs, variants, enums, optionals, lists')).toEqual(int64(49n));
    expect(value('let bindings that wait, one after another')).toEqual(int64(23n));
    // size = sumTo 25 + y (6) = 331, view = y = 6, one signatory and no observers: 1.
    expect(value('interface methods, views, signatories and observers of a contract (the template\'s bodies)')).toEqual(int64(331n + 6n + 1n));
    expect(value('an interface method of a template that has none')).toBe('crash');
    const failed = run(PROGRAMS['a failure after an interface method names the definition that called it']!, 256).result;
    expect(!failed.ok && failed.error.definition).toEqual(q('sizeThenFail'));
    expect(value('type abstractions over a nat, applied one and two at a time')).toEqual(int64(2n + 3n + 8n));
    expect(value('TRACE and EQUAL_LIST (the machine runs them)')).toEqual(int64(4n));
    expect(value('an arithmetic error deep in recursion (a Daml exception, uncaught)')).toBe('unhandledException');
    expect(value('ERROR deep in a fold')).toBe('userError');
    expect(value('a value that needs itself')).toBe('crash');
    expect(value('an unbound variable')).toBe('crash');
    const folded = run(PROGRAMS['FOLDR building a list, its function a partial application']!, 256).result;
    expect(folded.ok && folded.value.kind === 'cons' && folded.value.head).toEqual(int64(150n));
    expect(run(PROGRAMS['TRACE and EQUAL_LIST (the machine runs them)']!, 256).trace).toEqual(['traced once']);
  });

  it('any step budget stops both at the same step, with the same error (property)', () => {
    const names = Object.keys(PROGRAMS);
    fc.assert(fc.property(fc.constantFrom(...names), fc.double({ min: 0, max: 1.05, noNaN: true }), fc.constantFrom(1, 2, 5, 256), (name, at, depth) => {
      const expr = PROGRAMS[name]!;
      const budget = Math.max(1, Math.floor(run(expr, 0).result.steps * at));
      expect(run(expr, depth, budget)).toEqual(run(expr, 0, budget));
    }), { numRuns: 150, seed: 31 });
  });

  it('a run in slices of any size pauses at the same steps and ends as a run in one go (property)', async () => {
    const names = Object.keys(PROGRAMS);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...names), fc.integer({ min: 1, max: 400 }), fc.constantFrom(1, 3, 256), async (name, steps, depth) => {
      const expr = PROGRAMS[name]!;
      const machine = await runSliced(expr, 0, steps);
      expect(await runSliced(expr, depth, steps)).toEqual(machine);
      expect({ result: machine.result, trace: machine.trace }).toEqual(run(expr, 0));
    }), { numRuns: 80, seed: 34 });
  });

  it('recursion far past the hand-over depth runs on the machine\'s stack, not the JavaScript stack', () => {
    const deep = app(val('sumTo'), int(200_000));
    const r = run(deep, 256).result;
    expect(r.ok && r.value).toEqual(int64(20_000_100_000n));
    expect(r.steps).toBe(run(deep, 0).result.steps);
  });

  it('the list results are whole lists at every depth', () => {
    const r = run(app(val('upTo'), int(3)), 1).result;
    expect(r.ok && r.value).toEqual({ kind: 'cons', head: int64(3n), tail: { kind: 'cons', head: int64(2n), tail: { kind: 'cons', head: int64(1n), tail: NIL } } });
  });
});

// ---- Splice's own test scripts, on the in-memory ledger (needs ../shared) ---------------------

const SPLICE_TEST = join(import.meta.dirname, '../../../shared/upstream/daml/dars/history/splice-amulet-test-0.1.8.dar');

describe.skipIf(!existsSync(SPLICE_TEST))('splice-amulet-test with and without the direct evaluator (needs ../shared/upstream/daml/dars)', () => {
  it('the same results, steps, questions and traces, script by script', async () => {
    const { readFileSync } = await import('node:fs');
    const { loadDarScripts, runDarScripts } = await import('../../daml-engine/script/runDarScripts.js');
    const loaded = loadDarScripts(readFileSync(SPLICE_TEST));
    if (!loaded.ok) throw new Error(loaded.message);
    // A third of the scripts, spread over the DAR (the whole DAR is the bench's: bench/daml-script.ts).
    const scripts = loaded.loaded.scripts.filter((_s, i) => i % 3 === 0);
    const strip = (rs: Awaited<ReturnType<typeof runDarScripts>>) => rs.map(({ durationMs: _d, ...r }) => r);
    const machine = strip(await runDarScripts(loaded.loaded, scripts, { directDepth: 0 }));
    expect(machine.filter((r) => r.ok).length).toBe(scripts.length);
    expect(strip(await runDarScripts(loaded.loaded, scripts, {}))).toEqual(machine);
    expect(strip(await runDarScripts(loaded.loaded, scripts, { directDepth: 2 }))).toEqual(machine);
  }, 300_000);
});
