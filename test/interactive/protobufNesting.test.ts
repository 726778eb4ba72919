import { describe, expect, it } from 'vitest';
import { PreparedTransaction, type Value } from '@canton-network/core-ledger-proto';
import type { IMessageType } from '@protobuf-ts/runtime';
import { MAX_VALUE_DEPTH } from '../../reference-server/src/ledger/interactive/damlValueProto.js';
import { decodePreparedTransaction } from '../../reference-server/src/ledger/interactive/index.js';
import { PROTOBUF_NESTING_LIMIT } from '../../reference-server/src/ledger/interactive/preparedTransaction.js';
import { protobufNesting } from '../../reference-server/src/ledger/interactive/protobufNesting.js';

type Type = IMessageType<object>;
/** A message field of `type` by its protobuf name: its number and message type. */
function field(type: Type, name: string): { no: number; T: Type } {
  const f = type.fields.find((x) => x.name === name);
  if (f?.kind !== 'message') throw new Error(`${type.typeName} has no message field ${name}`);
  return { no: f.no, T: f.T() as Type };
}
const varintLength = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

/**
 * The wire bytes of `fieldNos` nested in order (each a length-delimited field holding the next),
 * written without recursion: sizes inside out, then bytes outside in.
 */
function nested(fieldNos: readonly number[]): Uint8Array {
  const sizes: number[] = new Array(fieldNos.length + 1).fill(0);
  for (let i = fieldNos.length - 1; i >= 0; i--) {
    const inner = sizes[i + 1] as number;
    sizes[i] = varintLength((fieldNos[i] as number) * 8 + 2) + varintLength(inner) + inner;
  }
  const out = new Uint8Array(sizes[0] as number);
  let at = 0;
  for (let i = 0; i < fieldNos.length; i++) {
    at = writeVarint(out, at, (fieldNos[i] as number) * 8 + 2);
    at = writeVarint(out, at, sizes[i + 1] as number);
  }
  return out;
}

/** The field numbers from a PreparedTransaction down to a create node's argument (a Value). */
function toCreateArgument(): { nos: number[]; value: Type } {
  const nos: number[] = [];
  let t = PreparedTransaction as unknown as Type;
  for (const name of ['transaction', 'nodes', 'v1', 'create', 'argument']) {
    const f = field(t, name);
    nos.push(f.no);
    t = f.T;
  }
  return { nos, value: t };
}

describe('a prepared transaction nested beyond the protobuf recursion limit', () => {
  it('is refused with that reason, never a stack overflow in the cause', () => {
    const { nos, value } = toCreateArgument();
    const list = field(value, 'list');
    const elements = field(list.T, 'elements');
    // 50,000 lists in lists: 100,000 messages deep.
    const chain = [...nos, ...Array.from({ length: 50_000 }, () => [list.no, elements.no]).flat()];
    const encoded = Buffer.from(nested(chain)).toString('base64');
    const r = decodePreparedTransaction(encoded);
    expect(r).toEqual({ ok: false, reason: `its messages nest deeper than ${PROTOBUF_NESTING_LIMIT} levels (the protobuf recursion limit)` });
  });

  it('leaves room for every value the ledger accepts: records nested MAX_VALUE_DEPTH deep', () => {
    let v: Value = { sum: { oneofKind: 'unit', unit: {} } };
    for (let i = 0; i < MAX_VALUE_DEPTH; i++) v = { sum: { oneofKind: 'record', record: { fields: [{ label: 'x', value: v }] } } };
    const p: PreparedTransaction = {
      transaction: {
        version: '2.1',
        roots: ['0'],
        nodes: [{ nodeId: '0', versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'create', create: { lfVersion: '2.1', contractId: '00aa', packageName: 'p', templateId: { packageId: 'p', moduleName: 'M', entityName: 'T' }, argument: v, signatories: ['a::1220aa'], stakeholders: ['a::1220aa'] } } } } }],
        nodeSeeds: [],
      },
    };
    const bytes = PreparedTransaction.toBinary(p);
    expect(protobufNesting(bytes, PreparedTransaction as unknown as Type, PROTOBUF_NESTING_LIMIT)).toEqual({ kind: 'within' });
    // One level more than the limit allows is refused, one less is not.
    const { nos, value } = toCreateArgument();
    const list = field(value, 'list');
    const elements = field(list.T, 'elements');
    const deep = (pairs: number) => nested([...nos, ...Array.from({ length: pairs }, () => [list.no, elements.no]).flat()]);
    // nos.length messages down to the argument, then a List and a Value per pair.
    const under = Math.floor((PROTOBUF_NESTING_LIMIT - nos.length) / 2);
    expect(protobufNesting(deep(under), PreparedTransaction as unknown as Type, PROTOBUF_NESTING_LIMIT)).toEqual({ kind: 'within' });
    expect(protobufNesting(deep(under + 1), PreparedTransaction as unknown as Type, PROTOBUF_NESTING_LIMIT)).toEqual({ kind: 'too-deep', limit: PROTOBUF_NESTING_LIMIT });
  });

  it('says malformed for bytes that are not protobuf, leaving the decoder to name the fault', () => {
    expect(protobufNesting(Uint8Array.of(0x0a, 0x05, 0x01), PreparedTransaction as unknown as Type, 10)).toEqual({ kind: 'malformed' });
    expect(protobufNesting(Uint8Array.of(0x0b), PreparedTransaction as unknown as Type, 10)).toEqual({ kind: 'malformed' });
  });
});
