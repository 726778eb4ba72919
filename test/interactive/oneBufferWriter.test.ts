import { Value } from '@canton-network/core-ledger-proto';
import { BinaryWriter, WireType, type IBinaryWriter } from '@protobuf-ts/runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OneBufferWriter } from '../../reference-server/src/ledger/interactive/OneBufferWriter.js';

/**
 * The prepared transaction's writer (OneBufferWriter) writes what protobuf-ts's BinaryWriter
 * writes, byte for byte: over random sequences of every write a generated message makes, nested
 * messages of every size (a length of one byte and of several, so the bytes after it move), strings
 * of every UTF-8 width (lone surrogates included), and over random Daml values as protobuf messages.
 */

type Op =
  | { readonly k: 'uint32' | 'int32' | 'sint32' | 'fixed32' | 'sfixed32' | 'float' | 'double'; readonly v: number }
  | { readonly k: 'int64' | 'uint64' | 'sint64' | 'fixed64' | 'sfixed64'; readonly v: string | bigint | number }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'string'; readonly v: string }
  | { readonly k: 'bytes'; readonly v: Uint8Array }
  | { readonly k: 'tag'; readonly field: number; readonly wire: WireType }
  | { readonly k: 'message'; readonly ops: readonly Op[] };

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const text = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  // Long enough that the length takes two bytes, or more.
  fc.string({ minLength: 100, maxLength: 400 }),
  // Either side of a one-byte length: 126 and 129 bytes of three-byte characters, 127 and 128 of one-byte ones.
  fc.constantFrom('\ud800', 'a\udc00b', '\u{1f600}', 'é'.repeat(50), '€'.repeat(42), '€'.repeat(43), 'x'.repeat(127), 'x'.repeat(128), 'x'.repeat(20_000)),
);

const { ops } = fc.letrec<{ ops: Op[] }>((tie) => ({
  ops: fc.array(
    fc.oneof(
      { depthSize: 'small' },
      fc.record({ k: fc.constantFrom('uint32' as const, 'fixed32' as const), v: fc.nat({ max: 0xffffffff }) }),
      fc.record({ k: fc.constantFrom('int32' as const, 'sint32' as const, 'sfixed32' as const), v: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }),
      fc.record({ k: fc.constant('float' as const), v: fc.float({ noNaN: true }).map(Math.fround) }),
      fc.record({ k: fc.constant('double' as const), v: fc.double({ noNaN: true }) }),
      fc.record({ k: fc.constantFrom('int64' as const, 'sint64' as const, 'sfixed64' as const), v: fc.oneof(int64, int64.map(String), fc.integer()) }),
      fc.record({ k: fc.constantFrom('uint64' as const, 'fixed64' as const), v: fc.oneof(uint64, uint64.map(String), fc.nat()) }),
      fc.record({ k: fc.constant('bool' as const), v: fc.boolean() }),
      fc.record({ k: fc.constant('string' as const), v: text }),
      fc.record({ k: fc.constant('bytes' as const), v: fc.uint8Array({ maxLength: 300 }) }),
      fc.record({ k: fc.constant('tag' as const), field: fc.integer({ min: 1, max: 2 ** 29 - 1 }), wire: fc.constantFrom(WireType.Varint, WireType.Bit64, WireType.LengthDelimited, WireType.Bit32) }),
      fc.record({ k: fc.constant('message' as const), ops: tie('ops') }),
    ),
    { maxLength: 8 },
  ),
}));

function play(w: IBinaryWriter, list: readonly Op[]): void {
  for (const op of list) {
    switch (op.k) {
      case 'message':
        w.fork();
        play(w, op.ops);
        w.join();
        break;
      case 'tag':
        w.tag(op.field, op.wire);
        break;
      case 'uint32': case 'int32': case 'sint32': case 'fixed32': case 'sfixed32': case 'float': case 'double':
        w[op.k](op.v);
        break;
      case 'int64': case 'uint64': case 'sint64': case 'fixed64': case 'sfixed64':
        w[op.k](op.v);
        break;
      case 'bool':
        w.bool(op.v);
        break;
      case 'string':
        w.string(op.v);
        break;
      case 'bytes':
        w.bytes(op.v);
        break;
    }
  }
}

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const name = fc.stringMatching(/^[A-Z][a-z]{0,8}$/);
const { value } = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<Value>({ sum: { oneofKind: 'unit', unit: {} } }),
    int64.map((n): Value => ({ sum: { oneofKind: 'int64', int64: String(n) } })),
    text.map((t): Value => ({ sum: { oneofKind: 'text', text: t } })),
    fc.integer({ min: -700_000, max: 2_900_000 }).map((date): Value => ({ sum: { oneofKind: 'date', date } })),
    fc.option(tie('value'), { nil: undefined }).map((v): Value => ({ sum: { oneofKind: 'optional', optional: v === undefined ? {} : { value: v } } })),
    fc.array(tie('value'), { maxLength: 4 }).map((elements): Value => ({ sum: { oneofKind: 'list', list: { elements } } })),
    fc.array(fc.record({ label: name, value: tie('value') }), { maxLength: 4 }).map((fields): Value => ({
      sum: { oneofKind: 'record', record: { recordId: { packageId: 'a'.repeat(64), moduleName: 'Splice.Amulet', entityName: 'Amulet' }, fields } },
    })),
  ),
}));

describe('OneBufferWriter', () => {
  it('writes every sequence of writes as BinaryWriter does', () => {
    fc.assert(
      fc.property(ops, (list) => {
        const theirs = new BinaryWriter();
        const ours = new OneBufferWriter(16);
        play(theirs, list);
        play(ours, list);
        expect(hexOf(ours.finish())).toBe(hexOf(theirs.finish()));
      }),
      { numRuns: 400 },
    );
  });

  it('encodes Daml values as protobuf-ts does, and starts again empty after finish', () => {
    const ours = new OneBufferWriter(64);
    fc.assert(
      fc.property(value, (v) => {
        expect(hexOf(Value.toBinary(v, { writerFactory: () => ours }))).toBe(hexOf(Value.toBinary(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a join without a fork and a finish with a fork open, as BinaryWriter refuses the first', () => {
    expect(() => new BinaryWriter().join()).toThrow(/fork stack empty/);
    expect(() => new OneBufferWriter().join()).toThrow(/fork stack empty/);
    expect(() => new OneBufferWriter().fork().finish()).toThrow(/not joined/);
  });

  it('refuses what BinaryWriter refuses: numbers out of range for their type', () => {
    for (const [write, v] of [['uint32', -1], ['uint32', 2 ** 32], ['int32', 2 ** 31], ['int32', 1.5], ['fixed32', -1], ['float', 2 ** 200]] as const) {
      expect(() => new BinaryWriter()[write](v)).toThrow();
      expect(() => new OneBufferWriter()[write](v)).toThrow();
    }
  });
});
