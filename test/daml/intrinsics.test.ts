/**
 * Intrinsics (daml-engine/eval/intrinsics.ts, callStackIntrinsics.ts): a library function runs
 * natively only where its body is upstream's, and then answers exactly as its body does: the same
 * values, the same failures, and the allocation budget stops it where it stops the body.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Expr } from '../../daml-engine/ast/Expr.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import type { BindingSpec } from '../../daml-engine/build/E.js';
import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { Packages } from '../../daml-engine/decode/Packages.js';
import { Evaluator } from '../../daml-engine/eval/Evaluator.js';
import type { EvalResult } from '../../daml-engine/eval/EvalResult.js';
import { definitionFingerprint, INTRINSICS } from '../../daml-engine/eval/intrinsics.js';
import { showLitText } from '../../daml-engine/eval/showsPrecText.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { int64, text } from '../../daml-engine/value/Value.js';
import { allDars, DARS_DIR, HAS_DARS, loadDar } from './damlFixtures.js';

type Source = (id: string) => Package | undefined;

/** `f a b` for the top-level function `ref`, with intrinsics on or off. */
function call(source: Source, ref: QualifiedName, a: string, b: string, intrinsics: boolean): { value: Value; steps: number } {
  const evaluator = new Evaluator({ getPackage: source, intrinsics });
  const fn = ok(evaluator.value(ref));
  const result = evaluator.apply(fn.value, [text(a), text(b)]);
  const applied = ok(result);
  return { value: applied.value, steps: fn.steps + applied.steps };
}

function ok(result: EvalResult): { value: Value; steps: number } {
  if (!result.ok) throw new Error(`${result.error.kind}: ${'message' in result.error ? String(result.error.message) : ''}`);
  return { value: result.value, steps: result.steps };
}

const bool = (v: Value): boolean | string => (v.kind === 'bool' ? v.value : v.kind);

/** A package of our own with `DA.Text:isPrefixOf` answering `answer` whatever it is given. */
function impostor(answer: boolean): { source: Source; ref: QualifiedName; pkg: Package } {
  const b = new PackageBuilder({ name: 'daml-stdlib', version: '9.9.9' });
  b.module('DA.Text').value('isPrefixOf', T.arrow(T.text, T.text, T.bool), E.lam([['a', T.text], ['b', T.text]], E.bool(answer)));
  const built = b.build();
  return { source: (id) => (id === built.id ? built.package : undefined), ref: built.ref('DA.Text', 'isPrefixOf'), pkg: built.package };
}

describe('a definition is replaced only when its code is upstream\'s', () => {
  it('a package reusing the module and name keeps its own code', () => {
    const always = impostor(true);
    // Not a prefix: a native isPrefixOf would say False.
    expect(bool(call(always.source, always.ref, 'abc', 'xyz', true).value)).toBe(true);
    const never = impostor(false);
    expect(bool(call(never.source, never.ref, 'a', 'abc', true).value)).toBe(false);
    const allListed = new Set(INTRINSICS.flatMap((i) => [...i.fingerprints]));
    expect(allListed.has(definitionFingerprint(always.ref, always.source)!)).toBe(false);
  });

  it('the fingerprint leaves out package ids, follows references, and stops at cycles and missing code', () => {
    const build = (name: string, answer: boolean) => {
      const b = new PackageBuilder({ name, version: '1.0.0' });
      const m = b.module('M');
      // f calls g, g calls f: a cycle through two definitions; h answers a literal.
      m.value('h', T.bool, E.bool(answer));
      m.value('f', T.arrow(T.int64, T.bool), E.lam([['x', T.int64]], E.app(E.val(m.ref('g')), E.var('x'))));
      m.value('g', T.arrow(T.int64, T.bool), E.lam([['x', T.int64]], E.if(E.val(m.ref('h')), E.app(E.val(m.ref('f')), E.var('x')), E.false)));
      const built = b.build();
      const source: Source = (id) => (id === built.id ? built.package : undefined);
      return { fingerprint: definitionFingerprint(built.ref('M', 'f'), source), id: built.id };
    };
    const one = build('one', true);
    const two = build('two', true);
    expect(one.id).not.toBe(two.id);
    expect(one.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(two.fingerprint).toBe(one.fingerprint);
    // A change two references away changes it.
    expect(build('three', false).fingerprint).not.toBe(one.fingerprint);
    // A reference to a package the caller does not have: no fingerprint, never replaced.
    const b = new PackageBuilder({ name: 'dangling', version: '1.0.0' });
    b.module('M').value('f', T.bool, E.val({ packageId: 'f'.repeat(64), module: 'M', name: 'g' }));
    const built = b.build();
    expect(definitionFingerprint(built.ref('M', 'f'), (id) => (id === built.id ? built.package : undefined))).toBeUndefined();
  });

  it('a look-alike with a large body is not written out: no fingerprint, its own code runs', () => {
    const b = new PackageBuilder({ name: 'daml-stdlib', version: '9.9.8' });
    const m = b.module('DA.Text');
    // 20,000 list items: past the bound on one definition's objects.
    m.value('big', T.list(T.int64), E.list(T.int64, Array.from({ length: 20_000 }, (_, i) => E.int64(i))));
    // Referenced many times: each reference would write `big` out again without the bound.
    const uses = Array.from({ length: 30 }, () => E.val(m.ref('big')));
    m.value('isPrefixOf', T.arrow(T.text, T.text, T.bool), E.lam([['a', T.text], ['b', T.text]],
      E.let(uses.map((u, i): BindingSpec => [`x${i}`, T.list(T.int64), u]), E.true)));
    const built = b.build();
    const source: Source = (id) => (id === built.id ? built.package : undefined);
    const ref = built.ref('DA.Text', 'isPrefixOf');
    expect(definitionFingerprint(ref, source)).toBeUndefined();
    expect(bool(call(source, ref, 'abc', 'xyz', true).value)).toBe(true);
  });
});

/** The packages of the reference DARs, decoded once: those of one name (id -> version), and a source of them all. */
interface Reference { readonly named: (name: string) => Map<string, string>; readonly source: Source }
let reference: Reference | undefined;
const NO_REFERENCE: Reference = { named: () => new Map(), source: () => undefined };
function referencePackages(): Reference {
  if (!HAS_DARS) return NO_REFERENCE;
  if (reference) return reference;
  const packages = new Packages();
  const all: Package[] = [];
  for (const path of allDars()) all.push(...loadDar(path.slice(DARS_DIR.length + 1), packages).dar.packages);
  reference = {
    named: (name) => new Map(all.filter((p) => p.metadata?.name === name).map((p) => [p.id, p.metadata!.version])),
    source: (id) => packages.get(id),
  };
  return reference;
}

/** The fingerprints INTRINSICS lists for `module:value`. */
const listed = (module: string, value: string) => INTRINSICS.find((i) => i.module === module && i.value === value)!.fingerprints;

/** Expects the `module:name` of every package of `packages` (id to version) listed; `label` names them in a failure. */
function expectEveryListed(packages: ReadonlyMap<string, string>, source: Source, module: string, name: string, label: string): void {
  for (const [id, version] of packages) expect(listed(module, name).has(definitionFingerprint({ packageId: id, module, name }, source)!), `${label} ${version}: ${name}`).toBe(true);
}

// Texts where a letter-by-letter comparison and a native one could part: surrogate pairs, a
// shared first code unit, empty texts, a text against itself and its own prefixes.
const letters = fc.constantFrom('a', 'b', 'é', '😀', '😁', '\u{10FFFF}', '\u0000', 'ab');
const texts = fc.array(letters, { maxLength: 8 }).map((xs) => xs.join(''));
const pairs = fc.oneof(
  fc.tuple(texts, texts),
  texts.chain((t) => fc.nat({ max: t.length }).map((n): [string, string] => [[...t].slice(0, n).join(''), t])),
  texts.map((t): [string, string] => [t, t]),
);

describe.skipIf(!HAS_DARS)('upstream daml-stdlib (../shared/upstream/daml/dars)', () => {
  const { named, source } = referencePackages();
  const stdlibs = named('daml-stdlib');

  it('every daml-stdlib there has its DA.Text.isPrefixOf listed', () => {
    expect(stdlibs.size).toBeGreaterThanOrEqual(5);
    const entry = INTRINSICS.find((i) => i.module === 'DA.Text' && i.value === 'isPrefixOf')!;
    for (const [id, version] of stdlibs) {
      const fingerprint = definitionFingerprint({ packageId: id, module: 'DA.Text', name: 'isPrefixOf' }, source);
      expect(entry.fingerprints.has(fingerprint!), `daml-stdlib ${version} (${id})`).toBe(true);
    }
  });

  it('native and interpreted DA.Text.isPrefixOf answer alike, in fewer steps', () => {
    for (const [id, version] of stdlibs) {
      const ref = { packageId: id, module: 'DA.Text', name: 'isPrefixOf' };
      fc.assert(fc.property(pairs, ([a, b]) => {
        const native = call(source, ref, a, b, true);
        const interpreted = call(source, ref, a, b, false);
        expect(bool(native.value), `${version}: isPrefixOf ${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(bool(interpreted.value));
        expect(bool(native.value)).toBe([...b].slice(0, [...a].length).join('') === a && [...a].length <= [...b].length);
        if (a.length > 0) expect(native.steps).toBeLessThan(interpreted.steps);
      }), { numRuns: 150, seed: 31 });
    }
  });

  it('the allocation budget stops a native DA.Text.isPrefixOf where it stops the body (two long texts)', () => {
    const [id] = [...stdlibs.keys()];
    const ref = { packageId: id!, module: 'DA.Text', name: 'isPrefixOf' };
    const long = 'a'.repeat(10_000);
    for (const intrinsics of [true, false]) {
      const evaluator = new Evaluator({ getPackage: source, intrinsics, allocationBudget: 100_000 });
      const r = evaluator.apply(ok(evaluator.value(ref)).value, [text(long), text(long)]);
      expect(r.ok ? 'ok' : r.error.kind, `intrinsics ${intrinsics}`).toBe('allocationExceeded');
    }
  });
});

/** A call stack frame: a function name and GHC's one-based location (lines and columns any Int64, the smallest included). */
interface Frame { readonly fn: string; readonly at: readonly [bigint, bigint, bigint, bigint]; readonly frozen: boolean }
const MIN_INT64 = -(2n ** 63n);
const lineOrColumn = fc.oneof({ weight: 8, arbitrary: fc.bigInt({ min: 1n, max: 5000n }) }, { weight: 1, arbitrary: fc.constant(MIN_INT64) }, { weight: 1, arbitrary: fc.bigInt({ min: MIN_INT64, max: 2n ** 63n - 1n }) });
const frameArb: fc.Arbitrary<Frame> = fc.record({
  fn: fc.constantFrom('submit', 'query', 'allocateParty', 'é😀'),
  at: fc.tuple(lineOrColumn, lineOrColumn, lineOrColumn, lineOrColumn),
  frozen: fc.nat({ max: 4 }).map((n) => n === 0),
});

const outcome = (r: EvalResult): unknown => (r.ok ? { ok: true, value: r.value } : { ok: false, kind: r.error.kind, error: JSON.stringify(r.error, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) });

describe.skipIf(!HAS_DARS)('upstream call stacks: daml-prim pushCallStack, daml-stdlib getCallStack and convSrcLoc (../shared/upstream/daml/dars)', () => {
  const { named, source } = referencePackages();
  const stdlibs = named('daml-stdlib');
  const prims = named('daml-prim');

  it('every daml-stdlib there has its getCallStack and convSrcLoc listed, every daml-prim its pushCallStack', () => {
    expect(stdlibs.size).toBeGreaterThanOrEqual(5);
    expect(prims.size).toBeGreaterThanOrEqual(2);
    for (const name of ['getCallStack', 'convSrcLoc']) expectEveryListed(stdlibs, source, 'DA.Stack', name, 'daml-stdlib');
    expectEveryListed(prims, source, 'GHC.Stack.Types', 'pushCallStack', 'daml-prim');
  });

  /** The call stack functions of one daml-stdlib and its daml-prim, run with intrinsics on or off. */
  function callStacks(stdlib: string, intrinsics: boolean, allocationBudget?: number) {
    const getCallStack = { packageId: stdlib, module: 'DA.Stack', name: 'getCallStack' };
    const def = source(stdlib)!.modules.get('DA.Stack')!.values.get('getCallStack')!;
    // Its daml-prim: the package of the CallStack its parameter has.
    const callStackType = (def.expr as unknown as { params: { type: { tycon: QualifiedName } }[] }).params[0]!.type.tycon;
    const prim = callStackType.packageId;
    const push = { packageId: prim, module: 'GHC.Stack.Types', name: 'pushCallStack' };
    const pushDef = source(prim)!.modules.get('GHC.Stack.Types')!.values.get('pushCallStack')!;
    const pairType = (pushDef.expr as unknown as { params: { type: { tycon: QualifiedName } }[] }).params[0]!.type.tycon;
    const decl = (tycon: QualifiedName) => source(tycon.packageId)!.modules.get(tycon.module)!.dataTypes.get(tycon.name)!.cons;
    const srcLoc = { packageId: prim, module: 'GHC.Stack.Types', name: 'SrcLoc' };
    const record = (tycon: QualifiedName, byName: Record<string, Value>): Value => {
      const cons = decl(tycon);
      if (cons.kind !== 'record') throw new Error('not a record');
      return { kind: 'record', tycon, fieldNames: cons.fieldNames, fields: cons.fieldNames.map((f) => byName[f]!) };
    };
    const variant = (constructor: string, value: Value): Value => {
      const cons = decl(callStackType);
      if (cons.kind !== 'variant') throw new Error('not a variant');
      return { kind: 'variant', tycon: callStackType, constructor, rank: cons.constructors.findIndex((c) => c.name === constructor), value };
    };
    const evaluator = () => new Evaluator({ getPackage: source, intrinsics, ...(allocationBudget === undefined ? {} : { allocationBudget }) });
    const fnOf = (ref: QualifiedName) => ok(evaluator().value(ref)).value;
    const pushFn = fnOf(push);
    const getFn = fnOf(getCallStack);
    // One location record per `at` array: frames given the same array share it, as the call
    // sites' top-level values share theirs in real code.
    const locs = new Map<Frame['at'], Value>();
    return {
      /** The stack the frames make, pushed one by one (each through pushCallStack, frozen ones wrapped). */
      stack(frames: readonly Frame[]): { value: Value; steps: number } {
        let stk = variant('EmptyCallStack', { kind: 'unit' });
        let steps = 0;
        for (const f of frames) {
          const loc = locs.get(f.at) ?? record(srcLoc, {
            srcLocPackage: text('main'), srcLocModule: text('Main'), srcLocFile: text('daml/Main.daml'),
            srcLocStartLine: int64(f.at[0]), srcLocStartCol: int64(f.at[1]), srcLocEndLine: int64(f.at[2]), srcLocEndCol: int64(f.at[3]),
          });
          locs.set(f.at, loc);
          const pushed = ok(evaluator().apply(pushFn, [record(pairType, { _1: text(f.fn), _2: loc }), stk]));
          steps += pushed.steps;
          stk = f.frozen ? variant('FreezeCallStack', pushed.value) : pushed.value;
        }
        return { value: stk, steps };
      },
      get: (stk: Value) => evaluator().apply(getFn, [stk]),
    };
  }

  it('native and interpreted call stacks are the same values, getCallStack the same list or the same ArithmeticError, in fewer steps', () => {
    for (const [id, version] of stdlibs) {
      const native = callStacks(id, true);
      const interpreted = callStacks(id, false);
      fc.assert(fc.property(fc.array(frameArb, { maxLength: 12 }), (frames) => {
        const a = native.stack(frames);
        const b = interpreted.stack(frames);
        expect(a.value, `${version}: pushCallStack`).toEqual(b.value);
        if (frames.length > 0) expect(a.steps).toBeLessThan(b.steps);
        const got = native.get(a.value);
        const want = interpreted.get(b.value);
        expect(outcome(got), `${version}: getCallStack`).toEqual(outcome(want));
        if (got.ok && frames.some((f) => !f.frozen)) expect(got.steps).toBeLessThan(want.steps);
      }), { numRuns: 60, seed: 34 });
    }
  });

  it('getCallStack of stacks whose frames share locations (under one name or several) is the interpreted one, asked again and again', () => {
    // A few locations, some failing to convert (MIN_INT64), reused across frames and stacks: what
    // the native getCallStack remembers per location must never change what it answers.
    const pool = fc.array(fc.tuple(lineOrColumn, lineOrColumn, lineOrColumn, lineOrColumn), { minLength: 1, maxLength: 4 });
    const stacks = pool.chain((ats) => fc.array(fc.array(fc.record({
      fn: fc.constantFrom('submit', 'query'),
      at: fc.constantFrom(...ats),
      frozen: fc.nat({ max: 4 }).map((n) => n === 0),
    }), { maxLength: 8 }), { minLength: 1, maxLength: 4 }));
    for (const [id, version] of stdlibs) {
      fc.assert(fc.property(stacks, (framesOfEach) => {
        const native = callStacks(id, true);
        const interpreted = callStacks(id, false);
        for (const frames of framesOfEach) {
          const a = native.stack(frames).value;
          const want = outcome(interpreted.get(interpreted.stack(frames).value));
          expect(outcome(native.get(a)), `${version}: first`).toEqual(want);
          expect(outcome(native.get(a)), `${version}: again`).toEqual(want);
        }
      }), { numRuns: 60, seed: 35 });
    }
  });

  it('the allocation budget stops a native getCallStack where it stops the body', () => {
    const [id] = [...stdlibs.keys()];
    const frames: Frame[] = Array.from({ length: 400 }, (_, i) => ({ fn: `f${i}`, at: [1n, 1n, 2n, 2n], frozen: false }));
    const stk = callStacks(id!, true).stack(frames).value;
    for (const intrinsics of [true, false]) {
      const small = callStacks(id!, intrinsics, 20_000).get(stk);
      expect(small.ok ? 'ok' : small.error.kind, `intrinsics ${intrinsics}`).toBe('allocationExceeded');
      const enough = callStacks(id!, intrinsics, 10_000_000).get(stk);
      expect(enough.ok, `intrinsics ${intrinsics}`).toBe(true);
    }
  });

  it('native and interpreted dropInternalFrames of daml-script drop the same frames, and answer the same list cells', () => {
    const listedScripts = [...named('daml-script')].filter(([id]) => source(id)?.modules.get('Daml.Script.Internal.LowLevel')?.values.has('dropInternalFrames'));
    expect(listedScripts.length).toBeGreaterThanOrEqual(1);
    const [stdlib] = [...stdlibs.keys()];
    const convDef = source(stdlib!)!.modules.get('DA.Stack')!.values.get('convSrcLoc')!;
    // The location type convSrcLoc builds, and the pairs getCallStack lists.
    const srcLoc = (convDef.expr as unknown as { body?: { body?: { tycon?: { tycon?: QualifiedName } } } }).body?.body?.tycon?.tycon;
    expect(srcLoc?.name).toBe('SrcLoc');
    const srcLocFields = source(srcLoc!.packageId)!.modules.get(srcLoc!.module)!.dataTypes.get(srcLoc!.name)!.cons;
    if (srcLocFields.kind !== 'record') throw new Error('SrcLoc is not a record');
    const pair = { packageId: 'pairs', module: 'DA.Types', name: 'Tuple2' };
    const frame = (pkg: string, mod: string): Value => {
      const loc: Record<string, Value> = {
        srcLocPackage: text(pkg), srcLocModule: text(mod), srcLocFile: text('f.daml'), srcLocStartLine: int64(0n), srcLocStartCol: int64(0n), srcLocEndLine: int64(0n), srcLocEndCol: int64(0n),
      };
      const locValue: Value = { kind: 'record', tycon: srcLoc!, fieldNames: srcLocFields.fieldNames, fields: srcLocFields.fieldNames.map((f) => loc[f]!) };
      return { kind: 'record', tycon: pair, fieldNames: ['_1', '_2'], fields: [text('fn'), locValue] };
    };
    const packageNames = fc.constantFrom('daml-script-3.3.0', 'daml-script-', 'daml-script', 'daml-scripts', 'splice-amulet-test', '');
    const modules = fc.constantFrom('Daml.Script.Internal.LowLevel', 'Daml.Script', 'Daml.Scrip', 'Main', '');
    for (const [id, version] of listedScripts) {
      const ref = { packageId: id, module: 'Daml.Script.Internal.LowLevel', name: 'dropInternalFrames' };
      const both = (intrinsics: boolean) => {
        const evaluator = new Evaluator({ getPackage: source, intrinsics });
        const fn = ok(evaluator.value(ref)).value;
        return (list: Value) => ok(evaluator.apply(fn, [list]));
      };
      const native = both(true);
      const interpreted = both(false);
      fc.assert(fc.property(fc.array(fc.tuple(packageNames, modules), { maxLength: 10 }), (frames) => {
        let list: Value = { kind: 'nil' };
        for (let i = frames.length - 1; i >= 0; i--) list = { kind: 'cons', head: frame(...frames[i]!), tail: list as never };
        const a = native(list);
        const b = interpreted(list);
        expect(a.value, `daml-script ${version}`).toBe(b.value);
        // What is left starts at the first frame outside daml-script.
        const firstOutside = frames.findIndex(([p, m]) => !(p.startsWith('daml-script-') && m.startsWith('Daml.Script')));
        let left = 0;
        for (let l = a.value; l.kind === 'cons'; l = l.tail) left++;
        expect(left).toBe(firstOutside < 0 ? 0 : frames.length - firstOutside);
        if (frames.length > 0) expect(a.steps).toBeLessThan(b.steps);
      }), { numRuns: 100, seed: 35 });

      // One step walks the list, charged a cell a frame: a long walk again and again runs out of budget.
      let internal: Value = { kind: 'nil' };
      for (let i = 0; i < 1000; i++) internal = { kind: 'cons', head: frame('daml-script-3.3.0', 'Daml.Script.Internal.LowLevel'), tail: internal as never };
      const budgeted = (allocationBudget: number) => {
        const evaluator = new Evaluator({ getPackage: source, allocationBudget });
        return evaluator.apply(ok(evaluator.value(ref)).value, [internal]);
      };
      const small = budgeted(10_000);
      expect(small.ok ? 'ok' : small.error.kind).toBe('allocationExceeded');
      expect(budgeted(1_000_000).ok).toBe(true);
    }
  });
});


/** A function of Int64 to Int64, generated: closures, builtins partly applied, failures, compositions. */
type IntFn =
  | { readonly kind: 'add' | 'mul' | 'div' | 'addClosure' | 'fail'; readonly k: number }
  | { readonly kind: 'compose'; readonly f: IntFn; readonly g: IntFn }
  | { readonly kind: 'composePartly'; readonly f: IntFn; readonly g: IntFn };
const intFns: fc.Arbitrary<IntFn> = fc.letrec<{ fn: IntFn }>((tie) => ({
  fn: fc.oneof(
    { maxDepth: 5, depthIdentifier: 'fn' },
    fc.record({ kind: fc.constantFrom('add' as const, 'mul' as const, 'div' as const, 'addClosure' as const, 'fail' as const), k: fc.integer({ min: -2, max: 3 }) }),
    fc.record({ kind: fc.constant('compose' as const), f: tie('fn'), g: tie('fn') }),
    fc.record({ kind: fc.constant('composePartly' as const), f: tie('fn'), g: tie('fn') }),
  ),
})).fn;

describe.skipIf(!HAS_DARS)('upstream daml-prim function composition (../shared/upstream/daml/dars)', () => {
  const { named, source } = referencePackages();
  const prims = named('daml-prim');
  const DOT = '$u002e';

  it('every daml-prim there has its (.) listed', () => {
    expectEveryListed(prims, source, 'GHC.Base', DOT, 'daml-prim');
  });

  it('native and interpreted compositions answer alike: the same values, the same failures naming the same definitions, on the direct evaluator and the machine', () => {
    for (const [id, version] of prims) {
      const dot = E.tyApp(E.val({ packageId: id, module: 'GHC.Base', name: DOT }), T.int64, T.int64, T.int64);
      const expr = (fn: IntFn): Expr => {
        switch (fn.kind) {
          case 'add': return E.app(E.builtin('ADD_INT64'), E.int64(fn.k));
          case 'mul': return E.app(E.builtin('MUL_INT64'), E.int64(fn.k));
          // DIV_INT64 k x: an ArithmeticError when x is 0, thrown where the builtin runs.
          case 'div': return E.app(E.builtin('DIV_INT64'), E.int64(fn.k));
          case 'addClosure': return E.lam([['a', T.int64]], E.call('ADD_INT64', [], E.var('a'), E.int64(fn.k)));
          case 'fail': return E.lam([['a', T.int64]], E.if(E.call('EQUAL', [T.int64], E.var('a'), E.int64(fn.k)), E.error(T.int64, `boom ${fn.k}`), E.var('a')));
          case 'compose': return E.app(dot, expr(fn.f), expr(fn.g));
          // `(.) f` first, then `g`: a partial application given its second argument later.
          case 'composePartly': return E.app(E.let([['h', T.int64, E.app(dot, expr(fn.f))]], E.var('h')), expr(fn.g));
        }
      };
      // `fn x`; a composition given its three arguments in one application when `whole`.
      const applied = (fn: IntFn, x: Expr, whole: boolean): Expr => (whole && fn.kind === 'compose' ? E.app(dot, expr(fn.f), expr(fn.g), x) : E.app(expr(fn), x));
      const outcomeOf = (fn: IntFn, x: number, whole: boolean, intrinsics: boolean, directDepth?: number) => {
        const evaluator = new Evaluator({ getPackage: source, intrinsics, ...(directDepth === undefined ? {} : { directDepth }) });
        return outcome(evaluator.evaluate(applied(fn, E.int64(x), whole)));
      };
      fc.assert(fc.property(intFns, fc.integer({ min: -2, max: 3 }), fc.boolean(), (fn, x, whole) => {
        const interpreted = outcomeOf(fn, x, whole, false);
        // Direct depths from none (the machine alone) up: the machine takes over in the middle of compositions.
        for (const directDepth of [undefined, 0, 1, 2, 3, 4, 5]) expect(outcomeOf(fn, x, whole, true, directDepth), `daml-prim ${version}`).toEqual(interpreted);
      }), { numRuns: 300, seed: 37 });
      // A builtin failing as the inner or the outer function: the ArithmeticError names `(.)` as the running definition, as the body does.
      for (const fn of [{ kind: 'compose', f: { kind: 'add', k: 1 }, g: { kind: 'div', k: 1 } }, { kind: 'compose', f: { kind: 'div', k: 1 }, g: { kind: 'mul', k: 0 } }] as const) {
        for (const whole of [true, false]) {
          const interpreted = outcomeOf(fn, 0, whole, false);
          expect(JSON.stringify(interpreted)).toContain('GHC.Base');
          for (const directDepth of [undefined, 0]) expect(outcomeOf(fn, 0, whole, true, directDepth)).toEqual(interpreted);
        }
      }
      // Over-applied: `((.) (\a b -> a + b) g) x y`.
      const plus = E.lam([['a', T.int64]], E.lam([['b', T.int64]], E.call('ADD_INT64', [], E.var('a'), E.var('b'))));
      const over = E.app(dot, plus, expr({ kind: 'mul', k: 3 }), E.int64(2), E.int64(5));
      for (const intrinsics of [true, false]) expect(outcome(new Evaluator({ getPackage: source, intrinsics }).evaluate(over))).toEqual({ ok: true, value: int64(11n) });
      // Over-applied compositions generated, `((.) (\a b -> f a + b) g) x y`: the direct evaluator
      // takes the machine's steps at every depth (the ApplyTo frame of the rest), and answers as the body does.
      fc.assert(fc.property(intFns, intFns, fc.integer({ min: -2, max: 3 }), fc.integer({ min: -2, max: 3 }), (f, g, x, y) => {
        const outer = E.lam([['a', T.int64]], E.lam([['b', T.int64]], E.call('ADD_INT64', [], E.app(expr(f), E.var('a')), E.var('b'))));
        const overApplied = E.app(dot, outer, expr(g), E.int64(x), E.int64(y));
        const run = (intrinsics: boolean, directDepth: number) => new Evaluator({ getPackage: source, intrinsics, directDepth }).evaluate(overApplied);
        const machine = run(true, 0);
        for (const directDepth of [1, 2, 3, 4, 256]) expect(run(true, directDepth), `daml-prim ${version}, depth ${directDepth}`).toEqual(machine);
        expect(outcome(machine)).toEqual(outcome(run(false, 256)));
      }), { numRuns: 150, seed: 38 });
    }
  });
});

describe('the fingerprint writes each definition out once', () => {
  /** A package whose definitions reference each other as `edges` says (cycles included), each a body of its own. */
  function graph(edges: readonly (readonly number[])[]): { source: Source; refs: QualifiedName[] } {
    const b = new PackageBuilder({ name: 'graph', version: '1.0.0' });
    const m = b.module('M');
    edges.forEach((to, i) => {
      // `d_i = [d_j, ...]` of Int64 thunks: `\x -> x + i` followed by the references.
      const items = to.map((j) => E.app(E.val(m.ref(`d${j}`)), E.int64(0)));
      m.value(`d${i}`, T.arrow(T.int64, T.int64), E.lam([['x', T.int64]], E.let(items.map((item, k): BindingSpec => [`y${k}`, T.int64, item]), E.call('ADD_INT64', [], E.var('x'), E.int64(i)))));
    });
    const built = b.build();
    return { source: (id) => (id === built.id ? built.package : undefined), refs: edges.map((_, i) => built.ref('M', `d${i}`)) };
  }

  it('remembering gives the fingerprints of writing every reference out again, on graphs with diamonds and cycles', () => {
    const graphs = fc.integer({ min: 1, max: 6 }).chain((n) => fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n }));
    fc.assert(fc.property(graphs, (edges) => {
      const { source, refs } = graph(edges);
      for (const ref of refs) expect(definitionFingerprint(ref, source)).toBe(definitionFingerprint(ref, source, false));
    }), { numRuns: 200, seed: 41 });
  });

  it('a diamond of more references than the bound, but few definitions, has a fingerprint', () => {
    // d0 references d1 and d2, each of those d3, ...: 2^11 paths to d11, 12 definitions.
    const edges = Array.from({ length: 12 }, (_, i) => (i < 11 ? [i + 1, i + 1] : []));
    const { source, refs } = graph(edges);
    expect(definitionFingerprint(refs[0]!, source)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('show of a Text, natively (showsPrecText.ts)', () => {
  // Haskell's `show` of these strings (GHC's showLitString, which daml-prim's follows).
  it.each([
    ['', ''],
    ['abc', 'abc'],
    ['say "hi"', 'say \\"hi\\"'],
    ['back\\slash', 'back\\\\slash'],
    ['\u0000\u0007\u0008\t\n\u000b\u000c\r\u001b\u001f', '\\NUL\\a\\b\\t\\n\\v\\f\\r\\ESC\\US'],
    ['\u000eH', '\\SO\\&H'],
    ['\u000eh', '\\SOh'],
    ['\u007f', '\\DEL'],
    ['é1', '\\233\\&1'],
    ['é', '\\233'],
    ['éa', '\\233a'],
    ['😀9', '\\128512\\&9'],
    ['\u0080\u0080', '\\128\\128'],
  ])('show %j', (x, escaped) => {
    expect(showLitText(x)).toBe(escaped);
  });
});

describe.skipIf(!HAS_DARS)('upstream show of a Text and list append (../shared/upstream/daml/dars)', () => {
  const { named, source } = referencePackages();
  const prims = named('daml-prim');
  const stdlibs = named('daml-stdlib');
  const SHOW = { module: 'GHC.Show.Text', name: 'showsPrecText' };
  const APPEND = { module: 'DA.Internal.Prelude', name: '$u002b$u002b' };

  it('every daml-prim there has its showsPrecText listed, every daml-stdlib its (++)', () => {
    expectEveryListed(prims, source, SHOW.module, SHOW.name, 'daml-prim');
    expectEveryListed(stdlibs, source, APPEND.module, APPEND.name, 'daml-stdlib');
  });

  /** `showsPrecText 0 x s`, with the text following it given in the same application or after (a partial application). */
  const show = (id: string, x: string, s: string, at: 'once' | 'after', intrinsics: boolean, allocationBudget?: number) => {
    const evaluator = new Evaluator({ getPackage: source, intrinsics, ...(allocationBudget === undefined ? {} : { allocationBudget }) });
    const fn = E.val({ packageId: id, ...SHOW });
    const expr = at === 'once' ? E.app(fn, E.int64(0), E.text(x), E.text(s)) : E.app(E.let([['f', T.arrow(T.text, T.text), E.app(fn, E.int64(11), E.text(x))]], E.var('f')), E.text(s));
    return evaluator.evaluate(expr);
  };
  // Characters where the escapes differ: quotes, backslashes, controls (\SO before H), DEL, past DEL before digits, astral.
  const chars = fc.constantFrom('a', 'H', '0', '9', ' ', '"', '\\', '\u0000', '\u0007', '\n', '\u000e', '\u001f', '\u007f', '\u0080', 'é', '😀', '\u{10FFFF}');
  const texts = fc.array(chars, { maxLength: 10 }).map((xs) => xs.join(''));

  it('native and interpreted showsPrecText give the same text, in fewer steps', () => {
    for (const [id, version] of prims) {
      fc.assert(fc.property(texts, texts, fc.constantFrom('once' as const, 'after' as const), (x, s, at) => {
        const native = ok(show(id, x, s, at, true));
        const interpreted = ok(show(id, x, s, at, false));
        expect(native.value, `daml-prim ${version}: show ${JSON.stringify(x)} then ${JSON.stringify(s)}`).toEqual(interpreted.value);
        if (x.length > 0) expect(native.steps).toBeLessThan(interpreted.steps);
      }), { numRuns: 150, seed: 42 });
    }
  });

  it('the allocation budget stops a native showsPrecText where it stops the body (a long text)', () => {
    const [id] = [...prims.keys()];
    for (const intrinsics of [true, false]) {
      const r = show(id!, 'a'.repeat(20_000), '', 'once', intrinsics, 200_000);
      expect(r.ok ? 'ok' : r.error.kind, `intrinsics ${intrinsics}`).toBe('allocationExceeded');
    }
  });

  const SHOW_NUMERIC = { module: 'GHC.Show', name: '$$cshowsPrec1' };
  const numerics = fc.tuple(fc.integer({ min: 0, max: 37 }), fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n })).map(([scale, unscaled]): Value => ({ kind: 'numeric', scale, unscaled }));

  it('every daml-prim there has its showsPrec of Numeric listed', () => {
    expectEveryListed(prims, source, SHOW_NUMERIC.module, SHOW_NUMERIC.name, 'daml-prim');
  });

  it('native and interpreted showsPrec of Numeric give the same text, in fewer steps, given the text after it at once or later', () => {
    for (const [id, version] of prims) {
      fc.assert(fc.property(numerics, texts, fc.boolean(), (x, s, partly) => {
        const scale = (x as { scale: number }).scale;
        const fn = E.tyApp(E.val({ packageId: id, ...SHOW_NUMERIC }), T.nat(scale));
        const xe: Expr = { kind: 'lit', value: x };
        const expr = partly ? E.app(E.let([['f', T.arrow(T.text, T.text), E.app(fn, E.int64(7), xe)]], E.var('f')), E.text(s)) : E.app(fn, E.int64(0), xe, E.text(s));
        const native = ok(new Evaluator({ getPackage: source, intrinsics: true }).evaluate(expr));
        const interpreted = ok(new Evaluator({ getPackage: source, intrinsics: false }).evaluate(expr));
        expect(native.value, `daml-prim ${version}: showsPrec ${JSON.stringify(x, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))}`).toEqual(interpreted.value);
        expect(native.steps).toBeLessThan(interpreted.steps);
      }), { numRuns: 100, seed: 44 });
    }
  });

  const ints = fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 8 });
  const listExpr = (xs: readonly number[]): Expr => E.list(T.int64, xs.map((x) => E.int64(x)));

  it('native and interpreted (++) give the same list, in fewer steps', () => {
    for (const [id, version] of stdlibs) {
      const append = E.tyApp(E.val({ packageId: id, ...APPEND }), T.int64);
      fc.assert(fc.property(ints, ints, fc.boolean(), (xs, ys, partly) => {
        const expr = partly ? E.app(E.let([['f', T.arrow(T.list(T.int64), T.list(T.int64)), E.app(append, listExpr(xs))]], E.var('f')), listExpr(ys)) : E.app(append, listExpr(xs), listExpr(ys));
        const native = ok(new Evaluator({ getPackage: source, intrinsics: true }).evaluate(expr));
        const interpreted = ok(new Evaluator({ getPackage: source, intrinsics: false }).evaluate(expr));
        expect(native.value, `daml-stdlib ${version}: ${JSON.stringify(xs)} ++ ${JSON.stringify(ys)}`).toEqual(interpreted.value);
        if (xs.length > 0) expect(native.steps).toBeLessThan(interpreted.steps);
      }), { numRuns: 100, seed: 43 });
    }
  });

  it('the allocation budget stops a native (++) where it stops the body (appending a long list again and again)', () => {
    const [id] = [...stdlibs.keys()];
    const append = E.tyApp(E.val({ packageId: id!, ...APPEND }), T.int64);
    // xs ++ (xs ++ (xs ++ ...)): 40 appends of a 1,000-item list.
    const long: BindingSpec = ['xs', T.list(T.int64), E.call('FOLDL', [], E.lam([['acc', T.list(T.int64)], ['x', T.int64]], E.cons(T.int64, [E.var('x')], E.var('acc'))), E.nil(T.int64), listExpr(Array.from({ length: 1000 }, (_, i) => i % 7)))];
    let body: Expr = E.nil(T.int64);
    for (let i = 0; i < 40; i++) body = E.app(append, E.var('xs'), body);
    for (const intrinsics of [true, false]) {
      const small = new Evaluator({ getPackage: source, intrinsics, allocationBudget: 500_000 }).evaluate(E.let([long], body));
      expect(small.ok ? 'ok' : small.error.kind, `intrinsics ${intrinsics}`).toBe('allocationExceeded');
      expect(new Evaluator({ getPackage: source, intrinsics, allocationBudget: 50_000_000 }).evaluate(E.let([long], body)).ok, `intrinsics ${intrinsics}`).toBe(true);
    }
  });
});
