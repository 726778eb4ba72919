import { createHash } from 'node:crypto';
import { TopologyTransaction } from '@canton-network/core-ledger-proto';
import { BinaryReader, WireType } from '@protobuf-ts/runtime';

/**
 * The suite's own oracle for Canton's topology hashes, written from Canton's definition (not the
 * reference server's code): SHA-256 over a 4-byte big-endian hash purpose and the content, as a
 * multihash (0x12 0x20 + digest). A transaction's hash has purpose 11 over its serialised bytes;
 * the multiHash has purpose 55 over the count of distinct hashes and each, sorted, length-prefixed.
 */
export const TOPOLOGY_TRANSACTION_PURPOSE = 11;
export const MULTI_TOPOLOGY_TRANSACTION_PURPOSE = 55;

const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

export function cantonHash(purpose: number, ...parts: readonly Uint8Array[]): Buffer {
  const h = createHash('sha256').update(int32(purpose));
  for (const p of parts) h.update(p);
  return Buffer.concat([Buffer.of(0x12, 0x20), h.digest()]);
}

export function multiHashOf(hashes: readonly Buffer[]): Buffer {
  const distinct = [...new Map(hashes.map((h) => [h.toString('hex'), h])).values()].sort(Buffer.compare);
  return cantonHash(MULTI_TOPOLOGY_TRANSACTION_PURPOSE, int32(distinct.length), ...distinct.flatMap((h) => [int32(h.length), h]));
}

/**
 * Reads a topology transaction as Canton serialises it: `UntypedVersionedMessage { bytes data = 1;
 * int32 version = 2 }` (proto version 30) around a v30 `TopologyTransaction`. Answers the kind of
 * mapping (and its party, for a party-to-participant mapping), or why it cannot be read.
 */
export function decodeTopologyTransaction(bytes: Uint8Array): { mapping: string; party?: string } | string {
  let data: Uint8Array | undefined;
  let version = 0;
  try {
    const r = new BinaryReader(bytes);
    while (r.pos < r.len) {
      const [no, type] = r.tag();
      if (no === 1 && type === WireType.LengthDelimited) data = r.bytes();
      else if (no === 2 && type === WireType.Varint) version = r.int32();
      else r.skip(type);
    }
  } catch (e) {
    return `not a versioned message (${(e as Error).message})`;
  }
  if (data === undefined) return 'not a versioned message (no data field)';
  if (version !== 30) return `proto version ${version}, expected 30`;
  try {
    const m = TopologyTransaction.fromBinary(data).mapping?.mapping;
    if (m === undefined || m.oneofKind === undefined) return 'a TopologyTransaction without a mapping';
    return m.oneofKind === 'partyToParticipant' ? { mapping: m.oneofKind, party: m.partyToParticipant.party } : { mapping: m.oneofKind };
  } catch (e) {
    return `not a v30 TopologyTransaction (${(e as Error).message})`;
  }
}
