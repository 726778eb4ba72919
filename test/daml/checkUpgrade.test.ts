/**
 * The upgrade check (daml-engine/check/checkUpgrade.ts) against Canton's TypecheckUpgrades: one
 * pair of built packages per rule, each a v1 and a v2 that differ in that rule alone, and the real
 * lineage of splice-amulet, which Canton accepts version after version.
 */
import { describe, expect, it } from 'vitest';

import type { Package } from '../../daml-engine/ast/Package.js';
import type { Type } from '../../daml-engine/ast/Type.js';
import { E, PackageBuilder, T, type ModuleBuilder } from '../../daml-engine/index.js';
import { checkUpgrade, isInvalidDamlPrimOrStdlib, isUtilityPackage } from '../../daml-engine/check/checkUpgrade.js';
import { HAS_DARS, loadDar } from './damlFixtures.js';

const NAME = 'cc-upgrade-check';

/** What every version has unless a case changes it. */
interface Shape {
  readonly lfVersion?: string;
  readonly modules?: readonly string[];
  readonly fields?: Readonly<Record<string, Type>>;
  readonly choices?: readonly { name: string; returns: Type }[];
  readonly variant?: Readonly<Record<string, Type>>;
  readonly enumeration?: readonly string[];
  /** The data type `Extra`: a record by default, or gone, or not serializable. */
  readonly extra?: 'record' | 'variant' | 'absent' | 'unserializable' | 'two-params';
  readonly implementsMarker?: boolean;
}

const BASE: Required<Omit<Shape, 'lfVersion'>> = {
  modules: ['Main', 'Other'],
  fields: { owner: T.party, amount: T.int64 },
  choices: [{ name: 'Touch', returns: T.int64 }],
  variant: { Cash: T.int64, Card: T.text },
  enumeration: ['Red', 'Green'],
  extra: 'record',
  implementsMarker: true,
};

/**
 * The interface lives in a package of its own, as Daml's guidance has it: an instance is keyed by
 * the interface's package id, so an interface of the upgraded package itself changes id with it.
 */
const MARKER = (() => {
  const b = new PackageBuilder({ name: 'cc-upgrade-marker', version: '1.0.0' });
  b.module('Marker').interface('Marker', { view: T.unit });
  return b.build();
})();

function version(v: string, shape: Shape = {}): Package {
  const s = { ...BASE, ...shape };
  const b = new PackageBuilder({ name: NAME, version: v, ...(shape.lfVersion ? { lfVersion: shape.lfVersion } : {}) });
  for (const name of s.modules) if (name !== 'Main') b.module(name).record('Note', { text: T.text });
  const m = b.module('Main');
  defineMain(m, s);
  return b.build().package;
}

function defineMain(m: ModuleBuilder, s: Required<Omit<Shape, 'lfVersion'>>): void {
  m.variant('Payment', s.variant);
  m.enum('Colour', s.enumeration);
  if (s.extra === 'record') m.record('Extra', { a: T.int64 });
  if (s.extra === 'variant') m.variant('Extra', { A: T.int64 });
  if (s.extra === 'unserializable') m.record('Extra', { a: T.int64 }, { serializable: false });
  if (s.extra === 'two-params') m.record('Extra', { a: T.int64 }, { params: ['x', 'y'] });
  m.template('Asset', {
    fields: s.fields,
    signatories: (t) => E.list(T.party, [t.field('owner')]),
    choices: s.choices.map((c) => ({
      name: c.name, consuming: false, returnType: c.returns,
      controllers: (scope) => E.list(T.party, [scope.field('owner')]),
      update: () => E.pure(c.returns, c.returns === T.text ? E.text('x') : E.int64(1)),
    })),
    implements: s.implementsMarker ? [{ iface: MARKER.ref('Marker', 'Marker'), view: E.unit }] : [],
  });
}

const check = (past: Package, present: Package) => checkUpgrade(past, present, () => undefined);

describe('checkUpgrade: what an upgrade may do', () => {
  it('accepts the same shape at a higher version, and Optional fields, templates, choices and constructors added at the end', () => {
    expect(check(version('1.0.0'), version('1.0.1'))).toBeUndefined();
    const grown = version('2.0.0', {
      modules: [...BASE.modules, 'Added'],
      fields: { ...BASE.fields, memo: T.optional(T.text) },
      choices: [...BASE.choices, { name: 'Peek', returns: T.text }],
      variant: { ...BASE.variant, Crypto: T.text },
      enumeration: [...BASE.enumeration, 'Blue'],
    });
    expect(check(version('1.0.0'), grown)).toBeUndefined();
  });

  it('lets a data type that is not serializable go, or become serializable', () => {
    expect(check(version('1.0.0', { extra: 'unserializable' }), version('2.0.0', { extra: 'absent' }))).toBeUndefined();
    expect(check(version('1.0.0', { extra: 'unserializable' }), version('2.0.0'))).toBeUndefined();
  });
});

describe('checkUpgrade: what an upgrade may not do, in Canton\'s words', () => {
  const cases: { what: string; past?: Shape; present: Shape; kind: string; message: string }[] = [
    { what: 'an older LF version', past: { lfVersion: '2.dev' }, present: {}, kind: 'DecreasingLfVersion', message: 'The upgraded package uses an older LF version (2.1 < 2.dev)' },
    { what: 'a module dropped', present: { modules: ['Main'] }, kind: 'MissingModule', message: 'Module Other appears in package that is being upgraded, but does not appear in the upgrading package.' },
    { what: 'a choice dropped', present: { choices: [] }, kind: 'MissingChoice', message: 'Choice Touch appears in package that is being upgraded, but does not appear in the upgrading package.' },
    { what: 'a choice result changed', present: { choices: [{ name: 'Touch', returns: T.text }] }, kind: 'ChoiceChangedReturnType', message: 'The upgraded choice Touch cannot change its return type.' },
    { what: 'a template field dropped', present: { fields: { owner: T.party } }, kind: 'RecordFieldsMissing', message: 'The upgraded template Asset is missing some of its original fields.' },
    { what: 'a template field retyped', present: { fields: { owner: T.party, amount: T.text } }, kind: 'RecordFieldsExistingChanged', message: 'The upgraded template Asset has changed the types of some of its original fields.' },
    { what: 'a field added that is not Optional', present: { fields: { ...BASE.fields, memo: T.text } }, kind: 'RecordFieldsNewNonOptional', message: 'The upgraded template Asset has added new fields, but those fields are not Optional.' },
    { what: 'fields reordered', present: { fields: { amount: T.int64, owner: T.party } }, kind: 'RecordFieldsOrderChanged', message: 'The upgraded template Asset has changed the order of its fields - any new fields must be added at the end of the record.' },
    { what: 'an Optional field added in the middle', present: { fields: { owner: T.party, memo: T.optional(T.text), amount: T.int64 } }, kind: 'RecordFieldsOrderChanged', message: 'The upgraded template Asset has changed the order of its fields - any new fields must be added at the end of the record.' },
    { what: 'a constructor dropped', present: { variant: { Cash: T.int64 } }, kind: 'VariantRemovedVariant', message: 'The upgraded data type Payment has removed an existing variant.' },
    { what: 'a constructor retyped', present: { variant: { Cash: T.text, Card: T.text } }, kind: 'VariantChangedVariantType', message: 'The upgraded data type Payment has changed the type of a variant.' },
    { what: 'a constructor added first', present: { variant: { Crypto: T.text, ...BASE.variant } }, kind: 'VariantVariantsOrderChanged', message: 'The upgraded data type Payment has changed the order of its variants - any new variant must be added at the end of the variant.' },
    { what: 'an enum constructor dropped', present: { enumeration: ['Red'] }, kind: 'EnumRemovedVariant', message: 'The upgraded data type Colour has removed an existing variant.' },
    { what: 'enum constructors reordered', present: { enumeration: ['Green', 'Red'] }, kind: 'EnumVariantsOrderChanged', message: 'The upgraded data type Colour has changed the order of its variants - any new variant must be added at the end of the enum.' },
    { what: 'a record made a variant', present: { extra: 'variant' }, kind: 'MismatchDataConsVariety', message: 'The upgraded data type Extra has changed from a record to a variant. Datatypes cannot change variety via upgrades.' },
    { what: 'a serializable data type dropped', present: { extra: 'absent' }, kind: 'MissingDataCon', message: 'Data type Extra appears in package that is being upgraded, but does not appear in the upgrading package.' },
    { what: 'a data type made unserializable', present: { extra: 'unserializable' }, kind: 'DatatypeBecameUnserializable', message: 'The upgraded data type Extra was serializable and is now unserializable. Datatypes cannot change their serializability via upgrades.' },
    { what: 'type parameters added', present: { extra: 'two-params' }, kind: 'DifferentParamsCount', message: 'The upgraded data type Extra has changed the number of type variables it has.' },
    { what: 'an interface instance dropped', present: { implementsMarker: false }, kind: 'MissingImplementation', message: 'by template Asset appears in package that is being upgraded, but does not appear in this package.' },
  ];
  for (const c of cases) {
    it(c.what, () => {
      const problem = check(version('1.0.0', c.past), version('2.0.0', c.present));
      expect(problem?.kind).toBe(c.kind);
      expect(problem?.message).toContain(c.message);
    });
  }

  it('an interface of the package itself: its instances are the instances of another interface in the next version', () => {
    const own = (v: string) => {
      const b = new PackageBuilder({ name: NAME, version: v });
      const m = b.module('Main');
      const marker = m.interface('Own', { view: T.unit });
      m.template('Asset', { fields: { owner: T.party }, signatories: (t) => E.list(T.party, [t.field('owner')]), implements: [{ iface: marker.ref, view: E.unit }] });
      return b.build().package;
    };
    const [v1, v2] = [own('1.0.0'), own('2.0.0')];
    expect(check(v1, v2)?.message).toBe(`Implementation of interface ${v1.id}:Main:Own by template Asset appears in package that is being upgraded, but does not appear in this package.`);
  });

  it('a template dropped', () => {
    const b = new PackageBuilder({ name: NAME, version: '2.0.0' });
    b.module('Other').record('Note', { text: T.text });
    b.module('Main').record('Asset', BASE.fields);
    expect(check(version('1.0.0'), b.build().package)?.message).toBe('Template Asset appears in package that is being upgraded, but does not appear in the upgrading package.');
  });
});

describe('checkUpgrade: types from other packages', () => {
  const dep = (v: string) => {
    const b = new PackageBuilder({ name: 'cc-upgrade-dep', version: v });
    b.module('Dep').record('Amount', { value: T.int64 });
    return b.build();
  };
  const user = (v: string, amount: ReturnType<typeof dep>) => {
    const b = new PackageBuilder({ name: NAME, version: v });
    b.module('Main').record('Holding', { amount: T.con(amount.ref('Dep', 'Amount')) });
    return b.build().package;
  };
  const [d1, d2] = [dep('1.0.0'), dep('2.0.0')];
  const known = new Map([d1, d2].map((d) => [d.id, { name: d.name, version: d.version }]));
  const meta = (id: string) => known.get(id);

  it('a field may name the same type in a higher version of its package, not a lower one', () => {
    expect(checkUpgrade(user('1.0.0', d1), user('2.0.0', d2), meta)).toBeUndefined();
    expect(checkUpgrade(user('1.0.0', d2), user('2.0.0', d1), meta)?.kind).toBe('RecordFieldsExistingChanged');
  });

  it('a type of a package the participant does not know matches only itself', () => {
    expect(checkUpgrade(user('1.0.0', d1), user('2.0.0', d2), () => undefined)?.kind).toBe('RecordFieldsExistingChanged');
    expect(checkUpgrade(user('1.0.0', d1), user('2.0.0', d1), () => undefined)).toBeUndefined();
  });

  it('a package with no template, interface or serializable type is a utility package, outside lineages', () => {
    const b = new PackageBuilder({ name: 'cc-utility', version: '1.0.0' });
    b.module('Util').value('one', T.int64, E.int64(1));
    b.module('Util').record('Scratch', { a: T.int64 }, { serializable: false });
    expect(isUtilityPackage(b.build().package)).toBe(true);
    expect(isUtilityPackage(d1.package)).toBe(false);
  });

  it('a daml-stdlib with a serializable type of its own, or a template, is no valid daml-stdlib', () => {
    const stdlib = (module: string) => {
      const b = new PackageBuilder({ name: 'daml-stdlib', version: '0.0.0' });
      b.module(module).record('Mine', { a: T.int64 });
      return b.build().package;
    };
    expect(isInvalidDamlPrimOrStdlib(stdlib('DA.Numeric'))).toBe(false);
    expect(isInvalidDamlPrimOrStdlib(stdlib('DA.Mine'))).toBe(true);
    expect(isInvalidDamlPrimOrStdlib(d1.package)).toBe(false);
  });
});

describe.skipIf(!HAS_DARS)('checkUpgrade: Splice\'s real lineage (needs ../shared/upstream/daml/dars)', () => {
  it('splice-amulet 0.1.0 → 0.1.9 → 0.1.14 → 0.1.22 each upgrades the one before; 0.1.9 is no upgrade of 0.1.8; downgrades are none', () => {
    const dars = ['splice/splice-amulet-0.1.0.dar', 'history/splice-amulet-0.1.8.dar', 'history/splice-amulet-0.1.9.dar', 'splice-amulet-0.1.14.dar', 'splice/splice-amulet-0.1.22.dar'];
    const loaded = dars.map((d) => loadDar(d));
    const meta = (id: string) => {
      for (const l of loaded) {
        const p = l.packages.get(id);
        if (p?.metadata) return { name: p.metadata.name, version: p.metadata.version };
      }
      return undefined;
    };
    const [v0, v8, v9, v14, v22] = loaded.map((l) => l.dar.main) as [Package, Package, Package, Package, Package];
    for (const [a, b] of [[v0, v8], [v0, v9], [v9, v14], [v14, v22], [v0, v22]] as const) {
      expect(checkUpgrade(a, b, meta), `${b.metadata?.version} upgrades ${a.metadata?.version}`).toBeUndefined();
    }
    // 0.1.8 implemented the pre-release token standard (splice-api-token-holding-v1 0.0.1), 0.1.9
    // its release (1.0.0): another interface by package id, so the old instance is missing.
    const holding001 = loaded[1]?.dar.packages.find((p) => p.metadata?.name === 'splice-api-token-holding-v1')?.id;
    expect(checkUpgrade(v8, v9, meta)).toEqual({
      kind: 'MissingImplementation',
      message: `Implementation of interface ${String(holding001)}:Splice.Api.Token.HoldingV1:Holding by template Amulet appears in package that is being upgraded, but does not appear in this package.`,
    });
    expect(checkUpgrade(v22, v0, meta)).toBeDefined();
  });

  it('the daml-prim and daml-stdlib of early 3.x SDKs (serializable GHC.Stack.Types, DA.Numeric) are utility packages all the same', () => {
    const { dar } = loadDar('splice/splice-amulet-0.1.0.dar');
    const libraries = dar.packages.filter((p) => p.metadata?.name === 'daml-prim' || p.metadata?.name === 'daml-stdlib');
    expect(libraries.map((p) => p.metadata?.name).sort()).toEqual(['daml-prim', 'daml-stdlib']);
    expect(libraries.some((p) => !isUtilityPackage(p))).toBe(true);
    for (const p of libraries) expect(isInvalidDamlPrimOrStdlib(p)).toBe(false);
  });
});

describe('checkUpgrade: hostile shapes stay linear', () => {
  it('a field whose interned type is a 60-level DAG (2^60 leaves as a tree, under 2 KB on the wire) is compared in linear time', () => {
    const version = (v: string, leaf: Type) => {
      const b = new PackageBuilder({ name: NAME, version: v });
      const m = b.module('Main');
      const pair = m.record('P', [{ name: 'x', type: T.var('a') }, { name: 'y', type: T.var('b') }], { params: ['a', 'b'] });
      let t: Type = leaf;
      for (let i = 0; i < 60; i++) t = T.con(pair.ref, t, t);
      m.template('Asset', { fields: { owner: T.party, big: T.optional(t) }, signatories: (s) => E.list(T.party, [s.field('owner')]) });
      return b.build();
    };
    const v1 = version('1.0.0', T.int64);
    expect(v1.dalf.length).toBeLessThan(2048);
    // Would not end if the comparison walked the tree: a timeout, not a slow pass, is the failure.
    expect(check(v1.package, version('2.0.0', T.int64).package)).toBeUndefined();
    expect(check(v1.package, version('2.0.0', T.text).package)?.kind).toBe('RecordFieldsExistingChanged');
  });
});
