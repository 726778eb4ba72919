// Node seeds and V1 contract ids as contract-id.rst derives them, in the hash builder's byte layout.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deriveContractDiscriminator, deriveNodeSeed, deriveTransactionSeed, localContractIdV1, toHex,
} from '../../reference-server/src/daml/update/seeds.js';

const hmac = (key: Uint8Array, ...parts: Buffer[]): Buffer => createHmac('sha256', key).update(Buffer.concat(parts)).digest();
const int32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
const int64 = (n: bigint): Buffer => { const b = Buffer.alloc(8); b.writeBigInt64BE(n); return b; };
const str = (s: string): Buffer => Buffer.concat([int32(Buffer.byteLength(s)), Buffer.from(s)]);

const submissionSeed = new Uint8Array(32).fill(7);
const time = 1_700_000_000_000_000n;

describe('seeds and contract ids (contract-id.rst)', () => {
  it('derives the transaction seed from the participant id (length-prefixed) and the preparation time', () => {
    expect(toHex(deriveTransactionSeed(submissionSeed, 'participant1::1220ab', time)))
      .toBe(hmac(submissionSeed, str('participant1::1220ab'), int64(time)).toString('hex'));
  });
  it('derives node seeds by index, root nodes from the transaction seed, children from their exercise', () => {
    const tx = deriveTransactionSeed(submissionSeed, 'p', time);
    const root1 = deriveNodeSeed(tx, 1);
    expect(toHex(root1)).toBe(hmac(tx, int32(1)).toString('hex'));
    expect(toHex(deriveNodeSeed(root1, 0))).not.toBe(toHex(deriveNodeSeed(tx, 0)));
  });
  it('derives the discriminator from the time and the sorted, de-duplicated stakeholders', () => {
    const node = deriveNodeSeed(deriveTransactionSeed(submissionSeed, 'p', time), 0);
    const d = deriveContractDiscriminator(node, time, ['bob::1220', 'alice::1220', 'bob::1220']);
    expect(toHex(d)).toBe(hmac(node, int64(time), int32(2), str('alice::1220'), str('bob::1220')).toString('hex'));
    const cid = localContractIdV1(d);
    expect(cid).toMatch(/^00[0-9a-f]{64}$/);
    // Another preparation time or another stakeholder set gives another id (freshness).
    expect(localContractIdV1(deriveContractDiscriminator(node, time + 1n, ['alice::1220', 'bob::1220']))).not.toBe(cid);
    expect(localContractIdV1(deriveContractDiscriminator(node, time, ['alice::1220']))).not.toBe(cid);
  });
});
