/**
 * Daml Script's free monad run natively (daml-engine/eval/freeMonad.ts): Free's `>>=` and `fmap`
 * over a pending question put their function on the question's continuation chain instead of
 * rewrapping it, and a script answers exactly as the interpreted bodies make it answer: the same
 * questions in the same order, the same result, the same failure, on the direct evaluator and on
 * the machine alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Expr } from '../../daml-engine/ast/Expr.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import type { QualifiedName } from '../../daml-engine/ast/Type.js';
import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { Packages } from '../../daml-engine/decode/Packages.js';
import { Evaluator } from '../../daml-engine/eval/Evaluator.js';
import { definitionFingerprint, INTRINSICS } from '../../daml-engine/eval/intrinsics.js';
import { inMemoryScriptLedger, loadDarScripts, runDarScripts } from '../../daml-engine/script/runDarScripts.js';
import type { Value } from '../../daml-engine/value/Value.js';
import { int64 } from '../../daml-engine/value/Value.js';
import { DARS_DIR, HAS_DARS, loadDar } from './damlFixtures.js';

type Source = (id: string) => Package | undefined;

const FREE = 'Daml.Script.Internal.Free';
const LOW = 'Daml.Script.Internal.LowLevel';
const BIND = '$$c$u003e$u003e$u003d';

describe('Free\'s >>= is replaced only when its code is upstream\'s', () => {
  it('a package reusing the module and name keeps its own code', () => {
    // `>>=` that ignores its action and function: answers 7 whatever it is given.
    const b = new PackageBuilder({ name: 'daml-script', version: '9.9.9' });
    b.module(FREE).value(BIND, T.arrow(T.unit, T.int64, T.int64, T.int64), E.lam([['d', T.unit], ['m', T.int64], ['f', T.int64]], E.int64(7n)));
    const built = b.build();
    const source: Source = (id) => (id === built.id ? built.package : undefined);
    const ref = built.ref(FREE, BIND);
    const listed = new Set(INTRINSICS.flatMap((i) => [...i.fingerprints]));
    expect(listed.has(definitionFingerprint(ref, source)!)).toBe(false);
    const evaluator = new Evaluator({ getPackage: source });
    const fn = evaluator.value(ref);
    if (!fn.ok) throw new Error(fn.error.kind);
    const r = evaluator.apply(fn.value, [{ kind: 'unit' }, int64(1n), int64(2n)]);
    expect(r.ok && r.value).toEqual(int64(7n));
  });
});

/** daml-script 3.3's package (from Splice's splice-amulet-test) and a source of every package of that DAR. */
function scriptLibrary(): { source: Source; id: string } | undefined {
  if (!HAS_DARS) return undefined;
  const packages = new Packages();
  const { dar } = loadDar('history/splice-amulet-test-0.1.8.dar', packages);
  const lib = dar.packages.find((p) => p.metadata?.name === 'daml-script');
  return lib === undefined ? undefined : { source: (id) => packages.get(id), id: lib.id };
}

/** A program of the free monad, generated: questions, pure values, binds, fmaps, `<*>` and failures. */
type Prog =
  | { readonly kind: 'pure'; readonly n: number }
  | { readonly kind: 'ask'; readonly n: number }
  | { readonly kind: 'lifted'; readonly n: number }
  | { readonly kind: 'fail'; readonly n: number }
  | { readonly kind: 'bind'; readonly m: Prog; readonly k: Prog }
  | { readonly kind: 'map'; readonly n: number; readonly m: Prog }
  | { readonly kind: 'both'; readonly a: Prog; readonly b: Prog };

const progs: fc.Arbitrary<Prog> = fc.letrec<{ prog: Prog }>((tie) => ({
  prog: fc.oneof(
    { maxDepth: 6, depthIdentifier: 'prog' },
    fc.record({ kind: fc.constant('pure' as const), n: fc.integer({ min: 0, max: 9 }) }),
    fc.record({ kind: fc.constant('ask' as const), n: fc.integer({ min: 0, max: 9 }) }),
    fc.record({ kind: fc.constant('lifted' as const), n: fc.integer({ min: 0, max: 9 }) }),
    fc.record({ kind: fc.constant('fail' as const), n: fc.integer({ min: 0, max: 30 }) }),
    fc.record({ kind: fc.constant('bind' as const), m: tie('prog'), k: tie('prog') }),
    fc.record({ kind: fc.constant('map' as const), n: fc.integer({ min: 0, max: 9 }), m: tie('prog') }),
    fc.record({ kind: fc.constant('both' as const), a: tie('prog'), b: tie('prog') }),
  ),
})).prog;

/** `n` bound variables' sum plus `n`: what a leaf computes, so results depend on every answer. */
function sum(vars: readonly string[], n: number): Expr {
  return vars.reduce<Expr>((acc, v) => E.call('ADD_INT64', [], acc, E.var(v)), E.int64(BigInt(n)));
}

/** The program as a Daml-LF expression over daml-script 3.3's own Free and ScriptF code. */
function expressionOf(prog: Prog, lib: string): Expr {
  const ref = (module: string, name: string): QualifiedName => ({ packageId: lib, module, name });
  const freeTycon = ref(FREE, 'Free');
  const functorScriptF = E.val(ref(LOW, '$$fFunctorScriptF'));
  // Free ScriptF's dictionaries, as daml-script's own code builds them.
  const action = E.app(E.val(ref(FREE, '$$fActionFree')), functorScriptF);
  const functor = E.app(E.val(ref(FREE, '$$fFunctorFree')), functorScriptF);
  const applicative = E.app(E.val(ref(FREE, '$$fApplicativeFree')), functorScriptF);
  const method = (dict: Expr, name: string) => E.app(E.structField(name, dict), E.unit);
  const question = (payload: Expr, cont: Expr) => E.record(ref(LOW, 'ScriptF'), {
    unpack: E.record(ref(LOW, 'Question'), {
      commandName: E.text('Ask'), commandVersion: E.int64(1n), payload, locations: E.nil(T.unit), continue: cont,
    }),
  });
  let fresh = 0;
  const go = (p: Prog, vars: readonly string[]): Expr => {
    switch (p.kind) {
      case 'pure': return E.variant(freeTycon, 'Pure', sum(vars, p.n));
      // A question answered straight into `Pure`.
      case 'ask': return E.variant(freeTycon, 'Free', question(sum(vars, p.n), E.lam([['r', T.int64]], E.variant(freeTycon, 'Pure', E.var('r')))));
      // A question through Free's `lift` (`Free (Pure <$> fa)`), continuing with the identity.
      case 'lifted': return E.app(E.val(ref(FREE, 'lift')), functorScriptF, question(sum(vars, p.n), E.lam([['r', T.int64]], E.var('r'))));
      case 'fail': return E.if(E.call('EQUAL', [T.int64], sum(vars, 0), E.int64(BigInt(p.n))), E.error(T.unit, `boom ${p.n}`), E.variant(freeTycon, 'Pure', sum(vars, p.n)));
      case 'bind': {
        const x = `x${fresh++}`;
        return E.app(method(action, 'm_$u003e$u003e$u003d'), go(p.m, vars), E.lam([[x, T.int64]], go(p.k, [...vars, x])));
      }
      case 'map': {
        const y = `y${fresh++}`;
        return E.app(method(functor, 'm_fmap'), E.lam([[y, T.int64]], E.call('ADD_INT64', [], E.var(y), E.int64(BigInt(p.n)))), go(p.m, vars));
      }
      case 'both': {
        // liftA2 (+) a b, as `fmap (+) a <*> b`.
        const a = `a${fresh++}`;
        const b = `b${fresh++}`;
        const plus = E.lam([[a, T.int64]], E.lam([[b, T.int64]], E.call('ADD_INT64', [], E.var(a), E.var(b))));
        return E.app(method(applicative, 'm_$u003c$u002a$u003e'), E.app(method(functor, 'm_fmap'), plus, go(p.a, vars)), go(p.b, vars));
      }
    }
  };
  return go(prog, []);
}

/** What running a program shows: the questions' payloads in order, then its result or its failure; and its steps. */
interface Run { readonly shown: unknown[]; readonly steps: number }

/** Runs the program as Daml Script's runner does: answers each question (from its payload and its rank, small) and applies its continuation. */
function run(source: Source, expr: Expr, options: { intrinsics: boolean; directDepth?: number }): Run {
  const evaluator = new Evaluator({ getPackage: source, intrinsics: options.intrinsics, ...(options.directDepth === undefined ? {} : { directDepth: options.directDepth }) });
  const shown: unknown[] = [];
  let steps = 0;
  let r = evaluator.evaluate(expr);
  for (let rank = 0; ; rank++) {
    steps += r.steps;
    if (!r.ok) return { shown: [...shown, { failed: r.error.kind, message: 'message' in r.error ? r.error.message : '', definition: 'definition' in r.error ? r.error.definition : undefined }], steps };
    const v = r.value;
    if (v.kind !== 'variant') throw new Error(`not a Free: ${v.kind}`);
    if (v.constructor === 'Pure') return { shown: [...shown, { result: v.value }], steps };
    const q = (v.value as Extract<Value, { kind: 'record' }>).fields[0] as Extract<Value, { kind: 'record' }>;
    const field = (name: string) => q.fields[q.fieldNames.indexOf(name)]!;
    const payload = field('payload') as Extract<Value, { kind: 'int64' }>;
    shown.push(payload.value);
    r = evaluator.apply(field('continue'), [int64((payload.value % 5n) * 1000n + BigInt(rank))]);
  }
}

const lib = scriptLibrary();

describe.skipIf(lib === undefined)('daml-script 3.3\'s Free (../shared: splice-amulet-test-0.1.8)', () => {
  const { source, id } = lib ?? { source: () => undefined, id: '' };

  it('its >>= and fmap are listed, and its ScriptF fmap', () => {
    const listed = (module: string, value: string) => INTRINSICS.find((i) => i.module === module && i.value === value)?.fingerprints;
    expect(listed(FREE, BIND)?.has(definitionFingerprint({ packageId: id, module: FREE, name: BIND }, source)!)).toBe(true);
    expect(listed(FREE, '$$cfmap')?.has(definitionFingerprint({ packageId: id, module: FREE, name: '$$cfmap' }, source)!)).toBe(true);
  });

  it('generated programs ask the same questions and end the same, natively and interpreted, direct and on the machine', () => {
    fc.assert(fc.property(progs, (prog) => {
      const expr = expressionOf(prog, id);
      const interpreted = run(source, expr, { intrinsics: false });
      for (const directDepth of [undefined, 0, 3]) {
        expect(run(source, expr, { intrinsics: true, directDepth }).shown).toEqual(interpreted.shown);
      }
      expect(run(source, expr, { intrinsics: false, directDepth: 0 }).shown).toEqual(interpreted.shown);
    }), { numRuns: 300, seed: 31 });
  });

  it('a long left-nested chain of binds costs steps linear in its length, not quadratic', () => {
    // ((ask >>= k) >>= k) >>= ...: each answer passes through every bind still open.
    const leftNested = (n: number): Prog => {
      let p: Prog = { kind: 'ask', n: 1 };
      for (let i = 0; i < n; i++) p = { kind: 'bind', m: p, k: { kind: 'ask', n: i } };
      return p;
    };
    const steps = (n: number, intrinsics: boolean) => run(source, expressionOf(leftNested(n), id), { intrinsics }).steps;
    const native = [steps(100, true), steps(200, true), steps(400, true)];
    const interpreted = [steps(100, false), steps(200, false), steps(400, false)];
    // Twice the binds: at most about twice the steps natively; interpreted, the layers grow faster than the binds.
    expect(native[1]! / native[0]!).toBeLessThan(2.1);
    expect(native[2]! / native[1]!).toBeLessThan(2.1);
    expect(interpreted[2]! / interpreted[1]!).toBeGreaterThan(native[2]! / native[1]! + 0.5);
    expect(interpreted[2]! / native[2]!).toBeGreaterThan(50);
    expect(run(source, expressionOf(leftNested(200), id), { intrinsics: true }).shown).toEqual(run(source, expressionOf(leftNested(200), id), { intrinsics: false }).shown);
  });

  it('Splice\'s own scripts end the same with the free monad native and interpreted, at once and in slices', async () => {
    const loaded = loadDarScripts(readFileSync(join(DARS_DIR, 'history/splice-amulet-test-0.1.8.dar')));
    if (!loaded.ok) throw new Error(loaded.message);
    // The scripts with the most binds open at once (forA over many actions), and one of each other file.
    const scripts = loaded.loaded.scripts.filter((s) => /TransferLimits|TestAmuletBurn|TestTap|Disclosure/.test(s.module));
    const observe = async (intrinsics: boolean, sliced = false) => (await runDarScripts(loaded.loaded, scripts, {
      ledger: inMemoryScriptLedger,
      // Slices of a few hundred steps: chains stop and resume mid-way (the machine's FreeChain frames).
      ...(sliced ? { slicing: { steps: 389, pause: () => Promise.resolve() } } : {}),
      // An empty set of overrides turns the intrinsics off (EvaluatorOptions.intrinsics).
      ...(intrinsics ? {} : { builtinOverrides: new Map() }),
    })).map((r) => ({ name: r.name, ok: r.ok, failure: r.failure, ledgerSteps: r.ledgerSteps, questions: r.questions, trace: r.trace, steps: r.steps }));
    const native = await observe(true);
    const interpreted = await observe(false);
    // Steps aside (intrinsics run the ledger's code too: daml-prim's composition), the same outcomes, questions and traces.
    expect(native.map(({ steps: _s, ledgerSteps: _l, ...rest }) => rest)).toEqual(interpreted.map(({ steps: _s, ledgerSteps: _l, ...rest }) => rest));
    expect(await observe(true, true)).toEqual(native);
    expect(native.every((r) => r.ok)).toBe(true);
    expect(native.reduce((n, r) => n + r.steps, 0)).toBeLessThan(interpreted.reduce((n, r) => n + r.steps, 0) / 2);
  }, 120_000);
});
