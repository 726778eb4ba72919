/**
 * The package encoder and builder without any upstream file: every AST case round trips through
 * the decoder, the wire writer agrees with the reader, archives and DARs are what the decoders
 * read, hostile packages (odd names, nesting 100,000 deep) can be written, and built code runs.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import type { CaseAlt, Expr, ExprKind, Update } from '../../daml-engine/ast/Expr.js';
import type { Package } from '../../daml-engine/ast/Package.js';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import { Alt, E } from '../../daml-engine/build/E.js';
import { PackageBuilder, SELF_PACKAGE_ID } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { decodeArchive } from '../../daml-engine/decode/decodeArchive.js';
import { decodeDar, parseManifest } from '../../daml-engine/decode/decodeDar.js';
import { decodePackage } from '../../daml-engine/decode/decodePackage.js';
import { WireReader } from '../../daml-engine/decode/WireReader.js';
import { encodeArchive } from '../../daml-engine/encode/encodeArchive.js';
import { BUILTIN_FUNCTION_CODES, BUILTIN_TYPE_CODES, encodePackage, EncodeError, numericLiteralText } from '../../daml-engine/encode/encodePackage.js';
import { WireWriter } from '../../daml-engine/encode/WireWriter.js';
import { Evaluator } from '../../daml-engine/eval/Evaluator.js';
import { int64, listItems, text } from '../../daml-engine/value/Value.js';
import { readDar } from '../../reference-server/src/ledger/packages/readDar.js';
import { astDiff } from './astDiff.js';
import { buildSamplePackage } from './samplePackage.js';

/** The package decoded from its own encoding, self references kept under the placeholder id. */
function roundTrip(pkg: Package): Package {
  return decodePackage(encodePackage(pkg), pkg.id, pkg.lfVersion);
}

describe('WireWriter', () => {
  it('writes what WireReader reads: varints, negative int32s, zig-zag, fixed64, strings, nested lengths past one byte', () => {
    const w = new WireWriter();
    w.int32Field(1, 300);
    w.int32Field(2, -5);
    w.sint64Field(3, -9_223_372_036_854_775_808n);
    w.sfixed64Field(4, -1_000_000_000_000n);
    w.stringField(5, 'ünïcødé ✓');
    w.message(6, () => { w.message(7, () => w.stringField(8, 'x'.repeat(20_000))); w.int32Field(9, 7); });
    const r = new WireReader(w.finish());
    expect([r.tag(), r.uint32()]).toEqual([1 << 3, 300]);
    expect([r.tag(), r.uint32()]).toEqual([2 << 3, -5]);
    expect([r.tag(), r.sint64()]).toEqual([3 << 3, -9_223_372_036_854_775_808n]);
    expect([r.tag(), r.sfixed64()]).toEqual([(4 << 3) | 1, -1_000_000_000_000n]);
    expect([r.tag(), r.string()]).toEqual([(5 << 3) | 2, 'ünïcødé ✓']);
    expect(r.tag()).toBe((6 << 3) | 2);
    const end = r.limit();
    expect(r.tag()).toBe((7 << 3) | 2);
    const innerEnd = r.limit();
    expect([r.tag(), r.string().length, r.pos]).toEqual([(8 << 3) | 2, 20_000, innerEnd]);
    expect([r.tag(), r.uint32(), r.pos]).toEqual([9 << 3, 7, end]);
    expect(r.pos).toBe(r.buf.length);
  });
});

// ---- every case of the AST, through encode and decode -------------------------------------------

const M = 'Every.Case';
const ref = (name: string): QualifiedName => ({ packageId: SELF_PACKAGE_ID, module: M, name });
const OTHER: QualifiedName = { packageId: 'f'.repeat(64), module: 'Other.Module', name: 'Thing' };
const R = ref('R');
const x = E.var('x');
const y = E.var('y');

/** One expression of every kind: the mapped type makes a new kind a compile error here. */
const EXPRS: { readonly [K in ExprKind]: Extract<Expr, { kind: K }> } = {
  var: { kind: 'var', name: 'x' },
  val: { kind: 'val', ref: OTHER },
  builtin: { kind: 'builtin', builtin: 'TRACE' },
  lit: { kind: 'lit', value: text('') },
  recCon: { kind: 'recCon', tycon: { tycon: R, args: [T.int64] }, fields: [{ field: 'a', expr: x }, { field: 'b', expr: y }] },
  recProj: { kind: 'recProj', tycon: { tycon: R, args: [] }, field: 'a', record: x },
  recUpd: { kind: 'recUpd', tycon: { tycon: R, args: [] }, field: 'b', record: x, update: y },
  variantCon: { kind: 'variantCon', tycon: { tycon: ref('V'), args: [] }, constructor: 'Left', arg: x },
  enumCon: { kind: 'enumCon', tycon: ref('Color'), constructor: 'Red' },
  structCon: { kind: 'structCon', fields: [{ field: 'p', expr: x }] },
  structProj: { kind: 'structProj', field: 'p', struct: x },
  structUpd: { kind: 'structUpd', field: 'p', struct: x, update: y },
  app: { kind: 'app', fun: x, args: [y, x] },
  tyApp: { kind: 'tyApp', expr: x, types: [T.int64, T.numeric(10)] },
  abs: { kind: 'abs', params: [{ name: 'a', type: T.text }, { name: 'b', type: T.party }], body: x },
  tyAbs: { kind: 'tyAbs', params: [{ name: 'a', kind: { kind: 'star' } }, { name: 'n', kind: { kind: 'nat' } }, { name: 'f', kind: { kind: 'arrow', params: [{ kind: 'star' }], result: { kind: 'star' } } }], body: x },
  case: { kind: 'case', scrut: x, alts: [Alt.true(x), Alt.false(y)] },
  let: { kind: 'let', bindings: [{ name: 'a', type: T.int64, bound: x }, { name: 'b', type: T.int64, bound: y }], body: x },
  nil: { kind: 'nil', type: T.int64 },
  cons: { kind: 'cons', type: T.int64, front: [x, y], tail: E.nil(T.int64) },
  update: { kind: 'update', update: { kind: 'getTime' } },
  optionalNone: { kind: 'optionalNone', type: T.text },
  optionalSome: { kind: 'optionalSome', type: T.text, value: x },
  toAny: { kind: 'toAny', type: T.con(R), expr: x },
  fromAny: { kind: 'fromAny', type: T.con(R), expr: x },
  typeRep: { kind: 'typeRep', type: T.con(R) },
  toAnyException: { kind: 'toAnyException', type: T.con(R), expr: x },
  fromAnyException: { kind: 'fromAnyException', type: T.con(R), expr: x },
  throw: { kind: 'throw', returnType: T.int64, exceptionType: T.con(R), expr: x },
  toInterface: { kind: 'toInterface', iface: ref('I'), template: ref('Tpl'), expr: x },
  fromInterface: { kind: 'fromInterface', iface: ref('I'), template: ref('Tpl'), expr: x },
  callInterface: { kind: 'callInterface', iface: ref('I'), method: 'm', expr: x },
  signatoryInterface: { kind: 'signatoryInterface', iface: ref('I'), expr: x },
  observerInterface: { kind: 'observerInterface', iface: ref('I'), expr: x },
  viewInterface: { kind: 'viewInterface', iface: ref('I'), expr: x },
  unsafeFromInterface: { kind: 'unsafeFromInterface', iface: ref('I'), template: ref('Tpl'), cid: x, expr: y },
  interfaceTemplateTypeRep: { kind: 'interfaceTemplateTypeRep', iface: ref('I'), expr: x },
  toRequiredInterface: { kind: 'toRequiredInterface', required: ref('I'), requiring: ref('J'), expr: x },
  fromRequiredInterface: { kind: 'fromRequiredInterface', required: ref('I'), requiring: ref('J'), expr: x },
  unsafeFromRequiredInterface: { kind: 'unsafeFromRequiredInterface', required: ref('I'), requiring: ref('J'), cid: x, expr: y },
  choiceController: { kind: 'choiceController', template: ref('Tpl'), choice: 'C', contract: x, arg: y },
  choiceObserver: { kind: 'choiceObserver', template: ref('Tpl'), choice: 'C', contract: x, arg: y },
  experimental: { kind: 'experimental', name: 'ANSWER', type: T.int64 },
};

const UPDATES: { readonly [K in Update['kind']]: Extract<Update, { kind: K }> } = {
  pure: { kind: 'pure', type: T.int64, expr: x },
  block: { kind: 'block', bindings: [{ name: 'a', type: T.int64, bound: x }], body: y },
  create: { kind: 'create', template: ref('Tpl'), expr: x },
  createInterface: { kind: 'createInterface', iface: ref('I'), expr: x },
  exercise: { kind: 'exercise', template: ref('Tpl'), choice: 'C', cid: x, arg: y },
  exerciseInterface: { kind: 'exerciseInterface', iface: ref('I'), choice: 'C', cid: x, arg: y, guard: E.var('g') },
  exerciseByKey: { kind: 'exerciseByKey', template: ref('Tpl'), choice: 'C', key: x, arg: y },
  fetch: { kind: 'fetch', template: ref('Tpl'), cid: x },
  fetchInterface: { kind: 'fetchInterface', iface: ref('I'), cid: x },
  getTime: { kind: 'getTime' },
  lookupByKey: { kind: 'lookupByKey', template: ref('Tpl') },
  fetchByKey: { kind: 'fetchByKey', template: ref('Tpl') },
  queryNByKey: { kind: 'queryNByKey', template: ref('Tpl') },
  embedExpr: { kind: 'embedExpr', type: T.int64, expr: x },
  tryCatch: { kind: 'tryCatch', returnType: T.int64, tryExpr: x, binder: 'e', catchExpr: y },
  ledgerTimeLt: { kind: 'ledgerTimeLt', expr: x },
};

const ALTS: { readonly [K in CaseAlt['kind']]: Extract<CaseAlt, { kind: K }> } = {
  default: { kind: 'default', body: x },
  variant: { kind: 'variant', tycon: ref('V'), constructor: 'Left', binder: 'l', body: x },
  enum: { kind: 'enum', tycon: ref('Color'), constructor: 'Blue', body: x },
  builtinCon: { kind: 'builtinCon', con: 'unit', body: x },
  nil: { kind: 'nil', body: x },
  cons: { kind: 'cons', head: 'h', tail: 't', body: x },
  optionalNone: { kind: 'optionalNone', body: x },
  optionalSome: { kind: 'optionalSome', binder: 's', body: x },
};

const LITERALS: readonly Expr[] = [
  E.unit, E.true, E.false, E.int64(0), E.int64(-9_223_372_036_854_775_808n), E.int64(9_223_372_036_854_775_807n),
  E.text(''), E.text('a ✓ 𝄞'), E.numeric('0.'), E.numeric('-12.3450000000'), E.numeric('0.' + '0'.repeat(36) + '1'),
  E.date(0), E.date(-719_162), E.date(2_932_896), E.timestamp(0n), E.timestamp(-62_135_596_800_000_000n), E.timestamp(253_402_300_799_999_999n),
  { kind: 'lit', value: { kind: 'roundingMode', mode: 'HALF_EVEN' } }, { kind: 'lit', value: { kind: 'roundingMode', mode: 'UP' } },
  { kind: 'lit', value: { kind: 'failureCategory', category: 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER' } },
  { kind: 'lit', value: { kind: 'failureCategory', category: 'INVALID_INDEPENDENT_OF_SYSTEM_STATE' } },
];

function everyCasePackage(): PackageBuilder {
  const b = new PackageBuilder({ name: 'every-case', version: '0.0.1', upgradedPackageId: 'e'.repeat(64) });
  const m = b.module(M);
  m.record('R', { a: T.int64, b: T.var('t') }, { params: ['t'] });
  m.variant('V', { Left: T.int64, Right: T.text });
  m.enum('Color', ['Red', 'Green', 'Blue']);
  m.synonym('Syn', ['a'], T.list(T.var('a')));
  m.dataType({ name: 'Empty', params: [], serializable: false, cons: { kind: 'variant', constructors: [] } });
  for (const [kind, e] of Object.entries(EXPRS)) m.value(`expr.${kind}`, T.int64, e);
  for (const [kind, u] of Object.entries(UPDATES)) m.value(`update.${kind}`, T.update(T.int64), { kind: 'update', update: u });
  m.value('alts', T.int64, E.case(x, Object.values(ALTS)));
  LITERALS.forEach((l, i) => m.value(`literal${i}`, T.int64, l));
  for (const name of Object.keys(BUILTIN_FUNCTION_CODES)) m.value(`builtin.${name}`, T.int64, { kind: 'builtin', builtin: name as keyof typeof BUILTIN_FUNCTION_CODES });
  const types: Type[] = [
    ...Object.keys(BUILTIN_TYPE_CODES).map((name) => T.builtin(name as keyof typeof BUILTIN_TYPE_CODES)),
    T.var('f', T.int64), T.syn(ref('Syn'), T.int64), T.forall(['a', 'b'], T.arrow(T.var('a'), T.var('b'), T.int64)),
    T.struct({ p: T.int64, q: T.text }), T.nat(37), { kind: 'app', lhs: T.var('f'), rhs: T.int64 }, T.con(OTHER, T.party),
  ];
  types.forEach((t, i) => m.value(`type${i}`, t, E.unit));
  m.exception('Boom', { reason: T.text }, (e) => e.field('reason'));
  const I = m.interface('I', { view: T.con(R, T.int64), methods: { m: T.text }, requires: [ref('J')], choices: [{ name: 'IC', returnType: T.unit, controllers: E.nil(T.party), update: E.pure(T.unit, E.unit) }] });
  m.interface('J', { view: T.unit });
  m.template('Tpl', {
    fields: { p: T.party }, param: 'me',
    signatories: (t) => E.list(T.party, [t.field('p')]),
    key: { type: T.party, body: (t) => t.field('p'), maintainers: E.lam([['k', T.party]], E.list(T.party, [E.var('k')])) },
    choices: [
      { name: 'C', consuming: false, arg: [{ name: 'n', type: T.int64 }], returnType: T.int64, controllers: E.nil(T.party), observers: E.nil(T.party), authorizers: E.nil(T.party), update: (c) => E.pure(T.int64, c.argField('n')) },
      { name: 'Raw', argType: T.int64, returnType: T.int64, controllers: E.nil(T.party), update: (c) => E.pure(T.int64, c.arg) },
    ],
    implements: [{ iface: I.ref, view: E.record({ tycon: R, args: [T.int64] }, { a: E.int64(1), b: E.int64(2) }), methods: { m: E.text('m') } }],
  });
  b.module('Second.Module').value('v', T.int64, E.val(ref('expr.var')));
  return b;
}

describe('encodePackage and decodePackage', () => {
  it('round trip every expression, update, case alternative, literal, builtin, type and definition kind', () => {
    const pkg = everyCasePackage().toPackage();
    const back = roundTrip(pkg);
    expect(astDiff(pkg, back)).toBeUndefined();
    expect(Buffer.from(encodePackage(back)).equals(Buffer.from(encodePackage(pkg)))).toBe(true);
  });

  it('notices a difference (the comparison can fail)', () => {
    const pkg = everyCasePackage().toPackage();
    const other = everyCasePackage();
    other.module(M).value('literal3', T.int64, E.int64(1));
    expect(astDiff(pkg, roundTrip(other.toPackage()))).toMatch(/literal3/);
  });

  it('writes explicit package imports as indices and other packages as interned ids', () => {
    const b = new PackageBuilder({ name: 'imports', version: '1.0.0', lfVersion: '2.dev', imports: ['f'.repeat(64)] });
    b.module('M').value('a', T.int64, E.val(OTHER));
    b.module('M').value('b', T.int64, E.val({ packageId: 'd'.repeat(64), module: 'X', name: 'y' }));
    const pkg = b.toPackage();
    expect(astDiff(pkg, roundTrip(pkg))).toBeUndefined();
  });

  it('writes Numeric literals in the spec form, scale 0 ending with the dot', () => {
    expect([numericLiteralText(0, 12n), numericLiteralText(10, -123_450_000_000n), numericLiteralText(3, 5n)]).toEqual(['12.', '-12.3450000000', '0.005']);
  });

  it('refuses what Daml-LF cannot say, with an EncodeError', () => {
    const b = new PackageBuilder({ name: 'bad', version: '1.0.0' });
    b.module('M').value('party', T.party, { kind: 'lit', value: { kind: 'party', value: 'alice' } });
    expect(() => b.build()).toThrow(EncodeError);
    expect(() => new PackageBuilder({ name: 'lf1', version: '1.0.0', lfVersion: '1.17' }).build()).toThrow(/only Daml-LF 2/);
  });
});

describe('built archives and DARs', () => {
  it('an archive whose id is the payload hash, self references resolved to it; a mismatching hash is refused', () => {
    const built = buildSamplePackage();
    const decoded = decodeArchive(built.dalf);
    expect(decoded.ok && decoded.value.id).toBe(built.id);
    const asset = built.package.modules.get('Sample.Asset')!.templates.get('Asset')!;
    expect(asset.implements.has(`${built.id}:Sample.Asset:Describable`)).toBe(true);
    const bad = decodeArchive(encodeArchive(built.payload, { hash: '0'.repeat(64) }).dalf);
    expect(!bad.ok && bad.failure.kind).toBe('hashMismatch');
  });

  it('a DAR the engine and the server read: main first, dependencies listed, manifest lines of at most 72 bytes', () => {
    const dep = buildSamplePackage('dependency-package', '2.0.0');
    const name = 'ünïcødé-'.repeat(20);
    const main = buildSamplePackage(name);
    const dar = main.dar({ dependencies: [dep.dalf, dep.dalf], files: { 'Sample/Asset.daml': 'module Sample.Asset where\n' } });
    const decoded = decodeDar(dar);
    expect(decoded.ok && decoded.value.packages.map((p) => p.id)).toEqual([main.id, dep.id]);
    expect(decoded.ok && decoded.value.main.metadata?.name).toBe(name);
    expect(decoded.ok && [...decoded.value.sources.keys()].length).toBe(1);
    const manifest = unzipSync(dar)['META-INF/MANIFEST.MF']!;
    for (const line of new TextDecoder().decode(manifest).split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(72);
    expect(parseManifest(new TextDecoder().decode(manifest)).get('Main-Dalf')).toMatch(new RegExp(`/[^/]+-${main.id}\\.dalf$`));
    const server = readDar(dar);
    expect(server.ok && server.value.packages.map((p) => [p.packageName, p.packageVersion])).toEqual([[name, '1.0.0'], ['dependency-package', '2.0.0']]);
  });
});

describe('hostile packages, written as asked', () => {
  it.each([['empty', ''], ['path', '../x/y'], ['latest', 'latest'], ['10,000 characters', 'x'.repeat(10_000)]])('a package name and version that is %s: encodes and reads back as written', (_label, name) => {
    const b = new PackageBuilder({ name, version: name });
    b.module('M').value('v', T.int64, E.int64(1));
    const built = b.build();
    expect(built.package.metadata).toEqual({ name, version: name, upgradedPackageId: undefined });
    const dar = decodeDar(built.dar());
    expect(dar.ok && dar.value.main.id).toBe(built.id);
  });

  it('a type nested 100,000 deep is a flat interning table; an expression nested 100,000 deep is written whole', () => {
    let type: Type = T.int64;
    let expr: Expr = E.int64(1);
    for (let i = 0; i < 100_000; i++) { type = T.list(type); expr = E.some(T.int64, expr); }
    const b = new PackageBuilder({ name: 'deep', version: '1.0.0' });
    b.module('M').value('deepType', type, E.unit);
    b.module('M').value('deepExpr', T.int64, expr);
    const built = b.build();
    // Each level of the expression costs its own bytes (a nested message), each level of the type one table entry.
    expect(built.payload.length).toBeGreaterThan(100_000 * 10);
    const decoded = decodeArchive(built.dalf);
    expect(decoded.ok).toBe(true);
    let depth = 0;
    for (let t = decoded.ok ? decoded.value.modules.get('M')!.values.get('deepType')!.type : T.unit; t.kind === 'builtin' && t.builtin === 'LIST'; t = t.args[0]!) depth++;
    expect(depth).toBe(100_000);
  });

  it('no metadata at all, and an unknown LF minor, as written', () => {
    const bare = new PackageBuilder({ name: 'x', version: '1', noMetadata: true }).build();
    expect(bare.package.metadata).toBeUndefined();
    const future = new PackageBuilder({ name: 'x', version: '1', lfVersion: '2.99' }).build();
    const decoded = decodeArchive(future.dalf);
    expect(!decoded.ok && decoded.failure.kind).toBe('unsupportedVersion');
  });
});

describe('built code runs', () => {
  it('top-level values of a built package evaluate', () => {
    const built = buildSamplePackage();
    const ev = new Evaluator({ getPackage: (id) => (id === built.id ? built.package : undefined) });
    expect(ev.value(built.ref('Sample.Util', 'answer'))).toMatchObject({ ok: true, value: int64(42n) });
    const isEmpty = E.tyApp(E.val(built.ref('Sample.Util', 'isEmpty')), T.int64);
    const r = ev.evaluate(E.list(T.bool, [E.app(isEmpty, E.nil(T.int64)), E.app(isEmpty, E.list(T.int64, [E.int64(1)]))]));
    expect(r.ok && listItems(r.value as never)).toEqual([{ kind: 'bool', value: true }, { kind: 'bool', value: false }]);
  });
});
