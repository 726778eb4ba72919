// Daml-LF values in the JSON Ledger API's encoding, by type, both directions.
import { describe, expect, it } from 'vitest';
import type { QualifiedName, Type } from '../../daml-engine/ast/Type.js';
import type { DataTypeDef, DataTypes } from '../../daml-engine/json/DataTypes.js';
import fc from 'fast-check';
import { decodeJson, encodeJson, encodeJsonText, parseTimestamp } from '../../daml-engine/json/jsonValue.js';
import { textMapOf } from '../../daml-engine/value/maps.js';
import { int64, listOf, NONE, some, text, UNIT, type Value } from '../../daml-engine/value/Value.js';

const b = (builtin: string, ...args: Type[]): Type => ({ kind: 'builtin', builtin: builtin as never, args });
const tycon = (name: string): QualifiedName => ({ packageId: 'pkg', module: 'M', name });
const con = (name: string, ...args: Type[]): Type => ({ kind: 'con', tycon: tycon(name), args });
const v = (name: string): Type => ({ kind: 'var', name, args: [] });
const numeric10 = b('NUMERIC', { kind: 'nat', value: 10 });

const DEFS: Record<string, DataTypeDef> = {
  Transfer: { kind: 'record', params: [], fields: [
    { name: 'sender', type: b('PARTY') },
    { name: 'amount', type: numeric10 },
    { name: 'memo', type: b('OPTIONAL', b('TEXT')) },
    { name: 'legs', type: b('LIST', con('Leg')) },
    { name: 'meta', type: b('TEXTMAP', b('TEXT')) },
    { name: 'when', type: b('TIMESTAMP') },
  ] },
  Leg: { kind: 'record', params: [], fields: [{ name: 'id', type: b('INT64') }, { name: 'side', type: con('Side') }] },
  Side: { kind: 'enum', constructors: ['Buy', 'Sell'] },
  Oa: { kind: 'record', params: ['a'], fields: [{ name: 'foo', type: b('OPTIONAL', v('a')) }] },
  Pair3: { kind: 'record', params: [], fields: ['a', 'b', 'c', 'd'].map((name) => ({ name, type: b('OPTIONAL', b('INT64')) })) },
  Shape: { kind: 'variant', params: ['a'], constructors: [{ name: 'Circle', type: v('a') }, { name: 'Empty', type: b('UNIT') }] },
};
const types: DataTypes = { dataType: (t: QualifiedName) => DEFS[t.name] };
const roundTrip = (type: Type, json: unknown): unknown => {
  const r = decodeJson(type, json, types);
  if (!r.ok) throw new Error(`${r.problem.path}: ${r.problem.message}`);
  return encodeJson(r.value, type, types);
};

describe('JSON encoding of Daml-LF values', () => {
  it('records by field name, Numeric and Int64 as strings, optional fields omitted as None', () => {
    const json = { sender: 'alice::1220ab', amount: 12.5, legs: [{ id: 1, side: 'Buy' }, [2, 'Sell']], meta: { b: 'y', a: 'x' }, when: '2025-01-02T03:04:05.5Z' };
    expect(roundTrip(con('Transfer'), json)).toEqual({
      sender: 'alice::1220ab', amount: '12.5000000000', memo: null,
      legs: [{ id: '1', side: 'Buy' }, { id: '2', side: 'Sell' }],
      meta: { a: 'x', b: 'y' }, when: '2025-01-02T03:04:05.500Z',
    });
  });
  it("nested optionals as arrays at every level, as Canton's JSON codec writes them: [] None, [[]] Some None, [[x]] Some (Some x) (type variables resolved first)", () => {
    const oaOpt = con('Oa', b('OPTIONAL', b('INT64')));
    expect(roundTrip(oaOpt, {})).toEqual({ foo: [] });
    expect(roundTrip(oaOpt, { foo: null })).toEqual({ foo: [] });
    expect(roundTrip(oaOpt, { foo: [] })).toEqual({ foo: [] });
    expect(roundTrip(oaOpt, { foo: [[]] })).toEqual({ foo: [[]] });
    expect(roundTrip(oaOpt, { foo: [['42']] })).toEqual({ foo: [['42']] });
    expect(decodeJson(oaOpt, { foo: ['42'] }, types)).toMatchObject({ ok: false, problem: { path: 'foo[0]' } });
    expect(roundTrip(con('Oa', b('INT64')), { foo: 42 })).toEqual({ foo: '42' });
    expect(decodeJson(oaOpt, { foo: 42 }, types)).toMatchObject({ ok: false, problem: { path: 'foo' } });
    const triple = b('OPTIONAL', b('OPTIONAL', b('OPTIONAL', b('INT64'))));
    expect(roundTrip(triple, [])).toEqual([]);
    expect(roundTrip(triple, [[]])).toEqual([[]]);
    expect(roundTrip(triple, [[[]]])).toEqual([[[]]]);
    expect(roundTrip(triple, [[['7']]])).toEqual([[['7']]]);
  });
  it('trailing None fields left out, as Canton writes values in normal form; a None before a shown field stays null', () => {
    expect(roundTrip(con('Transfer'), { sender: 'alice::1220ab', amount: '1', legs: [], meta: {}, when: '2025-01-01T00:00:00Z' })).toHaveProperty('memo', null);
    expect(roundTrip(con('Pair3'), { a: null, b: '1', c: null, d: null })).toEqual({ a: null, b: '1' });
    expect(roundTrip(con('Pair3'), { a: null, b: null, c: null, d: null })).toEqual({});
    expect(roundTrip(con('Pair3'), { a: null, b: null, c: null, d: '4' })).toEqual({ a: null, b: null, c: null, d: '4' });
  });
  it('variants as {tag, value}, enums as strings, GenMap as sorted pairs', () => {
    expect(roundTrip(con('Shape', b('TEXT')), { tag: 'Circle', value: 'r' })).toEqual({ tag: 'Circle', value: 'r' });
    expect(roundTrip(con('Shape', b('TEXT')), { tag: 'Empty', value: {} })).toEqual({ tag: 'Empty', value: {} });
    expect(roundTrip(b('GENMAP', b('INT64'), b('TEXT')), [['3', 'c'], [1, 'a']])).toEqual([['1', 'a'], ['3', 'c']]);
    expect(decodeJson(b('GENMAP', b('INT64'), b('TEXT')), [[1, 'a'], ['1', 'b']], types)).toMatchObject({ ok: false, problem: { message: 'duplicate key in map' } });
  });
  it('names the path of what does not fit', () => {
    const bad = (json: unknown) => decodeJson(con('Transfer'), json, types);
    const base = { sender: 'alice::1220ab', amount: '1', legs: [], meta: {}, when: '2025-01-01T00:00:00Z' };
    expect(bad({ ...base, amount: '1.00000000001' })).toMatchObject({ ok: false, problem: { path: 'amount' } });
    expect(bad({ ...base, legs: [{ id: 1, side: 'Hold' }] })).toMatchObject({ ok: false, problem: { path: 'legs[0].side', message: 'expected one of Buy, Sell' } });
    expect(bad({ ...base, legs: [{ id: '9223372036854775808', side: 'Buy' }] })).toMatchObject({ ok: false, problem: { path: 'legs[0].id' } });
    expect(bad({ ...base, extra: 1 })).toMatchObject({ ok: false, problem: { path: 'extra' } });
    expect(bad({ ...base, sender: 'not/a/party' })).toMatchObject({ ok: false, problem: { path: 'sender' } });
    const { amount: _amount, ...noAmount } = base;
    expect(bad(noAmount)).toMatchObject({ ok: false, problem: { path: 'amount', message: "missing non-optional field 'amount'" } });
    expect(bad({ ...base, when: '2025-02-30T00:00:00Z' })).toMatchObject({ ok: false, problem: { path: 'when' } });
  });
  it('paths through maps, pairs, nested optionals, variants and positional records; a given prefix; extra None fields dropped', () => {
    const base = { sender: 'alice::1220ab', amount: '1', legs: [], meta: {}, when: '2025-01-01T00:00:00Z' };
    const problem = (type: Type, json: unknown, path?: string) => {
      const r = decodeJson(type, json, types, path);
      return r.ok ? undefined : r.problem;
    };
    expect(problem(con('Transfer'), { ...base, meta: { '[k': 1 } })).toEqual({ path: 'meta.[k', message: 'expected a text string' });
    expect(problem(con('Transfer'), { ...base, legs: [[1, 'Buy'], [2, 'Hold']] })).toEqual({ path: 'legs[1][1]', message: 'expected one of Buy, Sell' });
    expect(problem(con('Transfer'), { ...base, legs: [{ id: 1, side: 'Buy', extra: null }] })).toBeUndefined();
    expect(problem(con('Transfer'), { ...base, legs: [{ id: 1, side: 'Buy', extra: 0 }] }, 'arg')).toEqual({ path: 'arg.legs[0].extra', message: "unexpected field 'extra' (only an Optional field that is None may be dropped)" });
    const pairs = b('GENMAP', b('INT64'), con('Side'));
    expect(problem(pairs, [[1, 'Buy'], [2, 'Up']])).toEqual({ path: '[1][1]', message: 'expected one of Buy, Sell' });
    expect(problem(pairs, [[1, 'Buy'], ['x', 'Buy']], 'm')).toEqual({ path: 'm[1][0]', message: 'expected an Int64 (a string of digits)' });
    expect(problem(pairs, [[1, 'Buy'], [1, 'Sell']])).toEqual({ path: '[1][0]', message: 'duplicate key in map' });
    expect(problem(pairs, [[1, 'Buy'], 3])).toEqual({ path: '[1]', message: 'expected a [key, value] pair' });
    expect(problem(b('OPTIONAL', b('OPTIONAL', b('OPTIONAL', b('INT64')))), [[['x']]])).toEqual({ path: '[0][0][0]', message: 'expected an Int64 (a string of digits)' });
    expect(problem(con('Shape', con('Leg')), { tag: 'Circle', value: { id: 'x', side: 'Buy' } }, 's')).toEqual({ path: 's.value.id', message: 'expected an Int64 (a string of digits)' });
  });
  it('a field or key named __proto__ is an own property out, never the prototype', () => {
    const out = roundTrip(b('TEXTMAP', b('TEXT')), JSON.parse('{"__proto__": "x", "a": "y"}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":"x","a":"y"}');
  });
  it('timestamps: 0, 3 or 6 fraction digits out; the Daml range and real days in', () => {
    expect(parseTimestamp('0001-01-01T00:00:00Z')).toBe(-62_135_596_800_000_000n);
    expect(parseTimestamp('9999-12-31T23:59:59.999999999Z')).toBe(253_402_300_799_999_999n);
    expect(parseTimestamp('0000-12-31T23:59:59Z')).toBeUndefined();
    expect(parseTimestamp('2025-01-01T24:00:00Z')).toBeUndefined();
    expect(parseTimestamp('2025-01-01T00:00:00+01:00')).toBeUndefined();
    expect(roundTrip(b('TIMESTAMP'), '2025-01-01T00:00:00.000001Z')).toBe('2025-01-01T00:00:00.000001Z');
    expect(roundTrip(b('DATE'), '2024-02-29')).toBe('2024-02-29');
    expect(decodeJson(b('DATE'), '2023-02-29', types).ok).toBe(false);
  });
});

describe('encodeJsonText: the engine thread\'s rendering', () => {
  // A type and a value of it, nested a few levels: every shape the encoder distinguishes, with
  // texts and map keys that need escaping, look like array indices, or are named __proto__.
  const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', '0', '10', '2', 'a"b', '\u2028', '\ud800'));
  const scalar: fc.Arbitrary<[Type, Value]> = fc.oneof(
    fc.constant<[Type, Value]>([b('UNIT'), UNIT]),
    fc.boolean().map((x): [Type, Value] => [b('BOOL'), { kind: 'bool', value: x }]),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((x): [Type, Value] => [b('INT64'), int64(x)]),
    key.map((x): [Type, Value] => [b('TEXT'), text(x)]),
    key.map((x): [Type, Value] => [b('PARTY'), { kind: 'party', value: x }]),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((x): [Type, Value] => [numeric10, { kind: 'numeric', scale: 10, unscaled: x }]),
    fc.integer({ min: -700_000, max: 2_900_000 }).map((d): [Type, Value] => [b('DATE'), { kind: 'date', days: d }]),
    fc.bigInt({ min: 0n, max: 253_402_300_799_999_999n }).map((m): [Type, Value] => [b('TIMESTAMP'), { kind: 'timestamp', micros: m }]),
    fc.constantFrom('Buy', 'Sell').map((c): [Type, Value] => [con('Side'), { kind: 'enum', tycon: tycon('Side'), constructor: c, rank: c === 'Buy' ? 0 : 1 }]),
  );
  const typed: fc.Arbitrary<[Type, Value]> = fc.letrec<{ tv: [Type, Value] }>((tie) => ({
    tv: fc.oneof({ depthSize: 'small', withCrossShrink: true },
      scalar,
      tie('tv').chain(([t, x]) => fc.oneof(
        fc.constant<[Type, Value]>([b('OPTIONAL', t), NONE]),
        fc.constant<[Type, Value]>([b('OPTIONAL', t), some(x)]),
        fc.constant<[Type, Value]>([b('OPTIONAL', b('OPTIONAL', t)), some(some(x))]),
        fc.constant<[Type, Value]>([b('OPTIONAL', b('OPTIONAL', t)), some(NONE)]),
        fc.nat(3).map((n): [Type, Value] => [b('LIST', t), listOf(Array.from({ length: n }, () => x))]),
        fc.uniqueArray(key, { maxLength: 4 }).map((ks): [Type, Value] => [b('TEXTMAP', t), textMapOf(ks.map((k) => [k, x] as const))]),
        fc.constant<[Type, Value]>([b('GENMAP', b('INT64'), t), { kind: 'genMap', entries: [[int64(1n), x], [int64(2n), x]] }]),
        fc.constant<[Type, Value]>([con('Oa', t), { kind: 'record', tycon: tycon('Oa'), fieldNames: ['foo'], fields: [some(x)] }]),
        fc.constant<[Type, Value]>([con('Shape', t), { kind: 'variant', tycon: tycon('Shape'), constructor: 'Circle', rank: 0, value: x }]),
        // A record whose definition the caller does not know: its fields by their shape.
        fc.constant<[Type, Value]>([con('Unknown'), { kind: 'record', tycon: tycon('Unknown'), fieldNames: ['x', 'y'], fields: [x, int64(7n)] }]),
      )),
    ),
  })).tv;

  it('parses to what encodeJson makes, for any value of any type (keys in the order JavaScript gives objects)', () => {
    fc.assert(fc.property(typed, ([type, value]) => {
      const written = encodeJsonText(value, type, types);
      // The same object, its keys enumerated alike (a map's index-like keys come first either way).
      expect(JSON.stringify(JSON.parse(written))).toBe(JSON.stringify(encodeJson(value, type, types)));
      expect(JSON.parse(written)).toStrictEqual(encodeJson(value, type, types));
    }), { numRuns: 2000 });
  });

  // Command arguments come from outside: JSON one node away from a value's own is decoded or refused
  // with a path, never a throw, and what decodes is a value of the type (it encodes and decodes again alike).
  const nearMiss: fc.Arbitrary<unknown> = fc.oneof(
    fc.anything({ maxDepth: 2 }),
    fc.constantFrom('1', '1.5', '-0', '1e3', 'NaN', '', '9223372036854775808', '00', '[]', 'null', 2 ** 53 + 1, -1, 1.5, true, null, [], {}, [[]], { tag: 'Circle' }, { tag: 'Nope', value: 1 }, ['x'], [null]),
  );
  const paths = (json: unknown, at: readonly (string | number)[] = []): (readonly (string | number)[])[] => [
    at,
    ...(Array.isArray(json) ? json.flatMap((x, i) => paths(x, [...at, i])) : typeof json === 'object' && json !== null ? Object.entries(json).flatMap(([k, x]) => paths(x, [...at, k])) : []),
  ];
  const replaced = (json: unknown, at: readonly (string | number)[], by: unknown): unknown => {
    if (at.length === 0) return by;
    const [head, ...rest] = at;
    if (Array.isArray(json)) return json.map((x, i) => (i === head ? replaced(x, rest, by) : x));
    return Object.fromEntries(Object.entries(json as Record<string, unknown>).map(([k, x]) => [k, k === head ? replaced(x, rest, by) : x]));
  };

  const nodeAt = (json: unknown, at: readonly (string | number)[]): unknown => at.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], json);
  const without = (o: unknown, member: string): unknown => Object.fromEntries(Object.entries(o as Record<string, unknown>).filter(([k]) => k !== member));

  it('decodes JSON one node away from a value of its type, or refuses it with a path; what it decodes round-trips', () => {
    fc.assert(fc.property(typed, fc.nat(), nearMiss, fc.boolean(), ([type, value], pick, by, drop) => {
      const json = encodeJson(value, type, types);
      const all = paths(json);
      const at = all[pick % all.length]!;
      // Replace the node, or (for a member of an object) leave it out.
      const member = at[at.length - 1];
      const changed = drop && typeof member === 'string' ? replaced(json, at.slice(0, -1), without(nodeAt(json, at.slice(0, -1)), member)) : replaced(json, at, by);
      const r = decodeJson(type, changed, types);
      if (!r.ok) {
        expect(typeof r.problem.message).toBe('string');
        expect(typeof r.problem.path).toBe('string');
        return;
      }
      const again = decodeJson(type, encodeJson(r.value, type, types), types);
      expect(again.ok).toBe(true);
      if (again.ok) expect(encodeJson(again.value, type, types)).toStrictEqual(encodeJson(r.value, type, types));
    }), { numRuns: Number(process.env.FUZZ_RUNS ?? 3000), seed: Number(process.env.FUZZ_SEED ?? 20261202) });
  });
});
