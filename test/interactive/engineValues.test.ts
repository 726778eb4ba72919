/**
 * Engine values in a prepared transaction, as Canton writes them (LfEngineToApi, verbose, over
 * the enriched transaction without trailing None fields), and back through their type ids.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import type { DataTypeDef, DataTypes } from '../../daml-engine/json/DataTypes.js';
import { equalValues } from '../../daml-engine/value/compare.js';
import { EMPTY_GEN_MAP, genMapInsert, textMapOf } from '../../daml-engine/value/maps.js';
import { int64, listOf, NONE, some, text, UNIT, type RecordValue, type Value } from '../../daml-engine/value/Value.js';
import { engineValueToProto } from '../../reference-server/src/ledger/interactive/engine/engineValueToProto.js';
import { protoToEngineValue } from '../../reference-server/src/ledger/interactive/engine/protoToEngineValue.js';

const PKG = 'e'.repeat(64);
const q = (name: string): QualifiedName => ({ packageId: PKG, module: 'Shop.Orders', name });
const builtin = (b: string, ...args: Type[]): Type => ({ kind: 'builtin', builtin: b as never, args });
const OPT_TEXT = builtin('OPTIONAL', builtin('TEXT'));
const DEFS = new Map<string, DataTypeDef>([
  ['Order', { kind: 'record', params: [], fields: [{ name: 'item', type: builtin('TEXT') }, { name: 'note', type: OPT_TEXT }, { name: 'gift', type: OPT_TEXT }] }],
  ['Status', { kind: 'variant', params: [], constructors: [{ name: 'Open', type: builtin('UNIT') }, { name: 'Shipped', type: builtin('TEXT') }] }],
  ['Color', { kind: 'enum', constructors: ['Red', 'Green'] }],
]);
const TYPES: DataTypes = { dataType: (t) => (t.packageId === PKG && t.module === 'Shop.Orders' ? DEFS.get(t.name) : undefined) };
const order = (item: string, note: Value, gift: Value): RecordValue => ({ kind: 'record', tycon: q('Order'), fieldNames: ['item', 'note', 'gift'], fields: [text(item), note, gift] });
const proto = (v: Value) => {
  const r = engineValueToProto(v);
  if (!r.ok) throw new Error(JSON.stringify(r.failure));
  return r.value;
};
const numeric = (scale: number, unscaled: bigint): Value => ({ kind: 'numeric', scale, unscaled });

describe('engine values as Canton encodes them in a prepared transaction', () => {
  it('Numeric: the plain decimal with exactly the scale digits (a bare point at scale 0)', () => {
    expect(proto(numeric(10, 15_000_000_000n)).sum).toEqual({ oneofKind: 'numeric', numeric: '1.5000000000' });
    expect(proto(numeric(10, -2_500_000_000n)).sum).toEqual({ oneofKind: 'numeric', numeric: '-0.2500000000' });
    expect(proto(numeric(10, 0n)).sum).toEqual({ oneofKind: 'numeric', numeric: '0.0000000000' });
    expect(proto(numeric(0, 15n)).sum).toEqual({ oneofKind: 'numeric', numeric: '15.' });
    expect(proto(numeric(37, 1n)).sum).toEqual({ oneofKind: 'numeric', numeric: '0.0000000000000000000000000000000000001' });
  });

  it('Int64, Timestamp (µs) and Date (days) as numbers; Unit, Bool, Text, Party, ContractId as themselves', () => {
    expect(proto(int64(-(2n ** 63n))).sum).toEqual({ oneofKind: 'int64', int64: '-9223372036854775808' });
    expect(proto({ kind: 'timestamp', micros: 1_764_000_000_123_456n }).sum).toEqual({ oneofKind: 'timestamp', timestamp: '1764000000123456' });
    expect(proto({ kind: 'date', days: -719_162 }).sum).toEqual({ oneofKind: 'date', date: -719_162 });
    expect(proto(UNIT).sum).toEqual({ oneofKind: 'unit', unit: {} });
    expect(proto({ kind: 'party', value: 'alice::1220' }).sum).toEqual({ oneofKind: 'party', party: 'alice::1220' });
  });

  it('records carry their id and labels; trailing None fields are left out, inner ones kept', () => {
    const fieldsOf = (v: Value) => {
      const p = proto(v);
      return p.sum.oneofKind === 'record' ? p.sum.record : undefined;
    };
    expect(fieldsOf(order('tea', NONE, NONE))).toEqual({ recordId: { packageId: PKG, moduleName: 'Shop.Orders', entityName: 'Order' }, fields: [{ label: 'item', value: { sum: { oneofKind: 'text', text: 'tea' } } }] });
    expect(fieldsOf(order('tea', NONE, some(text('for Bob'))))?.fields.map((f) => f.label)).toEqual(['item', 'note', 'gift']);
    expect(fieldsOf(order('tea', some(text('hot')), NONE))?.fields.map((f) => f.label)).toEqual(['item', 'note']);
    // Also below the top: a record in a list.
    const list = proto(listOf([order('tea', NONE, NONE)]));
    expect(list.sum.oneofKind === 'list' && list.sum.list.elements[0]?.sum.oneofKind === 'record' && list.sum.list.elements[0].sum.record.fields.length).toBe(1);
  });

  it('variants and enums carry their ids and constructor names', () => {
    expect(proto({ kind: 'variant', tycon: q('Status'), constructor: 'Shipped', rank: 1, value: text('DHL') }).sum).toEqual({
      oneofKind: 'variant', variant: { variantId: { packageId: PKG, moduleName: 'Shop.Orders', entityName: 'Status' }, constructor: 'Shipped', value: { sum: { oneofKind: 'text', text: 'DHL' } } },
    });
    expect(proto({ kind: 'enum', tycon: q('Color'), constructor: 'Green', rank: 1 }).sum).toEqual({ oneofKind: 'enum', enum: { enumId: { packageId: PKG, moduleName: 'Shop.Orders', entityName: 'Color' }, constructor: 'Green' } });
  });

  it('maps in key order: TextMap by code point, GenMap by the value order', () => {
    const tm = proto(textMapOf([['b', int64(2n)], ['a', int64(1n)], ['\u{1F600}', int64(3n)], ['\uFFFF', int64(4n)]]));
    expect(tm.sum.oneofKind === 'textMap' && tm.sum.textMap.entries.map((e) => e.key)).toEqual(['a', 'b', '\uFFFF', '\u{1F600}']);
    const gm = proto(genMapInsert(genMapInsert(EMPTY_GEN_MAP, int64(9n), text('nine')), int64(-1n), text('minus one')));
    expect(gm.sum.oneofKind === 'genMap' && gm.sum.genMap.entries.map((e) => e.key?.sum)).toEqual([{ oneofKind: 'int64', int64: '-1' }, { oneofKind: 'int64', int64: '9' }]);
  });

  it('refuses what no transaction holds, naming where: structs, Any, BigNumeric, functions', () => {
    const struct: Value = { kind: 'struct', fieldNames: ['x'], fields: [UNIT] };
    expect(engineValueToProto(order('tea', some(struct), NONE))).toEqual({ ok: false, failure: { kind: 'unserializable', path: 'value.note?', valueKind: 'struct' } });
    expect(engineValueToProto({ kind: 'bigNumeric', scale: 0, unscaled: 1n }, 'arg')).toMatchObject({ ok: false, failure: { kind: 'unserializable', path: 'arg', valueKind: 'bigNumeric' } });
    expect(engineValueToProto({ kind: 'function', fn: {} })).toMatchObject({ ok: false, failure: { valueKind: 'function' } });
  });

  it('refuses nesting beyond Daml-LF\'s 100 levels, and takes 100', () => {
    const nest = (n: number): Value => (n === 0 ? UNIT : some(nest(n - 1)));
    expect(engineValueToProto(nest(100)).ok).toBe(true);
    expect(engineValueToProto(nest(101))).toMatchObject({ ok: false, failure: { kind: 'tooDeep' } });
  });
});

describe('prepared-transaction values back as engine values', () => {
  const back = (v: Parameters<typeof protoToEngineValue>[0]) => protoToEngineValue(v, TYPES);

  it('restores the trailing None fields from the record definition', () => {
    const r = back(proto(order('tea', NONE, NONE)));
    expect(r.ok && equalValues(r.value, order('tea', NONE, NONE))).toBe(true);
    expect(r.ok && r.value.kind === 'record' && r.value.fieldNames).toEqual(['item', 'note', 'gift']);
  });

  it('Numeric keeps the scale its digits say', () => {
    expect(back(proto(numeric(0, 15n)))).toEqual({ ok: true, value: numeric(0, 15n) });
    expect(back(proto(numeric(10, -2_500_000_000n)))).toEqual({ ok: true, value: numeric(10, -2_500_000_000n) });
  });

  it('says what does not fit: a missing field, a wrong label, a record without id, an unknown constructor, foreign number forms', () => {
    const rec = (fields: { label: string; value: ReturnType<typeof proto> }[], recordId?: { packageId: string; moduleName: string; entityName: string }) =>
      ({ sum: { oneofKind: 'record' as const, record: { ...(recordId ? { recordId } : {}), fields } } });
    const id = { packageId: PKG, moduleName: 'Shop.Orders', entityName: 'Order' };
    expect(back(rec([], id))).toEqual({ ok: false, problem: 'value.item: a non-optional field is missing' });
    expect(back(rec([{ label: 'thing', value: proto(text('x')) }], id))).toMatchObject({ ok: false, problem: expect.stringContaining("field 0 is 'thing', the definition's is 'item'") });
    expect(back(rec([{ label: 'item', value: proto(text('x')) }]))).toMatchObject({ ok: false, problem: 'value: a record without its type id' });
    expect(back({ sum: { oneofKind: 'enum', enum: { enumId: { ...id, entityName: 'Color' }, constructor: 'Blue' } } })).toMatchObject({ ok: false, problem: expect.stringContaining("'Blue' is not a constructor of Color") });
    expect(back({ sum: { oneofKind: 'numeric', numeric: '1e5' } })).toMatchObject({ ok: false });
    expect(back({ sum: { oneofKind: 'int64', int64: '9223372036854775808' } })).toMatchObject({ ok: false, problem: 'value: Int64 out of range' });
    expect(back({ sum: { oneofKind: 'textMap', textMap: { entries: [{ key: 'a', value: proto(UNIT) }, { key: 'a', value: proto(UNIT) }] } } })).toMatchObject({ ok: false });
  });

  it('round-trips every value of the shop types (property)', () => {
    const { value } = fc.letrec<{ value: Value }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constant<Value>(UNIT),
        fc.boolean().map((b): Value => ({ kind: 'bool', value: b })),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(int64),
        fc.record({ scale: fc.integer({ min: 0, max: 37 }), unscaled: fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }) }).map(({ scale, unscaled }) => numeric(scale, unscaled)),
        fc.string().map(text),
        fc.bigInt({ min: -62_135_596_800_000_000n, max: 253_402_300_799_999_999n }).map((micros): Value => ({ kind: 'timestamp', micros })),
        fc.integer({ min: -719_162, max: 2_932_896 }).map((days): Value => ({ kind: 'date', days })),
        fc.option(tie('value'), { nil: undefined }).map((v): Value => ({ kind: 'optional', value: v })),
        fc.array(tie('value'), { maxLength: 3 }).map(listOf),
        fc.array(fc.tuple(fc.string({ maxLength: 3 }), tie('value')), { maxLength: 3 }).map((es) => textMapOf(new Map(es))),
        fc.array(fc.tuple(fc.bigInt({ min: -5n, max: 5n }), tie('value')), { maxLength: 3 }).map((es) => es.reduce((m, [k, v]) => genMapInsert(m, int64(k), v), EMPTY_GEN_MAP)),
        fc.tuple(fc.string(), fc.option(fc.string(), { nil: undefined }), fc.option(fc.string(), { nil: undefined }))
          .map(([i, n, g]) => order(i, n === undefined ? NONE : some(text(n)), g === undefined ? NONE : some(text(g)))),
        fc.oneof(fc.constant<Value>({ kind: 'variant', tycon: q('Status'), constructor: 'Open', rank: 0, value: UNIT }), fc.string().map((s): Value => ({ kind: 'variant', tycon: q('Status'), constructor: 'Shipped', rank: 1, value: text(s) }))),
        fc.constantFrom<Value>({ kind: 'enum', tycon: q('Color'), constructor: 'Red', rank: 0 }, { kind: 'enum', tycon: q('Color'), constructor: 'Green', rank: 1 }),
      ),
    }));
    fc.assert(fc.property(value, (v) => {
      const r = back(proto(v));
      expect(r.ok).toBe(true);
      expect(r.ok && equalValues(r.value, v)).toBe(true);
      // And the same protobuf again: the encoding is injective on what it produces.
      expect(r.ok && proto(r.value)).toEqual(proto(v));
    }), { numRuns: 300, seed: 20261126 });
  });
});
