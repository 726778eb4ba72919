/**
 * The upload check (daml-engine/check): every reference DAR passes; hand-built hostile packages
 * are refused with the reason named; nothing recurses on input depth.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../daml-engine/ast/Expr.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import type { Type } from '../../daml-engine/ast/Type.js';
import { Alt, E } from '../../daml-engine/build/E.js';
import { PackageBuilder, SELF_PACKAGE_ID } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { describeCheckFailure, type CheckReason } from '../../daml-engine/check/CheckFailure.js';
import { checkPackage as checkAuto, checkPackages, checkPackageSteps, DEFAULT_CHECK_LIMITS, type CheckLimits, type PackageLookup } from '../../daml-engine/check/checkPackage.js';
import type { CheckResult } from '../../daml-engine/check/CheckFailure.js';
import { decodeArchive } from '../../daml-engine/decode/decodeArchive.js';
import { MAX_WIRE_NESTING } from '../../daml-engine/decode/decodePackage.js';
import { decodeDar } from '../../daml-engine/decode/decodeDar.js';
import { encodePackageArchive } from '../../daml-engine/encode/encodeArchive.js';
import { ILL_TYPED } from './illTypedPackages.js';
import { buildSamplePackage } from './samplePackage.js';

const DARS = new URL('../../../shared/upstream/daml/dars', import.meta.url).pathname;

function darFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? darFiles(p) : p.endsWith('.dar') ? [p] : [];
  });
}

const noOther = () => undefined;

/**
 * The check as a participant runs it (the merged walk, a refused definition checked again in the
 * reference order), compared with both walks alone: the reference order's verdict is the same to
 * the letter, and the merged walk refuses exactly what it refuses (else a check is missing there).
 */
function checkPackage(pkg: Package, lookup: PackageLookup, limits: CheckLimits = DEFAULT_CHECK_LIMITS): CheckResult {
  const r = checkAuto(pkg, lookup, limits);
  expect(checkAuto(pkg, lookup, limits, 'separate')).toEqual(r);
  expect(checkAuto(pkg, lookup, limits, 'merged').ok).toBe(r.ok);
  return r;
}

/** Checks the built package alone; its failure's reason. */
function reasonOf(pkg: Package, lookup: PackageLookup = noOther): CheckReason | 'ok' {
  const r = checkPackage(pkg, lookup);
  return r.ok ? 'ok' : r.failure.reason;
}

/** A package with one value `Main:v : type = expr`, built (encoded and decoded back). */
function withValue(type: Type, expr: Expr, options: { lfVersion?: string } = {}): Package {
  const b = new PackageBuilder({ name: 'hostile', version: '1.0.0', ...options });
  b.module('Main').value('v', type, expr);
  return b.build().package;
}

describe.skipIf(!existsSync(DARS))('the check accepts every reference DAR (needs ../shared/upstream/daml/dars)', () => {
  it.each(existsSync(DARS) ? darFiles(DARS).map((f) => [f.slice(DARS.length + 1)]) : [])('%s', (rel) => {
    const dar = decodeDar(readFileSync(join(DARS, rel)));
    expect(dar.ok).toBe(true);
    if (!dar.ok) return;
    const byId = new Map(dar.value.packages.map((p) => [p.id, p]));
    // The merged walk alone: a real package never needs the reference order's second look.
    const r = checkPackages(dar.value.packages, (id) => byId.get(id), DEFAULT_CHECK_LIMITS, 'merged');
    expect(r.ok ? 'ok' : describeCheckFailure(r.failure)).toBe('ok');
  }, 120_000);
});

describe('the check', () => {
  it('accepts the sample package built by the tests', () => {
    expect(reasonOf(buildSamplePackage().package)).toBe('ok');
  });

  it.each([
    ['the empty string', ''],
    ['a path', '../x/y'],
    ['10,000 characters', 'a'.repeat(10_000)],
    ['a space', 'my package'],
  ])('refuses a package name that is not a PackageNameString: %s', (_what, name) => {
    const b = new PackageBuilder({ name, version: '1.0.0' });
    expect(reasonOf(b.build().package)).toEqual({ kind: 'badPackageName', name });
  });

  it.each([['latest'], [''], ['1.0.0-rc1'], ['01.2'], ['1..2'], ['9'.repeat(300)]])('refuses the package version %j', (version) => {
    const b = new PackageBuilder({ name: 'ok-name', version });
    expect(reasonOf(b.build().package)).toEqual({ kind: 'badPackageVersion', version });
  });

  it('refuses a package without metadata, and accepts names and versions the spec allows', () => {
    expect(reasonOf(new PackageBuilder({ name: 'x', version: '1', noMetadata: true }).build().package)).toEqual({ kind: 'badPackageName', name: '' });
    expect(reasonOf(new PackageBuilder({ name: 'splice-amulet:v_2', version: '0.10.22' }).build().package)).toBe('ok');
  });

  it('resolves references: values, types, templates, choices, packages', () => {
    const elsewhere = { packageId: 'f'.repeat(64), module: 'Main', name: 'x' };
    expect(reasonOf(withValue(T.int64, E.val({ packageId: SELF_PACKAGE_ID, module: 'Main', name: 'nowhere' })))).toMatchObject({ kind: 'unknownReference', what: 'value' });
    expect(reasonOf(withValue(T.int64, E.val({ packageId: SELF_PACKAGE_ID, module: 'Nowhere', name: 'v' })))).toMatchObject({ kind: 'unknownReference', what: 'module' });
    expect(reasonOf(withValue(T.con({ packageId: SELF_PACKAGE_ID, module: 'Main', name: 'Nope' }), E.unit))).toMatchObject({ kind: 'unknownReference', what: 'type' });
    expect(reasonOf(withValue(T.int64, E.val(elsewhere)))).toEqual({ kind: 'unknownReference', what: 'package', name: 'f'.repeat(64) });
    const tpl = { packageId: SELF_PACKAGE_ID, module: 'Main', name: 'NoTemplate' };
    expect(reasonOf(withValue(T.update(T.unit), E.fetch(tpl, E.unit)))).toMatchObject({ kind: 'unknownReference', what: 'template' });
    // A choice the sample template does not have.
    const sample = buildSamplePackage();
    const asset = sample.ref('Sample.Asset', 'Asset');
    const user = withValue(T.update(T.unit), E.exercise(asset, 'NoSuchChoice', E.unit, E.unit));
    expect(reasonOf(user, (id) => (id === sample.id ? sample.package : undefined))).toMatchObject({ kind: 'unknownReference', what: 'choice' });
    const cid = T.contractId(T.con(asset));
    const fetch = withValue(T.arrow(cid, T.update(T.con(asset))), E.lam([['c', cid]], E.fetch(asset, E.var('c'))));
    expect(reasonOf(fetch, (id) => (id === sample.id ? sample.package : undefined))).toBe('ok');
  });

  it.each(ILL_TYPED)('refuses ill-typed code, naming the definition and the rule: $what', ({ build, definition, says }) => {
    const pkg = build('ill-typed').package;
    const r = checkPackage(pkg, noOther);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure).toMatchObject({ packageId: pkg.id, definition, reason: { kind: 'typeMismatch' } });
    expect(describeCheckFailure(r.failure)).toMatch(says);
  });

  it('compares synonyms of synonyms nested 60 deep (a tree of 2^60 leaves, 60 interned types) in linear time', () => {
    // Pair a b = ⟨x: a, y: b⟩; T₀ a = a, Tₖ₊₁ a = Pair (Tₖ a) (Tₖ a). A lambda's parameter typed T₆₀ Int64
    // is passed to f @Int64 : T₆₀ Int64 → Int64: the two T₆₀ Int64 are equal but built apart (one
    // converted, one instantiated), so every level compares its two (shared) arguments.
    /** `f : ∀a. T₆₀ a → Int64`, and `v` passing its parameter of type T₆₀ `leaf` to `f @Int64`. */
    const nested = (name: string, leaf: Type): Package => {
      const b = new PackageBuilder({ name, version: '1.0.0' });
      const m = b.module('Main');
      const Pair = m.synonym('Pair', ['a', 'b'], T.struct({ x: T.var('a'), y: T.var('b') }));
      const deep = (at: Type): Type => { let t = at; for (let i = 0; i < 60; i++) t = T.syn(Pair, t, t); return t; };
      m.value('f', T.forall(['a'], T.arrow(deep(T.var('a')), T.int64)), E.tyLam(['a'], E.lam([['p', deep(T.var('a'))]], E.int64(1))));
      m.value('v', T.arrow(deep(leaf), T.int64), E.lam([['y', deep(leaf)]], E.app(E.tyApp(E.val(m.ref('f')), T.int64), E.var('y'))));
      return b.build().package;
    };
    const built = nested('nested-synonyms', T.int64);
    expect(checkPackage(built, noOther)).toEqual({ ok: true });
    // As uploaded: encoded (types interned, so each Tₖ is one entry) and decoded again.
    const decoded = decodeArchive(encodePackageArchive(built).dalf);
    if (!decoded.ok) throw new Error(decoded.failure.message);
    expect(checkPackage(decoded.value, noOther)).toEqual({ ok: true });
    // And a leaf that differs is found, under all 60 levels.
    expect(checkPackage(nested('nested-synonyms-2', T.text), noOther)).toMatchObject({ ok: false, failure: { definition: 'Main:v', reason: { kind: 'typeMismatch' } } });
  });

  it('refuses what must be serializable and is not, in the words of Daml\'s validator (daml-lf-2.rst "Serializable types")', () => {
    const party = (t: { field(f: string): Expr }) => E.list(T.party, [t.field('p')]);
    const refusal = (build: (m: ReturnType<PackageBuilder['module']>) => void) => {
      const b = new PackageBuilder({ name: 'unserializable', version: '1.0.0' });
      build(b.module('Main'));
      const r = checkPackage(b.build().package, noOther);
      return r.ok ? 'ok' : { definition: r.failure.definition, ...r.failure.reason };
    };
    // A record marked serializable with a function field.
    expect(refusal((m) => { m.record('R', { f: T.arrow(T.int64, T.int64) }); }))
      .toEqual({ definition: 'Main:R', kind: 'notSerializable', reason: 'function type', problem: 'serializable data type' });
    // A template whose record is not marked serializable.
    expect(refusal((m) => {
      m.template('T', { fields: { p: T.party }, signatories: party });
      m.dataType({ name: 'T', params: [], serializable: false, cons: { kind: 'record', fields: [{ name: 'p', type: T.party }], fieldNames: ['p'] } });
    })).toEqual({ definition: 'Main:T', kind: 'notSerializable', reason: 'unserializable data type Main:T', problem: 'template argument' });
    // A choice returning an Update, and one taking a synonym.
    expect(refusal((m) => m.template('T', { fields: { p: T.party }, signatories: party, choices: [
      { name: 'Go', returnType: T.update(T.int64), controllers: (c) => party(c), update: () => E.pure(T.update(T.int64), E.pure(T.int64, E.int64(1))) },
    ] }))).toEqual({ definition: 'Main:T/Go', kind: 'notSerializable', reason: 'Update', problem: 'choice result' });
    expect(refusal((m) => {
      const S = m.synonym('S', [], T.int64);
      m.record('R', { n: T.syn(S) });
    })).toEqual({ definition: 'Main:R', kind: 'notSerializable', reason: 'type synonym Main:S', problem: 'serializable data type' });
    // Structs, Any, an unapplied List, a free variable, a variant without constructors.
    expect(refusal((m) => { m.record('R', { s: T.struct({ a: T.int64 }) }); })).toMatchObject({ reason: 'structural record' });
    expect(refusal((m) => { m.record('R', { a: T.any }); })).toMatchObject({ reason: 'Any' });
    expect(refusal((m) => { m.record('R', { a: T.builtin('LIST') }); })).toMatchObject({ kind: 'kindMismatch' });
    expect(refusal((m) => { m.variant('V', {}); })).toMatchObject({ reason: 'variant type without constructors' });
    // A map of maps 60 deep, each level naming the one below twice (2^60 leaves, 60 interned types): each node once.
    expect(refusal((m) => { let t = T.int64; for (let i = 0; i < 60; i++) t = T.genMap(t, t); m.record('Deep', { d: t }); })).toBe('ok');
    // What is serializable passes: containers, maps, Numeric at a scale, a ContractId of anything, parameters.
    expect(refusal((m) => {
      m.record('Box', { a: T.var('a'), n: T.numeric(10), m: T.genMap(T.text, T.list(T.optional(T.var('a')))), c: T.contractId(T.int64) }, { params: ['a'] });
      m.record('Not', { f: T.arrow(T.int64, T.int64) }, { serializable: false });
    })).toBe('ok');
  });

  it('refuses to_any and type_rep of a type with variables, and throw of what is not an exception (Daml\'s checkAnyType, checkExceptionType)', () => {
    const reasonIn = (type: Type, expr: Expr) => { const r = checkPackage(withValue(type, expr), noOther); return r.ok ? 'ok' : r.failure.reason; };
    expect(reasonIn(T.forall(['a'], T.arrow(T.var('a'), T.any)), E.tyLam(['a'], E.lam([['x', T.var('a')]], ({ kind: 'toAny', type: T.var('a'), expr: E.var('x') } as Expr)))))
      .toEqual({ kind: 'illFormed', detail: 'expected a type containing neither type variables nor quantifiers, but found: type variable a' });
    expect(reasonIn(T.forall(['a'], T.typeRep), E.tyLam(['a'], ({ kind: 'typeRep', type: T.list(T.var('a')) } as Expr))))
      .toEqual({ kind: 'illFormed', detail: 'expected a type containing neither type variables nor quantifiers, but found: type variable a' });
    expect(reasonIn(T.int64, E.throw(T.int64, T.text, E.text('not an exception'))))
      .toEqual({ kind: 'illFormed', detail: 'expected an exception type, but found: a builtin type' });
    expect(reasonIn(T.any, ({ kind: 'toAny', type: T.list(T.int64), expr: E.nil(T.int64) } as Expr))).toBe('ok');
  });

  it('refuses a type argument of another kind than its binder (daml-lf-2.rst TyApp), for values and builtins', () => {
    const b = new PackageBuilder({ name: 'kinds', version: '1.0.0' });
    const m = b.module('Main');
    const id = m.value('id', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))), E.tyLam(['a'], E.lam([['x', T.var('a')]], E.var('x'))));
    m.value('v', T.int64, E.app(E.tyApp(E.val(id), T.builtin('LIST')), E.int64(1)));
    expect(checkPackage(b.build().package, noOther)).toMatchObject({ ok: false, failure: { definition: 'Main:v', reason: { kind: 'kindMismatch', detail: 'type argument 1 of id: expected kind *, found (* → *)' } } });
    const c = new PackageBuilder({ name: 'kinds-2', version: '1.0.0' });
    c.module('Main').value('v', T.numeric(10), E.call('ADD_NUMERIC', [T.int64], E.numeric('1.0000000000'), E.numeric('1.0000000000')));
    expect(checkPackage(c.build().package, noOther)).toMatchObject({ ok: false, failure: { reason: { kind: 'kindMismatch', detail: 'type argument 1 of ADD_NUMERIC: expected kind nat, found *' } } });
  });

  it('refuses synonyms that expand to themselves, naming the cycle (their expansion would not end)', () => {
    const b = new PackageBuilder({ name: 'cyclic', version: '1.0.0' });
    const m = b.module('Main');
    m.synonym('A', [], T.list(T.syn(m.ref('B'))));
    m.synonym('B', [], T.struct({ x: T.syn(m.ref('C')) }));
    m.synonym('C', [], T.syn(m.ref('A')));
    m.synonym('Fine', [], T.syn(m.ref('Leaf')));
    m.synonym('Leaf', [], T.int64);
    const pkg = b.build().package;
    const r = checkPackage(pkg, noOther);
    expect(r).toMatchObject({ ok: false, failure: { definition: 'Main:A', reason: { kind: 'illFormed', detail: 'cycle in type synonyms: Main:A → Main:B → Main:C → Main:A' } } });
    const acyclic = new PackageBuilder({ name: 'acyclic', version: '1.0.0' });
    const n = acyclic.module('Main');
    n.synonym('Fine', [], T.list(T.syn(n.ref('Leaf'))));
    n.synonym('Leaf', [], T.struct({ x: T.int64 }));
    n.value('v', T.syn(n.ref('Fine')), E.cons(T.syn(n.ref('Leaf')), [E.struct({ x: E.int64(1) })], E.nil(T.syn(n.ref('Leaf')))));
    expect(checkPackage(acyclic.build().package, noOther)).toEqual({ ok: true });
  });

  it('accepts well-typed code the typing rules cover: polymorphism, builtins at types, lets, cases, updates, interfaces', () => {
    // The sample package (asset template, interface, exception, a polymorphic value) must pass.
    expect(reasonOf(buildSamplePackage().package)).toBe('ok');
    const idT = T.forall(['a'], T.arrow(T.var('a'), T.var('a')));
    const b = new PackageBuilder({ name: 'well-typed', version: '1.0.0' });
    const m = b.module('Main');
    m.value('id', idT, E.tyLam(['a'], E.lam([['x', T.var('a')]], E.var('x'))));
    m.value('useId', T.int64, E.app(E.tyApp(E.val(m.ref('id')), T.int64), E.int64(3)));
    m.value('sum', T.numeric(10), E.call('ADD_NUMERIC', [T.nat(10)], E.numeric('1.0000000000'), E.numeric('2.0000000000')));
    m.value('len', T.int64, E.let([['xs', T.list(T.text), E.call('EXPLODE_TEXT', [], E.text('abc'))]],
      E.case(E.var('xs'), [Alt.nil(E.int64(0)), Alt.cons('h', 't', E.call('ADD_INT64', [], E.int64(1), E.int64(2)))])));
    m.value('now', T.update(T.timestamp), E.block([['t', T.timestamp, E.getTime]], E.pure(T.timestamp, E.var('t'))));
    m.value('err', T.int64, E.error(T.int64, 'boom'));
    expect(reasonOf(b.build().package)).toBe('ok');
  });

  it('types code using a dependency not yet checked, whose types nest 100,000 deep, without recursing', () => {
    const dep = new PackageBuilder({ name: 'deep-dep', version: '1.0.0' });
    let t: Type = T.var('a');
    for (let i = 0; i < 100_000; i++) t = T.list(t);
    const depModule = dep.module('Dep');
    const Deep = depModule.record('Deep', { f: t }, { params: ['a'] });
    const field = depModule.synonym('Field', ['a'], t);
    const builtDep = dep.build();
    // Main is well typed and shallow: `get : Deep Int64 → Field Int64 = \r → r.f`.
    const main = new PackageBuilder({ name: 'uses-deep', version: '1.0.0' });
    const deepRef = { ...Deep.ref, packageId: builtDep.id };
    const deepInt = T.con(deepRef, T.int64);
    main.module('Main').value('get', T.arrow(deepInt, T.syn({ ...field, packageId: builtDep.id }, T.int64)),
      E.lam([['r', deepInt]], E.field({ tycon: deepRef, args: [T.int64] }, 'f', E.var('r'))));
    const pkgs = [main.build().package, builtDep.package];
    const r = checkPackages(pkgs, (id) => pkgs.find((p) => p.id === id));
    expect(r.ok ? 'ok' : r.failure.reason).toMatchObject({ kind: 'tooDeep', what: 'type' });
  }, 60_000);

  it('refuses unbound variables and type variables', () => {
    expect(reasonOf(withValue(T.int64, E.var('x')))).toEqual({ kind: 'unknownVariable', name: 'x' });
    expect(reasonOf(withValue(T.arrow(T.int64, T.int64), E.lam([['x', T.int64]], E.var('x'))))).toBe('ok');
    // A lambda's parameter is not in scope of its argument.
    expect(reasonOf(withValue(T.int64, E.app(E.lam([['x', T.int64]], E.var('x')), E.var('x'))))).toEqual({ kind: 'unknownVariable', name: 'x' });
    expect(reasonOf(withValue(T.list(T.var('a')), E.nil(T.var('a'))))).toEqual({ kind: 'unknownTypeVariable', name: 'a' });
    expect(reasonOf(withValue(T.forall(['a'], T.list(T.var('a'))), E.tyLam(['a'], E.nil(T.var('a')))))).toBe('ok');
  });

  it('checks kinds: builtin arities, Numeric scales, type arguments', () => {
    expect(reasonOf(withValue(T.builtin('LIST', T.int64, T.int64), E.unit))).toMatchObject({ kind: 'kindMismatch' });
    expect(reasonOf(withValue(T.list(T.nat(3)), E.unit))).toMatchObject({ kind: 'kindMismatch' });
    expect(reasonOf(withValue(T.builtin('NUMERIC', T.int64), E.unit))).toMatchObject({ kind: 'kindMismatch' });
    expect(reasonOf(withValue(T.numeric(38), E.unit))).toMatchObject({ kind: 'illFormed' });
    expect(reasonOf(withValue(T.builtin('LIST'), E.unit))).toMatchObject({ kind: 'kindMismatch', detail: 'expected kind *, found * → *' });
    // A data type applied to more arguments than it has parameters: named in full.
    const b = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    const m = b.module('Main');
    const r = m.record('R', { x: T.int64 });
    m.value('v', T.con(r.ref, T.int64), E.unit);
    const pkg = b.build().package;
    expect(reasonOf(pkg)).toEqual({ kind: 'kindMismatch', detail: `${pkg.id}:Main:R is applied to too many type arguments` });
  });

  it('refuses builtins the package\'s LF version does not have', () => {
    expect(reasonOf(withValue(T.arrow(T.text, T.bool), E.builtin('SECP256K1_VALIDATE_KEY')))).toEqual({ kind: 'unavailableBuiltin', builtin: 'SECP256K1_VALIDATE_KEY', lfVersion: '2.1' });
    expect(reasonOf(withValue(T.arrow(T.text, T.bool), E.builtin('SECP256K1_VALIDATE_KEY'), { lfVersion: '2.3' }))).toBe('ok');
    expect(reasonOf(withValue(T.int64, E.builtin('ADD_BIGNUMERIC')))).toMatchObject({ kind: 'unavailableBuiltin', builtin: 'ADD_BIGNUMERIC' });
  });

  it('types every builtin: a map where a map goes, a list or an optional out (a corrupted package once ran GENMAP_VALUES on a Numeric)', () => {
    const numeric = E.numeric('0.0000000000');
    expect(reasonOf(withValue(T.list(T.int64), E.app(E.tyApp(E.builtin('GENMAP_VALUES'), T.numeric(10), T.int64), numeric)))).toMatchObject({ kind: 'typeMismatch' });
    expect(reasonOf(withValue(T.optional(T.int64), E.app(E.tyApp(E.builtin('TEXTMAP_LOOKUP'), T.int64), E.text('k'), numeric)))).toMatchObject({ kind: 'typeMismatch' });
    expect(reasonOf(withValue(T.int64, E.app(E.tyApp(E.builtin('GENMAP_KEYS'), T.text, T.int64), E.tyApp(E.builtin('GENMAP_EMPTY'), T.text, T.int64))))).toMatchObject({ kind: 'typeMismatch' });
    expect(reasonOf(withValue(T.list(T.text), E.app(E.tyApp(E.builtin('GENMAP_KEYS'), T.text, T.int64), E.tyApp(E.builtin('GENMAP_EMPTY'), T.text, T.int64))))).toBe('ok');
  });

  it('instantiates polymorphic builtins at their type arguments: LESS @(Numeric 10) of a Party is refused, at a type variable anything goes', () => {
    const numeric = E.numeric('0.0000000000');
    expect(reasonOf(withValue(T.bool, E.app(E.tyApp(E.builtin('LESS'), T.numeric(10)), numeric, E.text('a'))))).toMatchObject({ kind: 'typeMismatch' });
    expect(reasonOf(withValue(T.bool, E.app(E.tyApp(E.builtin('LESS'), T.numeric(10)), numeric, numeric)))).toBe('ok');
    expect(reasonOf(withValue(T.optional(T.text), E.app(E.tyApp(E.builtin('TEXTMAP_LOOKUP'), T.text), E.text('k'), E.tyApp(E.builtin('TEXTMAP_EMPTY'), T.int64))))).toMatchObject({ kind: 'typeMismatch' });
  });

  it("instantiates a top-level value's forall at its type arguments: id @Int64 of a Text is refused, at a type variable anything goes", () => {
    const withId = (use: (id: Expr) => Expr, type: Type) => {
      const b = new PackageBuilder({ name: 'poly', version: '1.0.0' });
      const main = b.module('Main');
      main.value('id', T.forall(['a'], T.arrow(T.var('a'), T.var('a'))), E.tyLam(['a'], E.lam([['x', T.var('a')]], E.var('x'))));
      main.value('v', type, use(E.val(main.ref('id'))));
      return b.build().package;
    };
    expect(reasonOf(withId((id) => E.app(E.tyApp(id, T.int64), E.text('seven')), T.int64))).toMatchObject({ kind: 'typeMismatch' });
    expect(reasonOf(withId((id) => E.app(E.tyApp(id, T.int64), E.int64(7n)), T.text))).toMatchObject({ kind: 'typeMismatch' });
    expect(reasonOf(withId((id) => E.app(E.tyApp(id, T.int64), E.int64(7n)), T.int64))).toBe('ok');
  });

  it('refuses a case whose alternatives are not exhaustive (daml-lf-2.rst "Pattern match exhaustiveness"); a default makes any exhaustive', () => {
    const onBool = (alts: Parameters<typeof E.case>[1]) => withValue(T.int64, E.case(E.true, alts));
    expect(reasonOf(onBool([Alt.true(E.int64(1n))]))).toMatchObject({ kind: 'illFormed', detail: expect.stringContaining('non-exhaustive pattern match: no alternative for False') });
    expect(reasonOf(onBool([Alt.true(E.int64(1n)), Alt.false(E.int64(0n))]))).toBe('ok');
    expect(reasonOf(onBool([Alt.true(E.int64(1n)), Alt.default(E.int64(0n))]))).toBe('ok');
  });

  it('refuses ill-formed constructions: record fields, empty case, duplicate fields', () => {
    const b = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    const m = b.module('Main');
    const R = m.record('R', { a: T.int64, b: T.int64 });
    m.value('v', R.type, E.record(R.ref, { b: E.int64(1), a: E.int64(2) }));
    expect(reasonOf(b.build().package)).toMatchObject({ kind: 'illFormed', detail: expect.stringMatching(/field mismatch/) });
    expect(reasonOf(withValue(T.int64, E.case(E.unit, [])))).toMatchObject({ kind: 'illFormed', detail: 'empty case' });
    expect(reasonOf(withValue(T.struct({ a: T.int64 }), E.struct({ a: E.int64(1) })))).toBe('ok');
  });

  it('refuses a type nested 100,000 deep (interned, so the wire stays flat) without recursing', () => {
    // Each field's type is the previous one under a List: interning writes every level once.
    const b = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    const fields: { name: string; type: Type }[] = [];
    let t: Type = T.int64;
    for (let i = 0; i < 100_000; i++) {
      t = T.list(t);
      fields.push({ name: `f${i}`, type: t });
    }
    b.module('Main').record('Deep', fields);
    const r = checkPackage(b.build().package, noOther);
    expect(r).toMatchObject({ ok: false, failure: { definition: 'Main:Deep', reason: { kind: 'tooDeep', what: 'type', limit: DEFAULT_CHECK_LIMITS.typeDepth } } });
  }, 120_000);

  it('refuses an expression nested 100,000 deep without recursing (the walk keeps its own stack)', () => {
    let e: Expr = E.int64(0);
    for (let i = 0; i < 100_000; i++) e = E.some(T.int64, e);
    const pkg: Package = {
      id: 'a'.repeat(64), lfVersion: '2.1', imports: undefined,
      metadata: { name: 'hostile', version: '1.0.0', upgradedPackageId: undefined },
      modules: new Map([['Main', {
        name: 'Main', synonyms: new Map(), dataTypes: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map(),
        values: new Map([['v', { name: 'v', type: T.int64, expr: e }]]),
      }]]),
    };
    expect(reasonOf(pkg)).toEqual({ kind: 'tooDeep', what: 'expression', limit: DEFAULT_CHECK_LIMITS.exprDepth });
  });

  it('handles wide definitions without recursing: 100,000 type parameters, a kind of 100,000 arrows', () => {
    const params = Array.from({ length: 100_000 }, (_, i) => ({ name: `a${i}`, kind: { kind: 'star' } as const }));
    const b = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    const m = b.module('Main');
    const wide = m.dataType({ name: 'Wide', params, serializable: false, cons: { kind: 'record', fields: [], fieldNames: [] } });
    m.record('UsesWideUnapplied', { f: T.con(wide) });
    const r = checkPackage(b.build().package, noOther);
    expect(r).toMatchObject({ ok: false, failure: { definition: 'Main:UsesWideUnapplied', reason: { kind: 'kindMismatch', detail: expect.stringMatching(/^expected kind \*, found \* → \* → .* → …$/) } } });
    const arrowKind = { kind: 'arrow', params: params.map((p) => p.kind), result: { kind: 'star' } } as const;
    const b2 = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    b2.module('Main').dataType({ name: 'HigherKinded', params: [{ name: 'f', kind: arrowKind }], serializable: false, cons: { kind: 'record', fields: [], fieldNames: [] } });
    expect(checkPackage(b2.build().package, noOther)).toMatchObject({ ok: false, failure: { reason: { kind: 'tooDeep', what: 'kind' } } });
  }, 120_000);

  /** A value whose body is a DAG of 64 levels, each naming the one below twice (an exponential tree). */
  const dagValue = (): Package => {
    let e: Expr = E.int64(1);
    for (let i = 0; i < 64; i++) e = E.app(E.builtin('ADD_INT64'), e, e);
    const pkg = { ...withValue(T.int64, E.unit) };
    const module = pkg.modules.get('Main')!;
    return { ...pkg, modules: new Map([['Main', { ...module, values: new Map([['v', { name: 'v', type: T.int64, expr: e }]]) }]]) };
  };

  it('pauses within one definition: a DAG expression walked up to the work bound yields every 65,536 frames, in both walks', () => {
    const hostile = dagValue();
    for (const walk of ['merged', 'separate'] as const) {
      const steps = checkPackageSteps(hostile, noOther, { ...DEFAULT_CHECK_LIMITS, work: 2_000_000 }, walk);
      let pauses = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) pauses++;
      expect(r.value).toMatchObject({ ok: false, failure: { definition: 'Main:v', reason: { kind: 'tooLarge' } } });
      // One module, one definition: the rest are pauses inside its walk (up to 2,000,000 nodes,
      // a pause every 65,536 frames or items; the scope walk counts its types' kinding as work too).
      expect(pauses, walk).toBeGreaterThanOrEqual(10);
    }
  });

  it('bounds the work on shared sub-expressions (a DAG whose tree is exponential)', () => {
    const hostile = dagValue();
    expect(checkPackage(hostile, noOther, { ...DEFAULT_CHECK_LIMITS, work: 100_000 })).toMatchObject({ ok: false, failure: { reason: { kind: 'tooLarge', limit: 100_000 } } });
  });

  it('makes every check of the scope walk in the merged walk too (each refused by both walks, see checkPackage above)', () => {
    const LIST = T.builtin('LIST'); // kind * → *: ill-kinded where a type of kind * stands
    const b = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    const m = b.module('Main');
    const R = m.record('R', { a: T.int64 });
    const V = m.variant('V', { A: T.int64 });
    const En = m.enum('En', ['X']);
    const refs = b.build();
    // Typed `forall a. a` and built of `u` (of a type the typer does not track: an abstraction
    // whose parameter shadows another's is typed UNKNOWN): only the scope checks refuse these.
    const UNTRACKED = T.forall(['a'], T.var('a'));
    const u = E.tyApp(E.tyLam(['z'], E.tyLam(['z'], E.unit)), T.int64);
    const self = (e: Expr, type: Type = UNTRACKED) => {
      const pkg = refs.package;
      const module = pkg.modules.get('Main')!;
      return { ...pkg, modules: new Map([['Main', { ...module, values: new Map([['v', { name: 'v', type, expr: e }]]) }]]) } as Package;
    };
    const cases: [string, Expr][] = [
      ['application without arguments', { kind: 'app', fun: u, args: [] }],
      ['type application without types', { kind: 'tyApp', expr: E.tyLam(['a'], u), types: [] }],
      ['type application at an ill-kinded type', E.tyApp(E.tyLam(['a'], u), T.builtin('LIST', T.int64, T.int64))],
      ['lambda parameter of kind * → *', E.lam([['x', LIST]], u)],
      ['type abstraction without parameters', { kind: 'tyAbs', params: [], body: u }],
      ['type abstraction binding a name twice', E.tyLam(['a', 'a'], u)],
      ['type variable of another abstraction', E.tyLam(['a'], E.app(E.lam([['x', T.var('b')]], u), u))],
      ['type variable past its abstraction', E.struct({ x: E.tyLam(['a'], u), y: E.lam([['x', T.var('a')]], u) })],
      ['let binding of kind * → *', E.let([['x', LIST, u]], u)],
      ['empty Cons front', { kind: 'cons', type: T.int64, front: [], tail: u }],
      ['Nil of kind * → *', E.nil(LIST)],
      ['None of kind * → *', E.none(LIST)],
      ['Some of kind * → *', E.some(LIST, u)],
      ['throw of kind * → *', E.throw(LIST, T.int64, u)],
      ['to_any_exception of kind * → *', E.toAnyException(LIST, u)],
      ['struct with a field twice', { kind: 'structCon', fields: [{ field: 'a', expr: u }, { field: 'a', expr: u }] }],
      ['try of kind * → *', E.tryCatch(LIST, u, 'e', u)],
      ['pure of kind * → *', E.pure(LIST, u)],
      ['update block binding of kind * → *', E.block([['x', LIST, u]], u)],
      ['create of an unknown template', E.create({ ...R.ref, name: 'Nope' }, u)],
      ['projection of an unknown field', E.field(R.ref, 'b', u)],
      ['record type applied to too many types', E.field({ tycon: R.ref, args: [T.int64] }, 'a', u)],
      ['unknown variant constructor', E.variant(V.ref, 'B', u)],
      ['unknown enum constructor', E.enum(En.ref, 'Y')],
      ['case pattern of an unknown constructor', E.case(u, [Alt.variant(V.ref, 'B', 'x', u)])],
      ['case pattern of an unknown enum constructor', E.case(u, [Alt.enum(En.ref, 'Y', u)])],
      ['unbound variable in a case alternative', E.case(u, [Alt.some('x', u), Alt.default(E.var('x'))])],
      ['unbound variable after a let', E.struct({ a: E.let([['x', T.int64, u]], E.var('x')), b: E.var('x') })],
    ];
    // Each well formed but for the one check: the same shapes pass.
    for (const e of [E.tyApp(E.tyLam(['a'], u), T.int64), E.tyLam(['a'], E.app(E.lam([['x', T.var('a')]], u), u)), E.case(u, [Alt.some('x', E.var('x')), Alt.default(u)])]) {
      expect(checkPackage(self(e), noOther).ok).toBe(true);
    }
    for (const [what, e] of cases) expect({ what, r: checkPackage(self(e), noOther).ok }).toEqual({ what, r: false });
  });

  it('bounds expression depth the same in both walks, to the level, through every kind of nesting', () => {
    const limit = DEFAULT_CHECK_LIMITS.exprDepth;
    /** An Int64 expression whose innermost leaf lies at depth `depth`, through cases, lets, lambdas and type abstractions. */
    const chain = (depth: number): Expr => {
      let e: Expr = E.int64(0);
      let level = depth - 1;
      for (let i = 0; level > 0; i++) {
        if (i % 4 === 0 || level < 2) { e = E.case(E.unit, [Alt.default(e)]); level -= 1; }
        else if (i % 4 === 1) { e = E.let([['x', T.int64, E.int64(1)]], e); level -= 1; }
        else if (i % 4 === 2) { e = E.app(E.lam([['y', T.int64]], e), E.int64(2)); level -= 2; }
        else { e = E.tyApp(E.tyLam(['a'], e), T.int64); level -= 2; }
      }
      return e;
    };
    const pkg = (e: Expr): Package => ({
      id: 'a'.repeat(64), lfVersion: '2.1', imports: undefined,
      metadata: { name: 'deep', version: '1.0.0', upgradedPackageId: undefined },
      modules: new Map([['Main', {
        name: 'Main', synonyms: new Map(), dataTypes: new Map(), templates: new Map(), exceptions: new Map(), interfaces: new Map(),
        values: new Map([['v', { name: 'v', type: T.int64, expr: e }]]),
      }]]),
    });
    expect(checkPackage(pkg(chain(limit)), noOther).ok).toBe(true);
    expect(reasonOf(pkg(chain(limit + 1)))).toEqual({ kind: 'tooDeep', what: 'expression', limit });
  });

  it('names the package, the definition and the reason in one line', () => {
    const pkg = withValue(T.int64, E.var('ghost'));
    const r = checkPackage(pkg, noOther);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(describeCheckFailure(r.failure)).toBe(`validation error in Main:v in package ${pkg.id}: unknown expr variable: ghost`);
  });
});

describe('the decoder bounds what it recurses on', () => {
  it('refuses an expression nested deeper than the wire bound as a decode failure, not a stack overflow', () => {
    let e: Expr = E.int64(0);
    for (let i = 0; i < MAX_WIRE_NESTING + 10; i++) e = E.some(T.int64, e);
    const b = new PackageBuilder({ name: 'hostile', version: '1.0.0' });
    b.module('Main').value('v', T.int64, e);
    const { dalf } = encodePackageArchive(b.toPackage());
    const decoded = decodeArchive(dalf);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    // Value bodies decode on first use: the check forces them and reports the wire error.
    expect(reasonOf(decoded.value)).toMatchObject({ kind: 'undecodable', detail: expect.stringMatching(/nest deeper than 500/) });
  });
});
