// The first-order builtins against daml-lf-2.rst "Built-in functions" (sections cited per block).
import { describe, expect, it } from 'vitest';
import type { BuiltinName, BuiltinOutcome } from '../../daml-engine/builtins/Builtin.js';
import { BUILTINS, OFF_LEDGER_BUILTINS } from '../../daml-engine/builtins/builtins.js';
import { compareValues } from '../../daml-engine/value/compare.js';
import { compareTypes } from '../../daml-engine/value/compareTypes.js';
import { keccak256 } from '../../daml-engine/value/keccak256.js';
import { daysFromCivil } from '../../daml-engine/value/time.js';
import {
  bool, int64, listItems, listOf, NIL, NONE, some, text, UNIT, type Value,
} from '../../daml-engine/value/Value.js';
import type { Type } from '../../daml-engine/ast/Type.js';

const call = (name: BuiltinName, ...args: Value[]): BuiltinOutcome => {
  const b = BUILTINS.get(name);
  if (b === undefined) throw new Error(`no builtin ${name}`);
  expect(args.length).toBe(b.arity);
  return b.apply(args);
};
const value = (name: BuiltinName, ...args: Value[]): Value => {
  const r = call(name, ...args);
  if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r.failure)}`);
  return r.value;
};
const arithmeticError = (name: BuiltinName, ...args: Value[]): string => {
  const r = call(name, ...args);
  if (r.ok || r.failure.kind !== 'arithmetic') throw new Error(`${name} did not throw ArithmeticError`);
  return r.failure.message;
};
const i = (n: bigint | number): Value => int64(BigInt(n));
/** A numeric from its text form at the given scale, e.g. n('1.5', 10). */
const n = (t: string, scale: number): Value => {
  const [int, dec = ''] = t.replace('-', '').split('.');
  const unscaled = BigInt(int! + dec.padEnd(scale, '0'));
  return { kind: 'numeric', scale, unscaled: t.startsWith('-') ? -unscaled : unscaled };
};
/** The items of a list value (fails the test when it is not a list). */
const items = (v: Value): Value[] => {
  if (v.kind !== 'nil' && v.kind !== 'cons') throw new Error(`not a list: ${v.kind}`);
  return listItems(v);
};
const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const date = (y: number, m: number, d: number): Value => ({ kind: 'date', days: daysFromCivil(y, m, d) });
const ts = (micros: bigint): Value => ({ kind: 'timestamp', micros });

describe('Int64 functions (daml-lf-2.rst "Int64 functions")', () => {
  it('adds, subtracts, multiplies, and throws ArithmeticError on overflow with Daml\'s message', () => {
    expect(value('ADD_INT64', i(2), i(3))).toEqual(i(5));
    expect(value('SUB_INT64', i(2), i(3))).toEqual(i(-1));
    expect(value('MUL_INT64', i(-4), i(3))).toEqual(i(-12));
    expect(arithmeticError('ADD_INT64', i(MAX), i(1))).toBe('ArithmeticError while evaluating (ADD_INT64 9223372036854775807 1).');
    expect(arithmeticError('SUB_INT64', i(MIN), i(1))).toContain('SUB_INT64');
    expect(arithmeticError('MUL_INT64', i(2n ** 32n), i(2n ** 31n))).toContain('MUL_INT64');
    expect(value('MUL_INT64', i(2n ** 32n), i(2n ** 30n))).toEqual(i(2n ** 62n));
  });
  it('divides towards zero; 0 divisor and MIN / -1 throw', () => {
    expect(value('DIV_INT64', i(7), i(2))).toEqual(i(3));
    expect(value('DIV_INT64', i(-7), i(2))).toEqual(i(-3));
    expect(arithmeticError('DIV_INT64', i(1), i(0))).toBe('ArithmeticError while evaluating (DIV_INT64 1 0).');
    expect(arithmeticError('DIV_INT64', i(MIN), i(-1))).toContain('DIV_INT64');
  });
  it('MOD_INT64 takes the sign of the dividend; 0 divisor throws', () => {
    expect(value('MOD_INT64', i(-7), i(2))).toEqual(i(-1));
    expect(value('MOD_INT64', i(7), i(-2))).toEqual(i(1));
    expect(arithmeticError('MOD_INT64', i(7), i(0))).toContain('MOD_INT64 7 0');
  });
  it('EXP_INT64: negative exponents and overflow throw', () => {
    expect(value('EXP_INT64', i(2), i(62))).toEqual(i(2n ** 62n));
    expect(value('EXP_INT64', i(-2), i(63))).toEqual(i(MIN));
    expect(value('EXP_INT64', i(0), i(0))).toEqual(i(1));
    expect(arithmeticError('EXP_INT64', i(2), i(63))).toContain('EXP_INT64 2 63');
    expect(arithmeticError('EXP_INT64', i(2), i(-1))).toContain('EXP_INT64 2 -1');
  });
  it('INT64_TO_TEXT and TEXT_TO_INT64 ([+-]?\\d+, None on overflow)', () => {
    expect(value('INT64_TO_TEXT', i(MIN))).toEqual(text('-9223372036854775808'));
    expect(value('TEXT_TO_INT64', text('+42'))).toEqual(some(i(42)));
    expect(value('TEXT_TO_INT64', text('-007'))).toEqual(some(i(-7)));
    expect(value('TEXT_TO_INT64', text('9223372036854775808'))).toEqual(NONE);
    expect(value('TEXT_TO_INT64', text('1.0'))).toEqual(NONE);
    expect(value('TEXT_TO_INT64', text(' 1'))).toEqual(NONE);
    expect(value('TEXT_TO_INT64', text('١'))).toEqual(NONE); // only ASCII digits
  });
});

describe('Numeric functions (daml-lf-2.rst "Numeric functions"; literals: 38 digits, scale 0..37)', () => {
  it('ADD/SUB keep the scale and throw past 38 digits', () => {
    expect(value('ADD_NUMERIC', n('1.5', 10), n('2.25', 10))).toEqual(n('3.75', 10));
    expect(value('SUB_NUMERIC', n('1.5', 10), n('2.25', 10))).toEqual(n('-0.75', 10));
    const max28 = n('9999999999999999999999999999.9999999999', 10);
    expect(arithmeticError('ADD_NUMERIC', max28, n('0.0000000001', 10)))
      .toBe('ArithmeticError while evaluating (ADD_NUMERIC 9999999999999999999999999999.9999999999 0.0000000001).');
  });
  it('MUL/DIV round half to even at the witness\'s scale', () => {
    expect(value('MUL_NUMERIC', n('0', 1), n('0.25', 2), n('1', 0))).toEqual(n('0.2', 1)); // 0.25 -> 0.2
    expect(value('MUL_NUMERIC', n('0', 1), n('0.35', 2), n('1', 0))).toEqual(n('0.4', 1)); // 0.35 -> 0.4
    expect(value('MUL_NUMERIC', n('0', 1), n('-0.25', 2), n('1', 0))).toEqual(n('-0.2', 1));
    expect(value('DIV_NUMERIC', n('0', 10), n('1', 10), n('3', 10))).toEqual(n('0.3333333333', 10));
    expect(value('DIV_NUMERIC', n('0', 0), n('5', 0), n('2', 0))).toEqual(n('2', 0)); // 2.5 -> 2
    expect(value('DIV_NUMERIC', n('0', 0), n('7', 0), n('2', 0))).toEqual(n('4', 0)); // 3.5 -> 4
    expect(value('DIV_NUMERIC', n('0', 2), n('1', 0), n('0.004', 3))).toEqual(n('250', 2));
    expect(arithmeticError('DIV_NUMERIC', n('0', 10), n('1', 10), n('0', 10))).toContain('DIV_NUMERIC 0.0 1.0 0.0');
    expect(arithmeticError('MUL_NUMERIC', n('0', 10), n('1e27'.replace('1e27', '1' + '0'.repeat(27)), 10), n('10', 10))).toContain('MUL_NUMERIC');
  });
  it('ROUND_NUMERIC rounds to 10^-k half to even, k in (scale - 38, scale]', () => {
    expect(value('ROUND_NUMERIC', i(1), n('1.25', 10))).toEqual(n('1.2', 10));
    expect(value('ROUND_NUMERIC', i(1), n('1.35', 10))).toEqual(n('1.4', 10));
    expect(value('ROUND_NUMERIC', i(-1), n('25', 10))).toEqual(n('20', 10));
    expect(arithmeticError('ROUND_NUMERIC', i(11), n('1', 10))).toContain('ROUND_NUMERIC 11 1.0');
  });
  it('CAST_NUMERIC keeps the value or throws on precision loss; SHIFT_NUMERIC moves the point', () => {
    expect(value('CAST_NUMERIC', n('0', 2), n('1.5', 10))).toEqual(n('1.5', 2));
    expect(arithmeticError('CAST_NUMERIC', n('0', 0), n('1.5', 10))).toContain('CAST_NUMERIC');
    expect(arithmeticError('CAST_NUMERIC', n('0', 37), n('10', 0))).toContain('CAST_NUMERIC');
    expect(value('SHIFT_NUMERIC', n('0', 2), n('1.5', 10))).toEqual({ kind: 'numeric', scale: 2, unscaled: 15000000000n });
  });
  it('INT64_TO_NUMERIC and NUMERIC_TO_INT64 (towards zero, throws past Int64)', () => {
    expect(value('INT64_TO_NUMERIC', n('0', 10), i(-3))).toEqual(n('-3', 10));
    expect(arithmeticError('INT64_TO_NUMERIC', n('0', 37), i(10))).toContain('INT64_TO_NUMERIC');
    expect(value('NUMERIC_TO_INT64', n('-2.9', 10))).toEqual(i(-2));
    expect(arithmeticError('NUMERIC_TO_INT64', n('9223372036854775808', 0))).toContain('NUMERIC_TO_INT64 9223372036854775808.0');
  });
  it('NUMERIC_TO_TEXT prints the shortest plain form, TEXT_TO_NUMERIC reads leniently', () => {
    expect(value('NUMERIC_TO_TEXT', n('1.5', 10))).toEqual(text('1.5'));
    expect(value('NUMERIC_TO_TEXT', n('100', 10))).toEqual(text('100.0'));
    expect(value('NUMERIC_TO_TEXT', n('-0.05', 10))).toEqual(text('-0.05'));
    expect(value('NUMERIC_TO_TEXT', n('0', 10))).toEqual(text('0.0'));
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('001.2500'))).toEqual(some(n('1.25', 10)));
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('-3'))).toEqual(some(n('-3', 10)));
    expect(value('TEXT_TO_NUMERIC', n('0', 1), text('1.25'))).toEqual(NONE);
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('1.'))).toEqual(NONE);
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('.5'))).toEqual(NONE);
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('1e5'))).toEqual(NONE);
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('1'.repeat(29)))).toEqual(NONE);
    expect(value('TEXT_TO_NUMERIC', n('0', 10), text('1'.repeat(28)))).toEqual(some(n('1'.repeat(28), 10)));
  });
});

describe('Text functions (daml-lf-2.rst "String functions"): code points, not UTF-16 units', () => {
  const emoji = '\u{1F600}';
  it('EXPLODE / IMPLODE / APPEND', () => {
    expect(items(value('EXPLODE_TEXT', text(`a${emoji}b`)))).toEqual([text('a'), text(emoji), text('b')]);
    // One item a code point, as JS's string iterator splits (pairs whole, lone surrogates alone, from either end).
    for (const s of ['', 'x', `${emoji}${emoji}`, 'é✓\u00ff\u0080', '\ud83d', '\ude00', '\ud83d\ud83d\ude00', '\ud83d\ude00\ude00', `\ude00${emoji}\ud83d`]) {
      expect(items(value('EXPLODE_TEXT', text(s)))).toEqual(Array.from(s).map(text));
    }
    expect(value('IMPLODE_TEXT', listOf([text('a'), text(emoji)]))).toEqual(text(`a${emoji}`));
    expect(value('APPEND_TEXT', text('ab'), text('cd'))).toEqual(text('abcd'));
  });
  it('TEXT_TO_CODE_POINTS / CODE_POINTS_TO_TEXT (surrogates and > 0x10FFFF refused)', () => {
    expect(items(value('TEXT_TO_CODE_POINTS', text(`A${emoji}`)))).toEqual([i(65), i(0x1f600)]);
    expect(value('CODE_POINTS_TO_TEXT', listOf([i(65), i(0x1f600)]))).toEqual(text(`A${emoji}`));
    const bad = call('CODE_POINTS_TO_TEXT', listOf([i(0xd800)]));
    expect(bad.ok).toBe(false);
    expect(call('CODE_POINTS_TO_TEXT', listOf([i(0x110000)])).ok).toBe(false);
  });
  it('SHA256_TEXT hashes the UTF-8 bytes, lower-case hex', () => {
    expect(value('SHA256_TEXT', text('abc'))).toEqual(text('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'));
    expect(value('SHA256_TEXT', text(''))).toEqual(text('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'));
  });
  it('orders text by code point: U+FFFD comes before U+1F600 (UTF-16 order would say otherwise)', () => {
    expect(value('LESS', text('\uFFFD'), text(emoji))).toEqual(bool(true));
    expect(value('LESS', text('a'), text('ab'))).toEqual(bool(true));
  });
});

describe('Party and contract id functions (daml-lf-2.rst "Party functions", "ContractId functions")', () => {
  it('PARTY_TO_TEXT / TEXT_TO_PARTY form an isomorphism on PartyIdString', () => {
    const p = 'alice::1220abcd';
    expect(value('TEXT_TO_PARTY', text(p))).toEqual(some({ kind: 'party', value: p }));
    expect(value('PARTY_TO_TEXT', { kind: 'party', value: p })).toEqual(text(p));
    expect(value('TEXT_TO_PARTY', text(''))).toEqual(NONE);
    expect(value('TEXT_TO_PARTY', text('a'.repeat(256)))).toEqual(NONE);
    expect(value('TEXT_TO_PARTY', text('bad/party'))).toEqual(NONE);
  });
  it('CONTRACT_ID_TO_TEXT is None on the ledger, Some off it; COERCE_CONTRACT_ID is the identity', () => {
    const cid: Value = { kind: 'contractId', value: '00' + 'ab'.repeat(32) };
    expect(value('CONTRACT_ID_TO_TEXT', cid)).toEqual(NONE);
    expect(OFF_LEDGER_BUILTINS.get('CONTRACT_ID_TO_TEXT')!.apply([cid])).toEqual({ ok: true, value: some(text('00' + 'ab'.repeat(32))) });
    expect(value('COERCE_CONTRACT_ID', cid)).toBe(cid);
  });
});

describe('Date and Timestamp functions (daml-lf-2.rst "Date functions", "Timestamp functions", literals)', () => {
  it('prints ISO 8601 forms', () => {
    expect(value('DATE_TO_TEXT', date(1, 1, 1))).toEqual(text('0001-01-01'));
    expect(value('DATE_TO_TEXT', date(2024, 2, 29))).toEqual(text('2024-02-29'));
    expect(value('TIMESTAMP_TO_TEXT', ts(0n))).toEqual(text('1970-01-01T00:00:00Z'));
    expect(value('TIMESTAMP_TO_TEXT', ts(100_000n))).toEqual(text('1970-01-01T00:00:00.100Z'));
    expect(value('TIMESTAMP_TO_TEXT', ts(1n))).toEqual(text('1970-01-01T00:00:00.000001Z'));
    expect(value('TIMESTAMP_TO_TEXT', ts(-1n))).toEqual(text('1969-12-31T23:59:59.999999Z'));
    expect(value('TIMESTAMP_TO_TEXT', ts(253_402_300_799_999_999n))).toEqual(text('9999-12-31T23:59:59.999999Z'));
  });
  it('converts to and from Unix days and microseconds, throwing outside 0001-01-01..9999-12-31', () => {
    expect(value('DATE_TO_UNIX_DAYS', date(1970, 1, 2))).toEqual(i(1));
    expect(value('UNIX_DAYS_TO_DATE', i(-719_162))).toEqual(date(1, 1, 1));
    expect(arithmeticError('UNIX_DAYS_TO_DATE', i(-719_163))).toBe('ArithmeticError while evaluating (UNIX_DAYS_TO_DATE -719163).');
    expect(arithmeticError('UNIX_DAYS_TO_DATE', i(2_932_897))).toContain('UNIX_DAYS_TO_DATE');
    expect(value('TIMESTAMP_TO_UNIX_MICROSECONDS', ts(5n))).toEqual(i(5));
    expect(value('UNIX_MICROSECONDS_TO_TIMESTAMP', i(-62_135_596_800_000_000n))).toEqual(ts(-62_135_596_800_000_000n));
    expect(arithmeticError('UNIX_MICROSECONDS_TO_TIMESTAMP', i(253_402_300_800_000_000n))).toContain('UNIX_MICROSECONDS_TO_TIMESTAMP');
  });
});

describe('Generic comparison (daml-lf-2.rst "Generic comparison functions")', () => {
  const rec = (...fields: Value[]): Value => ({ kind: 'record', tycon: { packageId: 'p', module: 'M', name: 'R' }, fieldNames: fields.map((_, k) => `f${k}`), fields });
  const variant = (rank: number, v: Value): Value => ({ kind: 'variant', tycon: { packageId: 'p', module: 'M', name: 'V' }, constructor: `C${rank}`, rank, value: v });
  it('orders every comparable kind as the rules say', () => {
    expect(value('LESS_EQ', UNIT, UNIT)).toEqual(bool(true));
    expect(value('LESS', bool(false), bool(true))).toEqual(bool(true));
    expect(value('LESS', rec(i(1), i(9)), rec(i(2), i(0)))).toEqual(bool(true)); // EvLessEqRecord: field by field
    expect(value('LESS', variant(0, i(9)), variant(1, i(0)))).toEqual(bool(true)); // constructor rank first
    expect(value('LESS', variant(1, i(0)), variant(1, i(1)))).toEqual(bool(true));
    expect(value('LESS', NIL, listOf([i(0)]))).toEqual(bool(true)); // EvLessEqListNil
    expect(value('LESS', listOf([i(1)]), listOf([i(1), i(0)]))).toEqual(bool(true));
    expect(value('LESS', NONE, some(i(0)))).toEqual(bool(true)); // EvLessEqOptionNoneAny
    expect(value('GREATER', some(i(2)), some(i(1)))).toEqual(bool(true));
    expect(value('GREATER_EQ', n('1.0', 10), n('1.0', 10))).toEqual(bool(true));
    expect(value('EQUAL', listOf([i(1), i(2)]), listOf([i(1), i(2)]))).toEqual(bool(true));
    expect(value('EQUAL', listOf([i(1)]), listOf([i(1), i(2)]))).toEqual(bool(false));
  });
  it('orders Any by type first (TypeOrder...: Int64 < Text), then by value', () => {
    const int64T: Type = { kind: 'builtin', builtin: 'INT64', args: [] };
    const textT: Type = { kind: 'builtin', builtin: 'TEXT', args: [] };
    expect(value('LESS', { kind: 'any', type: textT, value: text('a') }, { kind: 'any', type: int64T, value: i(1) })).toEqual(bool(false));
    expect(value('LESS', { kind: 'any', type: int64T, value: i(2) }, { kind: 'any', type: int64T, value: i(3) })).toEqual(bool(true));
    expect(compareTypes({ kind: 'builtin', builtin: 'LIST', args: [int64T] }, { kind: 'builtin', builtin: 'LIST', args: [textT] })).toBeLessThan(0);
    expect(compareTypes({ kind: 'builtin', builtin: 'LIST', args: [] }, { kind: 'builtin', builtin: 'LIST', args: [int64T] })).toBeLessThan(0);
    expect(compareTypes({ kind: 'con', tycon: { packageId: 'a', module: 'M', name: 'T' }, args: [] }, { kind: 'nat', value: 0 })).toBeLessThan(0);
  });
  it('refuses to compare functions (EvLessEqAbs) and V1 ids whose order is not yet known', () => {
    const fn: Value = { kind: 'function', fn: {} };
    expect(call('EQUAL', fn, fn)).toEqual({ ok: false, failure: { kind: 'crash', message: 'Try to compare functions' } });
    const local = '00' + 'ab'.repeat(32);
    const r = call('LESS', { kind: 'contractId', value: local }, { kind: 'contractId', value: `${local}ca11ab1e` });
    expect(r.ok).toBe(false);
    expect(value('LESS', { kind: 'contractId', value: local }, { kind: 'contractId', value: '00' + 'ac'.repeat(32) })).toEqual(bool(true));
  });
  it('is a total order over random integers and texts (antisymmetric, transitive on a sample)', () => {
    const sample = [i(-3), i(0), i(7), i(MAX), i(MIN)];
    const sorted = [...sample].sort(compareValues);
    expect(sorted).toEqual([i(MIN), i(-3), i(0), i(7), i(MAX)]);
  });
});

describe('Map functions (daml-lf-2.rst "Text map functions", "Generic map functions": entries ordered by key)', () => {
  it('TextMap: insert replaces, keys come out sorted, lookup / delete / size / to_list', () => {
    let m = value('TEXTMAP_EMPTY');
    m = value('TEXTMAP_INSERT', text('b'), i(2), m);
    m = value('TEXTMAP_INSERT', text('a'), i(1), m);
    m = value('TEXTMAP_INSERT', text('b'), i(3), m);
    expect(value('TEXTMAP_SIZE', m)).toEqual(i(2));
    expect(value('TEXTMAP_LOOKUP', text('b'), m)).toEqual(some(i(3)));
    expect(value('TEXTMAP_LOOKUP', text('c'), m)).toEqual(NONE);
    const entries = items(value('TEXTMAP_TO_LIST', m)) as Value[];
    expect(entries.map((e) => (e.kind === 'struct' ? e.fields : []))).toEqual([[text('a'), i(1)], [text('b'), i(3)]]);
    expect(value('TEXTMAP_SIZE', value('TEXTMAP_DELETE', text('a'), m))).toEqual(i(1));
    expect(value('TEXTMAP_DELETE', text('zz'), m)).toBe(m);
  });
  it('GenMap: ordered by LESS on keys, EQUAL replaces, functions are invalid keys', () => {
    let m = value('GENMAP_EMPTY');
    for (const k of [3, 1, 2, 1]) m = value('GENMAP_INSERT', i(k), text(`v${k}`), m);
    expect(items(value('GENMAP_KEYS', m))).toEqual([i(1), i(2), i(3)]);
    expect(items(value('GENMAP_VALUES', m))).toEqual([text('v1'), text('v2'), text('v3')]);
    expect(value('GENMAP_LOOKUP', i(2), m)).toEqual(some(text('v2')));
    expect(value('GENMAP_SIZE', value('GENMAP_DELETE', i(2), m))).toEqual(i(2));
    expect(call('GENMAP_INSERT', { kind: 'function', fn: {} }, UNIT, m).ok).toBe(false);
  });
});

describe('Errors (daml-lf-2.rst "Error functions"; FAIL_WITH_STATUS)', () => {
  it('ERROR is an unrecoverable user error', () => {
    expect(call('ERROR', text('boom'))).toEqual({ ok: false, failure: { kind: 'error', message: 'boom' } });
  });
  it('FAIL_WITH_STATUS carries id, category, message and metadata', () => {
    const meta = value('TEXTMAP_INSERT', text('k'), text('v'), value('TEXTMAP_EMPTY'));
    expect(call('FAIL_WITH_STATUS', text('MY_ERROR'), { kind: 'failureCategory', category: 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER' }, text('nope'), meta))
      .toEqual({ ok: false, failure: { kind: 'failWithStatus', errorId: 'MY_ERROR', category: 'INVALID_GIVEN_CURRENT_SYSTEM_STATE_OTHER', message: 'nope', meta: [['k', 'v']] } });
  });
  it('a wrongly typed argument is a crash, never an exception', () => {
    expect(call('ADD_INT64', text('1'), i(1))).toMatchObject({ ok: false, failure: { kind: 'crash' } });
  });
});

describe('Cryptography functions (daml-lf-2.rst "Cryptography functions")', () => {
  it('KECCAK256_TEXT hashes hex input (Keccak padding, not SHA3)', () => {
    expect(Buffer.from(keccak256(new Uint8Array())).toString('hex')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(value('KECCAK256_TEXT', text(Buffer.from('abc').toString('hex')))).toEqual(text('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45'));
    expect(call('KECCAK256_TEXT', text('zz')).ok).toBe(false);
  });
  it('TEXT_TO_HEX / HEX_TO_TEXT / SHA256_HEX', () => {
    expect(value('TEXT_TO_HEX', text('hi'))).toEqual(text('6869'));
    expect(value('HEX_TO_TEXT', text('6869'))).toEqual(text('hi'));
    expect(value('SHA256_HEX', text('616263'))).toEqual(text('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'));
    expect(call('HEX_TO_TEXT', text('ABC')).ok).toBe(false);
  });
  it('SECP256K1_BOOL verifies a DER signature over the message with the SPKI key', async () => {
    const { generateKeyPairSync, sign } = await import('node:crypto');
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const message = Buffer.from('payload');
    const signature = sign('sha256', message, privateKey);
    const key = publicKey.export({ format: 'der', type: 'spki' }).toString('hex');
    expect(value('SECP256K1_BOOL', text(signature.toString('hex')), text(message.toString('hex')), text(key))).toEqual(bool(true));
    expect(value('SECP256K1_BOOL', text(signature.toString('hex')), text('00'), text(key))).toEqual(bool(false));
    expect(value('SECP256K1_VALIDATE_KEY', text(key))).toEqual(bool(true));
  });
});
